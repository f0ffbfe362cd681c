// The context menu of the timeline's headers (a track's label in the gutter, a process header):
// pin to top, hide, move up/down, show all levels or limit them, show hidden tracks, reset. The
// actions change the track model; the view relayouts and remembers the layout.
#pragma once

#include <QMenu>
#include <functional>

#include "timeline/track_model.h"

// Adds the actions for display row `row` of the model to menu; each calls changed() after changing
// the model. `dialogParent` parents the hidden-tracks dialog.
void addHeaderActions(QMenu& menu, TrackModel& model, size_t row,
                      const std::function<void()>& changed, QWidget* dialogParent);

// Lists the hidden tracks, each with a check box; the checked ones are shown again. True when any
// was.
bool showHiddenTracksDialog(TrackModel& model, QWidget* parent);
