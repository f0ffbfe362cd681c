#include "analysis/eager_stacks.h"

#include <charconv>
#include <future>
#include <optional>
#include <unordered_map>

#include "model/event_args.h"
#include "model/event_categories.h"
#include "model/kineto.h"

namespace stackline {

namespace {

// What build needs to find each kernel's stack; the correlation and Sequence-number maps are
// built on first use, as most traces need neither.
class StackFinder {
public:
    StackFinder(const Trace& trace, const EventCategories& categories, const TrackIndex& tracks,
                const FlowIndex& flows)
        : trace_(trace),
          events_(trace.events),
          categories_(categories),
          tracks_(tracks),
          flows_(flows) {
        for (const FlowLink& link : flows.links())
            if (link.category == kineto::Category::ForwardBackwardFlow)
                forwardOf_.try_emplace(link.to, link.from);
    }

    // The runtime call that launched a kernel: its ac2g flow, else the same correlation id.
    uint32_t launchOf(uint32_t kernel) {
        if (const uint32_t source = flows_.sourceOf(kernel); source != kNoRow) return source;
        const auto id = trace_.args(kernel).integer(kineto::kCorrelationArg);
        if (!id) return kNoRow;
        if (!launchByCorrelation_) {
            // Every runtime call's args are read: each half of the rows on a core of its own,
            // the earlier half's rows first, as one pass in row order would keep them.
            auto scan = [this](uint32_t from, uint32_t to) {
                std::unordered_map<int64_t, uint32_t> firstRow;
                for (uint32_t row = from; row < to; ++row)
                    if (categories_.of(row) == kineto::Category::Runtime)
                        if (auto c = trace_.args(row).integer(kineto::kCorrelationArg))
                            firstRow.try_emplace(*c, row);
                return firstRow;
            };
            const uint32_t half = events_.size() / 2;
            auto later = std::async(std::launch::async, scan, half, events_.size());
            launchByCorrelation_ = scan(0, half);
            for (const auto& [id, row] : later.get()) launchByCorrelation_->try_emplace(id, row);
        }
        const auto it = launchByCorrelation_->find(*id);
        return it == launchByCorrelation_->end() ? kNoRow : it->second;
    }

    // The innermost python_function slice around row, else kNoRow: searched row by row (the
    // frame is mostly a level or two up) until that has passed more levels than a sweep of every
    // row costs, then taken from one sweep (TrackIndex::innermostEnclosingAll), so that many
    // launches deep below their frames (or with none) cost O(n log n), not depth each.
    uint32_t innermostFrame(uint32_t row) {
        if (!innermostFrames_.empty()) return innermostFrames_[row];
        const uint32_t found = tracks_.innermostEnclosing(
            row, [&](uint32_t r) { return categories_.of(r) == kineto::Category::PythonFunction; },
            levelsPassed_);
        if (levelsPassed_ > 4 * size_t(events_.size()) + 4096)
            innermostFrames_ = tracks_.innermostEnclosingAll(pythonMask());
        return found;
    }

    // The python_function slices around row on its track, innermost first.
    std::vector<uint32_t> pythonFrames(uint32_t row) const {
        std::vector<uint32_t> frames = tracks_.enclosing(row);
        std::erase_if(frames, [&](uint32_t r) {
            return categories_.of(r) != kineto::Category::PythonFunction;
        });
        return frames;
    }

    // The forward op of the innermost op around a backward launch that has one: its fwdbwd flow,
    // else the forward cpu_op with the same Sequence number that runs inside python_function.
    uint32_t forwardOpOf(uint32_t launch) {
        const std::vector<uint32_t> around = tracks_.enclosing(launch);
        for (uint32_t op : around) {
            if (categories_.of(op) != kineto::Category::CpuOp) continue;
            if (auto it = forwardOf_.find(op); it != forwardOf_.end()) return it->second;
        }
        for (uint32_t op : around) {
            if (categories_.of(op) != kineto::Category::CpuOp) continue;
            const auto seq = trace_.args(op).integer(kineto::kSequenceNumberArg);
            if (!seq) continue;
            if (auto it = forwardBySequence().find(*seq); it != forwardBySequence().end())
                return it->second;
        }
        return kNoRow;
    }

private:
    const std::unordered_map<int64_t, uint32_t>& forwardBySequence() {
        if (!forwardBySequence_) {
            forwardBySequence_.emplace();
            trace_.forEachRowThatMayHold(kineto::kSequenceNumberArg, [&](uint32_t row) {
                if (categories_.of(row) != kineto::Category::CpuOp) return;
                const auto seq = trace_.args(row).integer(kineto::kSequenceNumberArg);
                // The first op of a sequence number inside python_function is the forward one.
                if (seq && !forwardBySequence_->contains(*seq) && innermostFrame(row) != kNoRow)
                    forwardBySequence_->emplace(*seq, row);
            });
        }
        return *forwardBySequence_;
    }

    std::vector<uint8_t> pythonMask() const {
        std::vector<uint8_t> python(events_.size());
        for (uint32_t row = 0; row < events_.size(); ++row)
            python[row] = categories_.of(row) == kineto::Category::PythonFunction;
        return python;
    }

