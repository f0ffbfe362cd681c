// The main window: the layout, menus and actions. Timeline and details side by side, the tabs of
// the panel table (panels/panel_table.h) below, search in the tool bar, file and kernel-information
// names and the trace's counts in the status bar (elided when the window is narrow). Every view
// follows one ViewerState. Loading and exporting run as BackgroundJobs with progress and Cancel; a
// failed load keeps the open trace.
#pragma once

#include <QMainWindow>
#include <QMessageBox>
#include <memory>
#include <vector>

#include "analysis/job_steps.h"
#include "state/background_job.h"
#include "state/load_job.h"

class DetailsPanel;
class ElidedLabel;
class InstanceStepper;
class QAction;
class QMenu;
class QProgressBar;
class QPushButton;
class QTabWidget;
class RecentFiles;
class ReloadBanner;
class SearchController;
class TimelineView;
class TraceFileWatcher;
class ViewerState;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Loads a trace in the background; kernelInfo empty: use the one beside the trace, if any.
    void openTrace(const QString& trace, const QString& kernelInfo = {});
    // Loads several traces (the ranks of a job) into this window, in place of what it shows: one
    // group of tracks per trace on one time axis, ordered by rank. Of several, one that cannot be
    // read (a folder's other .json files) is skipped and named in a warning; the others open.
    void openTraces(const QStringList& traces);
    // Loads a trace and adds it to the traces this window shows (File → Add Trace).
    void addTrace(const QString& trace);
    // Opens traces as File → Open does: here when this window shows none, else in a new window.
    // The window that loads them.
    MainWindow* openTraceInWindow(const QString& trace, const QString& kernelInfo = {});
    MainWindow* openTracesInWindow(const QStringList& traces);
    // The traces of a folder (its *.json and *.json.gz files that are not kernel information),
    // by name; loading orders them by rank.
    static QStringList tracesInFolder(const QString& folder);
    // Traces opened from this folder are not remembered (the bundled example's temporary copy).
    void setTransientFolder(const QString& folder) { transientFolder_ = folder; }
    // Where File → Open starts: the folder of the last trace opened, while it exists.
    QString openDialogFolder() const;
    // Opens another run of the same program beside the open one, to compare: the open trace is the
    // base run, this one the new run, one above the other on their first common profiler step;
    // shows the Diff tab. kernelInfo empty: the one beside the trace, if any.
    void compareWith(const QString& trace, const QString& kernelInfo = {});
    // Reprocesses the open trace with this kernel information.
    void attachKernelInfo(const QString& kernelInfo);
    // Opens the traces again, with the kernel information they were given.
    void reload();
    // How the traces' clocks are lined up (View → Align Traces); step: for Alignment::Step.
    void setAlignment(stackline::Alignment alignment, int64_t step = 0);
    stackline::Alignment alignment() const { return alignment_; }
    void exportTo(const QString& path);
    // Stops a running load or export (the Cancel button).
    void cancelJobs();

    // The open trace (the state's current document), or null.
    const ViewedTrace* document() const;
    bool isBusy() const;
    QString lastError() const { return lastError_; }

    ViewerState* state() const { return state_; }
    SearchController* search() const { return search_; }
    TimelineView* timeline() const { return timeline_; }
    DetailsPanel* details() const { return details_; }
    // The tab of this panel type (window.panel<HotspotsPanel>()), or null.
    template <class Panel>
    Panel* panel() const {
        for (QWidget* page : panels_)
            if (auto* p = qobject_cast<Panel*>(page)) return p;
        return nullptr;
    }
    ReloadBanner* reloadBanner() const { return banner_; }
    TraceFileWatcher* fileWatcher() const { return watcher_; }
    QTabWidget* tabs() const { return tabs_; }
    // View → Show All Flows in View (checkable; trigger() toggles it as the menu does).
    QAction* showAllFlowsAction() const { return showAllFlows_; }
    // Shows the tab of this id (panels/panel_table.h), if it is there (the Diff tab is only while
    // comparing two runs); false if not.
    bool showTab(const QString& name);
    // "12 events · 3 kernels · 2 annotated · 1 unresolved" (the summary's counts, of the current
    // trace).
    QString countsText() const;
    // The status bar's labels: the trace and kernel information's names, the counts.
    ElidedLabel* fileLabel() const { return fileLabel_; }
    ElidedLabel* countsLabel() const { return countsLabel_; }
    // The stepper that Go → Next / Previous / Slowest Instance drive: the current tab's when it
    // has one (Unresolved, Hotspots), else the Kernels tab's.
    InstanceStepper* currentStepper() const;

