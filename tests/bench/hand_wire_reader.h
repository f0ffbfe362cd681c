// A hand-written protobuf field reader with WireReader's interface (core/import/perfetto/
// wire_reader.h), for bench_pftrace to measure against Mapbox's protozero.
#pragma once

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string_view>

#include "import/perfetto/proto_fields.h"

namespace stackline::bench {

class HandWireReader {
public:
    explicit HandWireReader(std::string_view bytes)
        : p_(reinterpret_cast<const uint8_t*>(bytes.data())), end_(p_ + bytes.size()) {}

    bool next() {
        if (p_ == end_) return false;
        const uint64_t tag = read();
        field_ = uint32_t(tag >> 3);
        type_ = pftrace::WireType(tag & 7);
        if (field_ == 0) throw std::runtime_error("field number 0");
        const unsigned t = unsigned(tag & 7);
        if (t != 0 && t != 1 && t != 2 && t != 5) throw std::runtime_error("unknown wire type");
        return true;
    }
    uint32_t field() const { return field_; }
    pftrace::WireType type() const { return type_; }

    uint64_t varint() { return read(); }
    uint64_t fixed64() {
        need(8);
        uint64_t v;
        std::memcpy(&v, p_, 8);
        p_ += 8;
        return v;
    }
    double real() {
        const uint64_t bits = fixed64();
        double v;
        std::memcpy(&v, &bits, 8);
        return v;
    }
    std::string_view bytes() {
        const uint64_t n = read();
        need(n);
        const std::string_view v(reinterpret_cast<const char*>(p_), n);
        p_ += n;
        return v;
    }
    void skip() {
        switch (type_) {
            case pftrace::WireType::Varint:
                read();
                break;
            case pftrace::WireType::Fixed64:
                need(8);
                p_ += 8;
                break;
            case pftrace::WireType::Bytes:
                bytes();
                break;
            case pftrace::WireType::Fixed32:
                need(4);
                p_ += 4;
                break;
        }
    }
    template <class F>
    void varints(F&& f) {
        if (type_ == pftrace::WireType::Varint) {
            f(varint());
        } else if (type_ == pftrace::WireType::Bytes) {
            HandWireReader packed(bytes());
            while (packed.p_ != packed.end_) f(packed.read());
        } else {
            skip();
        }
    }
    template <class F>
    void fixed64s(F&& f) {
        if (type_ == pftrace::WireType::Fixed64) {
            f(fixed64());
        } else if (type_ == pftrace::WireType::Bytes) {
            HandWireReader packed(bytes());
            while (packed.p_ != packed.end_) f(packed.fixed64());
        } else {
            skip();
        }
    }

private:
    void need(uint64_t n) const {
        if (uint64_t(end_ - p_) < n) throw std::runtime_error("end of buffer");
    }
    uint64_t read() {
        if (p_ != end_ && !(*p_ & 0x80)) return *p_++;  // one byte, the usual case
        uint64_t v = 0;
        for (unsigned shift = 0; shift < 70; shift += 7) {
            if (p_ == end_) throw std::runtime_error("end of buffer");
            const uint8_t b = *p_++;
            v |= uint64_t(b & 0x7F) << shift;
            if (!(b & 0x80)) return v;
        }
        throw std::runtime_error("varint too long");
    }
    const uint8_t* p_;
    const uint8_t* end_;
    uint32_t field_ = 0;
    pftrace::WireType type_ = pftrace::WireType::Varint;
};

}  // namespace stackline::bench
