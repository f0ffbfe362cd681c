#include "import/nsight/nsight_args_reader.h"

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

    bool present(const Trace&, uint32_t row) const override { return find(row) != nullptr; }

    Json value(const Trace&, uint32_t row) const override {
        const ArgsRecord* r = find(row);
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
        const ArgsRecord* r = find(row);
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
        const ArgsRecord* r = find(row);
        if (!r) return std::nullopt;
        // The common questions without building the object.
        if (key == "External id" || key == "Sequence number" || key == "correlation") {
            const int64_t v = key == "External id"       ? r->externalId
                              : key == "Sequence number" ? r->sequence
                                                         : r->correlation;
            return v == kNoValue ? std::nullopt : std::optional<int64_t>(v);
        }
        const Json a = value(trace, row);
        const auto it = a.find(key);
        if (it == a.end() || !it->is_number_integer()) return std::nullopt;
        return it->get<int64_t>();
    }

private:
    const ArgsRecord* find(uint32_t row) const {
        if (row >= store_.recordOf.size() || store_.recordOf[row] == UINT32_MAX) return nullptr;
        return &store_.records[store_.recordOf[row]];
    }

    ArgsStore store_;
};

}  // namespace

std::shared_ptr<const ArgsReader> nsightArgsReader(ArgsStore store) {
    return std::make_shared<const NsightArgsReader>(std::move(store));
}

}  // namespace stackline::nsight
