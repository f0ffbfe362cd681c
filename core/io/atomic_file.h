// Writes an output file so that it appears complete or not at all: bytes go to a temporary file
// in the target folder, which replaces the target only when everything was written.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "base/errors.h"
#include "base/file_system.h"  // sameFile, for callers that must not write over their input
#include "io/write_back.h"

namespace stackline {

class AtomicFile {
public:
    // Throws OutputError. Targets that exist and are not regular files (devices such as /dev/null
    // or /dev/full, pipes) are written directly. Each write(2) takes at most writeCall bytes
    // (see writeCallFor).
    explicit AtomicFile(std::string path, std::size_t writeCall = std::size_t(1) << 20);
    ~AtomicFile();  // removes the temporary file unless commit() succeeded
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    void write(std::string_view bytes);
    void commit();

private:
    std::string path_, temp_;
    std::size_t writeCall_;
    int fd_ = -1;
    uint64_t written_ = 0;
    WriteBack writeBack_{-1};  // of the temporary file: its dirty pages count against memory
    bool committed_ = false;
};

}  // namespace stackline
