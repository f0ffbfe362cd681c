// bench_pftrace TRACE.pftrace[.gz] [--json TRACE.json] [--runs N]
//
// Decodes a Perfetto trace into a PftraceTable with two wire readers taking turns, Mapbox's
// protozero (the core's WireReader) and a hand-written one (hand_wire_reader.h), checks that both
// give the same table, and prints the best and median wall time of each: per packet, per MB and,
// with --json (the Kineto trace it was written from), per JSON event beside the JSON loader's own
// time on that trace (loadTrace with and without the nanosecond columns, as the viewer and
// `annotate` load). The input's bytes are mapped (a .gz is inflated first, as the loader does)
// and read once before timing, so that the page cache does not favour either.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>
#include <vector>

#include "bench_process.h"
#include "hand_wire_reader.h"
#include "import/perfetto/packet_decoder.h"
#include "import/perfetto/wire_reader.h"
#include "io/trace_bytes.h"
#include "model/trace.h"

namespace {

using namespace stackline;
using Clock = std::chrono::steady_clock;

template <class Reader>
double decodeOnce(std::string_view bytes, pftrace::PftraceTable& table) {
    table = pftrace::PftraceTable();
    const auto t0 = Clock::now();
    pftrace::PacketDecoder<Reader> decoder(table, "bench");
    decoder.decodeStream(bytes);
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

bool sameTable(const pftrace::PftraceTable& a, const pftrace::PftraceTable& b) {
    return a.events.ts == b.events.ts && a.events.track == b.events.track &&
           a.events.name == b.events.name && a.events.links == b.events.links &&
           a.stages.eventId == b.stages.eventId && a.stages.duration == b.stages.duration &&
           a.stages.kernel == b.stages.kernel && a.tracks.size() == b.tracks.size() &&
           a.stats.packets == b.stats.packets && a.counters.value == b.counters.value;
}

double best(const std::vector<double>& v) {
    double b = v.empty() ? 0 : v[0];
    for (double x : v) b = std::min(b, x);
    return b;
}

uint64_t tableBytes(const pftrace::PftraceTable& t) {
    const auto& e = t.events;
    const auto& s = t.stages;
    uint64_t n = 0;
    auto add = [&](const auto& v) { n += v.capacity() * sizeof(v[0]); };
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
        const TraceBytes bytes = TraceBytes::open(argv[1]);
        const std::string_view text = bytes.text();
        uint64_t sum = 0;  // touch every page once
        for (uint64_t i = 0; i < text.size(); i += 4096) sum += uint8_t(text[i]);
        std::printf("%s: %.1f MB serialized%s (checksum %llu)\n", argv[1],
                    double(text.size()) / 1e6, bytes.wasCompressed() ? ", inflated from gzip" : "",
                    (unsigned long long)sum);

        std::vector<double> pz, hand, jsonNs, jsonPlain;
        pftrace::PftraceTable a, b;
        for (int r = 0; r < runs; ++r) {
            pz.push_back(decodeOnce<pftrace::WireReader>(text, a));
            hand.push_back(decodeOnce<bench::HandWireReader>(text, b));
        }
        if (!sameTable(a, b)) {
            std::fprintf(stderr, "bench_pftrace: the two readers decoded different tables\n");
            return 1;
        }
        const double packets = double(a.stats.packets);
        uint64_t jsonEvents = 0;
        if (!json.empty()) {
            for (int r = 0; r < runs; ++r) {
                LoadOptions withNs;
                auto t0 = Clock::now();
                const Trace t = loadTrace(json, withNs);
                jsonNs.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
                jsonEvents = t.events.size();
                LoadOptions plain;
                plain.nanoseconds = false;
                t0 = Clock::now();
                const Trace u = loadTrace(json, plain);
                jsonPlain.push_back(std::chrono::duration<double>(Clock::now() - t0).count());
            }
        }
        std::printf(
            "packets %.0f, track events %u, render stages %u, counters %u, tracks %zu, "
            "table %.1f bytes per packet\n",
            packets, a.events.size(), a.stages.size(), a.counters.size(), a.tracks.size(),
            double(tableBytes(a)) / packets);
        auto line = [&](const char* what, const std::vector<double>& t, double mb) {
            const double bt = best(t), md = bench::median(t);
            std::printf("%-28s best %.3f s  median %.3f s  %6.1f ns/packet  %6.0f MB/s", what, bt,
                        md, bt / packets * 1e9, mb / bt);
            if (jsonEvents) std::printf("  %6.1f ns per JSON event", bt / double(jsonEvents) * 1e9);
            std::printf("\n");
        };
        const double mb = double(text.size()) / 1e6;
        line("protozero (libprotozero)", pz, mb);
        line("hand-written reader", hand, mb);
        if (jsonEvents) {
            std::printf("JSON %s: %llu events\n", json.c_str(), (unsigned long long)jsonEvents);
            for (auto [what, t] : {std::pair{"JSON loader (viewer)", &jsonNs},
                                   std::pair{"JSON loader (annotate)", &jsonPlain}}) {
                const double bt = best(*t), md = bench::median(*t);
                std::printf("%-28s best %.3f s  median %.3f s  %6.1f ns per JSON event\n", what, bt,
                            md, bt / double(jsonEvents) * 1e9);
            }
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_pftrace: %s\n", e.what());
        return 1;
    }
    return 0;
}
