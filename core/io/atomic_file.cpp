#include "io/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <vector>

#include "base/file_system.h"

namespace stackline {
namespace {

std::string reason() {
    return std::strerror(errno);
}

}  // namespace

AtomicFile::AtomicFile(std::string path, std::size_t writeCall)
    : path_(std::move(path)), writeCall_(std::max<std::size_t>(writeCall, 1)) {
    if (isSpecialFile(path_)) {
        if (isDirectory(path_)) throw OutputError(path_ + ": is a directory");
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
    writeBack_ = WriteBack(fd_);
    mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd_, 0666 & ~mask);
}

AtomicFile::~AtomicFile() {
    if (fd_ >= 0) ::close(fd_);
    if (!committed_ && !temp_.empty()) ::unlink(temp_.c_str());
}

void AtomicFile::write(std::string_view bytes) {
    const char* p = bytes.data();
    std::size_t left = bytes.size();
    while (left > 0) {
        ssize_t n = ::write(fd_, p, std::min(left, writeCall_));
        if (n < 0) {
            if (errno == EINTR) continue;
            throw OutputError(path_ + ": write failed: " + reason());
        }
        p += n;
        left -= std::size_t(n);
    }
    written_ += bytes.size();
    writeBack_.wrote(written_);
}

void AtomicFile::commit() {
    int fd = fd_;
    fd_ = -1;
    if (::close(fd) != 0) throw OutputError(path_ + ": write failed: " + reason());
    if (!temp_.empty() && ::rename(temp_.c_str(), path_.c_str()) != 0)
        throw OutputError(path_ + ": cannot replace the file: " + reason());
    committed_ = true;
}

}  // namespace stackline
