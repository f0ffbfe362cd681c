#include "import/perfetto/pftrace_decoder.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cstdio>
#include <functional>
#include <optional>

#include "base/errors.h"
#include "import/perfetto/packet_decoder.h"
#include "import/perfetto/proto_fields.h"
#include "import/perfetto/wire_reader.h"
#include "json/json_string.h"
#include "model/kineto.h"

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

// The names of the generation of row in column; an empty column stands for generation 0 (a
// table with one generation need not say it per row).
const AnnotationNames* generationOf(const PftraceTable& table, const std::vector<uint32_t>& column,
                                    uint32_t row) {
    const uint32_t generation = column.empty() ? 0 : column[row];
    return generation < table.generations.size() ? &table.generations[generation] : nullptr;
}

std::string_view pooled(const PftraceTable& table,
                        const std::unordered_map<uint64_t, uint32_t>* map, uint64_t iid) {
    if (!map) return {};
    auto it = map->find(iid);
    return it == map->end() ? std::string_view() : table.strings.at(it->second);
}

// What one DebugAnnotation holds, read in one pass: its name (the last name field, inline or
// interned), its last scalar value, and whether it has dict entries or array values, which (below
// depth 64) stand for its value instead: dict entries over array values over the scalar. The args
// as a DOM, as text and one integer of them all read annotations through it.
struct AnnotationFields {
    std::string_view name;
    uint32_t scalar = 0;  // the field that set the last scalar value; 0: none (null)
    uint64_t varint = 0;
    double real = 0;
    std::string_view text;
    bool isDict = false, isArray = false;
};

AnnotationFields scanAnnotation(const PftraceTable& table, const AnnotationNames* names,
                                std::string_view bytes, int depth) {
    using namespace debug_annotation;
    AnnotationFields a;
    WireReader r(bytes);
    while (r.next()) {
        const uint32_t f = r.field();
        const WireType t = r.type();
        if (t == WireType::Varint) {
            const uint64_t v = r.varint();
            if (f == kNameIid) {
                a.name = pooled(table, names ? &names->names : nullptr, v);
            } else if (f == kBoolValue || f == kUintValue || f == kIntValue || f == kPointerValue ||
                       f == kStringValueIid) {
                a.scalar = f;
                a.varint = v;
            }
        } else if (t == WireType::Fixed64 && f == kDoubleValue) {
            a.scalar = f;
            a.real = r.real();
        } else if (t == WireType::Bytes) {
            const std::string_view v = r.bytes();
            if (f == kName) {
                a.name = v;
            } else if (f == kStringValue || f == kLegacyJsonValue) {
                a.scalar = f;
                a.text = v;
            } else if (depth < 64) {
                a.isDict |= f == kDictEntries;
                a.isArray |= f == kArrayValues;
            }
        } else {
            r.skip();
        }
    }
    return a;
}

// Calls f(entry bytes) for each dict entry (isDict) or array value of an annotation.
template <typename F>
void forEachEntry(std::string_view bytes, const AnnotationFields& a, F&& f) {
    const uint32_t entries =
        a.isDict ? debug_annotation::kDictEntries : debug_annotation::kArrayValues;
    WireReader r(bytes);
    while (r.next())
        if (r.field() == entries && r.type() == WireType::Bytes)
            f(r.bytes());
        else
            r.skip();
}

// Calls f(names, annotation bytes) for each debug annotation of TrackEvent row, in file order.
template <typename F>
void forEachAnnotation(const PftraceTable& table, std::string_view bytes, uint32_t row, F&& f) {
    const TrackEvents& ev = table.events;
    const AnnotationNames* names = generationOf(table, ev.generation, row);
    WireReader r(bytes.substr(ev.offset[row], ev.length[row]));
    while (r.next())
        if (r.field() == track_event::kDebugAnnotations && r.type() == WireType::Bytes)
            f(names, r.bytes());
        else
            r.skip();
}

std::string pointerText(uint64_t v) {
    char hex[24];
    std::snprintf(hex, sizeof hex, "0x%llx", (unsigned long long)v);
    return hex;
}

