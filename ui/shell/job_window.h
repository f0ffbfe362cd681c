// The job view: a steps result (stackline-cli steps or merge --json, any number of ranks) as a
// rank x step heat map (panels/job_heat_map_view.h) of a chosen metric, a rank filter, and beside
// it each step's straggler and slowest collectives and each rank's spread from the median. No
// trace is loaded: the core reads the result (analysis/step_results.h). Clicking a cell opens that
// rank's trace, from the path the result recorded, in an ordinary MainWindow zoomed to the step; a
// trace recorded elsewhere is found through the folder map of ui/state/path_map, which a banner
// offers to extend when the trace is not here.
#pragma once

#include <QMainWindow>
#include <memory>

#include "analysis/job_heat_map.h"

class JobHeatMapView;
class MainWindow;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;

class JobWindow : public QMainWindow {
    Q_OBJECT
public:
    // Reads the result and shows it; null, with *error saying why (the file named), when it
    // cannot be read or is not a steps result.
    static JobWindow* open(const QString& path, QString* error);
    // What File → Open, a drop and Open Recent ask first. NotAJob: load the path as a trace.
    enum class Opened { NotAJob, Shown, Failed };
    // A steps result opens in a new job window (deleted on close); one that cannot be read says
    // why in a message box over parent.
    static Opened openIfJob(const QString& path, QWidget* parent);

    QString resultPath() const { return path_; }
    const stackline::JobHeatMap& map() const { return *map_; }
    JobHeatMapView* heatMap() const { return heatMap_; }
    QComboBox* metricBox() const { return metricBox_; }
    QLineEdit* rankFilterEdit() const { return filterEdit_; }
    // Why the filter text is refused; empty when it is taken.
    QString filterError() const;
    QTreeWidget* stepsTree() const { return stepsTree_; }
    QTreeWidget* spreadTree() const { return spreadTree_; }
    // The missing-trace banner's text; empty while it is hidden.
    QString bannerText() const;
    QPushButton* mapFolderButton() const { return mapButton_; }

    void setMetric(stackline::JobMetric metric);
    // Applies a rank filter ("0-7, 512"); false (the shown ranks kept) when it is not one.
    bool setRankFilter(const QString& text);
    // Opens the rank's trace zoomed to the step in a new MainWindow (deleted on close), which it
    // returns; null when the trace is not on this machine, which the banner then says.
    MainWindow* openRankTrace(size_t rank, size_t step);
    // Maps the recorded folder to a local one (remembered for results in this result's folder)
    // and retries the trace the banner is about.
    MainWindow* mapFolder(const QString& recorded, const QString& local);

signals:
    void traceOpened(MainWindow* window);

private:
    JobWindow(const QString& path, std::shared_ptr<const stackline::StepsResult> result);
    void fillSteps();
    void fillSpreads();
    void chooseMapping();
    // The recorded trace path, made absolute against the result's folder.
    QString recordedTrace(size_t rank) const;

    QString path_;
    std::shared_ptr<const stackline::JobHeatMap> map_;
    JobHeatMapView* heatMap_;
    QComboBox* metricBox_;
    QLineEdit* filterEdit_;
    QLabel* filterError_;
    QTreeWidget* stepsTree_;
    QTreeWidget* spreadTree_;
    QWidget* banner_;
    QLabel* bannerLabel_;
    QPushButton* mapButton_;
    // The cell whose trace the banner is about.
    size_t missingRank_ = 0, missingStep_ = 0;
};
