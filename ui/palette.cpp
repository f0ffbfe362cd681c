#include "palette.h"

QColor sliceColor(SliceStyle style) {
    switch (style) {
        case SliceStyle::CpuOp:
            return QColor(0x6f, 0x9c, 0xd6);
        case SliceStyle::CompiledRegion:
            return QColor(0x3b, 0x9a, 0x9c);
        case SliceStyle::UserAnnotation:
            return QColor(0xa5, 0x8a, 0xd0);
        case SliceStyle::PythonFunction:
            return QColor(0xe3, 0xcf, 0x8f);
        case SliceStyle::Runtime:
            return QColor(0xe8, 0xa0, 0x5c);
        case SliceStyle::KernelAnnotated:
            return QColor(0x3f, 0xa3, 0x4d);
        // Saturated magenta-red: nothing else in the palette comes near it.
        case SliceStyle::KernelUnresolved:
            return QColor(0xff, 0x00, 0x6e);
        case SliceStyle::KernelOutside:
            return QColor(0x7d, 0x93, 0xad);
        case SliceStyle::Memory:
            return QColor(0xc9, 0x7b, 0x9b);
        case SliceStyle::GpuAnnotation:
            return QColor(0xcb, 0xc3, 0xe3);
        case SliceStyle::Overhead:
            return QColor(0xb8, 0xb8, 0xb8);
        case SliceStyle::Instant:
            return QColor(0x55, 0x55, 0x55);
        case SliceStyle::Other:
        case SliceStyle::Count:
            break;
    }
    return QColor(0x9e, 0xae, 0x9a);
}

QBrush unresolvedHatch() {
    return QBrush(QColor(0x5c, 0x00, 0x28), Qt::BDiagPattern);
}
QColor unresolvedOutline() {
    return QColor(0x5c, 0x00, 0x28);
}
QColor selectionColor() {
    return QColor(0x10, 0x10, 0x10);
}

const char* styleName(SliceStyle style) {
    switch (style) {
        case SliceStyle::CpuOp:
            return "CPU op";
        case SliceStyle::CompiledRegion:
            return "compiled region";
        case SliceStyle::UserAnnotation:
            return "user annotation";
        case SliceStyle::PythonFunction:
            return "Python function";
        case SliceStyle::Runtime:
            return "runtime / driver";
        case SliceStyle::KernelAnnotated:
            return "kernel, annotated";
        case SliceStyle::KernelUnresolved:
            return "kernel, unresolved";
        case SliceStyle::KernelOutside:
            return "kernel, outside compiled regions";
        case SliceStyle::Memory:
            return "memcpy / memset";
        case SliceStyle::GpuAnnotation:
            return "GPU annotation";
        case SliceStyle::Overhead:
            return "profiler";
        case SliceStyle::Instant:
            return "instant";
        case SliceStyle::Other:
        case SliceStyle::Count:
            break;
    }
    return "other";
}
