#include "model/event_categories.h"

namespace stackline {

EventCategories::EventCategories(const EventTable& events)
    : events_(&events), byString_(events.strings.size(), kineto::Category::Other) {
    std::vector<uint8_t> seen(events.strings.size());
    for (uint32_t row = 0, n = events.size(); row < n; ++row) {
        if (events.kinds[row].cat != ValueKind::String) continue;
        const uint32_t id = events.cat[row];
        if (seen[id]) continue;
        seen[id] = 1;
        byString_[id] = kineto::categoryOf(events.strings.at(id));
    }
}

}  // namespace stackline
