// What the processor has to say about a trace: the reference's own warning, Stackline's warnings,
// and errors where the reference would have raised (Stackline skips that part and goes on).
// A diagnostic is stored as data (16 bytes: its message, the event it is about and the message's
// arguments), not as text: a trace can hold hundreds of thousands of them, each naming a kernel
// of up to thousands of characters. The text is rendered when it is shown or written.
#pragma once

#include <cstdint>
#include <iterator>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "base/string_pool.h"
#include "model/event_table.h"

namespace stackline {

enum class Severity : uint8_t { Warning, Error };

enum class DiagnosticKind : uint8_t {
    // Warnings
    KernelInfoSource,
    NoCompiledRegion,
    MatchedByName,
    UnrecognizedKernel,
    RegionWithoutKernelInfo,
    ForwardRegionNotFound,
    ForwardBySequenceNumber,
    TraceReader,
    // Errors: one event or key the reference would have raised on
    MalformedEvent,
    MissingUid,
    MissingTs,
    BadTs,
    BadDur,
    MissingTid,
    BadTid,
    BadArgs,
    BadFlow,
    BadExternalId,
    BackwardWithoutFlow,
    BadGraphKey,
    BadKernelInfo,
    MissingName,
    BadName,
};

struct DiagnosticKindInfo {
    DiagnosticKind kind;
    std::string_view name;  // as the report JSON and the summary print it
    Severity severity;
    std::string_view text;  // what it means and what to do
};

// One row per kind, in the enum's order.
inline constexpr DiagnosticKindInfo kDiagnosticKinds[] = {
    {DiagnosticKind::KernelInfoSource, "kernel_info_source", Severity::Warning,
     "How the kernel information was found, read or matched to the trace; check that it comes from "
     "the same run."},
    {DiagnosticKind::NoCompiledRegion, "no_compiled_region", Severity::Warning,
     "Kernel information applies only to kernels launched inside a compiled region, and the trace "
     "has none (CUDA/HIP graph replays and compiled code called directly record none, nor does "
     "Nsight Systems without --pytorch=autograd-nvtx), so these Triton kernels got no stack, and "
     "no graph of the kernel information alone names them; profile as the message says."},
    {DiagnosticKind::MatchedByName, "matched_by_name", Severity::Warning,
     "The trace has no compiled region, so Stackline gave Triton kernels the stack of the only "
     "graph of the kernel information that names them: its own rule, not the reference's, shown "
     "by the viewer, summary and hotspots but never written by annotate. A name in several graphs "
     "(kernel names restart in every graph) is ambiguous and gets no stack."},
    {DiagnosticKind::UnrecognizedKernel, "unrecognized_kernel", Severity::Warning,
     "A kernel that is neither a Triton kernel nor a known extern kernel got no stack, as in the "
     "reference (which logs this once per path that reaches the kernel, so mostly twice); profile "
     "with with_stack=True to see where it was launched."},
    {DiagnosticKind::RegionWithoutKernelInfo, "region_without_kernel_info", Severity::Warning,
     "The kernel information has no graph for this compiled region, so its kernels get no stack; "
     "check that the information comes from the same run."},
    {DiagnosticKind::ForwardRegionNotFound, "forward_region_not_found", Severity::Warning,
     "No compiled region strictly contains the forward op of this backward region, so the region's "
     "kernels get no stack; profile the forward and backward of a step in one recording."},
    {DiagnosticKind::ForwardBySequenceNumber, "forward_by_sequence_number", Severity::Warning,
     "The trace's format writes no fwdbwd flows (PyTorch's Cuspy profiler drops them), so this "
     "backward region's forward op was taken to be the forward op of its \"Sequence number\" on "
     "another thread, the latest to start before it, as Kineto pairs them."},
    {DiagnosticKind::TraceReader, "trace_reader", Severity::Warning,
     "What reading the trace skipped or could not resolve (packets of kinds Stackline does not "
     "read, interned ids without their entry, GPU kernels that no launch points at); the rest of "
     "the trace is read as usual."},
    {DiagnosticKind::MalformedEvent, "malformed_event", Severity::Error,
     "The event is not a JSON object or has a field of a type the reference cannot use; it is left "
     "as it is."},
    {DiagnosticKind::MissingUid, "missing_uid", Severity::Error,
     "The trace says uids were assigned but this event has no usable uid; it is given one of its "
     "own."},
    {DiagnosticKind::MissingTs, "missing_ts", Severity::Error,
     "The event has no \"ts\" where the reference needs one; the step that needed it skips the "
     "event."},
    {DiagnosticKind::BadTs, "bad_ts", Severity::Error,
     "The event's \"ts\" is not a number where the reference needs one; the step that needed it "
     "skips the event."},
    {DiagnosticKind::BadDur, "bad_dur", Severity::Error,
     "The event's \"dur\" is not a number where the reference needs one; the step that needed it "
     "skips the event."},
    {DiagnosticKind::MissingTid, "missing_tid", Severity::Error,
     "A compiled or extern region has no \"tid\", so the events it covers cannot be found; the "
     "region is skipped."},
    {DiagnosticKind::BadTid, "bad_tid", Severity::Error,
     "The event's \"tid\" is a list or an object, which the reference cannot group by; the event "
     "is skipped."},
    {DiagnosticKind::BadArgs, "bad_args", Severity::Error,
     "The event's \"args\" is not an object where the reference reads a key from it; the step that "
     "needed it skips the event."},
    {DiagnosticKind::BadFlow, "bad_flow", Severity::Error,
     "A flow event has no \"id\" or one that Python's int() rejects; the flow is ignored."},
    {DiagnosticKind::BadExternalId, "bad_external_id", Severity::Error,
     "The event's \"External id\" is a list or an object; it is not used to find kernels."},
    {DiagnosticKind::BackwardWithoutFlow, "backward_without_flow", Severity::Error,
     "A backward region has no incoming fwdbwd flow, so its forward region is unknown; its kernels "
     "get no stack."},
    {DiagnosticKind::BadGraphKey, "bad_graph_key", Severity::Error,
     "A graph key of the kernel information makes the reference's ast.literal_eval raise; that key "
     "is ignored."},
    {DiagnosticKind::BadKernelInfo, "bad_kernel_info", Severity::Error,
     "A kernel's entry in the kernel information has a shape the reference cannot read; the kernel "
     "gets no stack."},
    {DiagnosticKind::MissingName, "missing_name", Severity::Error,
     "A kernel has no \"name\", so it cannot be matched to the kernel information."},
    {DiagnosticKind::BadName, "bad_name", Severity::Error,
     "A kernel's \"name\" is not a string, so it cannot be matched to the kernel information."},
};

constexpr bool diagnosticKindsInEnumOrder() {
    for (std::size_t i = 0; i < std::size(kDiagnosticKinds); ++i)
        if (std::size_t(kDiagnosticKinds[i].kind) != i) return false;
    return std::size(kDiagnosticKinds) == std::size_t(DiagnosticKind::BadName) + 1;
}
static_assert(diagnosticKindsInEnumOrder());

constexpr const DiagnosticKindInfo& diagnosticKindInfo(DiagnosticKind kind) {
    return kDiagnosticKinds[std::size_t(kind)];
}
constexpr std::string_view diagnosticKindName(DiagnosticKind kind) {
    return diagnosticKindInfo(kind).name;
}

// Which message a diagnostic says, and so its kind. Each reads the fields named after it: NAME a
// string id (of the trace's strings, or of the run's own texts for "text"), EVENT a row named by
// the message ("event N"), COUNT a number of kernels. A message reads nothing else, so two
// diagnostics whose message, name and number are equal say the same text.
enum class DiagnosticMessage : uint8_t {
    KernelInfoNote,           // kernel_info_source: text
    NoRegionNoTriton,         // no_compiled_region
    NoRegionGraphReplay,      // no_compiled_region: NAME (of the launch), COUNT
    NoRegionUnlaunched,       // no_compiled_region: COUNT
    NoRegionLaunched,         // no_compiled_region: COUNT, text (how to record regions)
    MatchedByName,            // matched_by_name: COUNT
    NameInSeveralGraphs,      // matched_by_name: COUNT
    UnrecognizedKernel,       // unrecognized_kernel: NAME (of the kernel)
    RegionWithoutKernelInfo,  // region_without_kernel_info: EVENT (the region), NAME (looked up)
    ForwardRegionNotFound,    // forward_region_not_found: EVENT
    ForwardBySequenceNumber,  // forward_by_sequence_number: NAME (of the backward region), EVENT
    TraceReaderNote,          // trace_reader: text
    NotAnObject,              // malformed_event: EVENT; left as it is
    KernelNotAnObject,        // malformed_event: EVENT
    CatIsContainer,           // malformed_event: EVENT
    NameIsContainer,          // malformed_event: EVENT
    CpuOpNameNotString,       // malformed_event: EVENT
    NameIsNumber,             // malformed_event: EVENT
    UidMissing,               // missing_uid: EVENT
    TsMissing,                // missing_ts: EVENT
    TsNotNumber,              // bad_ts: EVENT
    DurNotNumber,             // bad_dur: EVENT
    RegionTidMissing,         // missing_tid: EVENT
    TidIsContainer,           // bad_tid: EVENT
    ArgsNotObject,            // bad_args: EVENT
    KernelArgsNotObject,      // bad_args: EVENT
    StackArgsNotObject,       // bad_args: EVENT
    FlowIdMissing,            // bad_flow: EVENT
    FlowIdRejected,           // bad_flow: EVENT
    ExternalIdIsContainer,    // bad_external_id: EVENT
    BackwardWithoutFlow,      // backward_without_flow: EVENT
    GraphKeyRaises,           // bad_graph_key: text (the key)
    KernelInfoUnreadable,     // bad_kernel_info: text (what the registry said)
    KernelNameMissing,        // missing_name: EVENT
    KernelNameNotString,      // bad_name: EVENT
    NameNotString,            // bad_name: EVENT (an extern region)
};

DiagnosticKind diagnosticKindOf(DiagnosticMessage message);

struct Diagnostic {
    using Severity = stackline::Severity;
    DiagnosticKind kind = DiagnosticKind::KernelInfoSource;
    DiagnosticMessage message = DiagnosticMessage::KernelInfoNote;
    uint32_t row = kNoRow;  // the event's index in traceEvents (its uid)
    uint32_t name = 0;      // the message's string id, 0 when it reads none
    uint32_t number = 0;    // the message's event or count, 0 when it reads none