// One DebugAnnotation's value as a DOM. A dict's repeated name keeps its first place and its last
// value, as a Python dict would.
nlohmann::ordered_json annotationValue(const PftraceTable& table, const AnnotationNames* names,
                                       std::string_view bytes, const AnnotationFields& a,
                                       int depth) {
    using namespace debug_annotation;
    using Json = nlohmann::ordered_json;
    if (a.isDict || a.isArray) {
        Json out = a.isDict ? Json::object() : Json::array();
        forEachEntry(bytes, a, [&](std::string_view entry) {
            const AnnotationFields e = scanAnnotation(table, names, entry, depth + 1);
            Json value = annotationValue(table, names, entry, e, depth + 1);
            if (a.isDict)
                out[std::string(e.name)] = std::move(value);
            else
                out.push_back(std::move(value));
        });
        return out;
    }
    switch (a.scalar) {
        case kBoolValue:
            return a.varint != 0;
        case kUintValue:
            return a.varint;
        case kIntValue:
            return int64_t(a.varint);
        case kPointerValue:
            return pointerText(a.varint);
        case kStringValueIid:
            return std::string(pooled(table, names ? &names->strings : nullptr, a.varint));
        case kDoubleValue:
            return a.real;
        case kStringValue:
        case kLegacyJsonValue:
            return std::string(a.text);
    }
    return nullptr;
}

nlohmann::ordered_json readTrackEventArgs(const PftraceTable& table, std::string_view bytes,
                                          uint32_t row) {
    nlohmann::ordered_json args = nlohmann::ordered_json::object();
    forEachAnnotation(table, bytes, row, [&](const AnnotationNames* names, std::string_view a) {
        const AnnotationFields fields = scanAnnotation(table, names, a, 0);
        args[std::string(fields.name)] = annotationValue(table, names, a, fields, 0);
    });
    return args;
}

// The names of an object being written, to tell a repeated one; more than fit are left to the DOM
// too (events have a handful of annotations).
class ObjectKeys {
public:
    // False when key was seen already or there is no room for it.
    bool add(std::string_view key) {
        if (count_ == keys_.size() ||
            std::find(keys_.begin(), keys_.begin() + count_, key) != keys_.begin() + count_)
            return false;
        keys_[count_++] = key;
        return true;
    }
    bool empty() const { return count_ == 0; }

private:
    std::array<std::string_view, 32> keys_;
    std::size_t count_ = 0;
};

// annotationValue's JSON text, the same bytes as its dump. False, with out unspecified, where an
// object would repeat a name (then the DOM decides which value stays).
bool appendAnnotationValue(const PftraceTable& table, const AnnotationNames* names,
                           std::string_view bytes, const AnnotationFields& a, int depth,
                           std::string& out) {
    using namespace debug_annotation;
    if (a.isDict || a.isArray) {
        ObjectKeys keys;
        bool first = true, ok = true;
        out += a.isDict ? '{' : '[';
        forEachEntry(bytes, a, [&](std::string_view entry) {
            if (!ok) return;
            const AnnotationFields e = scanAnnotation(table, names, entry, depth + 1);
            if (!first) out += ',';
            first = false;
            if (a.isDict) {
                ok = keys.add(e.name);
                json::appendString(out, e.name);
                out += ':';
            }
            ok = ok && appendAnnotationValue(table, names, entry, e, depth + 1, out);
        });
        out += a.isDict ? '}' : ']';
        return ok;
    }
    char digits[24];
    switch (a.scalar) {
        case 0:
            out += "null";
            break;
        case kBoolValue:
            out += a.varint ? "true" : "false";
            break;
        case kUintValue:
            out.append(digits, std::to_chars(digits, digits + sizeof digits, a.varint).ptr);
            break;
        case kIntValue:
            out.append(digits,
                       std::to_chars(digits, digits + sizeof digits, int64_t(a.varint)).ptr);
            break;
        case kPointerValue:
            json::appendString(out, pointerText(a.varint));
            break;
        case kStringValueIid:
            json::appendString(out, pooled(table, names ? &names->strings : nullptr, a.varint));
            break;
        case kDoubleValue:
            json::appendDouble(out, a.real);
            break;
        default:
            json::appendString(out, a.text);
    }
    return true;
}

bool appendTrackEventArgs(const PftraceTable& table, std::string_view bytes, uint32_t row,
                          std::string& out) {
    ObjectKeys keys;
    bool ok = true;
    out += '{';
    forEachAnnotation(table, bytes, row, [&](const AnnotationNames* names, std::string_view a) {
        if (!ok) return;
        const AnnotationFields fields = scanAnnotation(table, names, a, 0);
        if (!keys.empty()) out += ',';
        ok = keys.add(fields.name);
        json::appendString(out, fields.name);
        out += ':';
        ok = ok && appendAnnotationValue(table, names, a, fields, 0, out);
    });
    out += '}';
    return ok;
}

