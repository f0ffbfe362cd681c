// How the user arranged the timeline's tracks: pinned to the top, hidden, reordered, depth-limited,
// collapsed. Tracks and processes are named by keys that stay the same across the traces of one
// folder (a re-run records other pids and tids, not other devices, streams or thread names), so
// the arrangement is remembered per trace folder and applies to the next trace recorded there.
// Keys of tracks a trace lacks are kept, so opening it does not forget them.
#pragma once

#include <QMap>
#include <QString>
#include <QStringList>
#include <vector>

#include "model/track_index.h"

struct TrackLayout {
    // CPU threads show this many slice levels until expanded; deeper ones are summarised in one
    // row. Python stacks (with_stack=True) are 20-40 levels deep.
    static constexpr int kDefaultDepth = 8;
    static constexpr int kAllLevels = 0;

    QStringList processOrder;               // process keys, top first
    QMap<QString, QStringList> trackOrder;  // per process key: its track keys, top first
    QStringList pinned;                     // track keys shown above every process, top first
    QStringList hidden;                     // track keys
    QStringList collapsed;                  // process keys
    QMap<QString, int> depth;               // levels shown per track key, or kAllLevels

    bool operator==(const TrackLayout&) const = default;

    // The layout remembered for traces in this folder (the default one when none is).
    static TrackLayout load(const QString& traceFolder);
    // Remembers it for this folder (forgets the entry when it is the default).
    void save(const QString& traceFolder) const;
};

// Stable keys of a trace's processes and tracks, by index. GPU processes by device ("GPU 0"), CPU
// processes by name; GPU tracks by stream, CPU threads by name with the tid left out (the main
// thread is "main"); a repeated key gets "~2", "~3", ... in display order.
struct TrackKeys {
    std::vector<QString> process, track;

    static TrackKeys of(const stackline::TrackIndex& tracks);
};
