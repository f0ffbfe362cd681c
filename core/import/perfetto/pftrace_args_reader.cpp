#include "import/perfetto/pftrace_args_reader.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <string_view>
#include <vector>

#include "import/perfetto/pftrace_decoder.h"
#include "json/json_string.h"
#include "model/kineto.h"
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

// An extra_data value as Kineto gives it: an integer where the whole text is one.
std::optional<int64_t> integerText(std::string_view text) {
    int64_t v = 0;
    const char* end = text.data() + text.size();
    const auto parsed = std::from_chars(text.data(), end, v);
    if (text.empty() || parsed.ec != std::errc() || parsed.ptr != end) return std::nullopt;
    return v;
}

ordered extraAsArgs(const ordered& extra) {
    ordered args = ordered::object();
    for (const auto& [key, value] : extra.items()) {
        const std::string& text = value.get_ref<const std::string&>();
        if (std::optional<int64_t> v = integerText(text))
            args[std::string(kinetoName(key))] = *v;
        else
            args[std::string(kinetoName(key))] = text;
    }
    return args;
}

// Of the decoded table, what args are read from: the events' and render stages' byte spans, the
// events' and stages' interning generations, the counters' values and the strings. The rest (times,
// tracks, names, links: the importer's) is freed.
PftraceTable argsColumns(PftraceTable&& t) {
    PftraceTable out;
    out.name = std::move(t.name);
    out.strings = std::move(t.strings);
    // One generation (Cuspy's: one clear): none per row.
    const bool generations = t.generations.size() > 1;
    out.generations = std::move(t.generations);
    out.events.offset = std::move(t.events.offset);
    out.events.length = std::move(t.events.length);
    if (generations) out.events.generation = std::move(t.events.generation);
    out.events.counterValues = std::move(t.events.counterValues);
    out.events.sequenced = std::move(t.events.sequenced);
    out.stages.offset = std::move(t.stages.offset);
    out.stages.length = std::move(t.stages.length);
    if (generations) out.stages.generation = std::move(t.stages.generation);
    out.counters.value = std::move(t.counters.value);
    return out;
}

class PftraceArgsReader final : public ArgsReader {
public:
    PftraceArgsReader(PftraceTable table, RowSources sources)
        : table_(argsColumns(std::move(table))), sources_(std::move(sources)) {}

    bool present(const Trace&, uint32_t row) const override {
        return sources_.kind(row) != RowSource::None;
    }

    ordered value(const Trace& trace, uint32_t row) const override {
        const uint64_t i = sources_.index(row);
        switch (sources_.kind(row)) {
            case RowSource::TrackEvent:
                return trackEventArgs(table_, trace.text(), uint32_t(i));
            case RowSource::RenderStage: {
                ordered args = extraAsArgs(renderStageExtraData(table_, trace.text(), uint32_t(i)));
                ordered launch = renderStageLaunch(table_, trace.text(), uint32_t(i));
                for (auto& [key, value] : launch.items()) args[key] = std::move(value);
                return args;
            }
            case RowSource::GpuCounter:
                return ordered{{"", table_.counters.value[i]}};
            case RowSource::TrackCounter:
                return ordered{{"value", table_.events.counterValues[i].second}};
            case RowSource::None:
                break;
        }
        return ordered(ordered::value_t::discarded);
    }

