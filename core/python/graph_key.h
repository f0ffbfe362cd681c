// Graph keys of the kernel information are Python tuple reprs, "('Torch-Compiled Region: 0/0',
// False)". The reference parses them with ast.literal_eval and keeps those that are a (str, bool)
// pair; this is that parse for the forms literal_eval accepts: both quote styles, escapes, raw and
// u prefixes, triple quotes, implicit concatenation, nested parentheses and free whitespace.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace stackline {

struct GraphKey {
    std::string name;  // UTF-8
    bool backward = false;
};

// literal_eval's outcome: a (str, bool) key, any other value or a caught error (SyntaxError,
// ValueError: the key is ignored), or an error the reference does not catch (TypeError from an
// unhashable set element or dict key, as in "{[]: 1}").
enum class GraphKeyParse { Key, NotAKey, Raises };

std::optional<GraphKey> parseGraphKey(std::string_view text, GraphKeyParse* outcome = nullptr);

}  // namespace stackline
