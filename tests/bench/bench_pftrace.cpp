// bench_pftrace TRACE.pftrace[.gz] [--json TRACE.json] [--runs N]
//
// Decodes a Perfetto trace into a PftraceTable with two wire readers taking turns, Mapbox's
// protozero (the core's WireReader) and a hand-written one (hand_wire_reader.h), checks that both
// give the same table, and prints the best and median wall time of each: per packet, per MB and,
// with --json (the Kineto trace it was written from), per JSON event beside the JSON loader's own
// time on that trace (loadTrace with and without the nanosecond columns, as the viewer and
// `annotate` load). The input's bytes are mapped (a .gz is inflated first, as the loader does,
// and that is timed too) and read once before timing, so that the page cache favours neither.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <type_traits>
#include <vector>

#include "bench_process.h"
#include "hand_wire_reader.h"
#include "import/perfetto/packet_decoder.h"
#include "import/perfetto/wire_reader.h"
#include "import/trace_formats.h"
#include "io/trace_bytes.h"
#include "model/trace.h"

namespace {

using namespace stackline;
using Clock = std::chrono::steady_clock;

// CPU seconds of this process so far (the JSON loader's threads included).
double cpuSeconds() {
    rusage u{};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
           double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

// Wall and CPU seconds of one run.
struct Run {
    double wall = 0, cpu = 0;
};
template <class F>
Run timed(F&& f) {
    const double c0 = cpuSeconds();
    const auto t0 = Clock::now();
    f();
    return {std::chrono::duration<double>(Clock::now() - t0).count(), cpuSeconds() - c0};
}

template <class Reader>
Run decodeOnce(std::string_view bytes, pftrace::PftraceTable& table) {
    table = pftrace::PftraceTable();
    return timed([&] {
        pftrace::PacketDecoder<Reader> decoder(table, "bench");
        decoder.decodeStream(bytes);
    });
}

bool sameTable(const pftrace::PftraceTable& a, const pftrace::PftraceTable& b) {
    return a.events.ts == b.events.ts && a.events.track == b.events.track &&
           a.events.name == b.events.name && a.events.links == b.events.links &&
           a.stages.eventId == b.stages.eventId && a.stages.duration == b.stages.duration &&
           a.stages.kernel == b.stages.kernel && a.tracks.size() == b.tracks.size() &&
           a.stats.packets == b.stats.packets && a.counters.value == b.counters.value;
}

double best(const std::vector<Run>& v, double Run::*field) {
    double b = v.empty() ? 0 : v[0].*field;
    for (const Run& x : v) b = std::min(b, x.*field);
    return b;
}
double medianOf(const std::vector<Run>& v, double Run::*field) {
    std::vector<double> x;
    for (const Run& r : v) x.push_back(r.*field);
    return bench::median(x);
}

uint64_t tableBytes(const pftrace::PftraceTable& t) {
    const auto& e = t.events;
    const auto& s = t.stages;
    uint64_t n = 0;
    auto add = [&](const auto& v) {
        if constexpr (std::is_same_v<std::decay_t<decltype(v)>, OffsetColumn>)
            n += v.capacityBytes();
        else
            n += v.capacity() * sizeof(v[0]);
    };
    add(e.offset), add(e.length), add(e.ts), add(e.type), add(e.track), add(e.name);
    add(e.category), add(e.generation), add(e.linkBegin), add(e.links);
    add(s.offset), add(s.length), add(s.ts), add(s.duration), add(s.eventId), add(s.gpu);
    add(s.queueIid), add(s.stageIid), add(s.queue), add(s.stage), add(s.name), add(s.kernel);
    return n;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: bench_pftrace TRACE.pftrace [--json TRACE.json] [--runs N]\n");
        return 2;
    }
    std::string json;
    int runs = 5;
    for (int i = 2; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--json" && i + 1 < argc)
            json = argv[++i];
        else if (arg == "--runs" && i + 1 < argc)
            runs = std::max(1, std::atoi(argv[++i]));
        else
            return 2;
    }
    try {
        // Opening a .gz inflates it (ISA-L, into a scratch file), as the loader does.
        std::vector<Run> opens;
        for (int r = 0; r + 1 < runs; ++r)
            opens.push_back(timed([&] { TraceBytes::open(argv[1]); }));
        TraceBytes bytes;
        opens.push_back(timed([&] { bytes = TraceBytes::open(argv[1]); }));
        const std::string_view text = bytes.text();
        uint64_t sum = 0;  // touch every page once
        for (uint64_t i = 0; i < text.size(); i += 4096) sum += uint8_t(text[i]);
        std::printf("%s: %.1f MB serialized%s (checksum %llu)\n", argv[1],
                    double(text.size()) / 1e6, bytes.wasCompressed() ? ", inflated from gzip" : "",
                    (unsigned long long)sum);

        std::vector<Run> pz, hand, jsonNs, jsonPlain;
        pftrace::PftraceTable a, b;
        for (int r = 0; r < runs; ++r) {  // taking turns, the order swapped every run
            if (r % 2) hand.push_back(decodeOnce<bench::HandWireReader>(text, b));
            pz.push_back(decodeOnce<pftrace::WireReader>(text, a));
            if (!(r % 2)) hand.push_back(decodeOnce<bench::HandWireReader>(text, b));
        }
        if (!sameTable(a, b)) {
            std::fprintf(stderr, "bench_pftrace: the two readers decoded different tables\n");
            return 1;
        }
        const double packets = double(a.stats.packets);
        uint64_t jsonEvents = 0;
        if (!json.empty()) {
            for (int r = 0; r < runs; ++r) {
                jsonNs.push_back(timed([&] { jsonEvents = loadTrace(json).events.size(); }));
                LoadOptions plain;
                plain.nanoseconds = false;
                jsonPlain.push_back(timed([&] { loadTrace(json, plain); }));
            }
        }
        std::printf(
            "packets %.0f, track events %u, render stages %u, counters %u, tracks %zu, "
            "table %.1f bytes per packet\n",
            packets, a.events.size(), a.stages.size(), a.counters.size(), a.tracks.size(),
            double(tableBytes(a)) / packets);
        // Best and median wall time, best CPU time; per packet (or JSON event) and per JSON event.
        auto line = [&](const char* what, const std::vector<Run>& t, double units,
                        const char* unit) {
            const double bt = best(t, &Run::wall), md = medianOf(t, &Run::wall);
            const double bc = best(t, &Run::cpu);
            std::printf(
                "%-26s wall best %.3f s median %.3f s, CPU best %.3f s: %6.1f ns wall, %6.1f ns "
                "CPU per %s",
                what, bt, md, bc, bt / units * 1e9, bc / units * 1e9, unit);
            if (jsonEvents && units != double(jsonEvents))
                std::printf("; %6.1f ns wall, %6.1f ns CPU per JSON event",
                            bt / double(jsonEvents) * 1e9, bc / double(jsonEvents) * 1e9);
            std::printf("\n");
        };
        std::printf("protozero %.0f MB/s, hand-written %.0f MB/s (best wall)\n",
                    double(text.size()) / 1e6 / best(pz, &Run::wall),
                    double(text.size()) / 1e6 / best(hand, &Run::wall));
        if (bytes.wasCompressed()) line("open (inflate)", opens, packets, "packet");
        line("protozero (libprotozero)", pz, packets, "packet");
        line("hand-written reader", hand, packets, "packet");
        if (jsonEvents) {
            std::printf("JSON %s: %llu events\n", json.c_str(), (unsigned long long)jsonEvents);
            line("JSON loader (viewer)", jsonNs, double(jsonEvents), "JSON event");
            line("JSON loader (annotate)", jsonPlain, double(jsonEvents), "JSON event");
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_pftrace: %s\n", e.what());
        return 1;
    }
    return 0;
}
