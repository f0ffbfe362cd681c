// A Perfetto protobuf trace read into the format-neutral Trace, laid out as Kineto lays out the
// same run so that everything downstream (tracks, categories, provenance) reads it unchanged:
//  - slices (begin/end pairs, see slice_pairing.h) on thread tracks are 'X' events with their
//    interned name and category, pid and tid of their thread, "External id" from their annotations;
//  - GPU render stages are 'X' events on pid = GPU, tid = stream, named by their compute kernel and
//    categorised by their stage: "kernel", "gpu_memcpy", "gpu_memset", "gpu_user_annotation";
//  - each field-3000 link (launch -> render stage event id) becomes an "ac2g" flow: an 's' row
//    right after the launch and an 'f' row right after the stage, as the provenance processor binds
//    flow events to the event before them;
//  - GPU counter samples are 'C' events on pid "GPU N Counters" (the Cuspy JSON export's layout),
//    TrackEvent counters 'C' events named by their track, instants 'i' events;
//  - ts and dur are microseconds (doubles) from the ClockSnapshot's BOOTTIME; its REALTIME (else
//    BOOTTIME) is TraceMetadata::baseTimeNs, so absolute instants equal the Kineto JSON's.
// Rows are in time order (ties: the longer first, so that a parent precedes its children).
#pragma once

#include <string>

#include "import/trace_format.h"

namespace stackline {

// Throws InputError naming the file and byte offset of a truncated or corrupt packet.
Trace readPftrace(TraceBytes bytes, const std::string& name, const LoadOptions& options);

}  // namespace stackline
