// Python 3.11's code point classes (Unicode 14), for the parts of the reference that depend on
// them: the regex classes \w and \s, str.strip/isspace, str.isprintable (repr) and int() digits;
// and UTF-8 as Python's surrogateescape reads and writes it.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace stackline::unicode {

bool isWord(char32_t c);       // regex \w: str.isalnum() or '_'
bool isSpace(char32_t c);      // str.isspace(), regex \s
bool isPrintable(char32_t c);  // str.isprintable()
int decimalValue(char32_t c);  // int() digit value, or -1

// Decodes one code point at s[i] and advances i. Invalid UTF-8 yields the byte itself as a code
// point in U+DC80..U+DCFF (Python's surrogateescape), so no input is ever rejected here.
char32_t decodeUtf8(std::string_view s, std::size_t& i);
void appendUtf8(std::string& out, char32_t c);

}  // namespace stackline::unicode
