// Python stacks recorded with the runtime calls that launched GPU work, for traces that carry
// them beside the calls instead of as python_function slices (Nsight Systems exports made with
// --python-backtrace=cuda). Only the calls that have one cost anything: a row and a stack id each;
// the calls with the same stack share it. Frames are names in the trace's string pool, formed as
// Kineto names a python_function slice ("file.py(12): forward", or a built-in's own name), so the
// eager-stack analysis reads them as it reads those slices. Not synthetic python_function slices:
// those would be rows (every column of the event table) per frame per call, 10-30 frames a call,
// and would change the timeline's and summary's events.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "base/sparse_column.h"

namespace stackline {

class LaunchStacks {
public:
    bool empty() const { return stackOf_.size() == 0; }
    // Adds a stack (frame names innermost first) and returns its id (from 1).
    uint32_t addStack(std::span<const uint32_t> names) {
        frameNames_.insert(frameNames_.end(), names.begin(), names.end());
        frameStart_.push_back(uint32_t(frameNames_.size()));
        return uint32_t(frameStart_.size() - 1);
    }
    // Rows in ascending order.
    void setStack(uint32_t row, uint32_t stack) { stackOf_.push(row, stack); }
    // The stack id of a call row: 0 when it has none.
    uint32_t stackOf(uint32_t row) const { return stackOf_.at(row, 0); }
    // A stack's frame names, innermost first.
    std::span<const uint32_t> frames(uint32_t stack) const {
        if (stack == 0 || stack >= frameStart_.size()) return {};
        return std::span<const uint32_t>(frameNames_)
            .subspan(frameStart_[stack - 1], frameStart_[stack] - frameStart_[stack - 1]);
    }
    // f(row, stack) for each call with a stack, rows ascending.
    template <class F>
    void forEachCall(F f) const {
        for (std::size_t i = 0; i < stackOf_.size(); ++i) f(stackOf_.row(i), stackOf_.value(i));
    }

private:
    SparseColumn<uint32_t> stackOf_;
    std::vector<uint32_t> frameStart_{0};  // stack id - 1 -> first index into frameNames_
    std::vector<uint32_t> frameNames_;
};

}  // namespace stackline
