// The tabs below the timeline, in the order they are shown: each one's id (--tab's name), title,
// factory, count badge, the tabs it asks to show and the stepper Go → Next Instance drives while
// it is current. MainWindow builds its tab bar, --tab, the tab titles and Go → Next Instance from
// this table alone, so a new tab is its panel and one row here; the shell has no per-tab code.
#pragma once

#include <QString>
#include <functional>
#include <optional>
#include <vector>

class InstanceStepper;
class QObject;
class QWidget;
class ViewerState;

// How a tab reads in the tab bar.
struct TabBadge {
    std::optional<int> count;  // shown as "Title (count)"
    bool enabled = true;
    bool visible = true;
};

// What the window knows that its panels do not.
struct TabContext {
    const ViewerState& state;
    bool comparingRuns = false;  // two runs compared (File → Compare With…), not ranks of a job
};

struct PanelInfo {
    QString id;     // lower case: --tab's name
    QString title;  // the tab's text, before its count
    QString note;   // after the id in --tab's help, in parentheses; empty: none
    std::function<QWidget*(ViewerState*)> create;
    // The tab's badge; null: the title alone, enabled and visible. The window asks again when
    // its documents or the current one change, and when badgeChanged says so.
    std::function<TabBadge(QWidget* panel, const TabContext&)> badge;
    // Connects the panel's signal that its badge changed (beyond the documents) to changed,
    // for as long as context lives; null: no such signal.
    std::function<void(QWidget* panel, QObject* context, std::function<void()> changed)>
        badgeChanged;
    // Connects the panel's requests to show another tab to show(that tab's id); null: none.
    std::function<void(QWidget* panel, QObject* context,
                       std::function<void(const QString& id)> show)>
        opens;
    // The stepper Go → Next / Previous / Longest Instance drives while this tab is current; null:
    // the first row's that has one.
    std::function<InstanceStepper*(QWidget* panel)> stepper;
};

const std::vector<PanelInfo>& panelTable();
// "Unresolved (3)": the title and the badge's count.
QString tabText(const PanelInfo& info, const TabBadge& badge);
// The ids for --tab's help: "kernels, …, code (Kernel code), steps or diff (with --compare)".
QString panelIdsText();
