// What kind of slice an event is, for colouring, and the colours. Kernels are coloured by
// provenance status; every other slice by its category.
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
