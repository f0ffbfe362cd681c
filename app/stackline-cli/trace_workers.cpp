#include "trace_workers.h"

#include <algorithm>
#include <atomic>
#include <iostream>
#include <map>
#include <mutex>
#include <new>
#include <string>
#include <thread>
#include <vector>

#include "base/errors.h"
#include "base/file_system.h"
#include "cli_options.h"
#include "command_support.h"

using namespace stackline;

namespace cli {

namespace {

// What loading tells, a whole line at a time and naming the trace, since traces load at once.
struct TraceObserver : LoadObserver {
    explicit TraceObserver(std::string trace) : trace(std::move(trace)) {}
    void kernelInfoFound(const std::string& path) override { say("kernel information: " + path); }
    void kernelInfoRead(const LoadedKernelInfo& k) override {
        for (const std::string& note : k.info.notes()) say("kernel information: note: " + note);
    }
    void say(const std::string& what) const {
        static std::mutex m;
        std::lock_guard lock(m);
        std::cerr << trace << ": " << what << "\n";
    }
    std::string trace;
};

}  // namespace

void forEachTrace(const Args& a,
                  const std::function<void(std::size_t, PipelineInput&, LoadObserver&)>& load) {
    const std::size_t n = a.inputs.size();
    // A file given twice (by any path) would count twice in the sum or the job.
    std::map<std::pair<uint64_t, uint64_t>, std::size_t> firstOf;  // (device, inode) -> input
    for (std::size_t i = 0; i < n; ++i)
        if (const std::optional<FileStamp> s = fileStamp(a.inputs[i]))
            if (auto [at, isNew] = firstOf.emplace(std::pair(s->device, s->inode), i); !isNew)
                throw InputError(a.inputs[i] + ": the same file as " + a.inputs[at->second] +
                                 ", given twice: it would count twice");
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const unsigned jobs = unsigned(std::min<std::size_t>(a.jobs ? a.jobs : cores, n));
    std::vector<std::string> errors(n);
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    auto work = [&] {
        for (std::size_t i; !failed && (i = next++) < n;) {
            try {
                PipelineInput in = pipelineInput(a);
                in.tracePath = a.inputs[i];
                in.load.threads = a.threads ? a.threads : std::max(1u, cores / jobs);
                TraceObserver observer(a.inputs[i]);
                load(i, in, observer);
            } catch (const InputError& e) {
                errors[i] = e.what();
                failed = true;
            } catch (const std::bad_alloc&) {
                errors[i] = "out of memory";
                failed = true;
            } catch (const std::exception& e) {  // none expected; a worker must not throw
                errors[i] = e.what();
                failed = true;
            }
        }
    };
    {
        std::vector<std::jthread> workers;
        for (unsigned k = 0; k < jobs; ++k) workers.emplace_back(work);
    }
    for (std::size_t i = 0; i < n; ++i)
        if (!errors[i].empty()) throw InputError(a.inputs[i] + ": " + errors[i]);
}

}  // namespace cli
