// The byte layer of the synthetic traces: a buffered sink that writes Kineto's layout or the
// compact one, JSON helpers, and the hash that makes every generated value reproducible.
#pragma once

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace stackline::bench {

constexpr int64_t kUs = 1000;  // times are integer ns, written as µs with three decimals
constexpr int64_t kTraceStartNs = 2413669096141794;  // 13-digit µs, as in recent Kineto files

inline uint64_t mix(uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

inline uint64_t hashName(std::string_view s) {
    uint64_t h = 1469598103934665603ull;
    for (char c : s) h = (h ^ uint8_t(c)) * 1099511628211ull;
    return h;
}

// How the events are laid out: Kineto's own (each event over several lines), one event per line,
// or one event per line without the spaces between tokens, as json.dumps(separators=(",", ":")).
enum class Layout : uint8_t { kKineto, kOneLine, kMinified };

// Buffered writer. The layouts differ only in the whitespace between tokens.
class Sink {
public:
    Sink(std::FILE* file, Layout layout) : file_(file), layout_(layout), buf_(kCapacity) {}

    bool pretty() const { return layout_ == Layout::kKineto; }
    uint64_t written() const { return flushed_ + len_; }

    // JSON text, written in the sink's layout; a string may span several calls.
    void lit(std::string_view s) {
        if (layout_ == Layout::kMinified) return minified(s);
        raw(s);
    }

    void u64(uint64_t v) {
        static constexpr char kPairs[] =
            "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
            "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
            "8081828384858687888990919293949596979899";
        char tmp[20];
        char* p = tmp + sizeof tmp;
        while (v >= 100) {
            p -= 2;
            std::memcpy(p, kPairs + (v % 100) * 2, 2);
            v /= 100;
        }
        if (v >= 10) {
            p -= 2;
            std::memcpy(p, kPairs + v * 2, 2);
        } else {
            *--p = char('0' + v);
        }
        raw({p, size_t(tmp + sizeof tmp - p)});
    }

    // Kineto's fmtTs: integer µs, '.', exactly three digits.
    void ts(int64_t ns) {
        u64(uint64_t(ns / kUs));
        const int frac = int(ns % kUs);
        const char digits[4] = {'.', char('0' + frac / 100), char('0' + frac / 10 % 10),
                                char('0' + frac % 10)};
        raw({digits, 4});
    }

    // Between two fields: newline and indentation in Kineto's layout, a space otherwise.
    void br(int indent) { pretty() ? lit(kIndents.substr(0, size_t(indent) + 1)) : lit(" "); }
    // After an opening or before a closing brace: nothing in the compact layout.
    void br0(int indent) {
        if (pretty()) lit(kIndents.substr(0, size_t(indent) + 1));
    }

    void flush() {
        writeOut(buf_.data(), len_);
        len_ = 0;
    }

private:
    static constexpr size_t kCapacity = size_t(8) << 20;
    static constexpr std::string_view kIndents = "\n        ";

    void raw(std::string_view s) {
        if (s.empty()) return;  // its data() may be null, which memcpy must not get
        if (len_ + s.size() > kCapacity) {
            flush();
            if (s.size() > kCapacity) return writeOut(s.data(), s.size());
        }
        std::memcpy(buf_.data() + len_, s.data(), s.size());
        len_ += s.size();
    }

    // Drops the spaces outside strings; the state carries over, as callers split strings.
    void minified(std::string_view s) {
        size_t from = 0;
        for (size_t i = 0; i < s.size(); ++i) {
            const char c = s[i];
            if (inString_) {
                if (escaped_) {
                    escaped_ = false;
                } else if (c == '\\') {
                    escaped_ = true;
                } else if (c == '"') {
                    inString_ = false;
                }
            } else if (c == '"') {
                inString_ = true;
            } else if (c == ' ') {
                raw(s.substr(from, i - from));
                from = i + 1;
            }
        }
        raw(s.substr(from));
    }

    void writeOut(const char* data, size_t n) {
        if (file_ && n && std::fwrite(data, 1, n, file_) != n) {
            throw std::runtime_error(std::string("trace write failed: ") + std::strerror(errno));
        }
        flushed_ += n;
    }

    std::FILE* file_;  // null: count bytes only
    Layout layout_;
    std::vector<char> buf_;
    size_t len_ = 0;
    uint64_t flushed_ = 0;
    bool inString_ = false, escaped_ = false;  // where kMinified is in the JSON text
};

// Sink::br for strings built once per layout.
std::string br(bool pretty, int indent);
std::string jsonQuote(std::string_view s);
std::string jsonList(const std::vector<std::string>& items);

}  // namespace stackline::bench
