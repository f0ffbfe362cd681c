// The field numbers of Perfetto's trace protos that a reader of PyTorch's Cuspy traces (and of
// the generic TrackEvent layout) needs, written from the schema in google/perfetto
// protos/perfetto/trace/ (each namespace names its message and .proto file). Only the numbers:
// the .proto files and code generated from them are not part of this project.
#pragma once

#include <cstdint>

namespace stackline::pftrace {

// The protobuf wire types.
enum class WireType : uint8_t { Varint = 0, Fixed64 = 1, Bytes = 2, Fixed32 = 5 };

namespace trace {                       // Trace (trace.proto)
inline constexpr uint32_t kPacket = 1;  // repeated TracePacket
}  // namespace trace

namespace packet {                                        // TracePacket (trace_packet.proto)
inline constexpr uint32_t kTimestamp = 8;                 // uint64 ns
inline constexpr uint32_t kTimestampClockId = 58;         // uint32; BOOTTIME (6) when absent
inline constexpr uint32_t kClockSnapshot = 6;             // ClockSnapshot
inline constexpr uint32_t kTrackEvent = 11;               // TrackEvent
inline constexpr uint32_t kTrustedPacketSequenceId = 10;  // uint32
inline constexpr uint32_t kInternedData = 12;             // InternedData
inline constexpr uint32_t kSequenceFlags = 13;            // uint32, SequenceFlags bits
inline constexpr uint32_t kIncrementalStateCleared = 41;  // bool, deprecated form of flag 1
inline constexpr uint32_t kPreviousPacketDropped = 42;    // uint32
inline constexpr uint32_t kProcessDescriptor = 43;        // legacy, outside TrackDescriptor
inline constexpr uint32_t kThreadDescriptor = 44;         // legacy, outside TrackDescriptor
inline constexpr uint32_t kCompressedPackets = 50;        // bytes: deflated repeated TracePacket
inline constexpr uint32_t kGpuCounterEvent = 52;          // GpuCounterEvent
inline constexpr uint32_t kGpuRenderStageEvent = 53;      // GpuRenderStageEvent
inline constexpr uint32_t kTracePacketDefaults = 59;      // TracePacketDefaults
inline constexpr uint32_t kTrackDescriptor = 60;          // TrackDescriptor
inline constexpr uint32_t kFirstPacketOnSequence = 87;    // bool
inline constexpr uint32_t kZstdCompressedPackets = 133;   // bytes
// SequenceFlags
inline constexpr uint32_t kSeqIncrementalStateCleared = 1;
inline constexpr uint32_t kSeqNeedsIncrementalState = 2;
}  // namespace packet

namespace clock_snapshot {                         // ClockSnapshot (clock_snapshot.proto)
inline constexpr uint32_t kClocks = 1;             // repeated Clock
inline constexpr uint32_t kPrimaryTraceClock = 2;  // BuiltinClock
inline constexpr uint32_t kClockId = 1;            // Clock.clock_id
inline constexpr uint32_t kClockTimestamp = 2;     // Clock.timestamp
// BuiltinClock (common/builtin_clock.proto)
inline constexpr uint32_t kRealtime = 1;
inline constexpr uint32_t kBoottime = 6;
}  // namespace clock_snapshot

namespace track_event {                           // TrackEvent (track_event/track_event.proto)
inline constexpr uint32_t kTimestampDeltaUs = 1;  // legacy thread-relative timestamps
inline constexpr uint32_t kCategoryIids = 3;      // repeated uint64 -> EventCategory
inline constexpr uint32_t kDebugAnnotations = 4;  // repeated DebugAnnotation
inline constexpr uint32_t kLegacyEvent = 6;
inline constexpr uint32_t kType = 9;        // Type
inline constexpr uint32_t kNameIid = 10;    // uint64 -> EventName
inline constexpr uint32_t kTrackUuid = 11;  // uint64 -> TrackDescriptor.uuid
inline constexpr uint32_t kExtraCounterValues = 12;
inline constexpr uint32_t kTimestampAbsoluteUs = 16;
inline constexpr uint32_t kCategories = 22;    // repeated string
inline constexpr uint32_t kName = 23;          // string
inline constexpr uint32_t kCounterValue = 30;  // int64
inline constexpr uint32_t kExtraCounterTrackUuids = 31;
inline constexpr uint32_t kFlowIdsOld = 36;             // repeated uint64 (varint), deprecated
inline constexpr uint32_t kTerminatingFlowIdsOld = 42;  // repeated uint64 (varint), deprecated
inline constexpr uint32_t kDoubleCounterValue = 44;     // double
inline constexpr uint32_t kFlowIds = 47;                // repeated fixed64
inline constexpr uint32_t kTerminatingFlowIds = 48;     // repeated fixed64
inline constexpr uint32_t kCorrelationId = 52;          // uint64
// Extensions (gpu/gpu_track_event.proto): GpuTrackEvent.gpu_correlation and gpu_api.
inline constexpr uint32_t kGpuCorrelation = 3000;  // GpuCorrelation
inline constexpr uint32_t kGpuApi = 3001;
// Type
inline constexpr uint32_t kTypeSliceBegin = 1;
inline constexpr uint32_t kTypeSliceEnd = 2;
inline constexpr uint32_t kTypeInstant = 3;
inline constexpr uint32_t kTypeCounter = 4;
}  // namespace track_event

namespace gpu_correlation {  // GpuCorrelation (gpu/gpu_track_event.proto)
inline constexpr uint32_t kRenderStageSubmissionEventIds = 1;  // repeated uint64
inline constexpr uint32_t kRenderStageWaitEventIds = 2;        // repeated uint64
}  // namespace gpu_correlation

namespace track_descriptor {  // TrackDescriptor (track_event/track_descriptor.proto)
inline constexpr uint32_t kUuid = 1;
inline constexpr uint32_t kName = 2;
inline constexpr uint32_t kProcess = 3;  // ProcessDescriptor
inline constexpr uint32_t kThread = 4;   // ThreadDescriptor
inline constexpr uint32_t kParentUuid = 5;
inline constexpr uint32_t kCounter = 8;  // CounterDescriptor
inline constexpr uint32_t kStaticName = 10;
inline constexpr uint32_t kAtraceName = 13;
}  // namespace track_descriptor

namespace process_descriptor {  // ProcessDescriptor (track_event/process_descriptor.proto)
inline constexpr uint32_t kPid = 1;
inline constexpr uint32_t kProcessName = 6;
inline constexpr uint32_t kProcessLabels = 8;  // repeated string
}  // namespace process_descriptor

namespace thread_descriptor {  // ThreadDescriptor (track_event/thread_descriptor.proto)
inline constexpr uint32_t kPid = 1;
inline constexpr uint32_t kTid = 2;  // int64
inline constexpr uint32_t kThreadName = 5;
}  // namespace thread_descriptor

namespace debug_annotation {             // DebugAnnotation (track_event/debug_annotation.proto)
inline constexpr uint32_t kNameIid = 1;  // -> DebugAnnotationName
inline constexpr uint32_t kBoolValue = 2;
inline constexpr uint32_t kUintValue = 3;
inline constexpr uint32_t kIntValue = 4;
inline constexpr uint32_t kDoubleValue = 5;  // fixed64
inline constexpr uint32_t kStringValue = 6;
inline constexpr uint32_t kPointerValue = 7;
inline constexpr uint32_t kNestedValue = 8;  // legacy NestedValue
inline constexpr uint32_t kLegacyJsonValue = 9;
inline constexpr uint32_t kName = 10;
inline constexpr uint32_t kDictEntries = 11;     // repeated DebugAnnotation
inline constexpr uint32_t kArrayValues = 12;     // repeated DebugAnnotation
inline constexpr uint32_t kStringValueIid = 17;  // -> InternedData.debug_annotation_string_values
}  // namespace debug_annotation

namespace interned_data {                        // InternedData (interned_data/interned_data.proto)
inline constexpr uint32_t kEventCategories = 1;  // EventCategory {iid 1, name 2}
inline constexpr uint32_t kEventNames = 2;       // EventName {iid 1, name 2}
inline constexpr uint32_t kDebugAnnotationNames = 3;          // DebugAnnotationName {iid 1, name 2}
inline constexpr uint32_t kGraphicsContexts = 23;             // InternedGraphicsContext
inline constexpr uint32_t kGpuSpecifications = 24;            // InternedGpuRenderStageSpecification
inline constexpr uint32_t kDebugAnnotationStringValues = 29;  // InternedString {iid 1, str 2}
inline constexpr uint32_t kGpuCounterDescriptors = 47;        // InternedGpuCounterDescriptor
// Extensions (gpu/gpu_interned_data.proto): GpuInternedData.
inline constexpr uint32_t kComputeKernels = 1000;   // InternedComputeKernel
inline constexpr uint32_t kComputeArgNames = 1001;  // InternedComputeArgName
// Every interned entry above carries its iid at field 1; the names and strings are at field 2.
inline constexpr uint32_t kIid = 1;
inline constexpr uint32_t kEntryName = 2;
}  // namespace interned_data

namespace gpu_specification {  // InternedGpuRenderStageSpecification
inline constexpr uint32_t kName = 2;
inline constexpr uint32_t kDescription = 3;
inline constexpr uint32_t kCategory = 4;  // OTHER 0, GRAPHICS 1, COMPUTE 2
}  // namespace gpu_specification

namespace graphics_context {  // InternedGraphicsContext
inline constexpr uint32_t kPid = 2;
inline constexpr uint32_t kApi = 3;
}  // namespace graphics_context

namespace compute_kernel {  // InternedComputeKernel (gpu/gpu_render_stage_event.proto)
inline constexpr uint32_t kName = 2;
inline constexpr uint32_t kDemangledName = 3;
inline constexpr uint32_t kArch = 4;
}  // namespace compute_kernel

namespace render_stage {  // GpuRenderStageEvent (gpu/gpu_render_stage_event.proto)
inline constexpr uint32_t kEventId = 1;
inline constexpr uint32_t kDuration = 2;
inline constexpr uint32_t kHwQueueId = 3;       // deprecated, with specifications
inline constexpr uint32_t kStageId = 4;         // deprecated
inline constexpr uint32_t kContext = 5;         // -> InternedGraphicsContext
inline constexpr uint32_t kExtraData = 6;       // repeated ExtraData {name 1, value 2}
inline constexpr uint32_t kSpecifications = 7;  // deprecated
inline constexpr uint32_t kGpuId = 11;          // int32
inline constexpr uint32_t kHwQueueIid = 13;     // -> InternedGpuRenderStageSpecification
inline constexpr uint32_t kStageIid = 14;       // -> InternedGpuRenderStageSpecification
inline constexpr uint32_t kName = 17;
inline constexpr uint32_t kEventWaitIds = 18;  // repeated uint64
inline constexpr uint32_t kKernelIid = 19;     // -> InternedComputeKernel
inline constexpr uint32_t kNameIid = 20;       // -> EventName
inline constexpr uint32_t kLaunch = 21;        // ComputeKernelLaunch
inline constexpr uint32_t kExtraName = 1;      // ExtraData.name
inline constexpr uint32_t kExtraValue = 2;     // ExtraData.value
// ComputeKernelLaunch: grid_size 1, workgroup_size 2 (Dim3 {x 1, y 2, z 3}), args 3
// (ExtraComputeArg {name_iid 1, name 2, int_value 3, uint_value 4, double_value 5,
// string_value 6, string_value_iid 7}).
inline constexpr uint32_t kLaunchGridSize = 1;
inline constexpr uint32_t kLaunchWorkgroupSize = 2;
inline constexpr uint32_t kLaunchArgs = 3;
inline constexpr uint32_t kArgNameIid = 1;  // -> GpuInternedData.compute_arg_names (1001)
inline constexpr uint32_t kArgName = 2;
inline constexpr uint32_t kArgIntValue = 3;
inline constexpr uint32_t kArgUintValue = 4;
inline constexpr uint32_t kArgDoubleValue = 5;
inline constexpr uint32_t kArgStringValue = 6;
}  // namespace render_stage

namespace gpu_counter_event {                      // GpuCounterEvent (gpu/gpu_counter_event.proto)
inline constexpr uint32_t kCounterDescriptor = 1;  // inline GpuCounterDescriptor
inline constexpr uint32_t kCounters = 2;           // repeated GpuCounter
inline constexpr uint32_t kGpuId = 3;              // int32
inline constexpr uint32_t kCounterDescriptorIid = 4;  // -> InternedGpuCounterDescriptor
inline constexpr uint32_t kCounterId = 1;             // GpuCounter.counter_id
inline constexpr uint32_t kIntValue = 2;              // GpuCounter.int_value
inline constexpr uint32_t kDoubleValue = 3;           // GpuCounter.double_value
// InternedGpuCounterDescriptor {iid 1, counter_descriptor 2, gpu_id 3}; GpuCounterDescriptor
// (common/gpu_counter_descriptor.proto) {specs 1: GpuCounterSpec {counter_id 1, name 2}}.
inline constexpr uint32_t kInternedDescriptor = 2;
inline constexpr uint32_t kInternedGpuId = 3;
inline constexpr uint32_t kDescriptorSpecs = 1;
inline constexpr uint32_t kSpecCounterId = 1;
inline constexpr uint32_t kSpecName = 2;
}  // namespace gpu_counter_event

}  // namespace stackline::pftrace
