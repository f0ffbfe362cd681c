#include "atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <vector>

namespace stackline {
namespace {

std::string reason() {
    return std::strerror(errno);
}

// Moves bytes into a regular file through a pipe: vmsplice lends the pages to the pipe and
// splice copies them into the page cache inside the kernel, as cp's copy_file_range does. On this
// VM, where fresh guest pages are slow to fault in, a user-space write(2) of 1 GB takes ~4 s and
// this ~0.6 s. Returns how many bytes were written before splicing turned out unavailable (the
// caller writes the rest); throws OutputError on a write error.
std::size_t spliceInto(int fd, std::string_view bytes, const std::string& path) {
    int pipeFds[2];
    if (::pipe2(pipeFds, O_CLOEXEC) != 0) return 0;
    ::fcntl(pipeFds[1], F_SETPIPE_SZ, 1 << 20);  // fewer round trips; the default also works
    std::size_t done = 0;
    bool failed = false;
    int error = 0;
    while (done < bytes.size() && !failed) {
        iovec iov{const_cast<char*>(bytes.data() + done), bytes.size() - done};
        ssize_t lent = ::vmsplice(pipeFds[1], &iov, 1, 0);
        if (lent < 0) {
            if (errno == EINTR) continue;
            break;
        }
        // The pipe holds references to the caller's pages: drain it before returning.
        std::size_t left = std::size_t(lent);
        while (left > 0) {
            ssize_t n = ::splice(pipeFds[0], nullptr, fd, nullptr, left, 0);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                failed = true;
                error = n < 0 ? errno : EIO;
                break;
            }
            left -= std::size_t(n);
            done += std::size_t(n);
        }
    }
    ::close(pipeFds[0]);
    ::close(pipeFds[1]);
    // EINVAL: this file system cannot splice; anything else is a real write error.
    if (failed && error != EINVAL) {
        errno = error;
        throw OutputError(path + ": write failed: " + reason());
    }
    return done;
}

}  // namespace

AtomicFile::AtomicFile(std::string path) : path_(std::move(path)) {
    struct stat st {};
    if (::stat(path_.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode)) throw OutputError(path_ + ": is a directory");
        fd_ = ::open(path_.c_str(), O_WRONLY | O_CLOEXEC);
        if (fd_ < 0) throw OutputError(path_ + ": cannot open for writing: " + reason());
        return;
    }
    std::size_t slash = path_.rfind('/');
    std::string dir = slash == std::string::npos ? "." : path_.substr(0, slash + 1);
    std::string base = slash == std::string::npos ? path_ : path_.substr(slash + 1);
    std::string pattern = (slash == std::string::npos ? "" : dir) + "." + base + ".XXXXXX";
    std::vector<char> buf(pattern.begin(), pattern.end());
    buf.push_back('\0');
    fd_ = ::mkstemp(buf.data());
    if (fd_ < 0)
        throw OutputError(path_ + ": cannot create the output in " + dir + ": " + reason());
    temp_ = buf.data();
    mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd_, 0666 & ~mask);
}

AtomicFile::~AtomicFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
}

void AtomicFile::write(std::string_view bytes) {
    if (!temp_.empty()) bytes.remove_prefix(spliceInto(fd_, bytes, path_));
    const char* p = bytes.data();
    std::size_t left = bytes.size();
    while (left > 0) {
        ssize_t n = ::write(fd_, p, left);
        if (n < 0) {
            if (errno == EINTR) continue;
            throw OutputError(path_ + ": write failed: " + reason());
        }
        p += n;
        left -= std::size_t(n);
    }
}

void AtomicFile::commit() {
    int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) throw OutputError(path_ + ": write failed: " + reason());
    if (!temp_.empty() && ::rename(temp_.c_str(), path_.c_str()) != 0)
        throw OutputError(path_ + ": cannot replace the file: " + reason());
    committed_ = true;
}

bool sameFile(const std::string& a, const std::string& b) {
    struct stat sa {
    }, sb{};
    return ::stat(a.c_str(), &sa) == 0 && ::stat(b.c_str(), &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

}  // namespace stackline