signals:
    void documentLoaded();
    // Compare With… opened the new run: the window shows both.
    void comparisonLoaded();
    void loadFailed(const QString& message);
    void loadCancelled();
    void exportFinished(bool ok, const QString& message);

protected:
    void dragEnterEvent(QDragEnterEvent*) override;
    void dropEvent(QDropEvent*) override;
    void closeEvent(QCloseEvent*) override;

private:
    void buildMenus();
    void buildAlignMenu(QMenu* align);
    void buildLayout();
    // The tabs' titles, counts and enabled and visible states, from their badges.
    void updateTabs();
    // Open: the requests replace the documents; Add: they join them; Reprocess: the one request
    // (the current trace with other kernel information) replaces the current document; Compare:
    // the two requests (the base run reprocessed, the new run) replace the documents as runs.
    enum class LoadMode { Open, Add, Reprocess, Compare };
    void startLoad(std::vector<LoadRequest> requests, LoadMode mode);
    // Offsets for the current alignment; the first document's is 0 (its times are the axis').
    void applyAlignment();
    void chooseAlignmentStep();
    void onLoadFinished(bool cancelled, const QString& error);
    void onExportFinished(bool cancelled, const QString& error);
    void showDocument();
    void showError(const QString& title, const QString& message);
    // Forgets the status message and error boxes of the trace shown before.
    void clearMessages();
    void showMessageBox(QMessageBox::Icon icon, const QString& name, const QString& title,
                        const QString& message);
    void warnIfKernelInfoMatchesNothing();
    void showProgress(const QString& stage, int permille);
    void chooseTrace();
    // Opens a steps result in a job window (shell/job_window.h), remembered among the recent
    // files; false when path is not one (load it as a trace).
    bool openIfJob(const QString& path);
    void chooseFolder();
    void chooseAddedTrace();
    void chooseKernelInfo();
    void chooseComparison();
    // Shows the base and the new run, labelled as such, lined up on their first common step.
    void showComparison(const std::vector<std::shared_ptr<ViewedTrace>>& runs);
    void chooseExport();

    ViewerState* state_;
    TimelineView* timeline_;
    DetailsPanel* details_;
    std::vector<QWidget*> panels_;  // the tabs, parallel to panelTable()
    QTabWidget* tabs_;
    QAction* showAllFlows_ = nullptr;
    SearchController* search_;
    RecentFiles* recent_;
    ReloadBanner* banner_;
    TraceFileWatcher* watcher_;
    ElidedLabel* fileLabel_;
    ElidedLabel* countsLabel_;
    QWidget* progressBox_;
    ElidedLabel* progressLabel_;
    QProgressBar* progressBar_;
    QPushButton* cancelButton_;
    QList<QAction*> documentActions_;

    BackgroundJob loadJob_;
    BackgroundJob exportJob_;
    std::vector<LoadRequest> pendingRequests_;
    LoadMode pendingMode_ = LoadMode::Open;
    std::shared_ptr<LoadResult> pendingResult_;
    stackline::Alignment alignment_ = stackline::Alignment::Clock;
    int64_t alignStep_ = 0;
    QList<QAction*> alignActions_;  // By Clock, Align Step, Align First Collective
    bool comparing_ = false;        // the documents shown are two runs compared (not two ranks)
    QString pendingExport_;
    QString lastError_;
    QString transientFolder_;
};
