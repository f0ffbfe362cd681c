#include "io/write_back.h"

#include <fcntl.h>

#include "io/memory_budget.h"

namespace stackline {

WriteBack::WriteBack(int fd, uint64_t window) : fd_(memoryLimit() ? fd : -1), window_(window) {}

void WriteBack::wrote(uint64_t end) {
    if (fd_ < 0) return;
    while (end - started_ >= window_) {
        // Errors (a pipe, a device, a file system without it) leave the pages to the flusher.
        ::sync_file_range(fd_, off_t(started_), off_t(window_), SYNC_FILE_RANGE_WRITE);
        if (started_ >= window_)
            ::sync_file_range(
                fd_, off_t(started_ - window_), off_t(window_),
                SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE | SYNC_FILE_RANGE_WAIT_AFTER);
        started_ += window_;
    }
}

}  // namespace stackline
