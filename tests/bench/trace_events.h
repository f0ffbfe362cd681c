// The Kineto events of the synthetic traces: cpu_ops, Python frames, runtime calls, GPU activities,
// their flows and the metadata events, each written to a Sink in Kineto's field order.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "step_builder.h"
#include "trace_sink.h"

namespace stackline::bench {

constexpr uint64_t kGpuPid = 0;
constexpr uint64_t kStream = 7;

class Emitter {
public:
    Emitter(Sink& sink, uint64_t pid) : s_(sink), pid_(pid) {}

    uint64_t events() const { return events_; }

    void cpuOps(const std::vector<CpuOp>& ops, uint64_t tid) {
        for (const CpuOp& op : ops) cpuOp(op, tid);
    }

    void cpuOp(const CpuOp& op, uint64_t tid) {
        open();
        head("cpu_op", op.name, op.nameNumber, pid_, tid, op.ts, op.dur);
        argsOpen();
        s_.lit("\"External id\": ");
        s_.u64(op.externalId);
        s_.lit(s_.pretty() ? ",\"Record function id\": 0, \"Ev Idx\": "
                           : ", \"Record function id\": 0, \"Ev Idx\": ");
        s_.u64(op.evIdx);
        if (op.seqNr >= 0) {
            s_.lit(", \"Fwd thread id\": ");
            s_.u64(uint64_t(op.fwdThreadId));
            s_.lit(", \"Sequence number\": ");
            s_.u64(uint64_t(op.seqNr));
        }
        s_.lit(op.extra);
        argsClose();
        close();
        if (op.flowPh) flow(op.flowPh, op.flowId, pid_, tid, op.ts, "fwdbwd");
    }

    void pyFrames(const std::vector<PyFrame>& frames, uint64_t tid) {
        for (const PyFrame& f : frames) pyFrame(f, tid);
    }

    void pyFrame(const PyFrame& f, uint64_t tid) {
        open();
        head("python_function", f.name, -1, pid_, tid, f.ts, f.dur);
        argsOpen();
        s_.lit("\"Python parent id\": ");
        if (f.parentId) {
            s_.u64(f.parentId);
        } else {
            s_.lit("null");
        }
        s_.lit(", \"Python id\": ");
        s_.u64(f.id);
        if (f.moduleId >= 0) {
            s_.lit(", \"Python module id\": ");
            s_.u64(uint64_t(f.moduleId));
        }
        s_.lit(", \"Ev Idx\": ");
        s_.u64(f.evIdx);
        argsClose();
        close();
    }

    // NVIDIA order: [GPU activity][f][runtime][s].
    void launches(const std::vector<Launch>& launches) {
        for (const Launch& l : launches) {
            const bool linked = l.flow == Flow::kPair;
            if (l.gpu) {
                gpu(*l.gpu, l.gpuTs, l.gpuDur, linked ? l.externalId : 0, l.correlation);
                if (linked) flow('f', l.correlation, kGpuPid, kStream, l.gpuTs, "ac2g");
            }
            runtime(l);
            if (linked || l.flow == Flow::kStartOnly) {
                flow('s', l.correlation, pid_, l.tid, l.ts, "ac2g");
            } else if (l.flow == Flow::kEndOnly) {
                flow('f', l.correlation, pid_, l.tid, l.ts, "ac2g");
            }
        }
    }

    // Metadata event; pid, tid and value are JSON text.
    void meta(std::string_view name, int64_t ts, std::string_view pid, std::string_view tid,
              std::string_view key, std::string_view value) {
        open();
        s_.lit("\"name\": \"");
        s_.lit(name);
        s_.lit("\", \"ph\": \"M\", \"ts\": ");
        s_.ts(ts);
        s_.lit(", \"pid\": ");
        s_.lit(pid);
        s_.lit(", \"tid\": ");
        s_.lit(tid);
        s_.lit(",");
        s_.br(4);
        s_.lit("\"args\": {");
        s_.br0(6);
        s_.lit("\"");
        s_.lit(key);
        s_.lit("\": ");
        s_.lit(value);
        argsClose();
        close();
    }

