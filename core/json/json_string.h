// Writing JSON text without building a DOM (the Chrome JSON export writes millions of values):
// each value appended exactly as nlohmann's dump(-1, ' ', false, replace) writes it, so that a
// fast path and a dumped DOM give the same bytes.
#pragma once

#include <string>
#include <string_view>

namespace stackline::json {

// s as a JSON string literal; invalid UTF-8 becomes U+FFFD.
void appendString(std::string& out, std::string_view s);
// A double as nlohmann writes it (the shortest digits that read back, "1.0" for integers).
void appendDouble(std::string& out, double v);

}  // namespace stackline::json
