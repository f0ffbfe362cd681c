// PacketDecoder's readers of what changes a sequence's state: its packet defaults and interned
// data (names, categories, GPU specifications, compute kernels, counter descriptors). Member
// templates defined apart from the framing in packet_decoder.h, which includes this file at its
// end (it is not included on its own).
#pragma once

namespace stackline::pftrace {

template <class Reader>
void PacketDecoder<Reader>::readDefaults(SequenceState& seq, std::string_view bytes) {
    Reader r(bytes);
    while (r.next()) {
        if (r.field() == 11 && r.type() == WireType::Bytes) {  // track_event_defaults
            Reader d(r.bytes());
            while (d.next()) {
                if (d.field() == track_event::kTrackUuid && d.type() == WireType::Varint)
                    seq.defaultTrack = d.varint();
                else
                    d.skip();
            }
        } else {
            r.skip();
        }
    }
}

template <class Reader>
std::pair<uint64_t, std::string_view> PacketDecoder<Reader>::entry(std::string_view bytes,
                                                                   uint32_t nameField) {
    uint64_t iid = 0;
    std::string_view name;
    Reader r(bytes);
    while (r.next()) {
        if (r.field() == interned_data::kIid && r.type() == WireType::Varint)
            iid = r.varint();
        else if (r.field() == nameField && r.type() == WireType::Bytes)
            name = r.bytes();
        else
            r.skip();
    }
    return {iid, name};
}

template <class Reader>
void PacketDecoder<Reader>::readInterned(SequenceState& seq, std::string_view bytes, bool replay) {
    AnnotationNames& names = out_.generations[seq.generation];
    Reader r(bytes);
    while (r.next()) {
        const uint32_t f = r.field();
        if (r.type() != WireType::Bytes ||
            (replay && (f == interned_data::kDebugAnnotationStringValues ||
                        f == interned_data::kComputeArgNames))) {
            r.skip();
            continue;
        }
        const std::string_view v = r.bytes();
        switch (f) {
            case interned_data::kEventNames: {
                const auto [iid, name] = entry(v, interned_data::kEntryName);
                seq.eventNames.set(iid, out_.strings.intern(name));
                break;
            }
            case interned_data::kEventCategories: {
                const auto [iid, name] = entry(v, interned_data::kEntryName);
                seq.categories.set(iid, out_.strings.intern(name));
                break;
            }
            case interned_data::kDebugAnnotationNames: {
                const auto [iid, name] = entry(v, interned_data::kEntryName);
                if (name == kExternalIdName) seq.externalIdIids.push_back(iid);
                if (name == kineto::kSequenceNumberArg) seq.sequenceNumberIids.push_back(iid);
                if (!replay) names.names[iid] = out_.strings.intern(name);
                break;
            }
            case interned_data::kDebugAnnotationStringValues: {
                const auto [iid, name] = entry(v, interned_data::kEntryName);
                names.strings[iid] = out_.strings.intern(name);
                break;
            }
            case interned_data::kGpuSpecifications: {
                const auto [iid, name] = entry(v, gpu_specification::kName);
                seq.specs.set(iid, Spec{out_.strings.intern(name)});
                break;
            }
            case interned_data::kComputeKernels:
                readKernel(seq, v);
                break;
            case interned_data::kComputeArgNames: {
                const auto [iid, name] = entry(v, interned_data::kEntryName);
                names.computeArgs[iid] = out_.strings.intern(name);
                break;
            }
            case interned_data::kGpuCounterDescriptors:
                readCounterDescriptor(seq, v);
                break;
            default:
                break;
        }
    }
}

template <class Reader>
void PacketDecoder<Reader>::readKernel(SequenceState& seq, std::string_view bytes) {
    uint64_t iid = 0;
    std::string_view name, demangled;
    Reader r(bytes);
    while (r.next()) {
        if (r.field() == interned_data::kIid && r.type() == WireType::Varint)
            iid = r.varint();
        else if (r.field() == compute_kernel::kName && r.type() == WireType::Bytes)
            name = r.bytes();
        else if (r.field() == compute_kernel::kDemangledName && r.type() == WireType::Bytes)
            demangled = r.bytes();
        else
            r.skip();
    }
    seq.kernels.set(iid, out_.strings.intern(demangled.empty() ? name : demangled));
}

template <class Reader>
void PacketDecoder<Reader>::readCounterDescriptor(SequenceState& seq, std::string_view bytes) {
    uint64_t iid = 0;
    CounterDescriptor desc;
    Reader r(bytes);
    while (r.next()) {
        const uint32_t f = r.field();
        if (f == interned_data::kIid && r.type() == WireType::Varint) {
            iid = r.varint();
        } else if (f == gpu_counter_event::kInternedGpuId && r.type() == WireType::Varint) {
            desc.gpu = int32_t(r.varint());
        } else if (f == gpu_counter_event::kInternedDescriptor && r.type() == WireType::Bytes) {
            Reader d(r.bytes());
            while (d.next()) {
                if (d.field() != gpu_counter_event::kDescriptorSpecs ||
                    d.type() != WireType::Bytes) {
                    d.skip();
                    continue;
                }
                const auto [id, name] = entry(d.bytes(), gpu_counter_event::kSpecName);
                desc.names[uint32_t(id)] = out_.strings.intern(name);
            }
        } else {
            r.skip();
        }
    }
    seq.counterDescriptors[iid] = std::move(desc);
}

}  // namespace stackline::pftrace
