#include "import/nsight/nsight_format.h"

#include "import/nsight/nsight_loader.h"

namespace stackline {

const TraceFormat& nsightSqliteFormat() {
    static const TraceFormat format{
        .id = "nsight-sqlite",
        .name = "Nsight Systems SQLite export",
        // `nsys export --type sqlite` and `nsys stats` write REPORT.sqlite beside REPORT.nsys-rep.
        .patterns = {"*.sqlite"},
        // SQLite's own type: Stackline is one more handler of .sqlite files, never the
        // default application of all of them.
        .mimeTypes = {{"application/vnd.sqlite3", "SQLite database", "", "", ""}},
        // The SQLite header; whether the Nsight tables are there is checked on open.
        .sniff = nsight::looksLikeSqlite,
        .read = nsight::readNsightSqlite,
        .annotatedExport = AnnotatedExport::ChromeJson,
        // Nsight Systems records torch.compile's regions as NVTX ranges only when asked.
        .recordRegions =
            "profile with `nsys profile --trace=cuda,nvtx --pytorch=autograd-nvtx`, which records "
            "torch.compile's regions as NVTX ranges (\"Torch-Compiled Region: 0/0\").",
    };
    return format;
}

}  // namespace stackline
