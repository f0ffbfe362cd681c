// merge: the sum of hotspots --json results made elsewhere (a job array's tasks, say), printed as
// one multi-trace hotspots would print it.
#include <fstream>
#include <iostream>
#include <map>
#include <sstream>

#include "cli_options.h"
#include "command_support.h"
#include "commands.h"
#include "hotspot_results.h"
#include "io/trace_bytes.h"

using namespace stackline;

namespace cli {

namespace {

OrderedJson readJson(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw InputError("cannot read it");
    std::stringstream text;
    text << in.rdbuf();
    try {
        return OrderedJson::parse(text.str());
    } catch (const nlohmann::json::exception& e) {
        throw InputError(std::string("not JSON: ") + e.what());
    }
}

TraceHotspots traceOf(const OrderedJson& j) {
    if (!j.is_object()) throw InputError("a trace's result is not a JSON object");
    auto trace = j.find("trace");
    if (trace == j.end() || !trace->is_string())
        throw InputError("not the output of stackline-cli hotspots --json: no \"trace\"");
    try {
        return {trace->get<std::string>(), hotspotTotalsFromJson(j)};
    } catch (const InputError& e) {
        throw InputError(trace->get<std::string>() + ": " + e.what());
    }
}

// One RESULT's traces: hotspots TRACE --json's one, or hotspots TRACE... --json's several, whose
// total must be theirs.
std::vector<TraceHotspots> tracesOf(const OrderedJson& j) {
    if (!j.is_object()) throw InputError("not a JSON object");
    auto each = j.find("traces");
    if (each == j.end()) return {traceOf(j)};
    if (!each->is_array() || !j.contains("total"))
        throw InputError("not the output of stackline-cli hotspots --json");
    std::vector<TraceHotspots> traces;
    for (const OrderedJson& t : *each) traces.push_back(traceOf(t));
    if (manyHotspotsJson(traces)["total"] != j["total"])
        throw InputError("\"total\" is not the sum of its traces");
    return traces;
}

}  // namespace

int merge(const Args& a) {
    std::vector<TraceHotspots> traces;
    std::map<std::string, std::string> fileOf;  // trace -> the RESULT that gave it
    for (const std::string& path : a.inputs) {
        try {
            for (TraceHotspots& t : tracesOf(readJson(path))) {
                auto [at, isNew] = fileOf.emplace(t.trace, path);
                if (!isNew)
                    throw InputError("trace " + t.trace + " is already in " + at->second +
                                     ": it would count twice");
                traces.push_back(std::move(t));
            }
        } catch (const InputError& e) {
            throw InputError(path + ": " + e.what());
        }
    }
    if (a.json)
        std::cout << dumpJson(manyHotspotsJson(traces), 1) << "\n";
    else
        printManyHotspots(traces, a.top);
    return 0;
}

}  // namespace cli
