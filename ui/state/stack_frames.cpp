#include "state/stack_frames.h"

#include "python/source_frames.h"
#include "state/viewed_trace.h"

QList<StackFrame> parseStack(const std::string& json) {
    QList<StackFrame> out;
    auto raw = [&](const std::string& text) {
        StackFrame f;
        f.text = QString::fromStdString(text).trimmed();
        if (!f.text.isEmpty()) out.push_back(f);
    };
    const std::vector<std::string> strings = stackline::stackStrings(json);
    for (const std::string& s : strings) {
        const std::vector<stackline::SourceFrame> frames = stackline::parseStackString(s);
        if (frames.empty()) raw(s);
        for (const stackline::SourceFrame& sf : frames) {
            StackFrame f;
            f.file = QString::fromStdString(sf.file);
            f.line = sf.line;
            f.function = QString::fromStdString(sf.function);
            f.code = QString::fromStdString(sf.code);
            out.push_back(f);
        }
    }
    // Not a list of strings: show the value itself.
    if (strings.empty()) raw(json);
    return out;
}

QList<StackFrame> stackOf(const ViewedTrace& doc, uint32_t row) {
    if (row >= doc.events().size()) return {};
    const uint32_t id = doc.provenance.stackOf(row);
    return id == 0 ? QList<StackFrame>() : parseStack(doc.provenance.stacks.json(id));
}

std::optional<StackFrame> innermostFrame(const ViewedTrace& doc, uint32_t row) {
    const QList<StackFrame> frames = stackOf(doc, row);
    for (auto it = frames.rbegin(); it != frames.rend(); ++it)
        if (it->isFrame()) return *it;
    return std::nullopt;
}
