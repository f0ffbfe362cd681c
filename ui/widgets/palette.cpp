#include "widgets/palette.h"

#include <algorithm>
#include <cstdlib>
#include <iterator>

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

namespace {

// Indexed by UiColor.
constexpr QRgb kUiColors[] = {
    qRgb(0xee, 0xf0, 0xf3),   // Gutter
    qRgb(0xdd, 0xe2, 0xe9),   // ProcessHeader
    qRgb(0xc3, 0xcc, 0xd8),   // TraceHeader
    qRgb(0xa9, 0xc8, 0xf0),   // TraceHeaderCurrent
    qRgb(0xff, 0xff, 0xff),   // RowEven
    qRgb(0xf6, 0xf7, 0xf9),   // RowOdd
    qRgb(0x20, 0x24, 0x2a),   // Text
    qRgb(0xc4, 0xca, 0xd3),   // Line
    qRgb(0xfa, 0xfa, 0xfb),   // Ruler
    qRgba(40, 110, 220, 70),  // RangeBand
    qRgba(40, 110, 220, 40),  // RangeShade
    qRgb(0xf4, 0xf8, 0xff),   // RangePlate
    qRgb(20, 60, 140),        // RangeText
    qRgb(0x1a, 0x8f, 0x3c),   // Marker
    qRgba(255, 200, 0, 90),   // HighlightFill
    qRgb(230, 120, 0),        // HighlightOutline
    qRgb(255, 255, 255),      // SelectionHalo
    qRgb(0xd0, 0x5a, 0x00),   // LaunchFlow
    qRgb(0x7a, 0x3d, 0xb8),   // OtherFlow
    qRgb(0xb0, 0x00, 0x20),   // Error
    qRgb(0x8a, 0x5a, 0x00),   // Warning
    qRgb(0xff, 0xf3, 0xcd),   // WarningBanner
    qRgb(0x80, 0x80, 0x80),   // Remark
    qRgb(255, 236, 160),      // MarkedLine
    qRgb(0xf0, 0xf0, 0xf0),   // SourceGutter
    qRgb(0x99, 0x99, 0x99),   // SourceLineNumber
    qRgb(0x00, 0x33, 0xb3),   // PyKeyword
    qRgb(0x87, 0x10, 0x94),   // PyBuiltin
    qRgb(0x00, 0x62, 0x7a),   // PyDefinition
    qRgb(0x9e, 0x88, 0x0d),   // PyDecorator
    qRgb(0x17, 0x50, 0xeb),   // PyNumber
    qRgb(0x06, 0x7d, 0x17),   // PyString
    qRgb(0x8c, 0x8c, 0x8c),   // PyComment
    qRgb(0xd6, 0x2a, 0x2a),   // Slower
    qRgb(0x1f, 0x9d, 0x3a),   // Faster
};
static_assert(std::size(kUiColors) == size_t(UiColor::Faster) + 1);

}  // namespace

QColor uiColor(UiColor role) {
    return QColor::fromRgba(kUiColors[size_t(role)]);
}

QColor deltaColor(int64_t deltaNs, int64_t largestNs) {
    if (deltaNs == 0 || largestNs <= 0) return {};
    QColor c = uiColor(deltaNs > 0 ? UiColor::Slower : UiColor::Faster);
    // A faint tint even for the smallest change, so that its direction still shows; text stays
    // readable over the strongest.
    const double share = std::min(1.0, double(std::abs(deltaNs)) / double(largestNs));
    c.setAlphaF(float(0.10 + 0.45 * share));
    return c;
}
