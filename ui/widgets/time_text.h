// Times as the viewer writes them.
#pragma once

#include <QString>
#include <cstdint>

// "1.760 µs", "12.500 ms", "250.5 ms", "3 s": a duration in the unit that suits it, with three
// decimals (one from 100 on), none when they are all zero.
QString formatDuration(int64_t ns);
// The same for a time in (fractional) microseconds, as core's hotspots count.
QString formatMicroseconds(double us);
// A tick on an axis whose ticks are step apart and reach about magnitude: one unit for the whole
// axis, with the decimals step needs ("354.9 ms").
QString formatTick(int64_t ns, int64_t step, int64_t magnitude);
