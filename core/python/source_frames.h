// Python stack strings as Inductor records them (traceback format, most recent call last):
//   File "/home/alice/proj/model.py", line 42, in forward
//     x = self.fc1(x)
// Also the short "model.py:7 in forward" form of PyTorch's tests, and strings whose line breaks
// were escaped twice (a backslash and an 'n'). Anything else yields no frames.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace stackline {

struct SourceFrame {
    std::string file;
    int line = 0;
    std::string function;
    std::string code;  // the source line when the string carries it
};

// Frames of one stack string, outermost first (innermost last).
std::vector<SourceFrame> parseStackString(std::string_view text);

// The strings of a stack value (usually a JSON list of strings; a string is one entry).
std::vector<std::string> stackStrings(const std::string& stackJson);

}  // namespace stackline
