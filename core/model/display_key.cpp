#include "model/display_key.h"

namespace stackline {

namespace {

bool isDecimal(std::string_view s) {
    size_t i = !s.empty() && s[0] == '-' ? 1 : 0;
    if (i >= s.size() || s.size() - i > 18) return false;
    for (; i < s.size(); ++i)
        if (s[i] < '0' || s[i] > '9') return false;
    return true;
}

}  // namespace

DisplayKey displayKey(const KeyPool& keys, KeyId id) {
    DisplayKey k;
    if (auto v = keys.asInt(id)) {
        k.value = *v;
    } else if (auto s = keys.asString(id); s && isDecimal(*s)) {
        k.value = std::stoll(std::string(*s));
    } else {
        k.isInt = false;
        k.text = s ? std::string(*s) : keys.describe(id);
    }
    return k;
}

}  // namespace stackline
