// The Kineto category of each event, looked up once per distinct category string: a trace has a
// few dozen categories and millions of events.
#pragma once

#include <cstdint>
#include <vector>

#include "model/event_table.h"
#include "model/kineto.h"

namespace stackline {

class EventCategories {
public:
    explicit EventCategories(const EventTable& events);

    kineto::Category of(uint32_t row) const {
        return events_->kinds[row].cat == ValueKind::String ? byString_[events_->cat[row]]
                                                            : kineto::Category::Other;
    }
    bool isGpuKernel(uint32_t row) const { return of(row) == kineto::Category::Kernel; }

private:
    const EventTable* events_;
    std::vector<kineto::Category> byString_;  // by StringPool id; only category ids are set
};

}  // namespace stackline
