#include "shell/search_controller.h"

#include <QKeyEvent>
#include <QLineEdit>
#include <algorithm>

#include "state/viewer_state.h"

using namespace stackline;

SearchController::SearchController(ViewerState* state, QObject* parent)
    : QObject(parent), state_(state), field_(new QLineEdit) {
    field_->setPlaceholderText(tr("Search slices by name (Ctrl+F, Enter / Shift+Enter)"));
    field_->setClearButtonEnabled(true);
    field_->setMaximumWidth(420);
    field_->installEventFilter(this);
    // Another document of the window made current: search it instead.
    connect(state_, &ViewerState::currentChanged, this, [this] {
        text_.clear();
        hits_.clear();
    });
    connect(state_, &ViewerState::documentsChanged, this, [this] {
        text_.clear();
        hits_.clear();
        // Kernel information added to the same trace keeps the search.
        const auto doc = state_->current();
        const QString trace = doc ? doc->tracePath() : QString();
        if (trace != trace_) field_->clear();
        trace_ = trace;
    });
}

uint32_t SearchController::findEvent(const QString& text) const {
    const auto doc = state_->current();
    if (!doc || text.isEmpty()) return kNoRow;
    const EventTable& ev = doc->events();
    bool isNumber = false;
    const qulonglong uid = text.toULongLong(&isNumber);
    if (isNumber && uid < ev.size()) return uint32_t(uid);
    const QByteArray utf8 = text.toUtf8();
    const std::string_view needle(utf8.constData(), size_t(utf8.size()));
    uint32_t exact = kNoRow, partial = kNoRow;
    auto earlier = [&](uint32_t a, uint32_t b) { return b == kNoRow || ev.tsNs(a) < ev.tsNs(b); };
    for (uint32_t row = 0; row < ev.size(); ++row) {
        if (doc->tracks.trackOf(row) == kNoTrack) continue;
        const std::string_view name = ev.nameOf(row);
        if (name == needle && earlier(row, exact))
            exact = row;
        else if (name.find(needle) != std::string_view::npos && earlier(row, partial))
            partial = row;
    }
    return exact != kNoRow ? exact : partial;
}

void SearchController::updateHits() {
    const QString text = field_->text().trimmed();
    if (text == text_) return;
    text_ = text;
    hits_.clear();
    const auto doc = state_->current();
    if (!doc || text.isEmpty()) return;
    const EventTable& ev = doc->events();
    // Match each distinct name once, then collect the events carrying a matching name.
    std::vector<uint8_t> matches(ev.strings.size(), 0);
    for (uint32_t id = 1; id < ev.strings.size(); ++id) {
        const std::string_view s = ev.strings.at(id);
        matches[id] =
            QString::fromUtf8(s.data(), qsizetype(s.size())).contains(text, Qt::CaseInsensitive);
    }
    // Sorted by (start, row) with each start read once, not at every comparison.
    std::vector<std::pair<int64_t, uint32_t>> keyed;
    for (uint32_t row = 0; row < ev.size(); ++row)
        if (ev.kinds[row].name == ValueKind::String && matches[ev.name[row]] &&
            doc->tracks.trackOf(row) != kNoTrack)
            keyed.emplace_back(ev.tsNs(row), row);
    std::sort(keyed.begin(), keyed.end());
    hits_.reserve(keyed.size());
    for (const auto& [ts, row] : keyed) hits_.push_back(row);
}

void SearchController::findNext() {
    step(+1);
}
void SearchController::findPrevious() {
    step(-1);
}

void SearchController::step(int direction) {
    updateHits();
    if (hits_.empty()) {
        emit message(text_.isEmpty() ? QString() : tr("No match"));
        return;
    }
    const auto doc = state_->current();
    const EventTable& ev = doc->events();
    const uint32_t sel = state_->selectedRow(doc.get());
    auto before = [&](uint32_t a, uint32_t b) {
        return ev.tsNs(a) != ev.tsNs(b) ? ev.tsNs(a) < ev.tsNs(b) : a < b;
    };
    size_t i = 0;
    if (sel != kNoRow) {
        auto it = std::find(hits_.begin(), hits_.end(), sel);
        if (it != hits_.end()) {
            const size_t pos = size_t(it - hits_.begin());
            i = (pos + hits_.size() + size_t(direction)) % hits_.size();
        } else {
            // The first hit after (or last before) the selection.
            auto after = std::upper_bound(hits_.begin(), hits_.end(), sel, before);
            i = direction > 0 ? (after == hits_.end() ? 0 : size_t(after - hits_.begin()))
                              : (after == hits_.begin() ? hits_.size() - 1
                                                        : size_t(after - hits_.begin()) - 1);
        }
    } else if (direction < 0) {
        i = hits_.size() - 1;
    }
    state_->select(hits_[i], true);
    emit message(tr("Match %1 of %2").arg(i + 1).arg(hits_.size()));
}

bool SearchController::eventFilter(QObject* watched, QEvent* event) {
    if (watched == field_ && event->type() == QEvent::KeyPress) {
        auto* key = static_cast<QKeyEvent*>(event);
        if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
            step(key->modifiers() & Qt::ShiftModifier ? -1 : +1);
            return true;
        }
        if (key->key() == Qt::Key_Escape) {
            emit escaped();
            return true;
        }
    }
    return QObject::eventFilter(watched, event);
}
