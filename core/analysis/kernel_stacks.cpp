#include "analysis/kernel_stacks.h"

#include <algorithm>

#include "model/event_categories.h"

namespace stackline {
namespace {

constexpr uint64_t kEagerKeyBit = uint64_t(1) << 63;

std::vector<FrameStack> compiledStacks(const Provenance& p, uint32_t id) {
    std::vector<FrameStack> stacks;
    for (const std::string& text : stackStrings(p.stacks.json(id))) {
        FrameStack frames = parseStackString(text);
        if (frames.empty()) frames.push_back({text, 0, "", ""});
        stacks.push_back(std::move(frames));
    }
    return stacks;
}

std::vector<FrameStack> eagerStack(const EventTable& t, const EagerStacks& eager, uint32_t id) {
    FrameStack frames;
    std::span<const uint32_t> names = eager.frames(id);
    for (auto it = names.rbegin(); it != names.rend(); ++it)
        frames.push_back(pythonFunctionFrame(t.strings.at(*it)));
    return {std::move(frames)};
}

}  // namespace

const SourceFrame& chargedFrame(const FrameStack& frames) {
    auto charged = std::find_if(frames.rbegin(), frames.rend(),
                                [](const SourceFrame& f) { return f.line > 0; });
    return charged == frames.rend() ? frames.back() : *charged;
}

void forEachKernelSample(const Trace& trace, const Provenance& p,
                         const KernelStacksOptions& options,
                         const std::function<void(const KernelSample&)>& visit) {
    const EventTable& t = trace.events;
    const EventCategories categories(t);
    std::unordered_map<uint64_t, std::vector<FrameStack>> parsed;
    const std::vector<FrameStack> none;
    for (uint32_t row = 0, n = t.size(); row < n; ++row) {
        if (!categories.isGpuKernel(row)) continue;
        const int64_t ts = t.tsNs(row), dur = std::max<int64_t>(0, t.durNs(row));
        if (!options.range.overlaps(ts, dur)) continue;
        KernelSample s;
        s.row = row;
        s.ns = options.range.clip(ts, dur);
        s.status = p.status(t, row);
        if (s.status == KernelStatus::Annotated) {
            s.kind = KernelStackKind::Compiled;
            const StackOrigin origin = p.origins.of(row);
            s.guessed = origin == StackOrigin::SingleStack;
            s.byName = origin == StackOrigin::MatchedByName;
            s.stackKey = p.stackOf(row);
        } else if (s.status == KernelStatus::Outside && options.eager) {
            if (uint32_t id = options.eager->stackOf(row)) {
                s.kind = options.eager->origin(row) == EagerOrigin::Forward
                             ? KernelStackKind::EagerFromForward
                             : KernelStackKind::Eager;
                s.stackKey = kEagerKeyBit | id;
            }
        }
        if (s.kind == KernelStackKind::None) {
            s.stacks = &none;
        } else {
            auto it = parsed.find(s.stackKey);
            if (it == parsed.end()) {
                it =
                    parsed
                        .emplace(s.stackKey, s.kind == KernelStackKind::Compiled
                                                 ? compiledStacks(p, p.stackOf(row))
                                                 : eagerStack(t, *options.eager,
                                                              uint32_t(s.stackKey & ~kEagerKeyBit)))
                        .first;
            }
            s.stacks = &it->second;
        }
        visit(s);
    }
}

}  // namespace stackline
