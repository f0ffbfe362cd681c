#include "state/recent_files.h"

#include <QAction>
#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace {

constexpr int kMaxRecent = 10;
const QString kKey = QStringLiteral("recentFiles");
const QString kFolderKey = QStringLiteral("lastFolder");

}  // namespace

RecentFiles::RecentFiles(QMenu* menu, QObject* parent) : QObject(parent), menu_(menu) {
    rebuildMenu();
}

void RecentFiles::add(const QString& trace, const QString& kernelInfo) {
    QSettings settings;
    QStringList recent = settings.value(kKey).toStringList();
    // One entry per line: the trace, then the kernel information when one was given.
    const QString entry =
        QFileInfo(trace).absoluteFilePath() +
        (kernelInfo.isEmpty() ? QString()
                              : QLatin1Char('\n') + QFileInfo(kernelInfo).absoluteFilePath());
    recent.removeAll(entry);
    recent.prepend(entry);
    while (recent.size() > kMaxRecent) recent.removeLast();
    settings.setValue(kKey, recent);
    settings.setValue(kFolderKey, QFileInfo(trace).absolutePath());
    rebuildMenu();
}

QString RecentFiles::lastFolder() {
    const QString folder = QSettings().value(kFolderKey).toString();
    return !folder.isEmpty() && QFileInfo(folder).isDir() ? folder : QDir::homePath();
}

void RecentFiles::rebuildMenu() {
    menu_->clear();
    const QStringList recent = QSettings().value(kKey).toStringList();
    for (const QString& entry : recent) {
        const QStringList parts = entry.split(QLatin1Char('\n'));
        QString text = QFileInfo(parts[0]).fileName();
        if (parts.size() > 1) text += tr(" + %1").arg(QFileInfo(parts[1]).fileName());
        QAction* a = menu_->addAction(
            text, this, [this, parts] { emit openRequested(parts[0], parts.value(1)); });
        a->setToolTip(parts.join(QLatin1Char('\n')));
    }
    menu_->setEnabled(!recent.isEmpty());
}
