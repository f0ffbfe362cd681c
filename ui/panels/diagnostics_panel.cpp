#include "panels/diagnostics_panel.h"

#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLineEdit>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTextBrowser>
#include <QTimer>
#include <QTreeView>
#include <QVBoxLayout>

#include "panels/table_panel.h"
#include "state/viewer_state.h"
#include "widgets/palette.h"

using namespace stackline;

namespace {

QString fromView(std::string_view s) {
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QString severityText(Severity s) {
    return s == Severity::Error ? DiagnosticsModel::tr("error") : DiagnosticsModel::tr("warning");
}

// "<b>kind</b> (warning): what it means and what to do."
QString kindHtml(DiagnosticKind kind) {
    const DiagnosticKindInfo& info = diagnosticKindInfo(kind);
    return QStringLiteral("<b>%1</b> (%2): %3")
        .arg(fromView(info.name).toHtmlEscaped(), severityText(info.severity),
             fromView(info.text).toHtmlEscaped());
}

}  // namespace

// ---- Model ----
// internalId: 0 on a kind row; kind + 1 on a message row; (message + 1) << 32 | (kind + 1) on an
// event row. So each row knows its parent without a table of nodes.

void DiagnosticsModel::setDocument(std::shared_ptr<const ViewedTrace> doc) {
    beginResetModel();
    doc_ = std::move(doc);
    groups_ = doc_ ? groupDiagnostics(doc_->provenance.diagnostics.records()) : DiagnosticGroups();
    endResetModel();
}

int DiagnosticsModel::diagnosticCount() const {
    return doc_ ? int(doc_->provenance.diagnostics.size()) : 0;
}

DiagnosticsModel::Place DiagnosticsModel::placeOf(const QModelIndex& index) const {
    if (!index.isValid()) return {};
    const quint64 id = index.internalId();
    if (id == 0) return {index.row(), -1, -1};
    if ((id >> 32) == 0) return {int(id) - 1, index.row(), -1};
    return {int(id & 0xffffffffu) - 1, int(id >> 32) - 1, index.row()};
}

QModelIndex DiagnosticsModel::index(int row, int column, const QModelIndex& parent) const {
    if (row < 0 || column < 0 || column > Uid || row >= rowCount(parent)) return {};
    if (!parent.isValid()) return createIndex(row, column, quintptr(0));
    const Place p = placeOf(parent);
    if (p.message < 0) return createIndex(row, column, quintptr(p.kind + 1));
    return createIndex(row, column, (quintptr(p.message + 1) << 32) | quintptr(p.kind + 1));
}

QModelIndex DiagnosticsModel::parent(const QModelIndex& index) const {
    const Place p = placeOf(index);
    if (p.message < 0) return {};
    if (p.event < 0) return createIndex(p.kind, 0, quintptr(0));
    return createIndex(p.message, 0, quintptr(p.kind + 1));
}

int DiagnosticsModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid()) return int(groups_.kinds.size());
    if (parent.column() > 0) return 0;
    const Place p = placeOf(parent);
    const auto& kind = groups_.kinds[size_t(p.kind)];
    if (p.message < 0) return int(kind.messages.size());
    if (p.event < 0) return int(kind.messages[size_t(p.message)].events.size());
    return 0;
}

int DiagnosticsModel::columnCount(const QModelIndex&) const {
    return Uid + 1;
}

int DiagnosticsModel::diagnosticAt(const QModelIndex& index) const {
    const Place p = placeOf(index);
    if (p.message < 0) return -1;
    const auto& message = groups_.kinds[size_t(p.kind)].messages[size_t(p.message)];
    return int(p.event < 0 ? message.diagnostic : message.events[size_t(p.event)].diagnostic);
}

uint32_t DiagnosticsModel::eventAt(const QModelIndex& index) const {
    if (placeOf(index).event < 0) return kNoRow;
    return doc_->provenance.diagnostics[size_t(diagnosticAt(index))].row;
}

DiagnosticKind DiagnosticsModel::kindAt(const QModelIndex& index) const {
    return groups_.kinds[size_t(placeOf(index).kind)].kind;
}

QModelIndex DiagnosticsModel::indexOfEvent(uint32_t event) const {
    const DiagnosticGroups::Position* at = doc_ ? groups_.find(event) : nullptr;
    if (!at) return {};
    return createIndex(int(at->event), 0,
                       (quintptr(at->message + 1) << 32) | quintptr(at->kind + 1));
}