// Calls f(name, value) for each extra_data entry of render stage row, in file order; both point
// into bytes.
template <typename F>
void forEachExtra(const PftraceTable& table, std::string_view bytes, uint32_t row, F&& f) {
    const RenderStages& st = table.stages;
    WireReader r(bytes.substr(st.offset[row], st.length[row]));
    while (r.next()) {
        if (r.field() != render_stage::kExtraData || r.type() != WireType::Bytes) {
            r.skip();
            continue;
        }
        std::string_view name, value;  // into bytes
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
        f(name, value);
    }
}

// The integer value of the last debug annotation named key in the TrackEvent's bytes, nullopt
// when that one holds anything else: what readTrackEventArgs(...)[key] would hold, without
// building the others.
std::optional<int64_t> readTrackEventInteger(const PftraceTable& table, std::string_view bytes,
                                             uint32_t row, std::string_view key) {
    using namespace debug_annotation;
    std::optional<int64_t> found;
    forEachAnnotation(table, bytes, row, [&](const AnnotationNames* names, std::string_view a) {
        const AnnotationFields f = scanAnnotation(table, names, a, 0);
        if (f.name != key) return;
        const bool integer =
            !f.isDict && !f.isArray && (f.scalar == kUintValue || f.scalar == kIntValue);
        found = integer ? std::optional(int64_t(f.varint)) : std::nullopt;
    });
    return found;
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

nlohmann::ordered_json trackEventArgs(const PftraceTable& table, std::string_view bytes,
                                      uint32_t row) {
    try {
        return readTrackEventArgs(table, bytes, row);
    } catch (const std::exception& e) {
        throw InputError(table.name + ": byte " + std::to_string(table.events.offset[row]) +
                         ": corrupt debug annotations (" + e.what() + ")");
    }
}

void appendTrackEventArgsJson(const PftraceTable& table, std::string_view bytes, uint32_t row,
                              std::string& out) {
    const std::size_t start = out.size();
    try {
        if (appendTrackEventArgs(table, bytes, row, out)) return;
        out.resize(start);
        out += readTrackEventArgs(table, bytes, row)
                   .dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    } catch (const std::exception& e) {
        throw InputError(table.name + ": byte " + std::to_string(table.events.offset[row]) +
                         ": corrupt debug annotations (" + e.what() + ")");
    }
}

std::optional<int64_t> trackEventInteger(const PftraceTable& table, std::string_view bytes,
                                         uint32_t row, std::string_view key) {
    try {
        return readTrackEventInteger(table, bytes, row, key);
    } catch (const std::exception& e) {
        throw InputError(table.name + ": byte " + std::to_string(table.events.offset[row]) +
                         ": corrupt debug annotations (" + e.what() + ")");
    }
}

nlohmann::ordered_json renderStageExtraData(const PftraceTable& table, std::string_view bytes,
                                            uint32_t row) {
    try {
        nlohmann::ordered_json extra = nlohmann::ordered_json::object();
        forEachExtra(table, bytes, row, [&](std::string_view name, std::string_view value) {
            extra[std::string(name)] = std::string(value);
        });
        return extra;
    } catch (const std::exception& e) {
        throw InputError(table.name + ": byte " + std::to_string(table.stages.offset[row]) +
                         ": corrupt extra_data (" + e.what() + ")");
    }
}

void visitRenderStageLaunch(const PftraceTable& table, std::string_view bytes, uint32_t row,
                            const std::function<void(std::string_view, const LaunchValue&)>& f) {
    using namespace render_stage;
    const RenderStages& st = table.stages;
    const AnnotationNames* names = generationOf(table, st.generation, row);
    auto dim3 = [](std::string_view b) {
        LaunchValue d;
        d.kind = LaunchValue::Kind::Dim3;
        WireReader r(b);
        while (r.next())
            if (r.field() >= 1 && r.field() <= 3 && r.type() == WireType::Varint)
                d.dim[r.field() - 1] = uint32_t(r.varint());
            else
                r.skip();
        return d;
    };
    try {
        WireReader r(bytes.substr(st.offset[row], st.length[row]));
        while (r.next()) {
            if (r.field() != kLaunch || r.type() != WireType::Bytes) {
                r.skip();
                continue;
            }
            WireReader l(r.bytes());
            while (l.next()) {
                if (l.type() != WireType::Bytes) {
                    l.skip();
                    continue;
                }
                const uint32_t field = l.field();
                const std::string_view v = l.bytes();
                if (field == kLaunchGridSize) {
                    f("grid", dim3(v));
                } else if (field == kLaunchWorkgroupSize) {
                    f("block", dim3(v));
                } else if (field == kLaunchArgs) {
                    std::string_view name;
                    LaunchValue value;  // Kind::None until a value field
                    WireReader a(v);
                    while (a.next()) {
                        const uint32_t g = a.field();
                        if (g == kArgNameIid && a.type() == WireType::Varint) {
                            name = pooled(table, names ? &names->computeArgs : nullptr, a.varint());
                        } else if (g == kArgIntValue && a.type() == WireType::Varint) {
                            value.kind = LaunchValue::Kind::Int;
                            value.integer = int64_t(a.varint());
                        } else if (g == kArgUintValue && a.type() == WireType::Varint) {
                            value.kind = LaunchValue::Kind::Uint;
                            value.unsignedInteger = a.varint();
                        } else if (g == kArgDoubleValue && a.type() == WireType::Fixed64) {
                            value.kind = LaunchValue::Kind::Double;
                            value.real = a.real();
                        } else if (g == kArgName && a.type() == WireType::Bytes) {
                            name = a.bytes();
                        } else if (g == kArgStringValue && a.type() == WireType::Bytes) {
                            value.kind = LaunchValue::Kind::String;
                            value.text = a.bytes();
                        } else {
                            a.skip();
                        }
                    }
                    if (name.empty() || value.kind == LaunchValue::Kind::None) continue;
                    // Kineto's name for the one arg both give.
                    f(name == "registers_per_thread" ? kineto::kRegistersPerThreadArg : name,
                      value);
                }
            }
        }
    } catch (const std::exception& e) {
        throw InputError(table.name + ": byte " + std::to_string(st.offset[row]) +
                         ": corrupt kernel launch (" + e.what() + ")");
    }
}

void appendLaunchValue(std::string& out, const LaunchValue& v) {
    char digits[24];
    switch (v.kind) {
        case LaunchValue::Kind::Dim3:
            out += '[';
            for (int d = 0; d < 3; ++d) {
                if (d) out += ',';
                out.append(digits, std::to_chars(digits, digits + sizeof digits, v.dim[d]).ptr);
            }
            out += ']';
            break;
        case LaunchValue::Kind::Int:
            out.append(digits, std::to_chars(digits, digits + sizeof digits, v.integer).ptr);
            break;
        case LaunchValue::Kind::Uint:
            out.append(digits,
                       std::to_chars(digits, digits + sizeof digits, v.unsignedInteger).ptr);
            break;
        case LaunchValue::Kind::Double:
            json::appendDouble(out, v.real);
            break;
        case LaunchValue::Kind::String:
            json::appendString(out, v.text);
            break;
        case LaunchValue::Kind::None:
            out += "null";
    }
}

nlohmann::ordered_json renderStageLaunch(const PftraceTable& table, std::string_view bytes,
                                         uint32_t row) {
    nlohmann::ordered_json out = nlohmann::ordered_json::object();
    visitRenderStageLaunch(table, bytes, row, [&](std::string_view key, const LaunchValue& v) {
        nlohmann::ordered_json& slot = out[std::string(key)];
        switch (v.kind) {
            case LaunchValue::Kind::Dim3:
                slot = {v.dim[0], v.dim[1], v.dim[2]};
                break;
            case LaunchValue::Kind::Int:
                slot = v.integer;
                break;
            case LaunchValue::Kind::Uint:
                slot = v.unsignedInteger;
                break;
            case LaunchValue::Kind::Double:
                slot = v.real;
                break;
            case LaunchValue::Kind::String:
                slot = std::string(v.text);
                break;
            case LaunchValue::Kind::None:
                break;
        }
    });
    return out;
}

void visitRenderStageExtra(const PftraceTable& table, std::string_view bytes, uint32_t row,
                           const std::function<void(std::string_view, std::string_view)>& f) {
    try {
        forEachExtra(table, bytes, row, f);
    } catch (const std::exception& e) {
        throw InputError(table.name + ": byte " + std::to_string(table.stages.offset[row]) +
                         ": corrupt extra_data (" + e.what() + ")");
    }
}

}  // namespace stackline::pftrace
