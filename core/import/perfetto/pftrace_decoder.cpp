#include "import/perfetto/pftrace_decoder.h"

#include <cstdio>

#include "base/errors.h"
#include "import/perfetto/packet_decoder.h"
#include "import/perfetto/proto_fields.h"
#include "import/perfetto/wire_reader.h"

namespace stackline::pftrace {

namespace {

bool readVarint(std::string_view s, size_t& at, uint64_t& v) {
    v = 0;
    for (unsigned shift = 0; shift < 64 && at < s.size(); shift += 7) {
        const auto b = uint8_t(s[at++]);
        v |= uint64_t(b & 0x7F) << shift;
        if (!(b & 0x80)) return true;
    }
    return false;
}

const AnnotationNames* generationOf(const PftraceTable& table, uint32_t generation) {
    return generation < table.generations.size() ? &table.generations[generation] : nullptr;
}

std::string_view pooled(const PftraceTable& table,
                        const std::unordered_map<uint64_t, uint32_t>* map, uint64_t iid) {
    if (!map) return {};
    auto it = map->find(iid);
    return it == map->end() ? std::string_view() : table.strings.at(it->second);
}

// One DebugAnnotation: its name and its value.
std::pair<std::string, nlohmann::json> annotation(const PftraceTable& table,
                                                  const AnnotationNames* names,
                                                  std::string_view bytes, int depth) {
    using namespace debug_annotation;
    std::string name;
    nlohmann::json value;  // null until a value field
    nlohmann::json dict = nlohmann::json::object(), array = nlohmann::json::array();
    bool isDict = false, isArray = false;
    WireReader r(bytes);
    while (r.next()) {
        const uint32_t f = r.field();
        const WireType t = r.type();
        if (t == WireType::Varint) {
            const uint64_t v = r.varint();
            if (f == kNameIid)
                name = pooled(table, names ? &names->names : nullptr, v);
            else if (f == kBoolValue)
                value = v != 0;
            else if (f == kUintValue)
                value = v;
            else if (f == kIntValue)
                value = int64_t(v);
            else if (f == kPointerValue) {
                char hex[24];
                std::snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)v);
                value = hex;
            } else if (f == kStringValueIid) {
                value = std::string(pooled(table, names ? &names->strings : nullptr, v));
            }
        } else if (t == WireType::Fixed64 && f == kDoubleValue) {
            value = r.real();
        } else if (t == WireType::Bytes) {
            const std::string_view v = r.bytes();
            if (f == kName) {
                name = v;
            } else if (f == kStringValue || f == kLegacyJsonValue) {
                value = std::string(v);
            } else if ((f == kDictEntries || f == kArrayValues) && depth < 64) {
                auto [key, inner] = annotation(table, names, v, depth + 1);
                if (f == kDictEntries) {
                    isDict = true;
                    dict[key] = std::move(inner);
                } else {
                    isArray = true;
                    array.push_back(std::move(inner));
                }
            }
        } else {
            r.skip();
        }
    }
    if (isDict)
        value = std::move(dict);
    else if (isArray)
        value = std::move(array);
    return {std::move(name), std::move(value)};
}

nlohmann::json readTrackEventArgs(const PftraceTable& table, std::string_view bytes, uint32_t row) {
    const TrackEvents& ev = table.events;
    nlohmann::json args = nlohmann::json::object();
    const std::string_view event = bytes.substr(ev.offset[row], ev.length[row]);
    const AnnotationNames* names = generationOf(table, ev.generation[row]);
    WireReader r(event);
    while (r.next()) {
        if (r.field() == track_event::kDebugAnnotations && r.type() == WireType::Bytes) {
            auto [key, value] = annotation(table, names, r.bytes(), 0);
            args[key] = std::move(value);
        } else {
            r.skip();
        }
    }
    return args;
}

nlohmann::json readExtraData(const PftraceTable& table, std::string_view bytes, uint32_t row) {
    const RenderStages& st = table.stages;
    nlohmann::json extra = nlohmann::json::object();
    WireReader r(bytes.substr(st.offset[row], st.length[row]));
    while (r.next()) {
        if (r.field() != render_stage::kExtraData || r.type() != WireType::Bytes) {
            r.skip();
            continue;
        }
        std::string name, value;
        WireReader d(r.bytes());
        while (d.next()) {
            if (d.type() != WireType::Bytes)
                d.skip();
            else if (d.field() == render_stage::kExtraName)
                name = d.bytes();
            else if (d.field() == render_stage::kExtraValue)
                value = d.bytes();
            else
                d.skip();
        }
        extra[name] = value;
    }
    return extra;
}

}  // namespace

bool looksLikePftrace(std::string_view head) {
    // A Trace starts with field 1 (packet) of wire type 2; the packet's own fields must then read
    // as fields (valid tags and wire types, lengths within it) up to its end, or up to the end of
    // head when the packet is longer. JSON that starts with a newline (0x0A) fails there.
    size_t at = 0;
    uint64_t tag = 0, size = 0;
    if (!readVarint(head, at, tag) || tag != ((trace::kPacket << 3) | 2)) return false;
    if (!readVarint(head, at, size) || size == 0) return false;
    const size_t end = size < head.size() - at ? at + size : head.size();
    const bool whole = size <= head.size() - at;
    while (at < end) {
        uint64_t field = 0, v = 0;
        if (!readVarint(head.substr(0, end), at, field)) return !whole;
        if (field >> 3 == 0) return false;
        switch (field & 7) {
            case 0:
                if (!readVarint(head.substr(0, end), at, v)) return !whole;
                break;
            case 1:
                at += 8;
                break;
            case 5:
                at += 4;
                break;
            case 2:
                if (!readVarint(head.substr(0, end), at, v)) return !whole;
                if (v > end - at) return !whole;
                at += v;
                break;
            default:
                return false;
        }
    }
    return at == end || !whole;
}

PftraceTable decodePftrace(std::string_view bytes, const std::string& name) {
    PftraceTable table;
    table.name = name;
    PacketDecoder<WireReader> decoder(table, name);
    decoder.decodeStream(bytes);
    return table;
}

nlohmann::json trackEventArgs(const PftraceTable& table, std::string_view bytes, uint32_t row) {
    try {
        return readTrackEventArgs(table, bytes, row);
    } catch (const std::exception& e) {
        throw InputError(table.name + ": byte " + std::to_string(table.events.offset[row]) +
                         ": corrupt debug annotations (" + e.what() + ")");
    }
}

nlohmann::json renderStageExtraData(const PftraceTable& table, std::string_view bytes,
                                    uint32_t row) {
    try {
        return readExtraData(table, bytes, row);
    } catch (const std::exception& e) {
        throw InputError(table.name + ": byte " + std::to_string(table.stages.offset[row]) +
                         ": corrupt extra_data (" + e.what() + ")");
    }
}

}  // namespace stackline::pftrace
