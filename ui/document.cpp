#include "document.h"

using namespace stackline;

QString Document::name(uint32_t row) const {
    return QString::fromUtf8(events().nameOf(row).data(), qsizetype(events().nameOf(row).size()));
}

uint32_t Document::compiledRegionFor(uint32_t row) const {
    const uint32_t launch = isKernel(row) ? launchOf(row) : row;
    if (launch == kNoRow) return kNoRow;
    return compiledRegionOf(events(), tracks, launch);
}

std::string Document::graphKeyOf(uint32_t row) const {
    if (kernelInfo.empty() || !isKernel(row)) return {};
    const std::string_view name = events().nameOf(row);
    const uint32_t id = provenance.stack[row];
    OrderedJson stack;
    if (id != 0) stack = OrderedJson::parse(provenance.stacks.json(id), nullptr, false);
    std::string first;
    for (const std::string& key : kernelInfo.graphKeys()) {
        const OrderedJson* e = kernelInfo.kernelEntry(key, name);
        if (!e) continue;
        if (first.empty()) first = key;
        if (id != 0 && e->is_object()) {
            auto it = e->find("stack_traces");
            if (it != e->end() && *it == stack) return key;
        }
    }
    return first;
}

QString statusText(KernelStatus status) {
    switch (status) {
        case KernelStatus::Annotated:
            return QStringLiteral("annotated");
        case KernelStatus::Unresolved:
            return QStringLiteral("unresolved");
        case KernelStatus::Outside:
            break;
    }
    return QStringLiteral("outside compiled regions");
}
