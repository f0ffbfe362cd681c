// Writes a file's dirty pages back to disk as the file grows, when this process has a memory
// limit. Dirty page-cache pages are charged to the writer's memory cgroup and cannot be reclaimed
// until they are written, so a file written faster than the kernel's flusher starts on it could
// fill the budget by itself: then at most two windows of the file are dirty or in flight at a
// time. Without a limit the kernel's own dirty-page throttling is left alone (waiting for the disk
// would only slow the writer down).
#pragma once

#include <cstdint>

namespace stackline {

class WriteBack {
public:
    explicit WriteBack(int fd, uint64_t window = uint64_t(32) << 20);

    // The file's first `end` bytes are written: starts the write-back of each full window and
    // waits for the one before it (by then it is usually done).
    void wrote(uint64_t end);

private:
    int fd_;  // -1: nothing to do
    uint64_t window_;
    uint64_t started_ = 0;  // write-back started for [0, started_)
};

}  // namespace stackline
