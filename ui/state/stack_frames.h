// A Python stack as the details panel lists it: the core's parse of each traceback string
// (source_frames.h) into frames with their code lines, and any string that holds no frame kept
// as it is.
#pragma once

#include <QList>
#include <QString>
#include <optional>
#include <string>

struct ViewedTrace;

struct StackFrame {
    QString file;
    int line = 0;  // 0: not a frame; text holds the string
    QString function;
    QString code;
    QString text;

    bool isFrame() const { return line > 0; }
};

// Frames of a stack given as JSON text (usually a list of strings), outermost first.
QList<StackFrame> parseStack(const std::string& json);
// The Python stack an event carries (none: empty).
QList<StackFrame> stackOf(const ViewedTrace& doc, uint32_t row);
// Its innermost frame: the line that launched it.
std::optional<StackFrame> innermostFrame(const ViewedTrace& doc, uint32_t row);