    void profilerSpan(int64_t start, int64_t end, uint64_t opCount) {
        open();
        s_.lit("\"ph\": \"X\", \"cat\": \"Trace\", \"ts\": ");
        s_.ts(start);
        s_.lit(", \"dur\": ");
        s_.ts(end - start);
        s_.lit(",");
        s_.br(4);
        s_.lit("\"pid\": \"Spans\", \"tid\": \"PyTorch Profiler\",");
        s_.br(4);
        s_.lit("\"name\": \"PyTorch Profiler (0)\",");
        s_.br(4);
        s_.lit("\"args\": {");
        s_.br0(6);
        s_.lit("\"Op count\": ");
        s_.u64(opCount);
        argsClose();
        close();
    }

    void globalInstant(std::string_view name, std::string_view pidTid, int64_t ts) {
        open();
        s_.lit("\"name\": \"");
        s_.lit(name);
        s_.lit("\", \"ph\": \"i\", \"s\": \"g\",");
        s_.br(4);
        s_.lit(pidTid);
        s_.lit(", \"ts\": ");
        s_.ts(ts);
        close();
    }

private:
    void open() {
        s_.lit(events_++ ? ",\n" : "\n");
        s_.lit(s_.pretty() ? "  {" : "{");
        s_.br0(4);
    }
    void close() {
        s_.br0(2);
        s_.lit("}");
    }
    void argsOpen() {
        s_.lit(",");
        s_.br(4);
        s_.lit("\"args\": {");
        s_.br0(6);
    }
    void argsClose() {
        s_.br0(4);
        s_.lit("}");
    }

    void head(std::string_view cat, std::string_view name, int64_t nameNumber, uint64_t pid,
              uint64_t tid, int64_t ts, int64_t dur) {
        s_.lit("\"ph\": \"X\", \"cat\": \"");
        s_.lit(cat);
        s_.lit("\", \"name\": \"");
        s_.lit(name);
        if (nameNumber >= 0) s_.u64(uint64_t(nameNumber));
        s_.lit("\", \"pid\": ");
        s_.u64(pid);
        s_.lit(", \"tid\": ");
        s_.u64(tid);
        s_.lit(",");
        s_.br(4);
        s_.lit("\"ts\": ");
        s_.ts(ts);
        s_.lit(", \"dur\": ");
        s_.ts(dur);
    }

    void gpu(const GpuDef& def, int64_t ts, int64_t dur, uint64_t externalId,
             uint64_t correlation) {
        open();
        head(def.cat, def.name, -1, kGpuPid, kStream, ts, dur);
        argsOpen();
        if (externalId) {
            s_.lit("\"External id\": ");
            s_.u64(externalId);
            s_.lit(",");
            s_.br(6);
        }
        if (def.cat == "kernel") s_.lit("\"queued\": 0, ");
        s_.lit("\"device\": 0, \"context\": 1,");
        s_.br(6);
        s_.lit("\"stream\": 7, \"correlation\": ");
        s_.u64(correlation);
        s_.lit(def.tail);
        argsClose();
        close();
    }

    void runtime(const Launch& l) {
        open();
        head(l.api->cat, l.api->name, -1, pid_, l.tid, l.ts, l.dur);
        argsOpen();
        if (l.externalId) {
            s_.lit("\"External id\": ");
            s_.u64(l.externalId);
            s_.lit(",");
            s_.br(6);
        }
        s_.lit("\"cbid\": ");
        s_.u64(uint64_t(l.api->cbid));
        s_.lit(", \"correlation\": ");
        s_.u64(l.correlation);
        argsClose();
        close();
    }

    void flow(char ph, uint64_t id, uint64_t pid, uint64_t tid, int64_t ts, std::string_view cat) {
        open();
        s_.lit(ph == 's' ? "\"ph\": \"s\", \"id\": " : "\"ph\": \"f\", \"id\": ");
        s_.u64(id);
        s_.lit(", \"pid\": ");
        s_.u64(pid);
        s_.lit(", \"tid\": ");
        s_.u64(tid);
        s_.lit(", \"ts\": ");
        s_.ts(ts);
        s_.lit(",");
        s_.br(4);
        s_.lit("\"cat\": \"");
        s_.lit(cat);
        s_.lit("\", \"name\": \"");
        s_.lit(cat);
        s_.lit(ph == 'f' ? "\", \"bp\": \"e\"" : "\"");
        close();
    }

    Sink& s_;
    uint64_t pid_;
    uint64_t events_ = 0;
};

}  // namespace stackline::bench
