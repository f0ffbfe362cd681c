#include "trace_bytes.h"

#include <fcntl.h>
#include <libdeflate.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

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
}

void TraceBytes::release(uint64_t begin, uint64_t end) const {
    if (!fileBacked_ || !data_) return;
    end = std::min(end, size_);
    uint64_t b = roundUp(begin), e = end / kPage * kPage;
    if (e > b) ::madvise(data_ + b, e - b, MADV_DONTNEED);
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

TraceBytes TraceBytes::open(const std::string& path) {
    Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
    if (f.fd < 0) throw InputError(sysError(path, "cannot open"));
    struct stat st {};
    if (::fstat(f.fd, &st) != 0) throw InputError(sysError(path, "cannot stat"));
    if (S_ISDIR(st.st_mode)) throw InputError(path + ": is a directory, not a file");
    auto size = uint64_t(st.st_size);

    unsigned char magic[2] = {0, 0};
    if (size >= 2 && ::pread(f.fd, magic, 2, 0) != 2)
        throw InputError(sysError(path, "cannot read"));
    bool gzip = magic[0] == 0x1f && magic[1] == 0x8b;

    TraceBytes t;
    t.fileSize_ = size;
    t.stamp_ = fileStamp(f.fd);
    if (!gzip) {
        // Reserve the file's pages plus a zero page, then map the file over the front: the bytes
        // after the end are readable zeros, whatever the file size.
        t.mapped_ = roundUp(size + kPadding);
        void* region = ::mmap(nullptr, t.mapped_, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (region == MAP_FAILED) throw InputError(sysError(path, "cannot map"));
        t.data_ = static_cast<char*>(region);
        if (size > 0 &&
            ::mmap(region, size, PROT_READ, MAP_PRIVATE | MAP_FIXED, f.fd, 0) == MAP_FAILED)
            throw InputError(sysError(path, "cannot map"));
        ::madvise(region, size, MADV_SEQUENTIAL);
        t.guard_ = MappedFileGuard(region, roundUp(size));
        t.size_ = size;
        t.fileBacked_ = true;
        return t;
    }

    // gzip: read the compressed file, inflate member by member into a growing buffer.
    std::unique_ptr<char[]> in(new char[size]);
    for (uint64_t done = 0; done < size;) {
        ssize_t n = ::pread(f.fd, in.get() + done, size - done, off_t(done));
        if (n <= 0) throw InputError(sysError(path, "cannot read"));
        done += uint64_t(n);
    }
    // ISIZE (the last 4 bytes) is the size mod 2^32 of the last member: a first guess only.
    uint32_t isize = 0;
    if (size >= 18) std::memcpy(&isize, in.get() + size - 4, 4);
    uint64_t capacity =
        roundUp(std::max<uint64_t>({uint64_t(isize), size * 4, uint64_t(1) << 20}) + kPadding);
    t.compressed_ = true;
    t.mapped_ = capacity;
    t.data_ = mapAnonymous(capacity);
    if (!t.data_) throw InputError(path + ": not enough memory to inflate");

    std::unique_ptr<libdeflate_decompressor, decltype(&libdeflate_free_decompressor)> d(
        libdeflate_alloc_decompressor(), libdeflate_free_decompressor);
    uint64_t inPos = 0, outPos = 0;
    while (inPos < size) {
        size_t usedIn = 0, produced = 0;
        libdeflate_result r =
            libdeflate_gzip_decompress_ex(d.get(), in.get() + inPos, size - inPos, t.data_ + outPos,
                                          t.mapped_ - outPos - kPadding, &usedIn, &produced);
        if (r == LIBDEFLATE_INSUFFICIENT_SPACE) {
            uint64_t grown = roundUp(t.mapped_ * 2);
            void* p = ::mremap(t.data_, t.mapped_, grown, MREMAP_MAYMOVE);
            if (p == MAP_FAILED) throw InputError(path + ": not enough memory to inflate");
            t.data_ = static_cast<char*>(p);
            t.mapped_ = grown;
            continue;
        }
        if (r != LIBDEFLATE_SUCCESS) {
            // Garbage after a complete member is tolerated (as by gzip); a broken member is not.
            bool member =
                size - inPos >= 2 && uint8_t(in[inPos]) == 0x1f && uint8_t(in[inPos + 1]) == 0x8b;
            if (inPos > 0 && !member) break;
            throw InputError(path + ": corrupt or truncated gzip data (compressed byte " +
                             std::to_string(inPos) + ")");
        }
        inPos += usedIn;
        outPos += produced;
        // Skip zero padding between or after members.
        while (inPos < size && in[inPos] == 0) ++inPos;
    }
    t.size_ = outPos;
    uint64_t fitted = roundUp(outPos + kPadding);
    if (fitted < t.mapped_) {
        ::munmap(t.data_ + fitted, t.mapped_ - fitted);
        t.mapped_ = fitted;
    }
    std::memset(t.data_ + outPos, 0, kPadding);
    return t;
}

}  // namespace stackline
