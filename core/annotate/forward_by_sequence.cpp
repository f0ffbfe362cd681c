#include "annotate/forward_by_sequence.h"

#include "model/kineto.h"

namespace stackline {

namespace {

constexpr std::string_view kFwdThreadIdArg = "Fwd thread id";

}  // namespace

ForwardBySequence::ForwardBySequence(const Trace& trace) : trace_(trace) {
    const EventTable& t = trace.events;
    trace.forEachRowThatMayHold(kineto::kSequenceNumberArg, [&](uint32_t row) {
        if (t.phase[row] != 'X' || !kineto::isOneOf(t.catOf(row), kineto::kCpuOpCategories)) return;
        const EventArgs args = trace.args(row);
        const auto seq = args.integer(kineto::kSequenceNumberArg);
        if (!seq || args.integer(kFwdThreadIdArg).value_or(0) > 0) return;
        forwardOps_[*seq].push_back(row);
    });
}

uint32_t ForwardBySequence::forwardOf(uint32_t backwardRow) const {
    const EventTable& t = trace_.events;
    const auto seq = trace_.args(backwardRow).integer(kineto::kSequenceNumberArg);
    if (!seq) return kNoRow;
    const auto it = forwardOps_.find(*seq);
    if (it == forwardOps_.end()) return kNoRow;
    const PyNum start = t.ts(backwardRow);
    uint32_t best = kNoRow;
    for (uint32_t row : it->second) {
        if (t.tid[row] == t.tid[backwardRow] || !pyLess(t.ts(row), start)) continue;
        if (best == kNoRow || !pyLess(t.ts(row), t.ts(best))) best = row;
    }
    return best;
}

}  // namespace stackline
