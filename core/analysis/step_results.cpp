#include "analysis/step_results.h"

#include <climits>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "base/errors.h"

namespace stackline {

namespace {

constexpr int kFormat = 1;

std::string dumped(const OrderedJson& j) {
    return j.dump(1, ' ', false, OrderedJson::error_handler_t::replace);
}

// j as dump(1) writes it at `depth` inside an enclosing value: its inner lines indented further.
void writeAt(std::ostream& out, const OrderedJson& j, int depth) {
    const std::string text = dumped(j);
    const std::string pad(size_t(depth), ' ');
    size_t from = 0;
    for (size_t nl; (nl = text.find('\n', from)) != std::string::npos; from = nl + 1)
        out << std::string_view(text).substr(from, nl + 1 - from) << pad;
    out << std::string_view(text).substr(from);
}

void writeKey(std::ostream& out, const char* key, int depth) {
    out << std::string(size_t(depth), ' ') << dumped(OrderedJson(key)) << ": ";
}

// An array member whose items are made (and dropped) one at a time.
template <typename Item>
void writeArray(std::ostream& out, const char* key, int depth, size_t count, Item item) {
    writeKey(out, key, depth);
    if (count == 0) {
        out << "[]";
        return;
    }
    out << "[\n";
    for (size_t i = 0; i < count; ++i) {
        out << std::string(size_t(depth + 1), ' ');
        writeAt(out, item(i), depth + 1);
        out << (i + 1 < count ? ",\n" : "\n");
    }
    out << std::string(size_t(depth), ' ') << "]";
}

template <typename T>
OrderedJson orNull(const std::optional<T>& v) {
    return v ? OrderedJson(*v) : OrderedJson(nullptr);
}

OrderedJson collectiveJson(const RankCollective& c) {
    return {{"name", c.name},
            {"process_group", c.processGroup},
            {"comms_id", orNull(c.commsId)},
            {"seq", orNull(c.seq)},
            {"in_elements", orNull(c.inElements)},
            {"out_elements", orNull(c.outElements)},
            {"dtype", c.dtype},
            {"start_ns", c.startNs},
            {"duration_ns", c.durationNs}};
}

OrderedJson rankJson(const RankStepSummary& r) {
    OrderedJson steps = OrderedJson::array();
    for (const RankStepFigures& f : r.steps) {
        OrderedJson collectives = OrderedJson::array();
        for (const RankCollective& c : f.collectives) collectives.push_back(collectiveJson(c));
        steps.push_back({{"step", f.step},
                         {"start_ns", f.startNs},
                         {"end_ns", f.endNs},
                         {"duration_ns", f.durationNs()},
                         {"compute_ns", f.computeNs},
                         {"collective_ns", f.collectiveNs},
                         {"idle_ns", f.idleNs},
                         {"collectives", std::move(collectives)}});
    }
    return {{"trace", r.trace},
            {"rank", r.info.rank},
            {"world_size", r.info.worldSize},
            {"base_time_ns", r.info.hasBaseTime ? OrderedJson(r.info.baseTimeNs) : nullptr},
            {"first_ns", r.firstNs},
            {"last_ns", r.lastNs},
            {"note", r.note},
            {"steps", std::move(steps)}};
}

// The job's members but its steps.
OrderedJson jobHeaderJson(const JobSteps& job) {
    OrderedJson apart = OrderedJson::array();
    for (size_t i : job.apart) apart.push_back({{"index", i}, {"label", job.ranks[i].label}});
    return {{"traces", job.ranks.size()},
            {"world_size", job.worldSize},
            {"partial", job.partial()},
            {"apart", std::move(apart)}};
}

OrderedJson jobStepJson(const JobSteps& job, const JobStep& step) {
    OrderedJson straggler = nullptr;
    if (step.straggler >= 0) {
        const RankInfo& r = job.ranks[size_t(step.straggler)];
        straggler = {{"index", step.straggler}, {"rank", r.rank}, {"label", r.label}};
    }
    OrderedJson collectives = OrderedJson::array();
    for (const MatchedCollective& m : step.collectives) {
        OrderedJson ranks = OrderedJson::array();
        for (const auto& s : m.ranks)
            ranks.push_back({{"index", s.rank},
                             {"rank", job.ranks[s.rank].rank},
                             {"start_ns", s.startNs},
                             {"duration_ns", s.durationNs}});
        collectives.push_back({{"name", m.name},
                               {"process_group", m.processGroup},
                               {"size",
                                {{"in_elements", orNull(m.inElements)},
                                 {"out_elements", orNull(m.outElements)},
                                 {"dtype", m.dtype}}},
                               {"skew_ns", m.skewNs},
                               {"ranks", std::move(ranks)}});
    }
    size_t present = 0;
    for (const RankStep& r : step.ranks) present += r.present;
    return {{"step", step.step},
            {"straggler", std::move(straggler)},
            {"match", nameOf(step.match)},
            {"ranks_with_step", present},
            {"collectives", std::move(collectives)}};
}

// ---- Reading back ----

const OrderedJson& member(const OrderedJson& j, const char* name) {
    if (!j.is_object()) throw InputError("a value that should be an object is not");
    auto it = j.find(name);
    if (it == j.end()) throw InputError(std::string("no \"") + name + "\"");
    return *it;
}

std::string text(const OrderedJson& j, const char* name) {
    const OrderedJson& v = member(j, name);
    if (!v.is_string()) throw InputError(std::string("\"") + name + "\" is not a string");
    return v.get<std::string>();
}

int64_t number(const OrderedJson& j, const char* name) {
    const OrderedJson& v = member(j, name);
    if (!v.is_number_integer() || (v.is_number_unsigned() && v.get<uint64_t>() > INT64_MAX))
        throw InputError(std::string("\"") + name + "\" is not a whole number");
    return v.get<int64_t>();
}

std::optional<int64_t> optionalNumber(const OrderedJson& j, const char* name) {
    if (member(j, name).is_null()) return std::nullopt;
    return number(j, name);
}

const OrderedJson& array(const OrderedJson& j, const char* name) {
    const OrderedJson& v = member(j, name);
    if (!v.is_array()) throw InputError(std::string("\"") + name + "\" is not an array");
    return v;
}

RankCollective collectiveFrom(const OrderedJson& j) {
    RankCollective c;
    c.name = text(j, "name");
    c.processGroup = text(j, "process_group");
    if (!member(j, "comms_id").is_null()) c.commsId = text(j, "comms_id");
    c.seq = optionalNumber(j, "seq");
    c.inElements = optionalNumber(j, "in_elements");
    c.outElements = optionalNumber(j, "out_elements");
    c.dtype = text(j, "dtype");
    c.startNs = number(j, "start_ns");
    c.durationNs = number(j, "duration_ns");
    return c;
}

RankStepFigures stepFrom(const OrderedJson& j) {
    RankStepFigures f;
    f.step = number(j, "step");
    try {
        f.startNs = number(j, "start_ns");
        f.endNs = number(j, "end_ns");
        if (number(j, "duration_ns") != f.durationNs())
            throw InputError("\"duration_ns\" is not end_ns - start_ns");
        f.computeNs = number(j, "compute_ns");
        f.collectiveNs = number(j, "collective_ns");
        f.idleNs = number(j, "idle_ns");
        for (const OrderedJson& c : array(j, "collectives"))
            f.collectives.push_back(collectiveFrom(c));
    } catch (const InputError& e) {
        throw InputError("step " + std::to_string(f.step) + ": " + e.what());
    }
    return f;
}

RankStepSummary rankFrom(const OrderedJson& j) {
    RankStepSummary r;
    r.trace = text(j, "trace");
    try {
        r.info.rank = number(j, "rank");
        r.info.worldSize = number(j, "world_size");
        if (auto base = optionalNumber(j, "base_time_ns")) {
            r.info.hasBaseTime = true;
            r.info.baseTimeNs = *base;
        }
        r.info.label = r.info.rank >= 0 ? "rank " + std::to_string(r.info.rank)
                                        : std::filesystem::path(r.trace).filename().string();
        r.firstNs = number(j, "first_ns");
        r.lastNs = number(j, "last_ns");
        r.note = text(j, "note");
        for (const OrderedJson& s : array(j, "steps")) {
            r.steps.push_back(stepFrom(s));
            if (r.steps.size() > 1 && r.steps[r.steps.size() - 2].step >= r.steps.back().step)
                throw InputError("its steps are not in order");
        }
    } catch (const InputError& e) {
        throw InputError(r.trace + ": " + e.what());
    }
    return r;
}

OrderedJson jobJson(const JobSteps& job) {
    OrderedJson j = jobHeaderJson(job);
    OrderedJson steps = OrderedJson::array();
    for (const JobStep& s : job.steps) steps.push_back(jobStepJson(job, s));
    j["steps"] = std::move(steps);
    return j;
}

}  // namespace

void writeStepsResult(std::ostream& out, const std::vector<RankStepSummary>& ranks,
                      const JobSteps& job) {
    out << "{\n";
    writeKey(out, "stackline", 1);
    out << "\"steps\",\n";
    writeKey(out, "format", 1);
    out << kFormat << ",\n";
    writeArray(out, "ranks", 1, ranks.size(), [&](size_t i) { return rankJson(ranks[i]); });
    out << ",\n";
    writeKey(out, "job", 1);
    out << "{\n";
    const OrderedJson header = jobHeaderJson(job);
    for (const auto& [key, value] : header.items()) {
        writeKey(out, key.c_str(), 2);
        writeAt(out, value, 2);
        out << ",\n";
    }
    writeArray(out, "steps", 2, job.steps.size(),
               [&](size_t i) { return jobStepJson(job, job.steps[i]); });
    out << "\n }\n}";
}

bool isStepsResult(const OrderedJson& j) {
    if (!j.is_object()) return false;
    const auto it = j.find("stackline");
    return it != j.end() && *it == "steps";
}

namespace {

StepsResult stepsResultFrom(const OrderedJson& j) {
    if (!isStepsResult(j)) throw InputError("not the output of stackline-cli steps --json");
    if (number(j, "format") != kFormat)
        throw InputError("format " + std::to_string(number(j, "format")) + ", not " +
                         std::to_string(kFormat) + " (made by another stackline-cli?)");
    StepsResult result;
    for (const OrderedJson& r : array(j, "ranks")) result.ranks.push_back(rankFrom(r));
    result.job = mergeRankSteps(result.ranks);
    if (jobJson(result.job) != member(j, "job"))
        throw InputError("its \"job\" is not the merge of its \"ranks\"");
    return result;
}

}  // namespace

std::vector<RankStepSummary> stepsResultRanks(const OrderedJson& j) {
    return stepsResultFrom(j).ranks;
}

OrderedJson parseResultText(std::string_view text) {
    try {
        return OrderedJson::parse(text);
    } catch (const nlohmann::json::exception& e) {
        throw InputError(std::string("not JSON: ") + e.what());
    }
}

OrderedJson readResultFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError("cannot read it");
    std::stringstream text;
    text << in.rdbuf();
    return parseResultText(text.str());
}

bool isStepsResultFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    char head[256] = {};
    in.read(head, sizeof head);
    const std::string_view text(head, size_t(in.gcount()));
    size_t at = 0;
    // Skips white space, then expects `token`.
    auto expect = [&](std::string_view token) {
        while (at < text.size() && std::string_view(" \t\r\n").find(text[at]) != text.npos) ++at;
        if (text.substr(at, token.size()) != token) return false;
        at += token.size();
        return true;
    };
    return expect("{") && expect("\"stackline\"") && expect(":") && expect("\"steps\"");
}

StepsResult readStepsResult(const std::string& path) {
    return stepsResultFrom(readResultFile(path));
}

}  // namespace stackline