QString DiagnosticsModel::text(const Place& at) const {
    const auto& kind = groups_.kinds[size_t(at.kind)];
    if (at.message < 0)
        return severityText(diagnosticKindInfo(kind.kind).severity) + QStringLiteral(": ") +
               fromView(diagnosticKindName(kind.kind));
    const Diagnostics& diags = doc_->provenance.diagnostics;
    const auto& message = kind.messages[size_t(at.message)];
    if (at.event < 0)
        return QString::fromStdString(diags.message(diags[message.diagnostic], doc_->events()));
    const Diagnostic& d = diags[message.events[size_t(at.event)].diagnostic];
    const std::string_view name = diags.name(d, doc_->events());
    return name.empty() ? doc_->name(d.row) : fromView(name);
}

QString DiagnosticsModel::toolTip(const Place& at) const {
    const auto& kind = groups_.kinds[size_t(at.kind)];
    if (at.message < 0) return QStringLiteral("<p>%1</p>").arg(kindHtml(kind.kind));
    // Rich text, so that a long message wraps.
    QString tip = QStringLiteral("<p>%1</p>").arg(text({at.kind, at.message, -1}).toHtmlEscaped());
    if (at.event < 0) return tip;
    return QStringLiteral("<p>%1</p>").arg(text(at).toHtmlEscaped()) + tip;
}

QVariant DiagnosticsModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || !doc_) return {};
    const Place at = placeOf(index);
    const auto& kind = groups_.kinds[size_t(at.kind)];
    const bool kindRow = at.message < 0;
    switch (role) {
        case Qt::DisplayRole:
            if (index.column() == Text) return text(at);
            if (index.column() == Count) {
                if (kindRow) return kind.occurrences;
                const auto& message = kind.messages[size_t(at.message)];
                if (at.event >= 0) return message.events[size_t(at.event)].occurrences;
                // Logged more than once per event (the reference's warning): say so.
                if (message.events.empty() || message.events.size() == message.occurrences)
                    return message.occurrences;
                return message.events.size() == 1 ? tr("%1 on 1 event").arg(message.occurrences)
                                                  : tr("%1 on %2 events")
                                                        .arg(message.occurrences)
                                                        .arg(message.events.size());
            }
            if (at.event >= 0) return qint64(eventAt(index));
            return {};
        case Qt::ToolTipRole:
            return toolTip(at);
        case Qt::ForegroundRole:
            if (kindRow && index.column() == Text)
                return uiColor(diagnosticKindInfo(kind.kind).severity == Severity::Error
                                   ? UiColor::Error
                                   : UiColor::Warning);
            return {};
        case Qt::FontRole:
            if (kindRow) {
                QFont bold;
                bold.setBold(true);
                return bold;
            }
            return {};
        case Qt::TextAlignmentRole:
            if (index.column() != Text) return QVariant(Qt::AlignRight | Qt::AlignVCenter);
            return {};
    }
    return {};
}

QVariant DiagnosticsModel::headerData(int section, Qt::Orientation o, int role) const {
    if (o != Qt::Horizontal || role != Qt::DisplayRole) return {};
    switch (section) {
        case Text:
            return tr("Kind / message / event");
        case Count:
            return tr("Count");
        case Uid:
            return tr("uid");
    }
    return {};
}

// ---- Panel ----

