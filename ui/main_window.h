// The main window: the layout, menus and actions. Timeline and details side by side, the Kernels /
// Unresolved / Diagnostics / Hotspots / Source tabs below, search in the tool bar, file and
// kernel-information names and the trace's counts in the status bar. Every view follows one
// ViewerState. Loading and exporting run as BackgroundJobs with progress and Cancel; a failed load
// keeps the open trace.
#pragma once

#include <QMainWindow>
#include <QMessageBox>
#include <memory>

#include "background_job.h"
#include "load_job.h"

class DetailsPanel;
class DiagnosticsPanel;
class HotspotsPanel;
class SourceView;
class KernelsPanel;
class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QTabWidget;
class RecentFiles;
class ReloadBanner;
class SearchController;
class TimelineView;
class TraceFileWatcher;
class UnresolvedPanel;
class ViewerState;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Loads a trace in the background; kernelInfo empty: use the one beside the trace, if any.
    void openTrace(const QString& trace, const QString& kernelInfo = {});
    // Reprocesses the open trace with this kernel information.
    void attachKernelInfo(const QString& kernelInfo);
    // Opens the current trace again, with the kernel information it was given.
    void reload();
    void exportTo(const QString& path);
    // Stops a running load or export (the Cancel button).
    void cancelJobs();

    // The open trace (the state's current document), or null.
    const Document* document() const;
    bool isBusy() const;
    QString lastError() const { return lastError_; }

    ViewerState* state() const { return state_; }
    SearchController* search() const { return search_; }
    TimelineView* timeline() const { return timeline_; }
    DetailsPanel* details() const { return details_; }
    KernelsPanel* kernels() const { return kernels_; }
    UnresolvedPanel* unresolved() const { return unresolved_; }
    DiagnosticsPanel* diagnostics() const { return diagnostics_; }
    HotspotsPanel* hotspots() const { return hotspots_; }
    SourceView* source() const { return source_; }
    ReloadBanner* reloadBanner() const { return banner_; }
    TraceFileWatcher* fileWatcher() const { return watcher_; }
    QTabWidget* tabs() const { return tabs_; }
    // Shows the tab named kernels, unresolved, diagnostics, hotspots or source; false if none.
    bool showTab(const QString& name);
    // "12 events · 3 kernels · 2 annotated · 1 unresolved" (the summary's counts).
    QString countsText() const;

signals:
    void documentLoaded();
    void loadFailed(const QString& message);
    void loadCancelled();
    void exportFinished(bool ok, const QString& message);

protected:
    void dragEnterEvent(QDragEnterEvent*) override;
    void dropEvent(QDropEvent*) override;
    void closeEvent(QCloseEvent*) override;

private:
    void buildMenus();
    void buildLayout();
    void startLoad(const LoadRequest& request);
    void onLoadFinished(bool cancelled, const QString& error);
    void onExportFinished(bool cancelled, const QString& error);
    void showDocument();
    void showError(const QString& title, const QString& message);
    void showMessageBox(QMessageBox::Icon icon, const QString& name, const QString& title,
                        const QString& message);
    void warnIfKernelInfoMatchesNothing();
    void showProgress(const QString& stage, int permille);
    void chooseTrace();
    void chooseKernelInfo();
    void chooseExport();

    ViewerState* state_;
    TimelineView* timeline_;
    DetailsPanel* details_;
    KernelsPanel* kernels_;
    UnresolvedPanel* unresolved_;
    DiagnosticsPanel* diagnostics_;
    HotspotsPanel* hotspots_;
    SourceView* source_;
    QTabWidget* tabs_;
    SearchController* search_;
    RecentFiles* recent_;
    ReloadBanner* banner_;
    TraceFileWatcher* watcher_;
    QLabel* fileLabel_;
    QLabel* countsLabel_;
    QWidget* progressBox_;
    QLabel* progressLabel_;
    QProgressBar* progressBar_;
    QPushButton* cancelButton_;
    QList<QAction*> documentActions_;

    BackgroundJob loadJob_;
    BackgroundJob exportJob_;
    LoadRequest pendingRequest_;
    std::shared_ptr<std::shared_ptr<Document>> pendingResult_;
    QString pendingExport_;
    QString lastError_;
};
