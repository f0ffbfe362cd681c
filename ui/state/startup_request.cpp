#include "state/startup_request.h"

#include "analysis/range_option.h"
#include "state/viewer_state.h"
#include "state/zoom_control.h"

void applyStartupView(ViewerState& state, const StartupRequest& view) {
    const auto doc = state.current();
    if (!doc) return;
    const int64_t origin = doc->originNs;
    if (view.range) {
        const stackline::TimeRange range = stackline::fromOrigin(*view.range, origin);
        state.setSelectedRange(RangeSelection{range, {}});
        state.zoom()->setWindow(range.start, range.end);
    }
    for (const int64_t marker : view.markers) state.addMarker(origin + marker);
}
