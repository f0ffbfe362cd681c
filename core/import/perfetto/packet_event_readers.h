// PacketDecoder's readers of the two event kinds that make rows, TrackEvents and GPU render
// stages: its member templates defined apart from the framing, interning and descriptors in
// packet_decoder.h, which includes this file at its end (it is not included on its own).
#pragma once

namespace stackline::pftrace {

template <class Reader>
void PacketDecoder<Reader>::readTrackEvent(SequenceState& seq, std::string_view bytes, uint64_t at,
                                           int64_t ts) {
    TrackEvents& ev = out_.events;
    const uint32_t row = ev.size();
    const size_t links = ev.links.size(), flows = ev.flows.size() + ev.terminatingFlows.size(),
                 counters = ev.counterValues.size();
    uint8_t type = 0;
    uint64_t track = seq.defaultTrack;
    uint32_t name = 0, category = 0;
    bool haveCategory = false;
    uint8_t annotated = 0;
    Reader r(bytes);
    while (r.next()) {
        const uint32_t f = r.field();
        const WireType t = r.type();
        switch (f) {
            case track_event::kType:
                if (t == WireType::Varint)
                    type = uint8_t(r.varint());
                else
                    r.skip();
                break;
            case track_event::kTrackUuid:
                if (t == WireType::Varint)
                    track = r.varint();
                else
                    r.skip();
                break;
            case track_event::kNameIid:
                if (t == WireType::Varint)
                    name = resolve(seq.eventNames, r.varint());
                else
                    r.skip();
                break;
            case track_event::kName:
                if (t == WireType::Bytes)
                    name = out_.strings.intern(r.bytes());
                else
                    r.skip();
                break;
            case track_event::kCategoryIids:
                r.varints([&](uint64_t iid) {
                    if (!haveCategory) category = resolve(seq.categories, iid);
                    haveCategory = true;
                });
                break;
            case track_event::kCategories:
                if (t == WireType::Bytes && !haveCategory) {
                    category = out_.strings.intern(r.bytes());
                    haveCategory = true;
                } else {
                    r.skip();
                }
                break;
            case track_event::kFlowIds:
                r.fixed64s([&](uint64_t id) { ev.flows.emplace_back(row, id); });
                break;
            case track_event::kFlowIdsOld:
                r.varints([&](uint64_t id) { ev.flows.emplace_back(row, id); });
                break;
            case track_event::kTerminatingFlowIds:
                r.fixed64s([&](uint64_t id) { ev.terminatingFlows.emplace_back(row, id); });
                break;
            case track_event::kTerminatingFlowIdsOld:
                r.varints([&](uint64_t id) { ev.terminatingFlows.emplace_back(row, id); });
                break;
            case track_event::kCounterValue:
                if (t == WireType::Varint)
                    ev.counterValues.emplace_back(row, double(int64_t(r.varint())));
                else
                    r.skip();
                break;
            case track_event::kDoubleCounterValue:
                if (t == WireType::Fixed64)
                    ev.counterValues.emplace_back(row, r.real());
                else
                    r.skip();
                break;
            case track_event::kGpuCorrelation:
                if (t == WireType::Bytes) {
                    Reader g(r.bytes());
                    while (g.next()) {
                        if (g.field() == gpu_correlation::kRenderStageSubmissionEventIds)
                            g.varints([&](uint64_t id) { ev.links.push_back(id); });
                        else
                            g.skip();
                    }
                } else {
                    r.skip();
                }
                break;
            case track_event::kDebugAnnotations:
                if (t == WireType::Bytes) {
                    annotated = 1;
                    readAnnotation(seq, r.bytes(), row);
                } else {
                    r.skip();
                }
                break;
            case track_event::kTimestampDeltaUs:
            case track_event::kTimestampAbsoluteUs:
                ++out_.stats.legacyTimestamps;
                r.skip();
                break;
            default:
                r.skip();
                break;
        }
    }
    if (type == track_event::kTypeSliceEnd && !name && !haveCategory && !annotated &&
        ev.links.size() == links && ev.flows.size() + ev.terminatingFlows.size() == flows &&
        ev.counterValues.size() == counters) {
        ev.ends.ts.push_back(ts);
        ev.ends.track.push_back(track);
        ev.ends.after.push_back(row);
        return;
    }
    ev.offset.push_back(at);
    ev.length.push_back(uint32_t(bytes.size()));
    ev.ts.push_back(ts);
    ev.type.push_back(type);
    ev.track.push_back(track);
    ev.name.push_back(name);
    ev.category.push_back(category);
    ev.generation.push_back(seq.generation);
    ev.annotated.push_back(annotated);
    ev.linkBegin.push_back(uint32_t(ev.links.size()));
}

// An "External id" annotation (by inline name, or by its iid) with an integer value sets the
// row's External id; a "Sequence number" one, of any value, notes the row in sequenced.
template <class Reader>
void PacketDecoder<Reader>::readAnnotation(const SequenceState& seq, std::string_view bytes,
                                           uint32_t row) {
    using namespace debug_annotation;
    auto isOneOf = [](const std::vector<uint64_t>& iids, uint64_t iid) {
        return std::find(iids.begin(), iids.end(), iid) != iids.end();
    };
    bool named = false, sequence = false;
    std::optional<int64_t> value;
    Reader a(bytes);
    while (a.next()) {
        const uint32_t f = a.field();
        if (f == kName && a.type() == WireType::Bytes) {
            const std::string_view name = a.bytes();  // once: reading it moves past it
            named = name == kExternalIdName;
            sequence = name == kineto::kSequenceNumberArg;
        } else if (f == kNameIid && a.type() == WireType::Varint) {
            const uint64_t iid = a.varint();
            named = isOneOf(seq.externalIdIids, iid);
            sequence = isOneOf(seq.sequenceNumberIids, iid);
        } else if ((f == kIntValue || f == kUintValue) && a.type() == WireType::Varint) {
            value = int64_t(a.varint());
        } else {
            a.skip();
        }
    }
    std::vector<uint32_t>& sequenced = out_.events.sequenced;
    if (sequence && (sequenced.empty() || sequenced.back() != row)) sequenced.push_back(row);
    if (!named || !value) return;
    std::vector<std::pair<uint32_t, int64_t>>& ids = out_.events.externalIds;
    if (!ids.empty() && ids.back().first == row)
        ids.back().second = *value;
    else
        ids.emplace_back(row, *value);
}

template <class Reader>
void PacketDecoder<Reader>::readRenderStage(SequenceState& seq, std::string_view bytes, uint64_t at,
                                            int64_t ts) {
    uint64_t eventId = 0, duration = 0, queueIid = 0, stageIid = 0, nameIid = 0, kernelIid = 0;
    int32_t gpu = 0;
    bool hasEventId = false, hasNameIid = false;
    std::string_view inlineName;
    Reader r(bytes);
    while (r.next()) {
        if (r.type() == WireType::Varint) {
            const uint64_t v = r.varint();
            switch (r.field()) {
                case render_stage::kEventId:
                    eventId = v;
                    hasEventId = true;
                    break;
                case render_stage::kDuration:
                    duration = v;
                    break;
                case render_stage::kGpuId:
                    gpu = int32_t(v);
                    break;
                case render_stage::kHwQueueIid:
                    queueIid = v;
                    break;
                case render_stage::kStageIid:
                    stageIid = v;
                    break;
                case render_stage::kNameIid:
                    nameIid = v;
                    hasNameIid = true;
                    break;
                case render_stage::kKernelIid:
                    kernelIid = v;
                    break;
                default:
                    break;
            }
        } else if (r.type() == WireType::Bytes && r.field() == render_stage::kName) {
            inlineName = r.bytes();
        } else {
            r.skip();
        }
    }
    // Perfetto's trace processor imports only render stages with an event_id.
    if (!hasEventId) return;
    RenderStages& st = out_.stages;
    const Spec* queue = seq.specs.find(queueIid);
    const Spec* stage = seq.specs.find(stageIid);
    if (!queue || (stageIid && !stage)) ++out_.stats.unresolvedIids;
    const uint32_t stageName = stage ? stage->name : 0;
    uint32_t name = stageName;
    if (hasNameIid)
        name = resolve(seq.eventNames, nameIid);
    else if (!inlineName.empty())
        name = out_.strings.intern(inlineName);
    st.offset.push_back(at);
    st.length.push_back(uint32_t(bytes.size()));
    st.ts.push_back(ts);
    st.duration.push_back(duration);
    st.eventId.push_back(eventId);
    st.gpu.push_back(gpu);
    st.queueIid.push_back(queueIid);
    st.stageIid.push_back(stageIid);
    st.queue.push_back(queue ? queue->name : 0);
    st.stage.push_back(stageName);
    st.name.push_back(name);
    st.kernel.push_back(kernelIid ? resolve(seq.kernels, kernelIid) : 0);
    st.generation.push_back(seq.generation);
}

}  // namespace stackline::pftrace
