#include "import/nsight/nsight_args_reader.h"

#include "model/trace.h"

namespace stackline::nsight {

namespace {

using Json = nlohmann::ordered_json;

class NsightArgsReader final : public ArgsReader {
public:
    explicit NsightArgsReader(ArgsStore store) : store_(std::move(store)) {}

    bool present(const Trace&, uint32_t row) const override { return find(row) != nullptr; }

    Json value(const Trace&, uint32_t row) const override {
        const ArgsRecord* r = find(row);
        if (!r) return Json(Json::value_t::discarded);
        Json a = Json::object();
        auto put = [&](const char* key, int64_t v) {
            if (v != kNoValue) a[key] = v;
        };
        put("External id", r->externalId);
        if (r->kind == ArgsRecord::Kind::Range) {
            put("Sequence number", r->sequence);
            return a;
        }
        if (r->kind != ArgsRecord::Kind::Api) {
            a["device"] = r->device;
            a["context"] = r->context;
            a["stream"] = r->stream;
        }
        put("correlation", r->correlation);
        if (r->kind == ArgsRecord::Kind::Kernel) {
            a["registers per thread"] = r->registers;
            a["shared memory"] = r->sharedMemory;
            a["grid"] = {r->grid[0], r->grid[1], r->grid[2]};
            a["block"] = {r->block[0], r->block[1], r->block[2]};
        }
        put("bytes", r->bytes);
        return a;
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
