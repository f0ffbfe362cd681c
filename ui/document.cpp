#include "document.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

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

namespace {

struct Unit {
    int64_t ns;
    const char* name;
};
constexpr Unit kUnits[] = {{1'000'000'000, "s"}, {1'000'000, "ms"}, {1'000, "µs"}, {1, "ns"}};

const Unit& unitFor(int64_t ns) {
    for (const Unit& u : kUnits)
        if (std::llabs(ns) >= u.ns) return u;
    return kUnits[3];
}

}  // namespace

QString formatDuration(int64_t ns) {
    const Unit& u = unitFor(ns);
    if (u.ns == 1) return QStringLiteral("%1 ns").arg(ns);
    const double v = double(ns) / double(u.ns);
    // Three significant decimals at most, as Kineto writes µs.
    const int decimals = std::fabs(v) >= 100 ? 1 : 3;
    return QStringLiteral("%1 %2").arg(v, 0, 'f', decimals).arg(QString::fromUtf8(u.name));
}

QString formatTick(int64_t ns, int64_t step, int64_t magnitude) {
    const Unit& u = unitFor(std::max<int64_t>({1, step, std::llabs(magnitude)}));
    // Enough decimals that neighbouring ticks differ.
    int decimals = 0;
    for (int64_t s = u.ns; s > std::max<int64_t>(1, step) && decimals < 9; s /= 10) ++decimals;
    const double v = double(ns) / double(u.ns);
    return QStringLiteral("%1 %2").arg(v, 0, 'f', decimals).arg(QString::fromUtf8(u.name));
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
