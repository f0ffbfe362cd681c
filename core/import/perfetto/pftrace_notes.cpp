#include "import/perfetto/pftrace_notes.h"

namespace stackline::pftrace {

std::vector<std::string> importNotes(const DecodeStats& st, bool noSlices,
                                     uint64_t unlinkedKernels) {
    std::vector<std::string> notes;
    auto n = [](uint64_t count, const char* one, const char* many) {
        return std::to_string(count) + " " + (count == 1 ? one : many);
    };
    if (!st.unknownPackets.empty()) {
        uint64_t count = 0;
        std::string kinds;
        for (const auto& [field, c] : st.unknownPackets) {
            count += c;
            kinds += (kinds.empty() ? "" : ", ") + std::to_string(field) + ": " + std::to_string(c);
        }
        notes.push_back(n(count, "packet", "packets") +
                        " of kinds Stackline does not read were skipped (TracePacket field: "
                        "count; " +
                        kinds + ")");
    }
    if (st.skippedNeedsIncrementalState)
        notes.push_back(n(st.skippedNeedsIncrementalState, "packet", "packets") +
                        " that need their sequence's incremental state came before it was "
                        "cleared and were skipped, as Perfetto skips them");
    if (st.unresolvedIids)
        notes.push_back(n(st.unresolvedIids, "interned id", "interned ids") +
                        " had no entry on their sequence: those names, categories or GPU "
                        "stages are empty");
    if (st.otherClockTimestamps)
        notes.push_back(n(st.otherClockTimestamps, "packet timestamp", "packet timestamps") +
                        " on a clock other than BOOTTIME were read as BOOTTIME");
    if (st.legacyTimestamps)
        notes.push_back(n(st.legacyTimestamps, "TrackEvent carries", "TrackEvents carry") +
                        " timestamp_delta_us or timestamp_absolute_us, not read: the packet's "
                        "timestamp was used");
    if (noSlices)
        notes.push_back(
            "The trace has no TrackEvent slices: no CPU op, launch or compiled "
            "region that a kernel could be reached from");
    if (unlinkedKernels) {
        const char* them = unlinkedKernels == 1 ? "it" : "them";
        notes.push_back(n(unlinkedKernels, "GPU kernel is", "GPU kernels are") +
                        " linked to no launch (no render_stage_submission_event_ids point at " +
                        them + "): provenance cannot reach " + them);
    }
    return notes;
}

}  // namespace stackline::pftrace
