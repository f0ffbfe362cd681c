// File → Open Recent: the last traces opened (with the kernel information given for them, if any),
// newest first, remembered in QSettings under "recentFiles"; and the folder of the last one, where
// File → Open starts ("lastFolder").
#pragma once

#include <QObject>
#include <QString>

class QMenu;

class RecentFiles : public QObject {
    Q_OBJECT
public:
    // Fills menu (owned by the caller) and keeps it up to date.
    explicit RecentFiles(QMenu* menu, QObject* parent = nullptr);

    // kernelInfo empty: the trace was opened without (or with the kernel information beside it).
    void add(const QString& trace, const QString& kernelInfo);
    // The folder of the last trace added, while it exists; else the home folder.
    static QString lastFolder();

signals:
    void openRequested(const QString& trace, const QString& kernelInfo);

private:
    void rebuildMenu();

    QMenu* menu_;
};