    void appendJson(const Trace& trace, uint32_t row, std::string& out) const override {
        const uint32_t i = uint32_t(sources_.index(row));
        if (sources_.kind(row) == RowSource::TrackEvent)
            return appendTrackEventArgsJson(table_, trace.text(), i, out);
        if (sources_.kind(row) != RowSource::RenderStage)
            return ArgsReader::appendJson(trace, row, out);
        // value()'s object (extra_data, then the launch), written as it goes unless a name
        // repeats (or more come than are kept to tell). The keys point into the trace's bytes or
        // are literals.
        const std::size_t start = out.size();
        std::array<std::string_view, 64> keys;
        std::size_t count = 0;
        bool repeated = false;
        auto member = [&](std::string_view key) {
            repeated |= count == keys.size() ||
                        std::find(keys.begin(), keys.begin() + count, key) != keys.begin() + count;
            if (count) out += ',';
            if (count < keys.size()) keys[count++] = key;
            json::appendString(out, key);
            out += ':';
        };
        out += '{';
        visitRenderStageExtra(
            table_, trace.text(), i, [&](std::string_view name, std::string_view text) {
                member(kinetoName(name));
                if (std::optional<int64_t> v = integerText(text)) {
                    char digits[24];
                    out.append(digits, std::to_chars(digits, digits + 24, *v).ptr);
                } else {
                    json::appendString(out, text);
                }
            });
        visitRenderStageLaunch(table_, trace.text(), i,
                               [&](std::string_view key, const LaunchValue& value) {
                                   member(key);
                                   appendLaunchValue(out, value);
                               });
        out += '}';
        if (!repeated) return;
        out.resize(start);
        ArgsReader::appendJson(trace, row, out);
    }

    void prefetch(const Trace& trace, uint32_t row) const override {
        uint64_t offset = 0, length = 0;
        const uint32_t i = uint32_t(sources_.index(row));
        if (sources_.kind(row) == RowSource::TrackEvent)
            offset = table_.events.offset[i], length = table_.events.length[i];
        else if (sources_.kind(row) == RowSource::RenderStage)
            offset = table_.stages.offset[i], length = table_.stages.length[i];
        const char* p = trace.text().data() + offset;
        for (uint64_t at = 0; at < std::min<uint64_t>(length, 256); at += 64)
            __builtin_prefetch(p + at);
    }

    std::optional<int64_t> integer(const Trace& trace, uint32_t row,
                                   std::string_view key) const override {
        const uint32_t i = uint32_t(sources_.index(row));
        switch (sources_.kind(row)) {
            case RowSource::TrackEvent:
                return trackEventInteger(table_, trace.text(), i, key);
            case RowSource::RenderStage: {
                // The launch's args come after extra_data's, so theirs stay.
                bool inLaunch = false;
                std::optional<int64_t> launched;
                visitRenderStageLaunch(table_, trace.text(), i,
                                       [&](std::string_view name, const LaunchValue& v) {
                                           if (name != key) return;
                                           inLaunch = true;
                                           launched.reset();
                                           if (v.kind == LaunchValue::Kind::Int)
                                               launched = v.integer;
                                           else if (v.kind == LaunchValue::Kind::Uint)
                                               launched = int64_t(v.unsignedInteger);
                                       });
                if (inLaunch) return launched;
                // Else the last entry that extraAsArgs names key.
                std::optional<int64_t> found;
                visitRenderStageExtra(table_, trace.text(), i,
                                      [&](std::string_view name, std::string_view text) {
                                          if (kinetoName(name) == key) found = integerText(text);
                                      });
                return found;
            }
            case RowSource::GpuCounter:
            case RowSource::TrackCounter: {
                const ordered args = value(trace, row);
                const auto it = args.find(key);
                if (it == args.end() || !it->is_number_integer()) return std::nullopt;
                return it->get<int64_t>();
            }
            case RowSource::None:
                break;
        }
        return std::nullopt;
    }

    // The decoder noted the TrackEvents with a "Sequence number" annotation; a row is one of
    // them when its source is.
    std::optional<std::vector<uint32_t>> rowsThatMayHold(std::string_view key) const override {
        if (key != kineto::kSequenceNumberArg) return std::nullopt;
        const std::vector<uint32_t>& sequenced = table_.events.sequenced;
        std::vector<bool> noted(table_.events.size());
        for (uint32_t event : sequenced) noted[event] = true;
        std::vector<uint32_t> rows;
        rows.reserve(sequenced.size());
        for (uint32_t row = 0, n = uint32_t(sources_.of.size()); row < n; ++row)
            if (sources_.kind(row) == RowSource::TrackEvent && noted[sources_.index(row)])
                rows.push_back(row);
        return rows;
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
