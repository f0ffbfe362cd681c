#include "import/perfetto/pftrace_args_reader.h"

#include <charconv>
#include <string_view>

#include "import/perfetto/pftrace_decoder.h"
#include "model/trace.h"

namespace stackline::pftrace {

namespace {

using ordered = nlohmann::ordered_json;

// Cuspy's extra_data names (trace.py _RENDER_EXTRA) for the args Kineto gives a GPU activity.
std::string_view kinetoName(std::string_view extra) {
    if (extra == "device id") return "device";
    if (extra == "stream id") return "stream";
    if (extra == "context id") return "context";
    return extra;
}

ordered extraAsArgs(const nlohmann::json& extra) {
    ordered args = ordered::object();
    for (const auto& [key, value] : extra.items()) {
        const std::string& text = value.get_ref<const std::string&>();
        int64_t v = 0;
        const char* end = text.data() + text.size();
        const auto parsed = std::from_chars(text.data(), end, v);
        if (!text.empty() && parsed.ec == std::errc() && parsed.ptr == end)
            args[std::string(kinetoName(key))] = v;
        else
            args[std::string(kinetoName(key))] = text;
    }
    return args;
}

class PftraceArgsReader final : public ArgsReader {
public:
    PftraceArgsReader(PftraceTable table, RowSources sources)
        : table_(std::move(table)), sources_(std::move(sources)) {}

    bool present(const Trace&, uint32_t row) const override {
        return sources_.kind(row) != RowSource::None;
    }

    ordered value(const Trace& trace, uint32_t row) const override {
        const uint64_t i = sources_.index(row);
        switch (sources_.kind(row)) {
            case RowSource::TrackEvent:
                return ordered(trackEventArgs(table_, trace.text(), uint32_t(i)));
            case RowSource::RenderStage:
                return extraAsArgs(renderStageExtraData(table_, trace.text(), uint32_t(i)));
            case RowSource::GpuCounter:
                return ordered{{"", table_.counters.value[i]}};
            case RowSource::TrackCounter:
                return ordered{{"value", table_.events.counterValues[i].second}};
            case RowSource::None:
                break;
        }
        return ordered(ordered::value_t::discarded);
    }

    std::optional<int64_t> integer(const Trace& trace, uint32_t row,
                                   std::string_view key) const override {
        if (sources_.kind(row) == RowSource::None) return std::nullopt;
        const ordered args = value(trace, row);
        if (!args.is_object()) return std::nullopt;
        const auto it = args.find(key);
        if (it == args.end() || !it->is_number_integer()) return std::nullopt;
        return it->get<int64_t>();
    }

private:
    PftraceTable table_;
    RowSources sources_;
};

}  // namespace

std::shared_ptr<const ArgsReader> pftraceArgsReader(PftraceTable table, RowSources sources) {
    return std::make_shared<const PftraceArgsReader>(std::move(table), std::move(sources));
}

}  // namespace stackline::pftrace
