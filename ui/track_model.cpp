#include "track_model.h"

#include <algorithm>
#include <iterator>

#include "event_categories.h"
#include "kernel_name_text.h"
#include "stack_frames.h"

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

TrackModel::TrackModel(std::shared_ptr<const Document> doc) : doc_(std::move(doc)) {
    const EventTable& ev = doc_->events();
    const Provenance& prov = doc_->provenance;
    const EventCategories categories(ev);
    style_.assign(ev.size(), uint8_t(SliceStyle::Other));
    for (uint32_t row = 0; row < ev.size(); ++row) {
        if (doc_->tracks.trackOf(row) == kNoTrack) continue;
        if (doc_->tracks.isInstant(row)) {
            style_[row] = uint8_t(SliceStyle::Instant);
            continue;
        }
        SliceStyle s = categoryStyle(categories.of(row));
        if (categories.isGpuKernel(row)) {
            switch (prov.status(ev, row)) {
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
        style_[row] = uint8_t(s);
    }

    const auto& tracks = doc_->tracks.tracks();
    highlights_.resize(tracks.size());
    levelStyles_.resize(tracks.size());
    for (size_t t = 0; t < tracks.size(); ++t) {
        highlights_[t].resize(tracks[t].levels.size());
        levelStyles_[t].resize(tracks[t].levels.size());
        for (size_t l = 0; l < tracks[t].levels.size(); ++l) {
            const TrackLevel& lv = tracks[t].levels[l];
            std::vector<uint8_t>& styles = levelStyles_[t][l];
            styles.resize(lv.size());
            for (uint32_t i = 0; i < lv.size(); ++i) {
                styles[i] = style_[lv.row[i]];
                if (styles[i] != uint8_t(SliceStyle::KernelUnresolved)) continue;
                Highlights& h = highlights_[t][l];
                h.index.push_back(i);
                h.start.push_back(lv.start[i]);
                h.end.push_back(lv.end[i]);
            }
        }
    }
    collapsed_.assign(doc_->tracks.processes().size(), 0);
    layout();
}

void TrackModel::layout() {
    rows_.clear();
    const auto& tracks = doc_->tracks.tracks();
    firstRowOfTrack_.assign(tracks.size(), -1);
    const auto& procs = doc_->tracks.processes();
    for (uint32_t p = 0; p < procs.size(); ++p) {
        rows_.push_back({RowKind::ProcessHeader, p, kNoTrack, 0});
        if (collapsed_[p]) continue;
        for (uint32_t t : procs[p].tracks) {
            firstRowOfTrack_[t] = int(rows_.size());
            for (size_t l = 0; l < tracks[t].levels.size(); ++l)
                rows_.push_back({RowKind::Slices, p, t, uint16_t(l)});
            if (!tracks[t].instantTs.empty()) rows_.push_back({RowKind::Instants, p, t, 0});
        }
    }
}

void TrackModel::setCollapsed(uint32_t process, bool collapsed) {
    if (process >= collapsed_.size() || bool(collapsed_[process]) == collapsed) return;
    collapsed_[process] = collapsed;
    layout();
}

int TrackModel::rowOf(uint32_t event) const {
    const TrackIndex& ix = doc_->tracks;
    const uint32_t t = ix.trackOf(event);
    if (t == kNoTrack || firstRowOfTrack_[t] < 0) return -1;
    if (ix.isInstant(event)) return firstRowOfTrack_[t] + int(ix.tracks()[t].levels.size());
    return firstRowOfTrack_[t] + ix.levelOf(event);
}

QString TrackModel::processLabel(uint32_t process) const {
    return QString::fromStdString(doc_->tracks.processes()[process].label());
}

QString TrackModel::trackLabel(uint32_t track) const {
    return QString::fromStdString(doc_->tracks.tracks()[track].name);
}

const std::vector<int64_t>& TrackModel::instantTimes(const Row& r) const {
    return doc_->tracks.tracks()[r.track].instantTs;
}

uint32_t TrackModel::instantEvent(const Row& r, size_t i) const {
    return doc_->tracks.tracks()[r.track].instantRow[i];
}

bool TrackModel::isInstant(uint32_t event) const {
    return doc_->tracks.isInstant(event);
}

int64_t TrackModel::startOf(uint32_t event) const {
    return doc_->events().tsNs[event];
}

int64_t TrackModel::endOf(uint32_t event) const {
    const int64_t start = startOf(event);
    return isInstant(event) ? start : start + std::max<int64_t>(0, durationOf(event));
}

int64_t TrackModel::durationOf(uint32_t event) const {
    return doc_->events().durNs[event];
}

int TrackModel::processOf(uint32_t event) const {
    const uint32_t track = doc_->tracks.trackOf(event);
    return track == kNoTrack ? -1 : int(doc_->tracks.tracks()[track].process);
}

QString TrackModel::name(uint32_t event) const {
    return displayName(doc_->events().nameOf(event));
}

QString TrackModel::launchedAt(uint32_t event) const {
    const auto frame = innermostFrame(*doc_, event);
    if (!frame) return {};
    return frame->isFrame() ? QStringLiteral("%1:%2 in %3")
                                  .arg(frame->file.section(u'/', -1))
                                  .arg(frame->line)
                                  .arg(frame->function)
                            : frame->text;
}

QString TrackModel::category(uint32_t event) const {
    const std::string_view cat = doc_->events().catOf(event);
    return QString::fromUtf8(cat.data(), qsizetype(cat.size()));
}

QString TrackModel::kernelStatus(uint32_t event) const {
    return doc_->isKernel(event) ? statusText(doc_->status(event)) : QString();
}

uint32_t TrackModel::nameId(uint32_t event) const {
    const EventTable& ev = doc_->events();
    return ev.kinds[event].name == ValueKind::String ? ev.name[event] : 0;
}

uint32_t TrackModel::nameIdCount() const {
    return uint32_t(doc_->events().strings.size());
}

QString TrackModel::nameText(uint32_t id) const {
    return displayName(doc_->events().strings.at(id));
}

uint32_t TrackModel::compiledRegionOf(uint32_t event) const {
    return doc_->compiledRegionFor(event);
}

std::vector<TrackModel::Flow> TrackModel::flowsOf(uint32_t event) const {
    std::vector<Flow> flows;
    for (uint32_t l : doc_->flows.linksOf(event)) {
        const FlowLink& link = doc_->flows.links()[l];
        flows.push_back({link.from, link.to, link.isLaunch()});
    }
    return flows;
}
