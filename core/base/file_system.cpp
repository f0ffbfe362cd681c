#include "base/file_system.h"

#include <fcntl.h>
#include <linux/magic.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <system_error>

#include "base/errors.h"

namespace stackline {
namespace fs = std::filesystem;

namespace {

// The status of a path, or fs::file_type::not_found (also when it cannot be examined).
fs::file_type typeOf(const std::string& path) {
    std::error_code error;
    fs::file_status s = fs::status(path, error);
    return error ? fs::file_type::not_found : s.type();
}

FileStamp stampOf(const struct stat& st) {
    return {uint64_t(st.st_dev), uint64_t(st.st_ino), uint64_t(st.st_size),
            int64_t(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

bool startsWith(const std::string& s, const char* prefix) {
    return s.rfind(prefix, 0) == 0;
}

bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// A folder whose file system keeps its pages on disk and has `bytes` free (with a margin).
bool canHoldScratch(const std::string& folder, uint64_t bytes) {
    struct statfs st {};
    if (::statfs(folder.c_str(), &st) != 0) return false;
    if (st.f_type == TMPFS_MAGIC || st.f_type == RAMFS_MAGIC) return false;
    constexpr uint64_t kMargin = uint64_t(256) << 20;
    return uint64_t(st.f_bavail) * uint64_t(st.f_bsize) >= bytes + kMargin;
}

int openUnlinked(const std::string& folder) {
    int fd = ::open(folder.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0) return fd;
    // File systems without O_TMPFILE: a named file, unlinked at once.
    std::string pattern = folder + "/.stackline-scratch.XXXXXX";
    fd = ::mkostemp(pattern.data(), O_CLOEXEC);
    if (fd >= 0) ::unlink(pattern.c_str());
    return fd;
}

}  // namespace

ScratchFile openScratchFile(const std::vector<std::string>& near, uint64_t bytes) {
    std::vector<std::string> folders = near;
    if (const char* tmp = std::getenv("TMPDIR"); tmp && *tmp) folders.emplace_back(tmp);
    folders.insert(folders.end(), {"/var/tmp", "/tmp"});
    for (const std::string& folder : folders) {
        if (!canHoldScratch(folder, bytes)) continue;
        if (int fd = openUnlinked(folder); fd >= 0) return {fd, folder};
    }
    return openScratchInMemory();
}

ScratchFile openScratchInMemory() {
    return {::memfd_create("stackline-scratch", MFD_CLOEXEC), {}};
}

std::size_t writeCallFor(uint64_t fileBytes) {
    return fileBytes < (uint64_t(256) << 20) ? std::size_t(1) << 20 : std::size_t(64) << 10;
}

std::string folderOf(const std::string& path) {
    std::string folder = fs::path(path).parent_path();
    return folder.empty() ? "." : folder;
}

bool isRegularFile(const std::string& path) {
    return typeOf(path) == fs::file_type::regular;
}

bool isDirectory(const std::string& path) {
    return typeOf(path) == fs::file_type::directory;
}

bool isSpecialFile(const std::string& path) {
    fs::file_type t = typeOf(path);
    return t != fs::file_type::not_found && t != fs::file_type::regular;
}

bool sameFile(const std::string& a, const std::string& b) {
    std::error_code error;
    return fs::equivalent(a, b, error) && !error;
}

std::optional<FileStamp> fileStamp(int fd) {
    struct stat st {};
    if (::fstat(fd, &st) != 0) return std::nullopt;
    return stampOf(st);
}

std::optional<FileStamp> fileStamp(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) return std::nullopt;
    return stampOf(st);
}

std::string describeChange(const FileStamp& then, const std::optional<FileStamp>& now) {
    if (!now) return "no longer exists";
    if (now->device != then.device || now->inode != then.inode)
        return "was replaced by another file";
    if (now->size != then.size)
        return "changed size from " + std::to_string(then.size) + " to " +
               std::to_string(now->size) + " bytes";
    if (now->modifiedNs != then.modifiedNs) return "was modified";
    return {};
}

std::vector<std::string> folderEntries(const std::string& folder) {
    std::vector<std::string> names;
    std::error_code error;
    fs::directory_iterator it(folder, error), end;
    for (; !error && it != end; it.increment(error)) names.push_back(it->path().filename());
    if (error) throw InputError(folder + ": cannot read the folder");
    std::sort(names.begin(), names.end());
    return names;
}

bool looksLikeKernelInfo(const std::string& path) {
    if (isDirectory(path)) return true;
    const std::string name = fs::path(path).filename();
    return name.find("kernel_info") != std::string::npos ||  // also kernel_information.json
           startsWith(name, "dedicated_log_torch_trace") ||
           startsWith(name, "inductor_provenance_tracking_kernel_stack_traces") ||
           endsWith(name, ".log");
}

}  // namespace stackline
