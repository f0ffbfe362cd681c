// Input that cannot be mapped (a pipe, a FIFO, a socket: standard input from zcat, a process
// substitution like <(gzip -dc t.gz)) is copied as it arrives into the reclaimable scratch file
// that inflated .json.gz text uses (openScratchFile), and then read like a file. Its size is not
// known in advance: when the scratch file's file system fills up, what was copied moves to an
// in-memory file and the copy goes on there.
#pragma once

#include <cstdint>
#include <string>

#include "base/file_system.h"

namespace stackline {

struct SpooledStream {
    ScratchFile scratch;  // the caller closes scratch.fd
    uint64_t size = 0;
};

// Reads fd to its end into a scratch file. Throws InputError naming `name` when it cannot be read
// or kept.
SpooledStream spoolStream(int fd, const std::string& name);

}  // namespace stackline
