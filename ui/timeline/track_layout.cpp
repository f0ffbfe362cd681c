#include "timeline/track_layout.h"

#include <QDir>
#include <QFileInfo>
#include <QHash>
#include <QRegularExpression>
#include <QSettings>
#include <QVariantMap>

using namespace stackline;

namespace {

const QString kKey = QStringLiteral("trackLayouts");

QString folderKey(const QString& folder) {
    return QDir::cleanPath(QFileInfo(folder).absoluteFilePath());
}

QVariantMap toVariant(const QMap<QString, int>& m) {
    QVariantMap out;
    for (auto it = m.begin(); it != m.end(); ++it) out.insert(it.key(), it.value());
    return out;
}

QVariantMap toVariant(const QMap<QString, QStringList>& m) {
    QVariantMap out;
    for (auto it = m.begin(); it != m.end(); ++it) out.insert(it.key(), it.value());
    return out;
}

QString fromStd(const std::string& s) {
    return QString::fromStdString(s);
}

// Appends "~2", "~3", ... to the second and later uses of a key, so that every key is unique.
void numberRepeats(std::vector<QString>& keys) {
    QHash<QString, int> seen;
    for (QString& k : keys) {
        const int n = ++seen[k];
        if (n > 1) k += QStringLiteral("~%1").arg(n);
    }
}

}  // namespace

TrackLayout TrackLayout::load(const QString& traceFolder) {
    const QVariantMap m = QSettings().value(kKey).toMap().value(folderKey(traceFolder)).toMap();
    TrackLayout l;
    l.processOrder = m.value(QStringLiteral("processOrder")).toStringList();
    const QVariantMap order = m.value(QStringLiteral("trackOrder")).toMap();
    for (auto it = order.begin(); it != order.end(); ++it)
        l.trackOrder.insert(it.key(), it.value().toStringList());
    l.pinned = m.value(QStringLiteral("pinned")).toStringList();
    l.hidden = m.value(QStringLiteral("hidden")).toStringList();
    l.collapsed = m.value(QStringLiteral("collapsed")).toStringList();
    const QVariantMap depth = m.value(QStringLiteral("depth")).toMap();
    for (auto it = depth.begin(); it != depth.end(); ++it)
        l.depth.insert(it.key(), it.value().toInt());
    return l;
}

void TrackLayout::save(const QString& traceFolder) const {
    QSettings settings;
    QVariantMap all = settings.value(kKey).toMap();
    if (*this == TrackLayout{}) {
        all.remove(folderKey(traceFolder));
    } else {
        all.insert(folderKey(traceFolder),
                   QVariantMap{{QStringLiteral("processOrder"), processOrder},
                               {QStringLiteral("trackOrder"), toVariant(trackOrder)},
                               {QStringLiteral("pinned"), pinned},
                               {QStringLiteral("hidden"), hidden},
                               {QStringLiteral("collapsed"), collapsed},
                               {QStringLiteral("depth"), toVariant(depth)}});
    }
    settings.setValue(kKey, all);
}

TrackKeys TrackKeys::of(const TrackIndex& index) {
    TrackKeys keys;
    for (const Process& p : index.processes()) {
        if (p.gpu || !p.pid.isInt)
            keys.process.push_back(fromStd(p.label()));
        else
            keys.process.push_back(fromStd(p.labels) + QLatin1Char(' ') +
                                   (p.name.empty() ? QStringLiteral("process") : fromStd(p.name)));
    }
    numberRepeats(keys.process);
    // Kineto names CPU threads "thread <tid> (<comm>)"; the tid changes from run to run.
    static const QRegularExpression digits(QStringLiteral("\\d+"));
    for (const Track& t : index.tracks()) {
        const Process& p = index.processes()[t.process];
        QString name;
        if (t.gpu)
            name = fromStd(t.name).trimmed();
        else if (t.tid.isInt && p.pid.isInt && t.tid.value == p.pid.value)
            name = QStringLiteral("main");
        else
            name = fromStd(t.name).replace(digits, QStringLiteral("#"));
        keys.track.push_back(keys.process[t.process] + QStringLiteral(" / ") + name);
    }
    numberRepeats(keys.track);
    return keys;
}
