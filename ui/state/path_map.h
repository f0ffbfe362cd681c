// Source path map: traces are usually recorded on another machine, so the files their stacks name
// ("/data/users/alice/proj/model.py") live elsewhere here ("~/src/proj/model.py"). A map of
// recorded prefix → local folder, remembered per trace folder in QSettings, plus session-only
// entries (the bundled example maps its recording folder to where it was extracted).
#pragma once

#include <QList>
#include <QString>

struct PathMapping {
    QString from;  // recorded prefix, e.g. /home/alice/proj
    QString to;    // local folder
};

// The entries for traces in this folder: session entries first, then the remembered ones.
QList<PathMapping> pathMappings(const QString& traceFolder);
// Remembers an entry for this trace folder (replacing one with the same prefix).
void addPathMapping(const QString& traceFolder, const PathMapping& mapping);
// An entry for every trace folder, for this session only.
void addSessionPathMapping(const PathMapping& mapping);

// Where the recorded file is here: the file itself when it exists, else the first mapping whose
// prefix matches (at a path-component boundary) and whose mapped file exists; empty when none.
QString resolveSourcePath(const QString& recorded, const QList<PathMapping>& mappings);
// The mapped candidates tried for a recorded file (for the "looked for" message).
QStringList candidatePaths(const QString& recorded, const QList<PathMapping>& mappings);
