#include "io/trace_bytes.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "io/gzip_inflate.h"
#include "io/stream_spool.h"

namespace stackline {
namespace {

constexpr uint64_t kPage = 4096;
constexpr uint64_t kPadding = 64;

uint64_t roundUp(uint64_t n) {
    return (n + kPage - 1) / kPage * kPage;
}

std::string sysError(const std::string& path, const char* what) {
    return path + ": " + what + ": " + std::strerror(errno);
}

struct Fd {
    int fd = -1;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

char* mapAnonymous(uint64_t bytes) {
    void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    return p == MAP_FAILED ? nullptr : static_cast<char*>(p);
}

}  // namespace

TraceBytes::TraceBytes(TraceBytes&& o) noexcept {
    *this = std::move(o);
}

TraceBytes& TraceBytes::operator=(TraceBytes&& o) noexcept {
    if (this != &o) {
        reset();
        data_ = o.data_;
        size_ = o.size_;
        mapped_ = o.mapped_;
        fileSize_ = o.fileSize_;
        compressed_ = o.compressed_;
        fileBacked_ = o.fileBacked_;
        scratch_ = o.scratch_;
        o.scratch_ = -1;
        stamp_ = o.stamp_;
        guard_ = std::move(o.guard_);
        o.stamp_.reset();
        o.data_ = nullptr;
        o.size_ = o.mapped_ = o.fileSize_ = 0;
    }
    return *this;
}

TraceBytes::~TraceBytes() {
    reset();
}

void TraceBytes::reset() {
    guard_ = MappedFileGuard();  // before its pages go
    if (data_) ::munmap(data_, mapped_);
    data_ = nullptr;
    if (scratch_ >= 0) ::close(scratch_);
    scratch_ = -1;
}

void TraceBytes::release(uint64_t begin, uint64_t end) const {
    if (!fileBacked_ || !data_) return;
    end = std::min(end, size_);
    uint64_t b = roundUp(begin), e = end / kPage * kPage;
    if (e > b) ::madvise(data_ + b, e - b, MADV_DONTNEED);
}

void TraceBytes::discard(uint64_t begin, uint64_t end) const {
    end = std::min(end, size_);
    const uint64_t b = roundUp(begin), e = end / kPage * kPage;
    if (e <= b) return;
    // A file system that cannot punch holes keeps the pages, as release does.
    if (scratch_ < 0 || ::fallocate(scratch_, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, off_t(b),
                                    off_t(e - b)) != 0)
        release(begin, end);
}

TraceBytes TraceBytes::fromString(std::string_view text) {
    TraceBytes t;
    t.mapped_ = roundUp(text.size() + kPadding);
    t.data_ = mapAnonymous(t.mapped_);
    if (!t.data_) throw std::bad_alloc();
    std::memcpy(t.data_, text.data(), text.size());
    t.size_ = t.fileSize_ = text.size();
    return t;
}

// Maps `size` bytes of fd read-only, followed by readable zero bytes whatever the size: the file's
// pages plus a zero page are reserved, and the file is mapped over the front.
void TraceBytes::mapFile(int fd, uint64_t size, const std::string& path) {
    mapped_ = roundUp(size + kPadding);
    void* region = ::mmap(nullptr, mapped_, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (region == MAP_FAILED) throw InputError(sysError(path, "cannot map"));
    data_ = static_cast<char*>(region);
    if (size > 0 && ::mmap(region, size, PROT_READ, MAP_PRIVATE | MAP_FIXED, fd, 0) == MAP_FAILED)
        throw InputError(sysError(path, "cannot map"));
    ::madvise(region, size, MADV_SEQUENTIAL);
    size_ = size;
    fileBacked_ = true;
}

TraceBytes TraceBytes::open(const std::string& path) {
    const bool standardInput = isStandardInput(path);
    const std::string name = standardInput ? std::string(kStandardInputName) : path;
    Fd f{standardInput ? ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0)
                       : ::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
    if (f.fd < 0) throw InputError(sysError(name, "cannot open"));
    struct stat st {};
    if (::fstat(f.fd, &st) != 0) throw InputError(sysError(name, "cannot stat"));
    if (S_ISDIR(st.st_mode)) throw InputError(name + ": is a directory, not a file");
    // A device would be read forever (/dev/zero) or is a terminal: neither holds a trace.
    if (S_ISCHR(st.st_mode) || S_ISBLK(st.st_mode))
        throw InputError(name + ": is a " + (S_ISCHR(st.st_mode) ? "character" : "block") +
                         " device, not a trace file or a pipe");
    if (!S_ISREG(st.st_mode)) {
        // A pipe, FIFO or socket: copied to a scratch file first, whose bytes are then ours
        // (nothing can change them, so they carry no stamp).
        SpooledStream spooled = spoolStream(f.fd, name);
        Fd scratch{spooled.scratch.fd};
        TraceBytes t = fromFile(scratch.fd, spooled.size, name, {});
        if (t.scratch_ < 0) std::swap(t.scratch_, scratch.fd);  // kept for discard
        return t;
    }
    TraceBytes t = fromFile(f.fd, uint64_t(st.st_size), name, {folderOf(path)});
    // Standard input redirected from a file has no path to compare the file with later.
    if (!standardInput) t.stamp_ = fileStamp(f.fd);
    return t;
}

// The bytes of fd's first `size` bytes: mapped, or inflated into a scratch file (near the given
// folders when there is room) when they are gzip.
TraceBytes TraceBytes::fromFile(int fd, uint64_t size, const std::string& path,
                                const std::vector<std::string>& near) {
    char magic[2] = {0, 0};
    if (size >= 2 && ::pread(fd, magic, 2, 0) != 2) throw InputError(sysError(path, "cannot read"));
    const bool gzip = isGzipMember({magic, 2});

    TraceBytes t;
    t.fileSize_ = size;
    if (!gzip) {
        t.mapFile(fd, size, path);
        t.guard_ = MappedFileGuard(t.data_, roundUp(size));
        return t;
    }
    // gzip: the text is inflated into a scratch file (beside the trace when there is room), whose
    // pages the kernel can reclaim, and mapped like a plain file.
    TraceBytes gz;
    gz.mapFile(fd, size, path);
    gz.guard_ = MappedFileGuard(gz.data_, roundUp(size));
    ScratchFile scratch = openScratchFile(near, guessInflatedSize(gz.text()));
    uint64_t inflated = 0;
    try {
        try {
            inflated = inflateGzip(gz.text(), scratch.fd, path);
        } catch (const ScratchFull&) {
            ::close(scratch.fd);
            scratch = openScratchInMemory();
            inflated = inflateGzip(gz.text(), scratch.fd, path);
        }
    } catch (const InputError&) {
        ::close(scratch.fd);
        if (gz.faulted()) throw InputError(path + ": the file was truncated while it was read");
        throw;
    }
    t.scratch_ = scratch.fd;
    if (gz.faulted()) throw InputError(path + ": the file was truncated while it was read");
    t.compressed_ = true;
    t.mapFile(t.scratch_, inflated, path);
    return t;
}

}  // namespace stackline
