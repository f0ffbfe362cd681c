#include "state/viewed_trace.h"

using namespace stackline;

QString ViewedTrace::name(uint32_t row) const {
    return QString::fromUtf8(events().nameOf(row).data(), qsizetype(events().nameOf(row).size()));
}

QString ViewedTrace::label() const {
    if (!rank.label.empty()) return QString::fromStdString(rank.label);
    return trace ? QString::fromStdString(trace->path).section(u'/', -1) : QString();
}

uint32_t ViewedTrace::compiledRegionFor(uint32_t row) const {
    const uint32_t launch = isKernel(row) ? launchOf(row) : row;
    if (launch == kNoRow) return kNoRow;
    return compiledRegionOf(events(), tracks, launch);
}

QString statusText(KernelStatus status) {
    switch (status) {
        case KernelStatus::Annotated:
            return QStringLiteral("annotated");
        case KernelStatus::Unresolved:
            return QStringLiteral("unresolved");
        case KernelStatus::Outside:
            break;
    }
    return QStringLiteral("outside compiled regions");
}
