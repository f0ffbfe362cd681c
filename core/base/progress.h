// How long-running core work (reading a trace, the load pipeline's stages, the viewer's jobs)
// tells how far it is and learns that it should stop. One interface for the CLI, the viewer and
// the tests.
#pragma once

#include <atomic>
#include <cstdint>

#include "base/errors.h"  // Cancelled

namespace stackline {

class Progress {
public:
    virtual ~Progress() = default;
    // done of total bytes of the work in hand, never decreasing within it; called on the working
    // thread, often: keep it cheap.
    virtual void progress(uint64_t /*done*/, uint64_t /*total*/) {}

    // Set from any thread; the work stops at its next check by throwing Cancelled.
    std::atomic<bool> cancel{false};
    bool cancelled() const { return cancel.load(std::memory_order_relaxed); }
    void throwIfCancelled() const {
        if (cancelled()) throw Cancelled{};
    }
};

}  // namespace stackline
