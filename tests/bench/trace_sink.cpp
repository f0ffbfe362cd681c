#include "trace_sink.h"

namespace stackline::bench {

std::string br(bool pretty, int indent) {
    if (!pretty) return " ";
    std::string out = "\n";  // appended to (GCC 12's -Wrestrict false positive on "\n" + string)
    return out.append(size_t(indent), ' ');
}

std::string jsonQuote(std::string_view s) {
    std::string out = "\"";
    for (char c : s) {
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            default:
                out += c;
        }
    }
    return out + '"';
}

std::string jsonList(const std::vector<std::string>& items) {
    std::string out = "[";
    for (const std::string& item : items) out += (out.size() > 1 ? ", " : "") + jsonQuote(item);
    return out + "]";
}

}  // namespace stackline::bench
