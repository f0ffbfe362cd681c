// make_pftrace IN.json[.gz] OUT.pftrace [--raw] [--level N] [--repeat N] [--verify]
// Writes a Kineto JSON trace as a Cuspy-layout Perfetto trace (cuspy_pftrace_writer.h): gzip
// (level 1) unless --raw; --repeat writes the events N times, shifted, for files of any size.
// Prints what was written and what Cuspy drops. --verify then reads the file back (inflated if
// gzip) with the core's decoder and checks its counts against what was written, and the args of
// the last slice (the furthest bytes) against the first copy's; exit 1 on a mismatch.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "analysis/job_steps.h"
#include "cuspy_pftrace_writer.h"
#include "import/perfetto/pftrace_decoder.h"
#include "import/perfetto/proto_fields.h"
#include "import/trace_formats.h"
#include "io/trace_bytes.h"

namespace {

int usage() {
    std::fprintf(stderr,
                 "usage: make_pftrace IN.json OUT.pftrace [--raw] [--level N] [--repeat N] "
                 "[--verify]\n");
    return 2;
}

// Reads path back and compares it with what was written; a message on a mismatch.
std::string verify(const std::string& path, const stackline::bench::CuspyLayout& layout,
                   const stackline::bench::PftraceWriteResult& written, uint32_t repeat) {
    using namespace stackline::pftrace;
    const stackline::TraceBytes bytes = stackline::TraceBytes::open(path);
    // On every core, in ranges as the importer decodes: past 2^32 bytes, rows and offsets of
    // the later ranges are appended to the first's.
    const PftraceTable t = decodePftrace(bytes.text(), path, 0, uint64_t(8) << 20);
    uint64_t slices = 0, links = 0;
    for (const auto& g : layout.groups) slices += g.size(), links += g.links.size();
    uint64_t begins = 0, ends = t.events.ends.size();  // the bare ones are not rows
    for (uint8_t type : t.events.type) {
        begins += type == track_event::kTypeSliceBegin;
        ends += type == track_event::kTypeSliceEnd;
    }
    auto expect = [](const char* what, uint64_t got, uint64_t want) {
        return got == want ? std::string()
                           : std::string(what) + " " + std::to_string(got) + ", written " +
                                 std::to_string(want) + "\n";
    };
    std::string bad =
        expect("packets", t.stats.packets, written.packets) +
        expect("bytes", bytes.size(), written.rawBytes) +
        expect("slice begins", begins, slices * repeat) +
        expect("slice ends", ends, slices * repeat) +
        expect("render stages", t.stages.size(), layout.stages.size() * repeat) +
        expect("links", t.events.links.size(), links * repeat) +
        expect("counter samples", t.counters.size(), layout.counters.size() * repeat) +
        expect("tracks", t.tracks.size(), layout.tracks.size());
    // The last begin of the file and the same slice in the first copy hold the same args.
    uint32_t last = UINT32_MAX;
    for (uint32_t r = 0; r < t.events.size(); ++r)
        if (t.events.type[r] == track_event::kTypeSliceBegin) last = r;
    if (last != UINT32_MAX) {
        const uint32_t twin = last - (repeat - 1) * (t.events.size() / repeat);  // rows a copy
        if (trackEventArgs(t, bytes.text(), last) != trackEventArgs(t, bytes.text(), twin))
            bad += "the last slice's args differ from its first copy's\n";
        std::printf("verified: last slice at byte %llu of %llu\n",
                    (unsigned long long)t.events.offset[last], (unsigned long long)bytes.size());
    }
    return bad;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) return usage();
    stackline::bench::PftraceWriteOptions options;
    bool check = false;
    for (int i = 3; i < argc; ++i) {
        const std::string arg = argv[i];
        char* end = nullptr;
        if (arg == "--raw") {
            options.gzip = false;
        } else if (arg == "--verify") {
            check = true;
        } else if ((arg == "--level" || arg == "--repeat") && i + 1 < argc) {
            const unsigned long v = std::strtoul(argv[++i], &end, 10);
            if (*end != '\0') return usage();
            if (arg == "--level")
                options.level = int(v);
            else
                options.repeat = uint32_t(v);
        } else {
            return usage();
        }
    }
    try {
        const auto t0 = std::chrono::steady_clock::now();
        const stackline::Trace trace = stackline::loadTrace(argv[1]);
        const auto layout =
            stackline::bench::cuspyLayoutOf(trace, stackline::rankInfoOf(trace).baseTimeNs);
        const auto written = stackline::bench::writeCuspyPftrace(layout, argv[2], options);
        const double secs =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        std::printf(
            "json events %u\ncpu slices %llu\napi slices %llu\nkernels %llu\nmemcpys %llu\n"
            "memsets %llu\ngpu annotations %llu\ntracks %zu\nnames %zu\n"
            "dropped instants %llu\ndropped flow events %llu\ndropped other %llu\n"
            "packets %llu\nbytes %llu\nserialized bytes %llu\n",
            trace.events.size(), (unsigned long long)layout.cpuSlices,
            (unsigned long long)layout.apiSlices, (unsigned long long)layout.kernels_,
            (unsigned long long)layout.memcpys, (unsigned long long)layout.memsets,
            (unsigned long long)layout.annotations, layout.tracks.size(), layout.names.size(),
            (unsigned long long)layout.droppedInstants, (unsigned long long)layout.droppedFlows,
            (unsigned long long)layout.droppedOther, (unsigned long long)written.packets,
            (unsigned long long)written.bytes, (unsigned long long)written.rawBytes);
        std::fprintf(stderr, "%.3f s\n", secs);
        if (check) {
            const std::string bad =
                verify(argv[2], layout, written, std::max<uint32_t>(options.repeat, 1));
            if (!bad.empty()) {
                std::fprintf(stderr, "make_pftrace: %s", bad.c_str());
                return 1;
            }
        }
    } catch (const std::exception& e) {
        std::fprintf(stderr, "make_pftrace: %s\n", e.what());
        return 1;
    }
    return 0;
}
