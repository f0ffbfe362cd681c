#include "widgets/time_text.h"

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
    // Three decimals at most, as Kineto writes µs; none when they are all zero (traces in whole
    // microseconds), so that "12 µs" does not read as "12.000 µs".
    const int decimals = std::fabs(v) >= 100 ? 1 : 3;
    QString number = QString::number(v, 'f', decimals);
    if (number.endsWith(QLatin1String(decimals == 1 ? ".0" : ".000"))) number.chop(decimals + 1);
    return QStringLiteral("%1 %2").arg(number, QString::fromUtf8(u.name));
}

QString formatMicroseconds(double us) {
    return formatDuration(std::llround(us * 1000));
}

QString formatTick(int64_t ns, int64_t step, int64_t magnitude) {
    const Unit& u = unitFor(std::max<int64_t>({1, step, std::llabs(magnitude)}));
    // Enough decimals that neighbouring ticks differ.
    int decimals = 0;
    for (int64_t s = u.ns; s > std::max<int64_t>(1, step) && decimals < 9; s /= 10) ++decimals;
    const double v = double(ns) / double(u.ns);
    return QStringLiteral("%1 %2").arg(v, 0, 'f', decimals).arg(QString::fromUtf8(u.name));
}
