#include "panels/panel_table.h"

#include <QObject>
#include <QStringList>

#include "panels/diagnostics_panel.h"
#include "panels/diff_panel.h"
#include "panels/flame_panel.h"
#include "panels/hotspots_panel.h"
#include "panels/kernel_code_panel.h"
#include "panels/kernels_panel.h"
#include "panels/selection_panel.h"
#include "panels/source_view.h"
#include "panels/steps_panel.h"
#include "panels/unresolved_panel.h"
#include "state/viewer_state.h"

namespace {

// A row whose functions take the panel as the type its factory made.
template <class Panel>
struct Row {
    PanelInfo info;

    Row(const char* id, const QString& title, const QString& note = {}) {
        info.id = QString::fromLatin1(id);
        info.title = title;
        info.note = note;
        info.create = [](ViewerState* state) -> QWidget* { return new Panel(state); };
    }
    Row& badge(std::function<TabBadge(Panel*, const TabContext&)> f) {
        info.badge = [f](QWidget* p, const TabContext& c) { return f(static_cast<Panel*>(p), c); };
        return *this;
    }
    template <class Signal>
    Row& badgeChanged(Signal signal) {
        info.badgeChanged = [signal](QWidget* p, QObject* context, std::function<void()> f) {
            QObject::connect(static_cast<Panel*>(p), signal, context, std::move(f));
        };
        return *this;
    }
    // The panel's signal asks for the tab `id`.
    template <class Signal>
    Row& opens(Signal signal, const char* id) {
        info.opens = [signal, id](QWidget* p, QObject* context,
                                  std::function<void(const QString&)> show) {
            QObject::connect(static_cast<Panel*>(p), signal, context,
                             [show, id] { show(QString::fromLatin1(id)); });
        };
        return *this;
    }
    Row& stepper(InstanceStepper* (Panel::*get)() const) {
        info.stepper = [get](QWidget* p) { return (static_cast<Panel*>(p)->*get)(); };
        return *this;
    }
};

// A count of the current document's (none open: 0).
template <class Panel>
TabBadge countOf(Panel* panel, const TabContext& c) {
    return {c.state.current() ? panel->count() : 0};
}

std::vector<PanelInfo> buildTable() {
    return {
        Row<KernelsPanel>("kernels", QObject::tr("Kernels")).stepper(&KernelsPanel::stepper).info,
        Row<UnresolvedPanel>("unresolved", QObject::tr("Unresolved"))
            .badge(countOf<UnresolvedPanel>)
            .stepper(&UnresolvedPanel::stepper)
            .info,
        Row<DiagnosticsPanel>("diagnostics", QObject::tr("Diagnostics"))
            .badge(countOf<DiagnosticsPanel>)
            .info,
        Row<HotspotsPanel>("hotspots", QObject::tr("Hotspots"))
            .badge(countOf<HotspotsPanel>)
            // Its toggles change the lines shown without another document.
            .badgeChanged(&HotspotsPanel::linesChanged)
            .opens(&HotspotsPanel::kernelCodeRequested, "code")
            .stepper(&HotspotsPanel::stepper)
            .info,
        Row<SourceView>("source", QObject::tr("Source"))
            .opens(&SourceView::kernelCodeRequested, "code")
            .info,
        Row<SelectionPanel>("selection", QObject::tr("Selection")).info,
        Row<FlamePanel>("flame", QObject::tr("Flame")).info,
        Row<KernelCodePanel>("code", QObject::tr("Kernel code"), QObject::tr("Kernel code"))
            .opens(&KernelCodePanel::sourceOpened, "source")
            .info,
        // Greyed when there is no step to list (a single trace without ProfilerStep spans); not
        // while computing, which would move a user (or --tab steps) off it.
        Row<StepsPanel>("steps", QObject::tr("Steps"))
            .badge([](StepsPanel* p, const TabContext&) {
                return TabBadge{
                    p->hasSteps() ? std::optional(p->model()->rowCount()) : std::nullopt,
                    p->hasSteps() || p->isComputing()};
            })
            .badgeChanged(&StepsPanel::stepsChanged)
            .info,
        // Only while two runs are compared (two ranks of a job are not runs).
        Row<DiffPanel>("diff", QObject::tr("Diff"), QObject::tr("with --compare"))
            .badge([](DiffPanel* p, const TabContext& c) {
                return TabBadge{{}, true, c.comparingRuns && p->isComparing()};
            })
            .info,
    };
}

}  // namespace

const std::vector<PanelInfo>& panelTable() {
    static const std::vector<PanelInfo> table = buildTable();
    return table;
}

QString tabText(const PanelInfo& info, const TabBadge& badge) {
    return badge.count ? QStringLiteral("%1 (%2)").arg(info.title).arg(*badge.count) : info.title;
}

QString panelIdsText() {
    QStringList ids;
    for (const PanelInfo& p : panelTable())
        ids << (p.note.isEmpty() ? p.id : QStringLiteral("%1 (%2)").arg(p.id, p.note));
    const QString last = ids.takeLast();
    return QObject::tr("%1 or %2").arg(ids.join(QStringLiteral(", ")), last);
}
