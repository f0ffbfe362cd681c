// One protobuf message's fields, read in place with Mapbox's protozero (libprotozero-dev): the
// few calls the Perfetto decoder makes. A truncated field, an over-long varint, a reserved field
// number or an unknown wire type throws a std::exception (protozero::exception); callers check
// type() before reading a value, so that a field of an unexpected type is skipped, not misread.
#pragma once

#include <cstdint>
#include <protozero/pbf_reader.hpp>
#include <string_view>

#include "import/perfetto/proto_fields.h"

namespace stackline::pftrace {

class WireReader {
public:
    explicit WireReader(std::string_view bytes) : reader_(bytes.data(), bytes.size()) {}

    bool next() { return reader_.next(); }
    uint32_t field() const { return reader_.tag(); }
    WireType type() const { return WireType(uint8_t(reader_.wire_type())); }

    uint64_t varint() { return reader_.get_uint64(); }    // type() == Varint
    uint64_t fixed64() { return reader_.get_fixed64(); }  // type() == Fixed64
    double real() { return reader_.get_double(); }        // type() == Fixed64
    std::string_view bytes() {                            // type() == Bytes
        const protozero::data_view v = reader_.get_view();
        return {v.data(), v.size()};
    }
    void skip() { reader_.skip(); }

    // A repeated uint64 field, packed (Bytes) or not (Varint).
    template <class F>
    void varints(F&& f) {
        if (type() == WireType::Varint) {
            f(varint());
        } else if (type() == WireType::Bytes) {
            for (const uint64_t v : reader_.get_packed_uint64()) f(v);
        } else {
            skip();
        }
    }
    // A repeated fixed64 field, packed (Bytes) or not (Fixed64).
    template <class F>
    void fixed64s(F&& f) {
        if (type() == WireType::Fixed64) {
            f(fixed64());
        } else if (type() == WireType::Bytes) {
            for (const uint64_t v : reader_.get_packed_fixed64()) f(v);
        } else {
            skip();
        }
    }

private:
    protozero::pbf_reader reader_;
};

}  // namespace stackline::pftrace
