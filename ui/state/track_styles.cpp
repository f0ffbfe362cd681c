#include "state/track_styles.h"

#include <iterator>

#include "model/event_categories.h"
#include "model/flow_index.h"
#include "model/kineto.h"

using namespace stackline;

namespace {

// Every slice's style by its category, indexed by kineto::Category.
constexpr SliceStyle kCategoryStyles[] = {
    SliceStyle::Other,           // Other
    SliceStyle::CpuOp,           // CpuOp
    SliceStyle::UserAnnotation,  // UserAnnotation
    SliceStyle::PythonFunction,  // PythonFunction
    SliceStyle::Runtime,         // Runtime
    SliceStyle::Runtime,         // Sync
    SliceStyle::Other,           // Kernel: styled by its provenance status instead
    SliceStyle::Memory,          // Memory
    SliceStyle::GpuAnnotation,   // GpuAnnotation
    SliceStyle::Overhead,        // Overhead
    SliceStyle::Other,           // LaunchFlow
    SliceStyle::Other,           // ForwardBackwardFlow
};
static_assert(std::size(kCategoryStyles) == size_t(kineto::Category::ForwardBackwardFlow) + 1);

SliceStyle categoryStyle(kineto::Category category) {
    return kCategoryStyles[size_t(category)];
}

}  // namespace

TrackStyles TrackStyles::build(const EventTable& ev, const Provenance& provenance,
                               const TrackIndex& tracks) {
    TrackStyles out;
    const EventCategories categories(ev);
    out.style.assign(ev.size(), uint8_t(SliceStyle::Other));
    for (uint32_t row = 0; row < ev.size(); ++row) {
        if (tracks.trackOf(row) == kNoTrack) continue;
        if (tracks.isInstant(row)) {
            out.style[row] = uint8_t(SliceStyle::Instant);
            continue;
        }
        SliceStyle s = categoryStyle(categories.of(row));
        if (categories.isGpuKernel(row)) {
            switch (provenance.status(ev, row)) {
                case KernelStatus::Annotated:
                    s = SliceStyle::KernelAnnotated;
                    break;
                case KernelStatus::Unresolved:
                    s = SliceStyle::KernelUnresolved;
                    break;
                case KernelStatus::Outside:
                    s = SliceStyle::KernelOutside;
                    break;
            }
        } else if (s == SliceStyle::CpuOp &&
                   (isCompiledRegion(ev, row) || ev.nameOf(row) == kineto::kCompiledFunction)) {
            s = SliceStyle::CompiledRegion;
        }
        out.style[row] = uint8_t(s);
    }

    const auto& all = tracks.tracks();
    out.unresolved.resize(all.size());
    out.levelStyles.resize(all.size());
    out.busy.assign(all.size(), 0);
    for (size_t t = 0; t < all.size(); ++t) {
        if (!all[t].levels.empty()) {
            const TrackLevel& top = all[t].levels[0];
            for (size_t i = 0; i < top.size(); ++i) out.busy[t] += top.end[i] - top.start[i];
        }
        out.unresolved[t].resize(all[t].levels.size());
        out.levelStyles[t].resize(all[t].levels.size());
        for (size_t l = 0; l < all[t].levels.size(); ++l) {
            const TrackLevel& lv = all[t].levels[l];
            std::vector<uint8_t>& styles = out.levelStyles[t][l];
            styles.resize(lv.size());
            for (uint32_t i = 0; i < lv.size(); ++i) {
                styles[i] = out.style[lv.row[i]];
                if (styles[i] != uint8_t(SliceStyle::KernelUnresolved)) continue;
                Unresolved& h = out.unresolved[t][l];
                h.index.push_back(i);
                h.start.push_back(lv.start[i]);
                h.end.push_back(lv.end[i]);
            }
        }
    }
    return out;
}
