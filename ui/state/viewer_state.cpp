#include "state/viewer_state.h"

#include <algorithm>
#include <cstdlib>

#include "state/zoom_control.h"

using namespace stackline;

namespace {

constexpr size_t kMaxHistory = 200;

}  // namespace

ViewerState::ViewerState(QObject* parent) : QObject(parent), zoom_(new ZoomControl(this)) {}

std::shared_ptr<const ViewedTrace> ViewerState::current() const {
    return current_ < documents_.size() ? documents_[current_] : nullptr;
}

void ViewerState::setCurrent(const ViewedTrace* doc) {
    const int i = indexOf(doc);
    if (i < 0 || size_t(i) == current_) return;
    current_ = size_t(i);
    emit currentChanged();
}

int ViewerState::indexOf(const ViewedTrace* doc) const {
    for (size_t i = 0; i < documents_.size(); ++i)
        if (documents_[i].get() == doc) return int(i);
    return -1;
}

int64_t ViewerState::offsetNs(const ViewedTrace* doc) const {
    const int i = indexOf(doc);
    return i >= 0 && size_t(i) < offsets_.size() ? offsets_[size_t(i)] : 0;
}

void ViewerState::setOffsets(std::vector<int64_t> offsets) {
    offsets_ = std::move(offsets);
    offsets_.resize(documents_.size());
    showWholeAxis();
    emit offsetsChanged();
}

void ViewerState::showWholeAxis() {
    if (documents_.empty()) return;
    int64_t start = INT64_MAX, end = INT64_MIN;
    for (size_t i = 0; i < documents_.size(); ++i) {
        start = std::min(start, documents_[i]->originNs + offsets_[i]);
        end = std::max(end, documents_[i]->tracks.endNs() + offsets_[i]);
    }
    zoom_->setTraceRange(start, end);
}

void ViewerState::setDocuments(std::vector<std::shared_ptr<const ViewedTrace>> documents) {
    documents_ = std::move(documents);
    documents_.erase(std::remove(documents_.begin(), documents_.end(), nullptr), documents_.end());
    current_ = 0;
    offsets_.assign(documents_.size(), 0);
    selected_ = {};
    highlighted_.assign(documents_.size(), {});
    range_.reset();
    markers_.clear();
    history_.clear();
    position_ = 0;
    showWholeAxis();
    emit documentsChanged();
    emit historyChanged();
}

void ViewerState::setDocument(std::shared_ptr<const ViewedTrace> document) {
    std::vector<std::shared_ptr<const ViewedTrace>> documents;
    if (document) documents.push_back(std::move(document));
    setDocuments(std::move(documents));
}

uint32_t ViewerState::selectedRow(const ViewedTrace* doc) const {
    return doc && selected_.doc == doc ? selected_.row : kNoRow;
}

void ViewerState::select(uint32_t row, bool reveal) {
    select(EventRef{current().get(), row}, reveal);
}

void ViewerState::select(EventRef event, bool reveal) {
    const bool known = std::any_of(documents_.begin(), documents_.end(),
                                   [&](const auto& d) { return d.get() == event.doc; });
    if (!known || event.row >= event.doc->events().size()) event = {};
    if (event.isValid() && (history_.empty() || history_[position_] != event)) {
        if (!history_.empty()) history_.resize(position_ + 1);
        history_.push_back(event);
        if (history_.size() > kMaxHistory) history_.erase(history_.begin());
        position_ = history_.size() - 1;
        emit historyChanged();
    }
    setSelected(event, reveal);
}

void ViewerState::setSelected(EventRef event, bool reveal) {
    // The panels show the selected event's document.
    if (event.isValid()) setCurrent(event.doc);
    if (event != selected_) {
        selected_ = event;
        emit selectionChanged();
    }
    if (reveal && selected_.isValid()) emit revealRequested();
}

void ViewerState::focus(uint32_t row) {
    const auto doc = current();
    if (!doc || row >= doc->events().size()) return;
    const EventTable& ev = doc->events();
    const int64_t dur = std::max<int64_t>(0, ev.durNs(row));
    const int64_t centre = ev.tsNs(row) + dur / 2 + offsetNs(doc.get());
    // Wide enough to show the slice with context, and a kernel's launch unless that is so far
    // away that the kernel would shrink to a few pixels (its arrow still points that way).
    int64_t half = std::max<int64_t>(dur * 3, 2000);
    const uint32_t launch = doc->launchOf(row);
    const int64_t reach =
        launch == kNoRow ? 0 : std::abs(ev.tsNs(row) + dur / 2 - ev.tsNs(launch)) * 5 / 4;
    if (reach <= std::max<int64_t>(dur * 25, 50'000)) half = std::max(half, reach);
    zoom_->setWindow(centre - half, centre + half);
    select(row, true);
}

void ViewerState::setHighlighted(std::vector<uint32_t> rows) {
    std::vector<std::vector<uint32_t>> perDocument(documents_.size());
    if (!perDocument.empty()) perDocument[current_] = std::move(rows);
    setHighlights(std::move(perDocument));
}

void ViewerState::setHighlights(std::vector<std::vector<uint32_t>> perDocument) {
    perDocument.resize(documents_.size());
    if (perDocument == highlighted_) return;
    highlighted_ = std::move(perDocument);
    emit highlightChanged();
}

const std::vector<uint32_t>& ViewerState::highlighted(const ViewedTrace* doc) const {
    static const std::vector<uint32_t> none;
    const int i = indexOf(doc);
    return i >= 0 && size_t(i) < highlighted_.size() ? highlighted_[size_t(i)] : none;
}

void ViewerState::setSelectedRange(std::optional<RangeSelection> range) {
    if (range && range->range.length() <= 0) range.reset();
    if (range == range_) return;
    range_ = std::move(range);
    emit rangeChanged();
}

void ViewerState::addMarker(int64_t timeNs) {
    const auto at = std::lower_bound(markers_.begin(), markers_.end(), timeNs);
    if (at != markers_.end() && *at == timeNs) return;
    markers_.insert(at, timeNs);
    emit markersChanged();
}

void ViewerState::clearMarkers() {
    if (markers_.empty()) return;
    markers_.clear();
    emit markersChanged();
}

void ViewerState::showSource(const QString& file, int line, const QString& code) {
    emit sourceRequested(file, line, code);
}

// With the selection cleared, the last selection is one step back.
bool ViewerState::canGoBack() const {
    return position_ > 0 || (!history_.empty() && selected_ != history_[position_]);
}

void ViewerState::back() {
    if (!history_.empty() && selected_ != history_[position_])
        go(position_);
    else if (canGoBack())
        go(position_ - 1);
}

void ViewerState::forward() {
    if (canGoForward()) go(position_ + 1);
}

void ViewerState::go(size_t position) {
    position_ = position;
    emit historyChanged();
    setSelected(history_[position_], true);
}
