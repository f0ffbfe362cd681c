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

QColor uiColor(UiColor role) {
    switch (role) {
        case UiColor::Gutter:
            return QColor(0xee, 0xf0, 0xf3);
        case UiColor::ProcessHeader:
            return QColor(0xdd, 0xe2, 0xe9);
        case UiColor::RowEven:
            return QColor(0xff, 0xff, 0xff);
        case UiColor::RowOdd:
            return QColor(0xf6, 0xf7, 0xf9);
        case UiColor::Text:
            return QColor(0x20, 0x24, 0x2a);
        case UiColor::Line:
            return QColor(0xc4, 0xca, 0xd3);
        case UiColor::Ruler:
            return QColor(0xfa, 0xfa, 0xfb);
        case UiColor::RangeBand:
            return QColor(40, 110, 220, 70);
        case UiColor::RangeShade:
            return QColor(40, 110, 220, 40);
        case UiColor::RangePlate:
            return QColor(0xf4, 0xf8, 0xff);
        case UiColor::RangeText:
            return QColor(20, 60, 140);
        case UiColor::HighlightFill:
            return QColor(255, 200, 0, 90);
        case UiColor::HighlightOutline:
            return QColor(230, 120, 0);
        case UiColor::SelectionHalo:
            return QColor(255, 255, 255);
        case UiColor::LaunchFlow:
            return QColor(0xd0, 0x5a, 0x00);
        case UiColor::OtherFlow:
            return QColor(0x7a, 0x3d, 0xb8);
        case UiColor::Error:
            return QColor(0xb0, 0x00, 0x20);
        case UiColor::Warning:
            return QColor(0x8a, 0x5a, 0x00);
        case UiColor::Remark:
            return QColor(0x80, 0x80, 0x80);
        case UiColor::MarkedLine:
            return QColor(255, 236, 160);
        case UiColor::SourceGutter:
            return QColor(0xf0, 0xf0, 0xf0);
        case UiColor::SourceLineNumber:
            return QColor(0x99, 0x99, 0x99);
        case UiColor::PyKeyword:
            return QColor(0x00, 0x33, 0xb3);
        case UiColor::PyBuiltin:
            return QColor(0x87, 0x10, 0x94);
        case UiColor::PyDefinition:
            return QColor(0x00, 0x62, 0x7a);
        case UiColor::PyDecorator:
            return QColor(0x9e, 0x88, 0x0d);
        case UiColor::PyNumber:
            return QColor(0x17, 0x50, 0xeb);
        case UiColor::PyString:
            return QColor(0x06, 0x7d, 0x17);
        case UiColor::PyComment:
            break;
    }
    return QColor(0x8c, 0x8c, 0x8c);
}
