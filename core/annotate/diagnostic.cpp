#include "annotate/diagnostic.h"

#include "model/kineto.h"
#include "python/python_values.h"

namespace stackline {

namespace {

using M = DiagnosticMessage;

std::string eventLabel(uint32_t row) {
    return "event " + std::to_string(row);
}

std::string kernels(uint32_t n) {
    return std::to_string(n) + (n == 1 ? " Triton kernel" : " Triton kernels");
}

// Why a Triton kernel of a trace without regions has no stack: neither the reference's rules nor
// Stackline's by name (annotate/matched_by_name.h) could give it one.
std::string noCompiledRegion() {
    return "the trace has no compiled region (no \"" + std::string(kineto::kCompiledRegion) +
           "\" event) for the kernel information to apply to, and no graph of it alone names them";
}

constexpr std::string_view kWithoutGraphs =
    "profile without CUDA graphs (torch.compile without mode=\"reduce-overhead\"; vLLM with "
    "enforce_eager=True) so that the kernels run inside compiled regions, or with_stack=True to "
    "see at least where the graph was replayed.";

// What follows "event N" in the messages that name an event and nothing else.
std::string_view aboutEvent(DiagnosticMessage m) {
    switch (m) {
        case M::NotAnObject:
            return " is not a JSON object; it is left as it is";
        case M::KernelNotAnObject:
            return " is not a JSON object";
        case M::CatIsContainer:
            return " has a list or object as \"cat\"";
        case M::NameIsContainer:
            return " has a list or object as \"name\"";
        case M::CpuOpNameNotString:
            return " is a cpu_op whose name is not a string";
        case M::NameIsNumber:
            return " has a number as \"name\"";
        case M::UidMissing:
            return " has no usable \"uid\" although the trace has uid_assigned; it is given one of "
                   "its own";
        case M::TsMissing:
            return " has no \"ts\"";
        case M::TsNotNumber:
            return " has a \"ts\" that is not a number";
        case M::DurNotNumber:
            return " has a \"dur\" that is not a number";
        case M::RegionTidMissing:
            return " (a region) has no \"tid\"";
        case M::TidIsContainer:
            return " has a list or object as \"tid\"";
        case M::ArgsNotObject:
            return " has \"args\" that is not an object";
        case M::KernelArgsNotObject:
            return " (a kernel) has \"args\" that is not an object";
        case M::StackArgsNotObject:
            return " has \"args\" that is not an object; its stack cannot be added";
        case M::FlowIdMissing:
            return " is a flow event without \"id\"";
        case M::FlowIdRejected:
            return " has a flow \"id\" that int() rejects";
        case M::ExternalIdIsContainer:
            return " has a list or object as \"External id\"";
        case M::KernelNameMissing:
            return " (a kernel) has no \"name\"";
        case M::KernelNameNotString:
            return " (a kernel) has a name that is not a string";
        case M::NameNotString:
            return " has a name that is not a string";
        default:
            return {};
    }
}

}  // namespace

DiagnosticKind diagnosticKindOf(DiagnosticMessage m) {
    using K = DiagnosticKind;
    switch (m) {
        case M::KernelInfoNote:
            return K::KernelInfoSource;
        case M::NoRegionNoTriton:
        case M::NoRegionGraphReplay:
        case M::NoRegionUnlaunched:
        case M::NoRegionLaunched:
            return K::NoCompiledRegion;
        case M::MatchedByName:
        case M::NameInSeveralGraphs:
            return K::MatchedByName;
        case M::UnrecognizedKernel:
            return K::UnrecognizedKernel;
        case M::RegionWithoutKernelInfo:
            return K::RegionWithoutKernelInfo;
        case M::ForwardRegionNotFound:
            return K::ForwardRegionNotFound;
        case M::ForwardBySequenceNumber:
            return K::ForwardBySequenceNumber;
        case M::TraceReaderNote:
            return K::TraceReader;
        case M::NotAnObject:
        case M::KernelNotAnObject:
        case M::CatIsContainer:
        case M::NameIsContainer:
        case M::CpuOpNameNotString:
        case M::NameIsNumber:
            return K::MalformedEvent;
        case M::UidMissing:
            return K::MissingUid;
        case M::TsMissing:
            return K::MissingTs;
        case M::TsNotNumber:
            return K::BadTs;
        case M::DurNotNumber:
            return K::BadDur;
        case M::RegionTidMissing:
            return K::MissingTid;
        case M::TidIsContainer:
            return K::BadTid;
        case M::ArgsNotObject:
        case M::KernelArgsNotObject:
        case M::StackArgsNotObject:
            return K::BadArgs;
        case M::FlowIdMissing:
        case M::FlowIdRejected:
            return K::BadFlow;
        case M::ExternalIdIsContainer:
            return K::BadExternalId;
        case M::BackwardWithoutFlow:
            return K::BackwardWithoutFlow;
        case M::GraphKeyRaises:
            return K::BadGraphKey;
        case M::KernelInfoUnreadable:
            return K::BadKernelInfo;
        case M::KernelNameMissing:
            return K::MissingName;
        case M::KernelNameNotString:
        case M::NameNotString:
            return K::BadName;
    }
    return K::MalformedEvent;
}

std::string Diagnostics::message(const Diagnostic& d, const EventTable& events) const {
    auto str = [&](uint32_t id) { return std::string(events.strings.at(id)); };
    switch (d.message) {
        case M::KernelInfoNote:
        case M::KernelInfoUnreadable:
        case M::TraceReaderNote:
            return std::string(texts_.at(d.name));
        case M::NoRegionNoTriton:
            return "The trace has neither a compiled region (no \"" +
                   std::string(kineto::kCompiledRegion) +
                   "\" event) nor a Triton kernel, so the kernel information cannot apply: check "
                   "that it is the profile of the compiled model.";
        case M::NoRegionGraphReplay:
            return str(d.name) + " replays " + kernels(d.number) +
                   " captured in a CUDA/HIP graph without a stack: " + noCompiledRegion() + ": " +
                   std::string(kWithoutGraphs);
        case M::NoRegionUnlaunched:
            return kernels(d.number) + (d.number == 1 ? " has" : " have") +
                   " no launch in the trace (as after an untraced CUDA/HIP graph replay) and no "
                   "stack: " +
                   noCompiledRegion() + ": " + std::string(kWithoutGraphs);
        case M::NoRegionLaunched:
            return kernels(d.number) + (d.number == 1 ? " is" : " are") +
                   " launched one by one without a stack: " + noCompiledRegion() + ": " +
                   std::string(texts_.at(d.name));
        case M::MatchedByName:
            return kernels(d.number) +
                   (d.number == 1 ? " got its stack matched by name: from"
                                  : " got their stacks matched by name: each from") +
                   " the only graph of the kernel information that names it (Stackline's rule "
                   "for a trace without compiled regions, not the reference's: annotate does not "
                   "write these stacks).";
        case M::NameInSeveralGraphs:
            return kernels(d.number) + (d.number == 1 ? " is" : " are") +
                   " named by several graphs of the kernel information (kernel names restart in "
                   "every graph), so no stack can be matched by name.";
        case M::UnrecognizedKernel:
            return "Kernel " + str(d.name) +
                   " cannot be recognized as a custom kernel or triton kernel. Please try "
                   "profile with stack=True.";
        case M::RegionWithoutKernelInfo:
            return "Compiled region " + eventLabel(d.number) + " (" + str(d.name) +
                   ") has no kernel information under " +
                   pyGraphKey(events.strings.at(d.name), false);
        case M::ForwardRegionNotFound:
            return "Backward region " + eventLabel(d.number) +
                   " is skipped: no compiled region strictly contains its forward source";
        case M::ForwardBySequenceNumber:
            return "Backward region " + str(d.name) +
                   " has no fwdbwd flow (the trace's format writes none): its forward op is " +
                   eventLabel(d.number) + " (" + std::string(events.nameOf(d.number)) +
                   "), found by its Sequence number";
        case M::BackwardWithoutFlow:
            return eventLabel(d.number) + " (" + std::string(events.nameOf(d.number)) +
                   ") is a backward region with no incoming fwdbwd flow";
        case M::GraphKeyRaises:
            return "graph key " + std::string(texts_.at(d.name)) +
                   " makes the reference's ast.literal_eval raise; it is ignored";
        default:
            return eventLabel(d.number) + std::string(aboutEvent(d.message));
    }
}

std::size_t Diagnostics::bytes() const {
    std::size_t n = records_.capacity() * sizeof(Diagnostic);
    for (uint32_t id = 0; id < texts_.size(); ++id) n += texts_.at(id).size();
    return n;
}

std::string_view Diagnostics::name(const Diagnostic& d, const EventTable& events) const {
    if (d.message == M::RegionWithoutKernelInfo) return events.strings.at(d.name);
    return d.row == kNoRow ? std::string_view() : events.nameOf(d.row);
}

}  // namespace stackline
