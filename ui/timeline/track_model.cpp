#include "timeline/track_model.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <algorithm>
#include <cmath>
#include <iterator>

#include "state/stack_frames.h"
#include "widgets/kernel_name_text.h"

using namespace stackline;

namespace {

// `natural` (indexes) in the order `saved` names their keys; one it does not name stays right
// after its natural predecessor, so that a new stream or thread lands where Kineto puts it.
std::vector<uint32_t> arrange(const std::vector<uint32_t>& natural, const QStringList& saved,
                              const std::vector<QString>& keys) {
    QHash<QString, uint32_t> byKey;
    for (uint32_t i : natural) byKey.insert(keys[i], i);
    std::vector<uint32_t> out;
    QSet<uint32_t> placed;
    for (const QString& k : saved) {
        auto it = byKey.find(k);
        if (it == byKey.end() || placed.contains(*it)) continue;
        out.push_back(*it);
        placed.insert(*it);
    }
    for (size_t n = 0; n < natural.size(); ++n) {
        if (placed.contains(natural[n])) continue;
        auto at = n == 0 ? out.begin() : std::find(out.begin(), out.end(), natural[n - 1]) + 1;
        out.insert(at, natural[n]);
    }
    return out;
}

// The keys of `order`, then those of `old` it lacks (other traces' tracks keep their place).
QStringList keysOf(const std::vector<uint32_t>& order, const QStringList& old,
                   const std::vector<QString>& keys) {
    QStringList out;
    for (uint32_t i : order) out << keys[i];
    for (const QString& k : old)
        if (!out.contains(k)) out << k;
    return out;
}

// Moves `item` before or after `target` in order.
void moveWithin(std::vector<uint32_t>& order, uint32_t item, uint32_t target, bool after) {
    order.erase(std::find(order.begin(), order.end(), item));
    auto at = std::find(order.begin(), order.end(), target);
    order.insert(at == order.end() ? at : at + (after ? 1 : 0), item);
}

}  // namespace

TrackModel::TrackModel(std::shared_ptr<const ViewedTrace> doc, TrackLayout arrangement)
    : doc_(std::move(doc)), keys_(TrackKeys::of(doc_->tracks)), layout_(std::move(arrangement)) {
    // A document made without the load job (tests, benchmarks) has no styles yet.
    if (doc_->styles.empty())
        ownStyles_ = TrackStyles::build(doc_->events(), doc_->provenance, doc_->tracks);
    layout();
}

void TrackModel::layout() {
    const auto& procs = doc_->tracks.processes();
    const auto& tracks = doc_->tracks.tracks();
    std::vector<uint32_t> natural;
    for (uint32_t p = 0; p < procs.size(); ++p)
        if (procs[p].gpu) natural.push_back(p);
    for (uint32_t p = 0; p < procs.size(); ++p)
        if (!procs[p].gpu) natural.push_back(p);
    processOrder_ = arrange(natural, layout_.processOrder, keys_.process);
    trackOrder_.resize(procs.size());
    collapsed_.assign(procs.size(), 0);
    for (uint32_t p = 0; p < procs.size(); ++p) {
        trackOrder_[p] =
            arrange(procs[p].tracks, layout_.trackOrder.value(keys_.process[p]), keys_.track);
        collapsed_[p] = layout_.collapsed.contains(keys_.process[p]);
    }
    pinned_.assign(tracks.size(), 0);
    hidden_.assign(tracks.size(), 0);
    shown_.assign(tracks.size(), 0);
    QHash<QString, uint32_t> trackByKey;
    for (uint32_t t = 0; t < tracks.size(); ++t) {
        trackByKey.insert(keys_.track[t], t);
        hidden_[t] = layout_.hidden.contains(keys_.track[t]);
        // Summarising a single level would save no row.
        const int levels = levelCount(t);
        const int limit = layout_.depth.value(
            keys_.track[t], tracks[t].gpu ? TrackLayout::kAllLevels : TrackLayout::kDefaultDepth);
        shown_[t] = limit == TrackLayout::kAllLevels || levels <= limit + 1 ? levels : limit;
    }
    pinnedOrder_.clear();
    for (const QString& k : layout_.pinned) {
        auto it = trackByKey.find(k);
        if (it == trackByKey.end()) continue;
        pinned_[*it] = 1;
        pinnedOrder_.push_back(*it);
    }

    rows_.clear();
    firstRowOfTrack_.assign(tracks.size(), -1);
    const auto shown = [&](uint32_t t) { return !hidden_[t]; };
    if (std::any_of(pinnedOrder_.begin(), pinnedOrder_.end(), shown)) {
        rows_.push_back({RowKind::PinnedHeader, 0, kNoTrack, 0});
        for (uint32_t t : pinnedOrder_)
            if (shown(t)) addTrackRows(t);
    }
    for (uint32_t p : processOrder_) {
        rows_.push_back({RowKind::ProcessHeader, p, kNoTrack, 0});
        if (collapsed_[p]) continue;
        for (uint32_t t : trackOrder_[p])
            if (shown(t) && !pinned_[t]) addTrackRows(t);
        for (uint32_t c : doc_->counters.ofProcess(p))
            rows_.push_back({RowKind::Counter, p, kNoTrack, 0, c});
    }
}

