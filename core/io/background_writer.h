// Writes buffers to an AtomicFile on a thread of its own, in the order they are handed over, so
// that the caller fills the next ones meanwhile. One long-lived thread: on a VM each thread start
// and cross-core wake-up costs a fraction of a millisecond, which a thread per buffer paid every
// time.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <mutex>
#include <string>
#include <thread>

#include "io/atomic_file.h"

namespace stackline {

class BackgroundWriter {
public:
    // At most `queued` full buffers wait for the writer; handing over more blocks the caller.
    BackgroundWriter(AtomicFile& file, std::size_t queued);
    ~BackgroundWriter();  // without finish(): drops what is still queued and stops
    BackgroundWriter(const BackgroundWriter&) = delete;
    BackgroundWriter& operator=(const BackgroundWriter&) = delete;

    // Queues a full buffer; returns an empty one to fill next (a written one when there is one,
    // so that its memory is reused). Rethrows an earlier write error (OutputError).
    std::string push(std::string&& full);
    // Returns once everything handed over is written; rethrows a write error.
    void finish();

private:
    void run();

    AtomicFile& file_;
    const std::size_t queued_;
    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<std::string> full_, empty_;
    bool closing_ = false;  // no more buffers will come
    bool abandon_ = false;  // stop without writing what is queued
    std::exception_ptr error_;
    std::thread thread_;  // last: starts once the members above exist
};

}  // namespace stackline