DiagnosticsPanel::DiagnosticsPanel(ViewerState* state, QWidget* parent)
    : QWidget(parent), state_(state), model_(new DiagnosticsModel) {
    model_->setParent(this);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    filter_ = new QLineEdit;
    filter_->setPlaceholderText(tr("Filter diagnostics…"));
    filter_->setClearButtonEnabled(true);
    layout->addWidget(filter_);

    proxy_ = new QSortFilterProxyModel(this);
    proxy_->setSourceModel(model_);
    proxy_->setFilterCaseSensitivity(Qt::CaseInsensitive);
    proxy_->setFilterKeyColumn(DiagnosticsModel::Text);
    // A match shows its groups above it, and a matching group all it holds.
    proxy_->setRecursiveFilteringEnabled(true);
    proxy_->setAutoAcceptChildRows(true);
    // Filtering tens of thousands of rows takes a moment: once typing pauses, not per key.
    filterDelay_ = new QTimer(this);
    filterDelay_->setSingleShot(true);
    filterDelay_->setInterval(TablePanel::kFilterDelayMs);
    connect(filter_, &QLineEdit::textChanged, filterDelay_, qOverload<>(&QTimer::start));
    connect(filterDelay_, &QTimer::timeout, this, [this] {
        proxy_->setFilterFixedString(filter_->text());
        view_->expandToDepth(0);
    });

    view_ = new QTreeView;
    view_->setModel(proxy_);
    view_->setUniformRowHeights(true);  // rows of one line: fast on tens of thousands of events
    view_->setAlternatingRowColors(true);
    view_->setSelectionBehavior(QAbstractItemView::SelectRows);
    view_->setSelectionMode(QAbstractItemView::SingleSelection);
    view_->setTextElideMode(Qt::ElideMiddle);
    view_->header()->setStretchLastSection(false);
    view_->header()->setSectionResizeMode(DiagnosticsModel::Text, QHeaderView::Stretch);
    view_->header()->setSectionResizeMode(DiagnosticsModel::Count, QHeaderView::Interactive);
    view_->header()->setSectionResizeMode(DiagnosticsModel::Uid, QHeaderView::Interactive);
    view_->header()->resizeSection(DiagnosticsModel::Count, 130);
    view_->header()->resizeSection(DiagnosticsModel::Uid, 90);

    explanation_ = new QTextBrowser;
    explanation_->setOpenLinks(false);
    explanation_->setObjectName(QStringLiteral("diagnosticsExplanation"));

    auto* split = new QSplitter(Qt::Vertical);
    split->addWidget(view_);
    split->addWidget(explanation_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    layout->addWidget(split);

    connect(view_, &QTreeView::clicked, this, &DiagnosticsPanel::activate);
    connect(view_, &QTreeView::activated, this, &DiagnosticsPanel::activate);
    connect(view_->selectionModel(), &QItemSelectionModel::currentChanged, this,
            [this](const QModelIndex& current) { explain(proxy_->mapToSource(current)); });
    // Another document shown: reloaded, or another one of the window made current.
    for (auto shown : {&ViewerState::documentsChanged, &ViewerState::currentChanged})
        connect(state_, shown, this, [this] {
            model_->setDocument(state_->current());
            view_->expandToDepth(0);
            explain({});
        });
    connect(state_, &ViewerState::selectionChanged, this, [this] {
        const auto doc = state_->current();
        markEvent(state_->selectedRow(doc.get()));
    });
}

int DiagnosticsPanel::count() const {
    return model_->diagnosticCount();
}

int DiagnosticsPanel::markedDiagnostic() const {
    const QModelIndex current = view_->selectionModel()->currentIndex();
    if (!current.isValid() || !view_->selectionModel()->isSelected(current)) return -1;
    return model_->diagnosticAt(proxy_->mapToSource(current));
}

void DiagnosticsPanel::activate(const QModelIndex& index) {
    const QModelIndex source = index.model() == proxy_ ? proxy_->mapToSource(index) : index;
    const QModelIndex shown = proxy_->mapFromSource(source);
    if (shown.isValid() && view_->currentIndex() != shown) view_->setCurrentIndex(shown);
    const uint32_t event = model_->eventAt(source);
    if (event != kNoRow) state_->select(event, true);
}

void DiagnosticsPanel::markEvent(uint32_t event) {
    // Several diagnostics can be about one event: keep the one the user clicked.
    const QModelIndex current = proxy_->mapToSource(view_->selectionModel()->currentIndex());
    if (event != kNoRow && current.isValid() && model_->eventAt(current) == event) return;
    const QModelIndex shown = proxy_->mapFromSource(model_->indexOfEvent(event));
    if (!shown.isValid()) {
        view_->selectionModel()->clear();
        return;
    }
    view_->expand(shown.parent());
    view_->selectionModel()->setCurrentIndex(
        shown, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    view_->scrollTo(shown);
}

void DiagnosticsPanel::explain(const QModelIndex& index) {
    const ViewedTrace* doc = model_->document();
    QString html;
    if (doc && index.isValid()) {
        html = QStringLiteral("<p>%1</p>").arg(kindHtml(model_->kindAt(index)));
        const int d = model_->diagnosticAt(index);
        if (d >= 0) {
            const Diagnostics& diags = doc->provenance.diagnostics;
            html += QStringLiteral("<p>%1</p>")
                        .arg(QString::fromStdString(diags.message(diags[size_t(d)], doc->events()))
                                 .toHtmlEscaped());
            const uint32_t event = model_->eventAt(index);
            if (event != kNoRow)
                html += QStringLiteral("<p>") +
                        tr("Event: %1 (uid %2)").arg(doc->name(event).toHtmlEscaped()).arg(event) +
                        QStringLiteral("</p>");
        }
    } else if (doc) {
        // Nothing chosen: what each kind in this run means, and its message when it has one.
        const Diagnostics& diags = doc->provenance.diagnostics;
        for (const auto& kind : model_->groups().kinds) {
            html += QStringLiteral("<p>%1</p>").arg(kindHtml(kind.kind));
            if (kind.messages.size() == 1)
                html +=
                    QStringLiteral("<blockquote>%1</blockquote>")
                        .arg(QString::fromStdString(
                                 diags.message(diags[kind.messages[0].diagnostic], doc->events()))
                                 .toHtmlEscaped());
        }
        if (html.isEmpty()) html = tr("No diagnostics: the processor had nothing to say.");
    }
    explanation_->setHtml(html);
}