    const Trace& trace_;
    const EventTable& events_;
    const EventCategories& categories_;
    const TrackIndex& tracks_;
    const FlowIndex& flows_;
    std::unordered_map<uint32_t, uint32_t> forwardOf_;  // backward op -> forward op (fwdbwd)
    std::optional<std::unordered_map<int64_t, uint32_t>> launchByCorrelation_;
    std::optional<std::unordered_map<int64_t, uint32_t>> forwardBySequence_;
    std::vector<uint32_t> innermostFrames_;  // per row, once searching row by row cost too much
    size_t levelsPassed_ = 0;                // by those searches
};

}  // namespace

EagerStacks EagerStacks::build(const Trace& trace, const Provenance& provenance,
                               const TrackIndex& tracks, const FlowIndex& flows) {
    EagerStacks out;
    const EventTable& events = trace.events;
    if (!events.hasNanos) return out;  // loaded without nanoseconds: no tracks to search
    // Without python_function slices (recorded without with_stack) and stacks recorded with the
    // launches, no kernel has a stack: skip the per-kernel searches, whose fallbacks read the
    // args of every runtime call and op. A trace has one or the other.
    const EventCategories categories(events);
    const LaunchStacks& recorded = trace.launchStacks;
    bool slices = false;
    for (uint32_t row = 0; row < events.size() && !slices; ++row)
        slices = categories.of(row) == kineto::Category::PythonFunction;
    if (!slices && recorded.empty()) return out;
    StackFinder finder(trace, categories, tracks, flows);
    // Kept once per innermost python_function row, or per recorded stack: only a new one has its
    // frames listed.
    std::unordered_map<uint32_t, uint32_t> stackByInnermost, stackByRecorded;
    std::unordered_map<uint32_t, uint32_t> recordedInOp;  // op row -> recorded stack in it
    auto addStack = [&](auto&& names) {
        for (uint32_t name : names) out.frameNames_.push_back(name);
        out.frameStart_.push_back(uint32_t(out.frameNames_.size()));
        return uint32_t(out.frameStart_.size() - 2);
    };
    for (uint32_t row = 0; row < events.size(); ++row) {
        if (!provenance.isGpuKernel(events, row) ||
            provenance.status(events, row) != KernelStatus::Outside)
            continue;
        const uint32_t launch = finder.launchOf(row);
        if (launch == kNoRow) continue;
        if (!slices) {
            // Stacks recorded with the calls: the launch's own, else, for a backward kernel, the
            // one of the first call inside its forward op that has one.
            EagerOrigin origin = EagerOrigin::Launch;
            uint32_t id = recorded.stackOf(launch);
            if (!id) {
                const uint32_t op = finder.forwardOpOf(launch);
                if (op == kNoRow) continue;
                if (recordedInOp.empty())
                    recorded.forEachCall([&](uint32_t call, uint32_t stack) {
                        for (uint32_t around : tracks.enclosing(call))
                            recordedInOp.try_emplace(around, stack);
                    });
                const auto found = recordedInOp.find(op);
                if (found == recordedInOp.end()) continue;
                id = found->second;
                origin = EagerOrigin::Forward;
            }
            auto [it, added] = stackByRecorded.try_emplace(id, 0);
            if (added) it->second = addStack(recorded.frames(id));
            out.found_.push(row, {it->second, origin});
            ++out.count_;
            continue;
        }
        EagerOrigin origin = EagerOrigin::Launch;
        // The stack is the frames around its owner.
        uint32_t owner = launch, innermost = finder.innermostFrame(launch);
        if (innermost == kNoRow) {
            owner = finder.forwardOpOf(launch);
            if (owner == kNoRow) continue;
            innermost = finder.innermostFrame(owner);
            origin = EagerOrigin::Forward;
        }
        if (innermost == kNoRow) continue;
        auto [it, added] = stackByInnermost.try_emplace(innermost, 0);
        if (added) {
            std::vector<uint32_t> names = finder.pythonFrames(owner);
            for (uint32_t& r : names) r = events.name[r];
            it->second = addStack(names);
        }
        out.found_.push(row, {it->second, origin});
        ++out.count_;
    }
    return out;
}

uint32_t EagerStacks::stackOf(uint32_t row) const {
    return found_.at(row, {}).stack;
}

std::span<const uint32_t> EagerStacks::frames(uint32_t stack) const {
    if (stack == 0 || stack + 1 >= frameStart_.size()) return {};
    return std::span<const uint32_t>(frameNames_)
        .subspan(frameStart_[stack], frameStart_[stack + 1] - frameStart_[stack]);
}

EagerOrigin EagerStacks::origin(uint32_t row) const {
    return found_.at(row, {}).origin;
}

SourceFrame pythonFunctionFrame(std::string_view name) {
    // "<file>(<line>): <function>"
    const size_t colon = name.find("): ");
    const size_t open = colon == std::string_view::npos ? colon : name.rfind('(', colon);
    int line = 0;
    if (open != std::string_view::npos && open > 0) {
        auto [end, error] = std::from_chars(name.data() + open + 1, name.data() + colon, line);
        if (error == std::errc() && end == name.data() + colon)
            return {std::string(name.substr(0, open)), line, std::string(name.substr(colon + 3)),
                    ""};
    }
    return {std::string(name), 0, "", ""};
}

}  // namespace stackline
