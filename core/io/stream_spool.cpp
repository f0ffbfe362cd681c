#include "io/stream_spool.h"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>
#include <optional>

#include "base/errors.h"
#include "io/write_back.h"

namespace stackline {
namespace {

constexpr size_t kBuffer = size_t(1) << 20;

std::string sysError(const std::string& name, const char* what, int error) {
    return name + ": " + what + ": " + std::strerror(error);
}

// Writes all of [p, p + n) at offset `at`; returns 0, or the errno of the failed write (ENOSPC
// for a write that wrote nothing).
int writeAt(int fd, const char* p, uint64_t n, uint64_t at, size_t call) {
    while (n > 0) {
        const ssize_t w = ::pwrite(fd, p, std::min<uint64_t>(n, call), off_t(at));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return w < 0 ? errno : ENOSPC;
        p += w;
        n -= uint64_t(w);
        at += uint64_t(w);
    }
    return 0;
}

// The scratch file, closed unless handed over.
struct Scratch {
    ScratchFile file;
    ~Scratch() {
        if (file.fd >= 0) ::close(file.fd);
    }
};

// Moves the first `size` bytes of a full scratch file into an in-memory one, which replaces it.
void moveToMemory(Scratch& s, uint64_t size, char* buffer, const std::string& name) {
    ScratchFile memory = openScratchInMemory();
    if (memory.fd < 0) throw InputError(sysError(name, "cannot keep the input", errno));
    for (uint64_t at = 0; at < size;) {
        const ssize_t r =
            ::pread(s.file.fd, buffer, std::min<uint64_t>(kBuffer, size - at), off_t(at));
        if (r < 0 && errno == EINTR) continue;
        const int error =
            r <= 0 ? (r < 0 ? errno : EIO) : writeAt(memory.fd, buffer, uint64_t(r), at, kBuffer);
        if (error) {
            ::close(memory.fd);
            throw InputError(sysError(name, "cannot keep the input", error));
        }
        at += uint64_t(r);
    }
    ::close(s.file.fd);
    s.file = memory;
}

}  // namespace

SpooledStream spoolStream(int fd, const std::string& name) {
    Scratch s{openScratchFile({}, 0)};
    if (s.file.fd < 0) throw InputError(sysError(name, "cannot keep the input", errno));
    const std::unique_ptr<char[]> buffer(new char[kBuffer]);
    std::optional<WriteBack> writeBack(std::in_place, s.file.fd);
    uint64_t size = 0;
    for (;;) {
        const ssize_t r = ::read(fd, buffer.get(), kBuffer);
        if (r < 0 && errno == EINTR) continue;
        if (r < 0) throw InputError(sysError(name, "cannot read", errno));
        if (r == 0) break;
        const size_t call = writeCallFor(size + uint64_t(r));
        int error = writeAt(s.file.fd, buffer.get(), uint64_t(r), size, call);
        if ((error == ENOSPC || error == EDQUOT) && !s.file.folder.empty()) {
            // The block just read is kept aside while the copy reuses the buffer.
            std::string block(buffer.get(), size_t(r));
            moveToMemory(s, size, buffer.get(), name);
            writeBack.emplace(s.file.fd);
            error = writeAt(s.file.fd, block.data(), block.size(), size, call);
        }
        if (error) throw InputError(sysError(name, "cannot keep the input", error));
        size += uint64_t(r);
        writeBack->wrote(size);
    }
    SpooledStream out{s.file, size};
    s.file.fd = -1;
    return out;
}

}  // namespace stackline