QString TrackModel::counterTip(const Row& r, int64_t t) const {
    const stackline::CounterSeries& s = counter(r);
    const std::optional<double> v = s.valueAt(t);
    return QString::fromStdString(s.name).toHtmlEscaped() + QStringLiteral("<br>") +
           (v ? counterValueText(s, *v) : QObject::tr("no value yet"));
}

QString TrackModel::counterValueText(const stackline::CounterSeries& s, double value) {
    if (!s.memory) return QString::number(value, 'g', 6);
    static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    double v = value;
    int unit = 0;
    while (std::abs(v) >= 1024 && unit < 4) {
        v /= 1024;
        ++unit;
    }
    return QStringLiteral("%1 %2")
        .arg(v, 0, 'f', unit == 0 ? 0 : 1)
        .arg(QLatin1String(kUnits[unit]));
}

void TrackModel::addTrackRows(uint32_t t) {
    const Track& track = doc_->tracks.tracks()[t];
    firstRowOfTrack_[t] = int(rows_.size());
    for (int l = 0; l < shown_[t]; ++l)
        rows_.push_back({RowKind::Slices, track.process, t, uint16_t(l)});
    if (isFolded(t)) rows_.push_back({RowKind::Folded, track.process, t, uint16_t(shown_[t])});
    if (!track.instantTs.empty()) rows_.push_back({RowKind::Instants, track.process, t, 0});
}

void TrackModel::resetLayout() {
    layout_ = TrackLayout{};
    layout();
}

void TrackModel::setCollapsed(uint32_t process, bool collapsed) {
    if (process >= collapsed_.size() || bool(collapsed_[process]) == collapsed) return;
    if (collapsed)
        layout_.collapsed << keys_.process[process];
    else
        layout_.collapsed.removeAll(keys_.process[process]);
    layout();
}

void TrackModel::setPinned(uint32_t track, bool pinned) {
    if (bool(pinned_[track]) == pinned) return;
    if (pinned)
        layout_.pinned << keys_.track[track];
    else
        layout_.pinned.removeAll(keys_.track[track]);
    layout();
}

void TrackModel::setHidden(uint32_t track, bool hidden) {
    if (bool(hidden_[track]) == hidden) return;
    if (hidden)
        layout_.hidden << keys_.track[track];
    else
        layout_.hidden.removeAll(keys_.track[track]);
    layout();
}

std::vector<uint32_t> TrackModel::hiddenTracks() const {
    std::vector<uint32_t> out;
    for (uint32_t p : processOrder_)
        for (uint32_t t : trackOrder_[p])
            if (hidden_[t]) out.push_back(t);
    return out;
}

int TrackModel::hiddenCount(uint32_t process) const {
    const auto& ts = trackOrder_[process];
    return int(std::count_if(ts.begin(), ts.end(), [&](uint32_t t) { return hidden_[t]; }));
}

int TrackModel::levelCount(uint32_t track) const {
    return int(doc_->tracks.tracks()[track].levels.size());
}

void TrackModel::setDepth(uint32_t track, int levels) {
    layout_.depth.insert(keys_.track[track], levels);
    layout();
}

std::vector<uint32_t> TrackModel::groupOf(uint32_t track, bool visible) const {
    const std::vector<uint32_t>& all =
        pinned_[track] ? pinnedOrder_ : trackOrder_[doc_->tracks.tracks()[track].process];
    std::vector<uint32_t> out;
    for (uint32_t t : all)
        if (bool(pinned_[t]) == bool(pinned_[track]) && !(visible && hidden_[t])) out.push_back(t);
    return out;
}

bool TrackModel::moveTrack(uint32_t track, uint32_t target, bool after) {
    if (track == target) return false;
    const QString& key = keys_.track[track];
    if (pinned_[target]) {
        layout_.pinned.removeAll(key);
        layout_.pinned.insert(layout_.pinned.indexOf(keys_.track[target]) + (after ? 1 : 0), key);
        layout();
        return true;
    }
    const uint32_t process = doc_->tracks.tracks()[track].process;
    if (doc_->tracks.tracks()[target].process != process) return false;
    layout_.pinned.removeAll(key);
    std::vector<uint32_t> order = trackOrder_[process];
    moveWithin(order, track, target, after);
    QStringList& saved = layout_.trackOrder[keys_.process[process]];
    saved = keysOf(order, saved, keys_.track);
    layout();
    return true;
}

bool TrackModel::moveTrackBy(uint32_t track, int delta) {
    const std::vector<uint32_t> group = groupOf(track, true);
    const auto at = std::find(group.begin(), group.end(), track) - group.begin();
    const auto to = at + delta;
    if (at == long(group.size()) || to < 0 || to >= long(group.size())) return false;
    return moveTrack(track, group[size_t(to)], delta > 0);
}

bool TrackModel::moveProcess(uint32_t process, uint32_t target, bool after) {
    if (process == target) return false;
    std::vector<uint32_t> order = processOrder_;
    moveWithin(order, process, target, after);
    layout_.processOrder = keysOf(order, layout_.processOrder, keys_.process);
    layout();
    return true;
}

