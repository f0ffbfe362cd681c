// Times as the viewer writes them.
#pragma once

#include <QString>
#include <cstdint>

// "1.760 µs", "12.5 ms": a duration in the unit that suits it.
QString formatDuration(int64_t ns);
// A tick on an axis whose ticks are step apart and reach about magnitude: one unit for the whole
// axis, with the decimals step needs ("354.9 ms").
QString formatTick(int64_t ns, int64_t step, int64_t magnitude);
