// Python stacks of eager GPU kernels, read from the trace itself (recorded with with_stack=True):
// a kernel outside compiled regions was launched by a runtime call that runs inside the
// python_function slices of its CPU thread; those slices, innermost first, are its stack. A
// backward kernel, whose autograd thread has no python_function slices, takes the stack of its
// forward op. Where the trace recorded a stack with the launch itself (Trace::launchStacks, from
// Nsight's --python-backtrace), that stack is the kernel's; a backward kernel's is the one
// recorded with the first call inside its forward op. This is Stackline's own view, shown and
// counted apart from the provenance processor's args.stack: the exported trace never carries it.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "annotate/provenance.h"
#include "base/sparse_column.h"
#include "model/flow_index.h"
#include "model/trace.h"
#include "model/track_index.h"
#include "python/source_frames.h"

namespace stackline {

enum class EagerOrigin : uint8_t {
    None,
    Launch,   // the python_function slices around the kernel's own launch
    Forward,  // a backward kernel: the stack of its forward op
};

class EagerStacks {
public:
    static EagerStacks build(const Trace& trace, const Provenance& provenance,
                             const TrackIndex& tracks, const FlowIndex& flows);

    // The interned stack of a kernel row: 0 when it has none. Kernels with the same stack share
    // the id.
    uint32_t stackOf(uint32_t row) const;
    // The frame names (string pool ids, python_function slice names) of a stack id, innermost
    // first.
    std::span<const uint32_t> frames(uint32_t stack) const;
    EagerOrigin origin(uint32_t row) const;
    // Kernels with an eager stack.
    uint64_t count() const { return count_; }

private:
    // By kernel row, for the kernels that have one (a column over every event would cost 5
    // bytes an event for the few eager kernels).
    struct Found {
        uint32_t stack = 0;
        EagerOrigin origin = EagerOrigin::None;
    };
    SparseColumn<Found> found_;
    std::vector<uint32_t> frameStart_{0, 0};  // stack id -> first index into frameNames_
    std::vector<uint32_t> frameNames_;
    uint64_t count_ = 0;
};

// A python_function slice's name ("transformers/models/clip/modeling_clip.py(300): forward") as
// a source frame; the name itself (line 0) when it has another form. Eager frames carry no code.
SourceFrame pythonFunctionFrame(std::string_view name);

}  // namespace stackline
