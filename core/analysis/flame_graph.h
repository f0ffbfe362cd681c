// Flame graphs (icicles): a tree of frames whose values are time in integer nanoseconds.
//  - GPU time by Python call path: every kernel with a stack adds its (range-clipped) time along
//    its frames, outermost first; a kernel with several stacks splits its time evenly among them
//    (as Hotspots' self time does), the remainder nanoseconds going to the first stacks, so that
//    the root holds exactly the GPU time of the kernels with stacks.
//  - CPU time of one track: its X slices, nested by containment, clipped to the range.
// foldedStacks writes either as "frame;frame;frame VALUE" lines, the format flamegraph.pl,
// speedscope and Perfetto import.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/kernel_stacks.h"
#include "model/track_index.h"

namespace stackline {

struct FlameNode {
    std::string label;  // "file:line function" for a source frame, else a slice name
    std::string file;   // the source frame's, empty for slices
    int line = 0;
    int64_t valueNs = 0;  // the node's time, its children's included
    uint32_t parent = 0;
    std::vector<uint32_t> children;  // indices into FlameGraph::nodes, by descending value
};

struct FlameGraph {
    std::vector<FlameNode> nodes;  // nodes[0] is the root (label empty)

    const FlameNode& root() const { return nodes.front(); }
    int64_t selfNs(uint32_t node) const;
};

// The label of a source frame: "file:line function" (a pseudo-frame, line 0, is its text alone).
std::string frameLabel(const SourceFrame& frame);

FlameGraph gpuFlameGraph(const Trace& trace, const Provenance& provenance,
                         const KernelStacksOptions& options = {});
FlameGraph cpuFlameGraph(const EventTable& events, const Track& track, TimeRange range = {});

// A label as one folded frame: ';' becomes ',' and line breaks become spaces.
std::string foldedFrame(std::string_view label);
// One line per node with self time, root excluded from the path; VALUE is its self time in ns.
std::string foldedStacks(const FlameGraph& graph);

}  // namespace stackline
