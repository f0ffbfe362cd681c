// Every colour the viewer paints: what kind of slice an event is and its colour (kernels by
// provenance status, every other slice by its category), and the colours of everything else.
#pragma once

#include <QBrush>
#include <QColor>
#include <cstdint>

enum class SliceStyle : uint8_t {
    CpuOp,
    CompiledRegion,  // Torch-Compiled Region / CompiledFunction(Backward)
    UserAnnotation,
    PythonFunction,
    Runtime,  // cuda_runtime / cuda_driver launches and syncs
    KernelAnnotated,
    KernelUnresolved,
    KernelOutside,
    Memory,  // memcpy / memset
    GpuAnnotation,
    Overhead,  // profiler overhead and spans
    Instant,
    Other,
    Count
};

QColor sliceColor(SliceStyle style);
// Unresolved kernels are drawn with this hatch over their fill, and an outline.
QBrush unresolvedHatch();
QColor unresolvedOutline();
QColor selectionColor();
const char* styleName(SliceStyle style);

// Colours of what is not a slice.
enum class UiColor : uint8_t {
    Gutter,              // the timeline's label column
    ProcessHeader,       // a process's header row (and the gap between its tracks)
    TraceHeader,         // with several traces, the header above each trace's tracks
    TraceHeaderCurrent,  // ... above the current trace's, the one the panels show
    RowEven,             // track backgrounds, alternating
    RowOdd,
    Text,
    Line,  // separators and ruler ticks
    Ruler,
    RangeBand,      // a dragged time range, in the ruler
    RangeShade,     // ... and over the tracks
    RangePlate,     // the plate its length is written on
    RangeText,      // and that text and plate outline
    Marker,         // a dropped marker's line and flag, and the time between markers
    HighlightFill,  // events highlighted (a hotspot's kernels)
    HighlightOutline,
    SelectionHalo,  // the thin line between the selection outline and the slice
    LaunchFlow,     // ac2g arrows from a runtime launch to its kernel
    OtherFlow,      // forward-backward and other flows
    Error,          // diagnostics
    Warning,
    WarningBanner,  // the bar over the timeline that says the file changed on disk
    Remark,         // secondary text (a resolved source path)
    MarkedLine,     // the Source pane's line of the frame
    SourceGutter,   // ... its line-number column
    SourceLineNumber,
    PyKeyword,  // Python highlighting
    PyBuiltin,
    PyDefinition,
    PyDecorator,
    PyNumber,
    PyString,
    PyComment,
    Slower,  // a compared run's line or kernel that got slower (the Diff tab)
    Faster,  // ... or faster
};
QColor uiColor(UiColor role);
// The background of a compared row: Slower or Faster by the delta's sign, stronger the larger the
// delta is against the largest one shown; invalid when delta is 0.
QColor deltaColor(int64_t deltaNs, int64_t largestNs);
