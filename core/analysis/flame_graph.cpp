#include "analysis/flame_graph.h"

#include <algorithm>
#include <map>
#include <unordered_map>

namespace stackline {
namespace {

// Adds nodes by path, finding a child by its label.
class FlameBuilder {
public:
    FlameBuilder() { graph_.nodes.emplace_back(); }

    uint32_t child(uint32_t parent, const std::string& label, const std::string& file = {},
                   int line = 0) {
        auto [it, added] = index_.try_emplace({parent, label}, uint32_t(graph_.nodes.size()));
        if (added) {
            FlameNode n;
            n.label = label;
            n.file = file;
            n.line = line;
            n.parent = parent;
            graph_.nodes.push_back(std::move(n));
            graph_.nodes[parent].children.push_back(it->second);
        }
        return it->second;
    }
    // Adds ns to node and every ancestor up to the root.
    void add(uint32_t node, int64_t ns) {
        for (;; node = graph_.nodes[node].parent) {
            graph_.nodes[node].valueNs += ns;
            if (node == 0) return;
        }
    }
    void addOwn(uint32_t node, int64_t ns) { graph_.nodes[node].valueNs += ns; }
    FlameGraph finish() {
        for (FlameNode& n : graph_.nodes)
            std::stable_sort(n.children.begin(), n.children.end(), [&](uint32_t a, uint32_t b) {
                return graph_.nodes[a].valueNs > graph_.nodes[b].valueNs;
            });
        return std::move(graph_);
    }

private:
    FlameGraph graph_;
    std::map<std::pair<uint32_t, std::string>, uint32_t> index_;
};

}  // namespace

int64_t FlameGraph::selfNs(uint32_t node) const {
    int64_t self = nodes[node].valueNs;
    for (uint32_t c : nodes[node].children) self -= nodes[c].valueNs;
    return self;
}

std::string frameLabel(const SourceFrame& f) {
    if (f.line == 0 && f.function.empty()) return f.file;
    std::string label = f.file + ":" + std::to_string(f.line);
    if (!f.function.empty()) label += " " + f.function;
    return label;
}

FlameGraph gpuFlameGraph(const Trace& trace, const Provenance& provenance,
                         const KernelStacksOptions& options) {
    FlameBuilder b;
    std::unordered_map<uint64_t, std::vector<uint32_t>> leaves;  // stackKey -> a leaf per stack
    forEachKernelSample(trace, provenance, options, [&](const KernelSample& k) {
        if (k.stacks->empty()) return;  // as in Hotspots: no frame to charge
        auto it = leaves.find(k.stackKey);
        if (it == leaves.end()) {
            std::vector<uint32_t> ends;
            for (const FrameStack& frames : *k.stacks) {
                uint32_t node = 0;
                for (const SourceFrame& f : frames)
                    node = b.child(node, frameLabel(f), f.file, f.line);
                ends.push_back(node);
            }
            it = leaves.emplace(k.stackKey, std::move(ends)).first;
        }
        const std::vector<uint32_t>& ends = it->second;
        const int64_t n = int64_t(ends.size()), share = k.ns / n, extra = k.ns % n;
        for (int64_t i = 0; i < n; ++i) b.add(ends[size_t(i)], share + (i < extra ? 1 : 0));
    });
    return b.finish();
}

FlameGraph cpuFlameGraph(const EventTable& events, const Track& track, TimeRange range) {
    struct Slice {
        int64_t start, end;
        uint32_t row;
    };
    std::vector<Slice> slices;
    for (const TrackLevel& level : track.levels)
        for (size_t i = level.firstEndingAtOrAfter(range.start); i < level.size(); ++i) {
            if (level.start[i] >= range.end) break;
            if (range.overlaps(level.start[i], level.end[i] - level.start[i]))
                slices.push_back({level.start[i], level.end[i], level.row[i]});
        }
    // Outer slices before the slices they contain.
    std::sort(slices.begin(), slices.end(), [](const Slice& a, const Slice& b) {
        return a.start != b.start ? a.start < b.start : a.end > b.end;
    });
    FlameBuilder b;
    std::vector<std::pair<const Slice*, uint32_t>> open;  // enclosing slices and their nodes
    for (const Slice& s : slices) {
        while (!open.empty() && open.back().first->end < s.end) open.pop_back();
        const uint32_t node =
            b.child(open.empty() ? 0 : open.back().second, std::string(events.nameOf(s.row)));
        // A node holds its slices' time; the enclosing slices' time already holds theirs.
        const int64_t ns = range.clip(s.start, s.end - s.start);
        b.addOwn(node, ns);
        if (open.empty()) b.addOwn(0, ns);
        open.emplace_back(&s, node);
    }
    return b.finish();
}

std::string foldedFrame(std::string_view label) {
    std::string frame(label);
    for (char& c : frame) {
        if (c == ';') c = ',';
        if (c == '\n' || c == '\r') c = ' ';
    }
    return frame;
}

std::string foldedStacks(const FlameGraph& graph) {
    std::string out;
    // Depth first, with the path of folded frames of the current node.
    std::vector<std::pair<uint32_t, size_t>> todo;  // node, path length before it
    std::string path;
    for (auto c = graph.root().children.rbegin(); c != graph.root().children.rend(); ++c)
        todo.emplace_back(*c, 0);
    while (!todo.empty()) {
        auto [node, before] = todo.back();
        todo.pop_back();
        path.resize(before);
        if (before) path += ';';
        path += foldedFrame(graph.nodes[node].label);
        if (int64_t self = graph.selfNs(node); self > 0)
            out += path + " " + std::to_string(self) + "\n";
        const std::vector<uint32_t>& children = graph.nodes[node].children;
        for (auto c = children.rbegin(); c != children.rend(); ++c)
            todo.emplace_back(*c, path.size());
    }
    return out;
}

}  // namespace stackline