bool TrackModel::moveProcessBy(uint32_t process, int delta) {
    const auto at =
        std::find(processOrder_.begin(), processOrder_.end(), process) - processOrder_.begin();
    const auto to = at + delta;
    if (to < 0 || to >= long(processOrder_.size())) return false;
    return moveProcess(process, processOrder_[size_t(to)], delta > 0);
}

bool TrackModel::dropRow(size_t source, size_t target) {
    if (source >= rows_.size() || target >= rows_.size() || source == target) return false;
    const Row from = rows_[source], to = rows_[target];
    const bool down = target > source;
    if (from.kind == RowKind::PinnedHeader) return false;
    // Counter rows stay under their process's tracks.
    if (from.kind == RowKind::Counter || to.kind == RowKind::Counter) return false;
    if (from.kind == RowKind::ProcessHeader) {
        if (to.kind == RowKind::PinnedHeader || (to.track != kNoTrack && pinned_[to.track]))
            return false;
        return moveProcess(from.process, to.process, down);
    }
    if (to.kind == RowKind::PinnedHeader) {
        // Onto the pinned header: pinned, first.
        if (pinnedOrder_.empty() || pinnedOrder_.front() == from.track) return false;
        return moveTrack(from.track, pinnedOrder_.front(), false);
    }
    if (to.kind == RowKind::ProcessHeader) {
        // Onto its own process's header: that process's first track.
        const std::vector<uint32_t>& order = trackOrder_[to.process];
        if (to.process != from.process || order.empty() || order.front() == from.track)
            return false;
        return moveTrack(from.track, order.front(), false);
    }
    return moveTrack(from.track, to.track, down);
}

bool TrackModel::showEvent(uint32_t event) {
    const TrackIndex& ix = doc_->tracks;
    const uint32_t t = ix.trackOf(event);
    if (t == kNoTrack) return false;
    const TrackLayout before = layout_;
    layout_.hidden.removeAll(keys_.track[t]);
    if (!pinned_[t]) layout_.collapsed.removeAll(keys_.process[ix.tracks()[t].process]);
    if (!ix.isInstant(event) && ix.levelOf(event) >= shown_[t])
        layout_.depth.insert(keys_.track[t], ix.levelOf(event) + 1);
    if (layout_ == before) return false;
    layout();
    return true;
}

std::vector<uint32_t> TrackModel::busiestTracks(uint32_t process, size_t n) const {
    std::vector<uint32_t> out;
    for (uint32_t t : trackOrder_[process])
        if (styles().busy[t] > 0) out.push_back(t);
    std::stable_sort(out.begin(), out.end(),
                     [&](uint32_t a, uint32_t b) { return styles().busy[a] > styles().busy[b]; });
    if (out.size() > n) out.resize(n);
    return out;
}

uint32_t TrackModel::deepestAt(uint32_t track, int from, int64_t t, int64_t tol) const {
    uint32_t best = kNoEvent;
    int64_t bestDistance = tol + 1;
    for (int l = levelCount(track) - 1; l >= from; --l) {
        const TrackLevel& lv = level(track, l);
        const size_t i = lv.firstEndingAtOrAfter(t);
        if (i < lv.size() && lv.start[i] <= t) return lv.row[i];
        // Deeper levels win ties: what is painted on top is what is hit.
        if (i > 0 && t - lv.end[i - 1] < bestDistance) {
            bestDistance = t - lv.end[i - 1];
            best = lv.row[i - 1];
        }
        if (i < lv.size() && lv.start[i] - t < bestDistance) {
            bestDistance = lv.start[i] - t;
            best = lv.row[i];
        }
    }
    return best;
}

int TrackModel::rowOf(uint32_t event) const {
    const TrackIndex& ix = doc_->tracks;
    const uint32_t t = ix.trackOf(event);
    if (t == kNoTrack || firstRowOfTrack_[t] < 0) return -1;
    const int folded = isFolded(t) ? 1 : 0;
    if (ix.isInstant(event)) return firstRowOfTrack_[t] + shown_[t] + folded;
    return firstRowOfTrack_[t] + std::min<int>(ix.levelOf(event), shown_[t]);
}

QString TrackModel::processLabel(uint32_t process) const {
    return QString::fromStdString(doc_->tracks.processes()[process].label());
}

QString TrackModel::trackLabel(uint32_t track) const {
    return QString::fromStdString(doc_->tracks.tracks()[track].name);
}

QString TrackModel::qualifiedLabel(uint32_t track) const {
    return keys_.process[doc_->tracks.tracks()[track].process] + QStringLiteral(" · ") +
           trackLabel(track).trimmed();
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
    return doc_->events().tsNs(event);
}

int64_t TrackModel::endOf(uint32_t event) const {
    const int64_t start = startOf(event);
    return isInstant(event) ? start : start + std::max<int64_t>(0, durationOf(event));
}

int64_t TrackModel::durationOf(uint32_t event) const {
    return doc_->events().durNs(event);
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
