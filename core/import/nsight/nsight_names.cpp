#include "import/nsight/nsight_names.h"

#include <array>
#include <charconv>

namespace stackline::nsight {

namespace {

std::optional<int64_t> numberAfter(std::string_view name, std::string_view key) {
    const size_t at = name.find(key);
    if (at == std::string_view::npos) return std::nullopt;
    const char* begin = name.data() + at + key.size();
    int64_t v = 0;
    auto [end, ec] = std::from_chars(begin, name.data() + name.size(), v);
    if (ec != std::errc() || end == begin) return std::nullopt;
    return v;
}

std::string_view memoryKindLabel(int64_t kind) {
    constexpr std::array<std::string_view, 8> labels = {
        "Pageable", "Pinned",        "Device",         "Array",
        "Managed",  "Device Static", "Managed Static", "Unknown"};
    return kind >= 0 && kind < int64_t(labels.size()) ? labels[size_t(kind)] : "Unknown";
}

}  // namespace

NvtxName parseNvtxName(std::string_view name) {
    NvtxName n;
    n.sequence = numberAfter(name, ", seq = ");
    n.opId = numberAfter(name, ", op_id = ");
    size_t cut = name.size();
    for (std::string_view key : {", seq = ", ", op_id = ", ", sizes = "})
        cut = std::min(cut, name.find(key));
    n.plain = name.substr(0, cut);
    return n;
}

std::string_view withoutVersionSuffix(std::string_view name) {
    const size_t v = name.rfind("_v");
    if (v == std::string_view::npos || name.size() - v < 6) return name;
    for (size_t i = v + 2; i < name.size(); ++i)
        if (name[i] < '0' || name[i] > '9') return name;
    return name.substr(0, v);
}

std::string memcpyName(int64_t copyKind, int64_t srcKind, int64_t dstKind) {
    constexpr std::array<std::string_view, 14> kinds = {"Unknown", "HtoD", "DtoH", "HtoA", "AtoH",
                                                        "AtoA",    "AtoD", "DtoA", "DtoD", "HtoH",
                                                        "PtoP",    "HtoD", "DtoH", "DtoD"};
    const std::string_view kind =
        copyKind >= 0 && copyKind < int64_t(kinds.size()) ? kinds[size_t(copyKind)] : "Unknown";
    return "Memcpy " + std::string(kind) + " (" + std::string(memoryKindLabel(srcKind)) + " -> " +
           std::string(memoryKindLabel(dstKind)) + ")";
}

std::string memsetName(int64_t memKind) {
    return "Memset (" + std::string(memoryKindLabel(memKind)) + ")";
}

std::string_view syncName(int64_t syncType) {
    switch (syncType) {
        case 1:
            return "Event Sync";
        case 2:
            return "Stream Wait Event";
        case 3:
            return "Stream Sync";
        case 4:
            return "Context Sync";
        default:
            return "Unknown Sync";
    }
}

}  // namespace stackline::nsight
