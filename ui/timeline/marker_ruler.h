// Markers (flags the user drops with M) on the timeline: a vertical line over the tracks, a flag
// in the ruler, and the time between consecutive markers written in the ruler between them.
#pragma once

#include <QPainter>
#include <QString>
#include <cstdint>
#include <vector>

struct TimelineGeometry;

// The interval between two consecutive markers and how the ruler labels it.
struct MarkerGap {
    int64_t from = 0, to = 0;
    QString label;
};

// The gaps between consecutive markers (sorted times), in order.
std::vector<MarkerGap> markerGaps(const std::vector<int64_t>& markers);

// Lines over the plot area (below the ruler, down to height), flags and gap labels in the ruler.
void paintMarkers(QPainter& p, const TimelineGeometry& g, const std::vector<int64_t>& markers,
                  int height);
