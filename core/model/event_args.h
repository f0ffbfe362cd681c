// An event's args as typed values, the one way to read them after loading: the details panel,
// counters, eager stacks, kernel code and job steps ask Trace::args(row), and each format's
// importer supplies the ArgsReader that answers (Kineto JSON parses the event's bytes on demand;
// other formats keep their own store).
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace stackline {

struct Trace;

class ArgsReader {
public:
    virtual ~ArgsReader() = default;
    // The row has args, of any type.
    virtual bool present(const Trace& trace, uint32_t row) const = 0;
    // The row's args as recorded (an object, normally); a discarded value when it has none or
    // they cannot be read.
    virtual nlohmann::ordered_json value(const Trace& trace, uint32_t row) const = 0;
    // An integer member of the row's args (the last of a repeated name); nullopt when absent or
    // not an integer. Asked of every op by some analyses: it should not build value().
    virtual std::optional<int64_t> integer(const Trace& trace, uint32_t row,
                                           std::string_view key) const = 0;
    // value()'s JSON text (invalid UTF-8 replaced; null where it cannot be read) appended to out,
    // for a row that has args. The
    // Chrome JSON export asks it of every row: a reader may write it without building value().
    virtual void appendJson(const Trace& trace, uint32_t row, std::string& out) const;
    // A hint, given some rows ahead by whole-trace passes (the export), that row's args are read
    // soon: a reader whose args stay in the trace's bytes fetches them into the cache.
    virtual void prefetch(const Trace&, uint32_t) const {}
    // The rows whose args may hold key, ascending, where the reader learnt them while loading;
    // nullopt when any row may. A pass that asks one key of every op visits only these.
    virtual std::optional<std::vector<uint32_t>> rowsThatMayHold(std::string_view) const {
        return std::nullopt;
    }
};

// One row's args (Trace::args).
class EventArgs {
public:
    EventArgs(const Trace& trace, uint32_t row) : trace_(trace), row_(row) {}
    bool present() const;
    nlohmann::ordered_json value() const;
    // value() when it is an object, else a discarded value.
    nlohmann::ordered_json object() const;
    std::optional<int64_t> integer(std::string_view key) const;

private:
    const Trace& trace_;
    uint32_t row_;
};

}  // namespace stackline
