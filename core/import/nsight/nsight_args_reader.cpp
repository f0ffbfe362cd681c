#include "import/nsight/nsight_args_reader.h"

#include <tuple>

#include "model/trace.h"

namespace stackline::nsight {

namespace {

using Json = nlohmann::ordered_json;

// A record's args in their order: number(key, v) for each integer, dim3(key, v) for grid and
// block. The one list that value() builds and appendJson writes.
template <typename Number, typename Dim3>
void visitArgs(const ArgsRecord& r, Number&& number, Dim3&& dim3) {
    auto put = [&](const char* key, int64_t v) {
        if (v != kNoValue) number(key, v);
    };
    put("External id", r.externalId);
    if (r.kind == ArgsRecord::Kind::Range) {
        put("Sequence number", r.sequence);
        return;
    }
    if (r.kind != ArgsRecord::Kind::Api) {
        number("device", r.device);
        number("context", r.context);
        number("stream", r.stream);
    }
    put("correlation", r.correlation);
    if (r.kind == ArgsRecord::Kind::Kernel) {
        number("registers per thread", r.registers);
        number("shared memory", r.sharedMemory);
        dim3("grid", r.grid);
        dim3("block", r.block);
    }
    put("bytes", r.bytes);
}

class NsightArgsReader final : public ArgsReader {
public:
    explicit NsightArgsReader(ArgsStore store) : store_(std::move(store)) {}

    bool present(const Trace&, uint32_t row) const override { return store_.has(row); }

    Json value(const Trace& trace, uint32_t row) const override {
        const std::optional<ArgsRecord> r = find(trace, row);
        if (!r) return Json(Json::value_t::discarded);
        Json a = Json::object();
        visitArgs(
            *r, [&](const char* key, int64_t v) { a[key] = v; },
            [&](const char* key, const int32_t* d) {
                a[key] = {d[0], d[1], d[2]};
            });
        return a;
    }

    // value()'s text, written directly (the keys need no escaping).
    void appendJson(const Trace& trace, uint32_t row, std::string& out) const override {
        const std::optional<ArgsRecord> r = find(trace, row);
        if (!r) return ArgsReader::appendJson(trace, row, out);
        bool first = true;
        auto key = [&](const char* k) {
            out += first ? "{\"" : ",\"";
            first = false;
            out += k;
            out += "\":";
        };
        visitArgs(
            *r,
            [&](const char* k, int64_t v) {
                key(k);
                out += std::to_string(v);
            },
            [&](const char* k, const int32_t* d) {
                key(k);
                out += '[' + std::to_string(d[0]) + ',' + std::to_string(d[1]) + ',' +
                       std::to_string(d[2]) + ']';
            });
        out += first ? "{}" : "}";
    }

    std::optional<int64_t> integer(const Trace& trace, uint32_t row,
                                   std::string_view key) const override {
        if (!store_.has(row)) return std::nullopt;
        // The common questions without building the object.
        if (key == "External id") {
            const int64_t v = externalId(trace, row);
            return v == kNoValue ? std::nullopt : std::optional<int64_t>(v);
        }
        if (key == "Sequence number" || key == "correlation") {
            const ArgsRecord r = store_.at(row);
            const int64_t v = key == "Sequence number" ? r.sequence : r.correlation;
            return v == kNoValue ? std::nullopt : std::optional<int64_t>(v);
        }
        const Json a = value(trace, row);
        const auto it = a.find(key);
        if (it == a.end() || !it->is_number_integer()) return std::nullopt;
        return it->get<int64_t>();
    }

private:
    // The row's External id: the event table's column, which the loader keeps equal to it.
    static int64_t externalId(const Trace& trace, uint32_t row) {
        const EventTable& t = trace.events;
        if (row >= t.externalId.size() || t.externalId[row] == kNoKey) return kNoValue;
        return t.keys.asInt(t.externalId[row]).value_or(kNoValue);
    }

    std::optional<ArgsRecord> find(const Trace& trace, uint32_t row) const {
        if (!store_.has(row)) return std::nullopt;
        ArgsRecord r = store_.at(row);
        r.externalId = externalId(trace, row);
        return r;
    }

    ArgsStore store_;
};

}  // namespace

void ArgsStore::reserve(std::size_t rows) {
    shape_.reserve(rows);
    number_.reserve(rows);
}

void ArgsStore::push(const ArgsRecord* r) {
    if (!r) {
        shape_.push_back(kNone);
        number_.push_back(0);
        return;
    }
    uint32_t shape = kRange;
    if (r->kind == ArgsRecord::Kind::Api) {
        shape = kApi;
    } else if (r->kind != ArgsRecord::Kind::Range) {
        ArgsRecord d = *r;
        d.sequence = d.externalId = d.correlation = kNoValue;
        const auto [it, added] = detailIds_.try_emplace(d, uint32_t(details_.size()));
        if (added) details_.push_back(d);
        shape = kDetails + it->second;
    }
    shape_.push_back(shape);
    const int64_t v = shape == kRange ? r->sequence : r->correlation;
    if (v == kNoValue)
        number_.push_back(0);
    else if (v >= 0 && v < int64_t(UINT32_MAX) - 1)
        number_.push_back(v + 1);
    else
        number_.pushEscaped(v);
}

ArgsRecord ArgsStore::at(uint32_t row) const {
    const uint32_t shape = shape_[row];
    ArgsRecord r;
    if (shape >= kDetails)
        r = details_[shape - kDetails];
    else
        r.kind = shape == kRange ? ArgsRecord::Kind::Range : ArgsRecord::Kind::Api;
    const int64_t n = number_[row];
    const int64_t v = number_.isEscaped(row) ? n : n == 0 ? kNoValue : n - 1;
    (shape == kRange ? r.sequence : r.correlation) = v;
    return r;
}

std::size_t ArgsStore::DetailsHash::operator()(const ArgsRecord& r) const {
    uint64_t h = uint64_t(r.kind) ^ uint64_t(r.bytes) * 0x9E3779B97F4A7C15ull;
    for (int32_t v : {r.device, r.context, r.stream, r.registers, r.sharedMemory, r.grid[0],
                      r.grid[1], r.grid[2], r.block[0], r.block[1], r.block[2]})
        h = (h ^ uint32_t(v)) * 0x100000001B3ull;
    return std::size_t(h ^ (h >> 29));
}

bool ArgsStore::DetailsEqual::operator()(const ArgsRecord& a, const ArgsRecord& b) const {
    auto tie = [](const ArgsRecord& r) {
        return std::tie(r.kind, r.bytes, r.device, r.context, r.stream, r.registers, r.sharedMemory,
                        r.grid[0], r.grid[1], r.grid[2], r.block[0], r.block[1], r.block[2]);
    };
    return tie(a) == tie(b);
}

std::shared_ptr<const ArgsReader> nsightArgsReader(ArgsStore store) {
    store.finish();
    return std::make_shared<const NsightArgsReader>(std::move(store));
}

}  // namespace stackline::nsight