    Diagnostic() = default;
    Diagnostic(DiagnosticMessage m, uint32_t row, uint32_t name = 0, uint32_t number = 0)
        : kind(diagnosticKindOf(m)), message(m), row(row), name(name), number(number) {}

    Severity severity() const { return diagnosticKindInfo(kind).severity; }
    std::string_view kindName() const { return diagnosticKindName(kind); }
    // Equal for two diagnostics exactly when their texts are equal.
    bool sameText(const Diagnostic& o) const {
        return message == o.message && name == o.name && number == o.number;
    }
};
static_assert(sizeof(Diagnostic) == 16);

// The diagnostics of a run, in the order they were reported, and the few texts they cannot find
// in the trace (notes on the kernel information, graph keys, what the registry said).
class Diagnostics {
public:
    void add(const Diagnostic& d) { records_.push_back(d); }
    // Puts ds ahead of the diagnostics so far.
    void prepend(std::span<const Diagnostic> ds) {
        records_.insert(records_.begin(), ds.begin(), ds.end());
    }
    // The id of a text for DiagnosticMessage's "text" (equal texts, equal ids).
    uint32_t text(std::string_view s) { return texts_.intern(s); }

    std::size_t size() const { return records_.size(); }
    bool empty() const { return records_.empty(); }
    const Diagnostic& operator[](std::size_t i) const { return records_[i]; }
    std::vector<Diagnostic>::const_iterator begin() const { return records_.begin(); }
    std::vector<Diagnostic>::const_iterator end() const { return records_.end(); }
    std::span<const Diagnostic> records() const { return records_; }
    // Memory held: the records' and the texts' bytes (what a diagnostic costs, for tests).
    std::size_t bytes() const;

    // The message, as the reference logs it or Stackline words it; events is the run's table.
    std::string message(const Diagnostic& d, const EventTable& events) const;
    // What the diagnostic is about, by name: the event's name (a region's as looked up), "" for
    // none.
    std::string_view name(const Diagnostic& d, const EventTable& events) const;

private:
    std::vector<Diagnostic> records_;
    StringPool texts_;
};

}  // namespace stackline
