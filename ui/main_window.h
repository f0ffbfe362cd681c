// The main window: timeline and details side by side, the Kernels / Unresolved / Diagnostics /
// Hotspots / Source tabs below, search in the tool bar, file and kernel-information names in the
// status bar. Loading and exporting run as BackgroundJobs with progress and Cancel; a failed load
// keeps the open trace.
#pragma once

#include <QMainWindow>
#include <QMessageBox>
#include <memory>
#include <vector>

#include "background_job.h"
#include "load_job.h"

class DetailsPanel;
class DiagnosticsPanel;
class HotspotsPanel;
class SourceView;
class KernelsPanel;
class QLabel;
class QLineEdit;
class QMenu;
class QProgressBar;
class QPushButton;
class QTabWidget;
class TimelineView;
class TrackModel;
class UnresolvedPanel;
class ZoomControl;

class MainWindow : public QMainWindow {
    Q_OBJECT
public:
    explicit MainWindow(QWidget* parent = nullptr);
    ~MainWindow() override;

    // Loads a trace in the background; kernelInfo empty: use the one beside the trace, if any.
    void openTrace(const QString& trace, const QString& kernelInfo = {});
    // Reprocesses the open trace with this kernel information.
    void attachKernelInfo(const QString& kernelInfo);
    void exportTo(const QString& path);
    // Stops a running load or export (the Cancel button).
    void cancelJobs();

    const Document* document() const { return doc_.get(); }
    bool isBusy() const;
    QString lastError() const { return lastError_; }

    // The event with this uid, else the first slice (by time) named exactly `text`, else the first
    // whose name contains it; kNoRow when none.
    uint32_t findEvent(const QString& text) const;
    // Selects an event, centres it and zooms so that its launch (for a kernel) is in view too.
    void focusEvent(uint32_t row);

    TimelineView* timeline() const { return timeline_; }
    DetailsPanel* details() const { return details_; }
    KernelsPanel* kernels() const { return kernels_; }
    UnresolvedPanel* unresolved() const { return unresolved_; }
    DiagnosticsPanel* diagnostics() const { return diagnostics_; }
    HotspotsPanel* hotspots() const { return hotspots_; }
    SourceView* source() const { return source_; }
    QTabWidget* tabs() const { return tabs_; }
    // Shows the tab named kernels, unresolved, diagnostics, hotspots or source; false if none.
    bool showTab(const QString& name);
    QLineEdit* searchField() const { return search_; }

public slots:
    void findNext();
    void findPrevious();

signals:
    void documentLoaded();
    void loadFailed(const QString& message);
    void loadCancelled();
    void exportFinished(bool ok, const QString& message);

protected:
    void dragEnterEvent(QDragEnterEvent*) override;
    void dropEvent(QDropEvent*) override;
    void closeEvent(QCloseEvent*) override;
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void buildMenus();
    void buildLayout();
    void startLoad(const LoadRequest& request);
    void onLoadFinished(bool cancelled, const QString& error);
    void onExportFinished(bool cancelled, const QString& error);
    void setDocument(std::shared_ptr<const Document> doc);
    void showError(const QString& title, const QString& message);
    void showMessageBox(QMessageBox::Icon icon, const QString& name, const QString& title,
                        const QString& message);
    void warnIfKernelInfoMatchesNothing();
    void showProgress(const QString& stage, int permille);
    void select(uint32_t row);
    void updateSearchHits();
    void step(int direction);
    void chooseTrace();
    void chooseKernelInfo();
    void chooseExport();
    void addRecent(const QString& trace, const QString& kernelInfo);
    void rebuildRecentMenu();

    std::shared_ptr<const Document> doc_;
    std::shared_ptr<TrackModel> trackModel_;
    ZoomControl* zoom_;
    TimelineView* timeline_;
    DetailsPanel* details_;
    KernelsPanel* kernels_;
    UnresolvedPanel* unresolved_;
    DiagnosticsPanel* diagnostics_;
    HotspotsPanel* hotspots_;
    SourceView* source_;
    QTabWidget* tabs_;
    QLineEdit* search_;
    QLabel* fileLabel_;
    QLabel* countsLabel_;
    QWidget* progressBox_;
    QLabel* progressLabel_;
    QProgressBar* progressBar_;
    QPushButton* cancelButton_;
    QMenu* recentMenu_;
    QList<QAction*> documentActions_;

    BackgroundJob loadJob_;
    BackgroundJob exportJob_;
    LoadRequest pendingRequest_;
    std::shared_ptr<std::shared_ptr<Document>> pendingResult_;
    QString pendingExport_;
    QString lastError_;

    QString searchText_;
    std::vector<uint32_t> searchHits_;  // by start time
};
