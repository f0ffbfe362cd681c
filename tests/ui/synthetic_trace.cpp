#include "synthetic_trace.h"

#include <algorithm>
#include <bit>
#include <random>
#include <string>
#include <vector>

#include "analysis/range_summary.h"

using namespace stackline;

namespace {

struct Builder {
    EventTable& t;
    Provenance& p;
    uint32_t kernelCat, cpuCat, runtimeCat, annotationCat;

    uint32_t add(char ph, uint32_t cat, uint32_t name, KeyId pid, KeyId tid, int64_t ts,
                 int64_t dur) {
        const auto row = uint32_t(t.phase.size());
        t.begin.push_back(0);
        t.length.push_back(0);
        t.argsOffset.push_back(0);
        t.argsLength.push_back(0);
        t.name.push_back(name);
        t.cat.push_back(cat);
        t.phase.push_back(ph);
        t.pid.push_back(pid);
        t.tid.push_back(tid);
        t.externalId.push_back(kNoKey);
        // Microseconds as Kineto writes them, which give the nanoseconds back: no correction
        // kept (the paint benchmark's 10M rows would otherwise hold every one by row).
        t.tsBits.push_back(std::bit_cast<uint64_t>(double(ts) / 1000.0));
        EventTable::Kinds k{};
        k.event = ValueKind::Object;
        k.name = ValueKind::String;
        k.cat = ValueKind::String;
        k.ts = PyNum::Kind::Float;
        k.dur = PyNum::Kind::Float;
        t.pushDur(k.dur, std::bit_cast<uint64_t>(double(dur) / 1000.0));
        t.kinds.push_back(k);
        t.setNanos(row, k.ts, ts, k.dur, dur);
        p.reached.push_back(false);
        p.written.push_back(false);
        return row;
    }
};

}  // namespace

std::shared_ptr<ViewedTrace> syntheticDocument(uint64_t events, uint32_t seed, bool index) {
    auto trace = std::make_shared<Trace>();
    auto doc = std::make_shared<ViewedTrace>();
    EventTable& t = trace->events;
    Provenance& p = doc->provenance;
    t.reserve(events + 16);
    t.hasNanos = true;
    Builder b{t,
              p,
              t.strings.intern("kernel"),
              t.strings.intern("cpu_op"),
              t.strings.intern("cuda_driver"),
              t.strings.intern("user_annotation")};
    const uint32_t stackId = p.stacks.intern(R"(["  File \"model.py\", line 1, in f\n"])");
    std::vector<uint32_t> kernelNames;
    for (int i = 0; i < 200; ++i)
        kernelNames.push_back(t.strings.intern("triton_poi_fused_" + std::to_string(i)));
    const uint32_t launch = t.strings.intern("cuLaunchKernel");
    const uint32_t region = t.strings.intern("Torch-Compiled Region: 0/0");
    const uint32_t step = t.strings.intern("ProfilerStep");
    const KeyId cpuPid = t.keys.intKey(100), cpuTid = t.keys.intKey(100), gpu = t.keys.intKey(0);
    KeyId streams[4];
    for (int s = 0; s < 4; ++s) streams[s] = t.keys.intKey(7 + s);

    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> pick(0, 199), percent(0, 99), kernelDur(500, 8000);
    int64_t now = 0;
    int64_t streamFree[4] = {0, 0, 0, 0};
    // Each launch unit is 3 events; a region per 100 units and a step per 1000.
    const uint64_t units = events / 3;
    for (uint64_t u = 0; u < units; ++u) {
        if (u % 1000 == 0)
            b.add('X', b.annotationCat, step, cpuPid, cpuTid, now, 1000 * 3000 - 100);
        if (u % 100 == 0) b.add('X', b.cpuCat, region, cpuPid, cpuTid, now + 10, 100 * 3000 - 200);
        const uint32_t name = kernelNames[size_t(pick(rng))];
        b.add('X', b.cpuCat, name, cpuPid, cpuTid, now + 200, 2000);
        b.add('X', b.runtimeCat, launch, cpuPid, cpuTid, now + 700, 1000);
        const int s = int(u % 4);
        // One kernel in a hundred runs long and overlaps the next on its stream.
        const int64_t dur = percent(rng) == 0 ? 30000 : kernelDur(rng);
        const int64_t start = std::max(now + 1500, streamFree[s]);
        const uint32_t k = b.add('X', b.kernelCat, name, gpu, streams[s], start, dur);
        streamFree[s] = start + (dur > 20000 ? 2000 : dur);
        const int status = percent(rng);
        if (status < 90)
            p.stack.set(k, stackId);
        else if (status < 95)
            p.reached[k] = true;
        now += 3000;
    }
    p.stack.seal(t.size());
    trace->path = "synthetic";
    doc->trace = trace;
    if (index) {
        doc->tracks = TrackIndex::build(t, {}, 0);
        doc->originNs = traceOriginNs(t);
        doc->flows = FlowIndex::build(t, doc->tracks);
    }
    return doc;
}
