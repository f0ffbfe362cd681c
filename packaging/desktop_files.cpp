// stackline-desktop-files TEMPLATE_DIR OUT_DIR APP_ID: the desktop's view of the trace formats,
// written from core's format table so that the file types are said once. Writes
//   APP_ID.xml           the shared-mime-info package (every format's MIME types and globs),
//   APP_ID.desktop       TEMPLATE_DIR/APP_ID.desktop.in with @MIME_TYPES@ filled in,
//   APP_ID.metainfo.xml  TEMPLATE_DIR/APP_ID.metainfo.xml.in with @MEDIATYPES@ filled in.
// Run at build time (packaging/CMakeLists.txt); a file that would not change is not rewritten.
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>

#include "import/trace_formats.h"

using namespace stackline;

namespace {

std::string readFile(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot read " + path);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

void writeFile(const std::string& path, const std::string& text) {
    std::ifstream old(path);
    if (old) {
        std::ostringstream s;
        s << old.rdbuf();
        if (s.str() == text) return;
    }
    std::ofstream out(path);
    out << text;
    if (!out) throw std::runtime_error("cannot write " + path);
}

void fill(std::string& text, const std::string& name, const std::string& value) {
    const std::string mark = "@" + name + "@";
    const size_t at = text.find(mark);
    if (at == std::string::npos) throw std::runtime_error("template lacks " + mark);
    text.replace(at, mark.size(), value);
}

std::string mimeXml() {
    std::string x =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        "<!-- Installed to /usr/share/mime/packages/; written from the trace format table\n"
        "     (core/import/trace_formats.cpp) by packaging/desktop_files.cpp. The weight beats\n"
        "     the generic globs (50), such as *.json and *.gz. -->\n"
        "<mime-info xmlns=\"http://www.freedesktop.org/standards/shared-mime-info\">\n";
    for (const TraceFormat& f : traceFormats())
        for (const TraceMimeType& m : f.mimeTypes) {
            if (m.glob.empty()) continue;  // the desktop's own type
            x += "  <mime-type type=\"" + std::string(m.type) + "\">\n";
            x += "    <comment>" + std::string(m.comment) + "</comment>\n";
            x += "    <sub-class-of type=\"" + std::string(m.subClassOf) + "\"/>\n";
            x += "    <generic-icon name=\"" + std::string(m.genericIcon) + "\"/>\n";
            x += "    <glob pattern=\"" + std::string(m.glob) + "\" weight=\"80\"/>\n";
            x += "  </mime-type>\n";
        }
    return x + "</mime-info>\n";
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::cerr << "usage: stackline-desktop-files TEMPLATE_DIR OUT_DIR APP_ID\n";
        return 2;
    }
    const std::string templates = argv[1], out = argv[2], id = argv[3];
    try {
        std::string types, mediatypes;
        for (const TraceFormat& f : traceFormats())
            for (const TraceMimeType& m : f.mimeTypes) {
                types += std::string(m.type) + ";";
                mediatypes += "    <mediatype>" + std::string(m.type) + "</mediatype>\n";
            }
        std::string desktop = readFile(templates + "/" + id + ".desktop.in");
        fill(desktop, "MIME_TYPES", types);
        std::string metainfo = readFile(templates + "/" + id + ".metainfo.xml.in");
        fill(metainfo, "MEDIATYPES", mediatypes);
        writeFile(out + "/" + id + ".xml", mimeXml());
        writeFile(out + "/" + id + ".desktop", desktop);
        writeFile(out + "/" + id + ".metainfo.xml", metainfo);
    } catch (const std::exception& e) {
        std::cerr << "stackline-desktop-files: " << e.what() << "\n";
        return 1;
    }
    return 0;
}
