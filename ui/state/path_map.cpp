#include "state/path_map.h"

#include <QDir>
#include <QFileInfo>
#include <QSettings>
#include <QVariantMap>
#include <algorithm>

namespace {

const QString kKey = QStringLiteral("sourcePathMaps");

QList<PathMapping>& sessionMappings() {
    static QList<PathMapping> list;
    return list;
}

QString clean(const QString& p) {
    QString c = QDir::cleanPath(p);
    while (c.size() > 1 && c.endsWith(QLatin1Char('/'))) c.chop(1);
    return c;
}

QString folderKey(const QString& folder) {
    return clean(QFileInfo(folder).absoluteFilePath());
}

// A prefix match at a path-component boundary: "/a/b" matches "/a/b/c.py" but not "/a/bc.py".
bool mapOne(const QString& recorded, const PathMapping& m, QString* out) {
    const QString from = clean(m.from);
    if (from.isEmpty()) return false;
    if (recorded != from && !recorded.startsWith(from + QLatin1Char('/'))) return false;
    *out = clean(m.to) + recorded.mid(from.size());
    return true;
}

}  // namespace

QList<PathMapping> pathMappings(const QString& traceFolder) {
    QList<PathMapping> out = sessionMappings();
    const QVariantMap all = QSettings().value(kKey).toMap();
    const QStringList entries = all.value(folderKey(traceFolder)).toStringList();
    for (const QString& e : entries) {
        const QStringList parts = e.split(QLatin1Char('\n'));
        if (parts.size() == 2) out.push_back({parts[0], parts[1]});
    }
    return out;
}

void addPathMapping(const QString& traceFolder, const PathMapping& mapping) {
    QSettings settings;
    QVariantMap all = settings.value(kKey).toMap();
    const QString key = folderKey(traceFolder);
    QStringList entries = all.value(key).toStringList();
    const QString from = clean(mapping.from);
    entries.erase(std::remove_if(
                      entries.begin(), entries.end(),
                      [&](const QString& e) { return e.section(QLatin1Char('\n'), 0, 0) == from; }),
                  entries.end());
    entries.prepend(from + QLatin1Char('\n') + clean(mapping.to));
    all.insert(key, entries);
    settings.setValue(kKey, all);
}

void addSessionPathMapping(const PathMapping& mapping) {
    sessionMappings().push_back({clean(mapping.from), clean(mapping.to)});
}

QStringList candidatePaths(const QString& recorded, const QList<PathMapping>& mappings) {
    QStringList out;
    const QString r = clean(recorded);
    for (const PathMapping& m : mappings) {
        QString mapped;
        if (mapOne(r, m, &mapped) && !out.contains(mapped)) out << mapped;
    }
    return out;
}

QString resolveSourcePath(const QString& recorded, const QList<PathMapping>& mappings) {
    for (const QString& c : candidatePaths(recorded, mappings))
        if (QFileInfo(c).isFile()) return c;
    if (QFileInfo(recorded).isFile()) return recorded;
    return {};
}
