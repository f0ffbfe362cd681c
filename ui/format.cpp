#include "format.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

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
