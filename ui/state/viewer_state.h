// The viewer's state, in one place: the loaded documents, the selected event, the highlighted
// events, the time window (its ZoomControl) and the history of selections. Panels and the
// timeline receive it, change it through its methods and follow it through its signals; they
// never call each other.
#pragma once

#include <QObject>
#include <QString>
#include <memory>
#include <optional>
#include <vector>

#include "base/time_range.h"
#include "state/viewed_trace.h"

class ZoomControl;

// An event of one loaded document.
struct EventRef {
    const ViewedTrace* doc = nullptr;
    uint32_t row = stackline::kNoRow;

    bool isValid() const { return doc && row != stackline::kNoRow; }
    bool operator==(const EventRef&) const = default;
};

// A selected time range (a drag on the ruler, Shift+drag over tracks, a double-clicked
// ProfilerStep) and the tracks it covers, in the current document (its own times and track ids).
struct RangeSelection {
    stackline::TimeRange range;
    std::vector<uint32_t> tracks;  // TrackIndex track ids; empty: every track

    bool operator==(const RangeSelection&) const = default;
};

class ViewerState : public QObject {
    Q_OBJECT
public:
    explicit ViewerState(QObject* parent = nullptr);

    // The open traces: one, the ranks of a job, or two runs to compare.
    const std::vector<std::shared_ptr<const ViewedTrace>>& documents() const { return documents_; }
    // The document the panels show: the first one until another is made current (selecting an
    // event of another document does), or null when none is loaded.
    std::shared_ptr<const ViewedTrace> current() const;
    void setCurrent(const ViewedTrace* doc);    // emits currentChanged when it changes
    int indexOf(const ViewedTrace* doc) const;  // -1 when not loaded
    // Per document, the ns added to its own times to put it on the window's one time axis (the
    // traces' clocks lined up; 0 with one trace).
    int64_t offsetNs(const ViewedTrace* doc) const;
    // One per document; shows the whole axis (every document's time range, shifted); emits
    // offsetsChanged.
    void setOffsets(std::vector<int64_t> offsets);
    // Replaces the loaded documents: clears selection, highlight and history, and shows the
    // documents' whole time range. Emits documentsChanged only.
    void setDocuments(std::vector<std::shared_ptr<const ViewedTrace>> documents);
    void setDocument(std::shared_ptr<const ViewedTrace> document);

    // The time window; owned here, one for all views.
    ZoomControl* zoom() const { return zoom_; }

    // The selected event; selecting one of another document makes that document current.
    EventRef selected() const { return selected_; }
    // The selected row when it is in this document, else kNoRow.
    uint32_t selectedRow(const ViewedTrace* doc) const;
    // Selects an event of the current document (kNoRow clears); reveal: scroll the timeline to
    // it. A new selection goes into the history.
    void select(uint32_t row, bool reveal = false);
    void select(EventRef event, bool reveal = false);
    // Selects an event, centres it and zooms so that its launch (for a kernel) is in view too.
    void focus(uint32_t row);

    // Events drawn with an outline (e.g. the kernels of a source hotspot), in the current
    // document; empty: none.
    const std::vector<uint32_t>& highlighted() const { return highlighted(current().get()); }
    // Sets the current document's and clears the others'.
    void setHighlighted(std::vector<uint32_t> rows);
    // Per document (the kernels of a compared line in both runs): a document's highlighted rows,
    // and all of them at once, parallel to documents().
    const std::vector<uint32_t>& highlighted(const ViewedTrace* doc) const;
    void setHighlights(std::vector<std::vector<uint32_t>> perDocument);

    // The selected range; nullopt when there is none. The Selection tab summarises it; the
    // Kernels, Hotspots and Flame tabs can follow it.
    const std::optional<RangeSelection>& selectedRange() const { return range_; }
    void setSelectedRange(std::optional<RangeSelection> range);

    // Markers (flags) the user dropped, times in ns, sorted; the ruler shows the time between
    // consecutive ones. Cleared with the documents.
    const std::vector<int64_t>& markers() const { return markers_; }
    void addMarker(int64_t timeNs);
    void clearMarkers();

    // Asks for a source line to be shown (a stack frame or a hotspot line was chosen).
    void showSource(const QString& file, int line, const QString& code = {});

    bool canGoBack() const;
    bool canGoForward() const { return position_ + 1 < history_.size(); }

public slots:
    // The previous / next selection in the history, revealed.
    void back();
    void forward();

signals:
    // The documents were replaced; selection, highlight and history are empty.
    void documentsChanged();
    void currentChanged();
    void offsetsChanged();
    void selectionChanged();
    // The selection wants to be visible (a panel or search chose it, not a click on it).
    void revealRequested();
    void highlightChanged();
    void rangeChanged();
    void markersChanged();
    void historyChanged();
    void sourceRequested(const QString& file, int line, const QString& code);

private:
    void setSelected(EventRef event, bool reveal);
    // The zoom's extent: the union of the documents' time ranges on the shared axis.
    void showWholeAxis();
    void go(size_t position);

    std::vector<std::shared_ptr<const ViewedTrace>> documents_;
    size_t current_ = 0;
    std::vector<int64_t> offsets_;
    ZoomControl* zoom_;
    EventRef selected_;
    std::vector<std::vector<uint32_t>> highlighted_;  // parallel to documents_
    std::optional<RangeSelection> range_;
    std::vector<int64_t> markers_;
    // Selections made, oldest first; position_ is the current one (or the last one, when the
    // selection was cleared since: clearing is not a step of the history).
    std::vector<EventRef> history_;
    size_t position_ = 0;
};
