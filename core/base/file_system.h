// The questions the core asks the file system, in one place: what a path names, what a folder
// holds, whether two paths are one file, which dropped or given paths are kernel information, and
// where scratch data can go.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace stackline {

// False when the path does not exist or cannot be examined; symbolic links are followed.
bool isRegularFile(const std::string& path);
bool isDirectory(const std::string& path);
// The path exists and is something other than a regular file (a folder, a device, a pipe).
bool isSpecialFile(const std::string& path);
// True when both paths name the same existing file.
bool sameFile(const std::string& a, const std::string& b);
// What tells that a file was rewritten or replaced since it was read: its identity (device,
// inode), size and modification time.
struct FileStamp {
    uint64_t device = 0, inode = 0, size = 0;
    int64_t modifiedNs = 0;
    bool operator==(const FileStamp&) const = default;
};
// The stamp of an open file, or of a path (symbolic links followed); nullopt when it cannot be
// examined (a path that no longer exists).
std::optional<FileStamp> fileStamp(int fd);
std::optional<FileStamp> fileStamp(const std::string& path);
// Why `now` is not the file stamped `then`, as a phrase ("was replaced by another file", "changed
// size from 120 to 0 bytes", "was modified"); empty when it is the same.
std::string describeChange(const FileStamp& then, const std::optional<FileStamp>& now);

// An unlinked file for `bytes` of scratch data (an inflated trace): its pages are page cache that
// the kernel can write back and reclaim under memory pressure, where anonymous memory could not
// be. It goes in the first folder, of `near` then $TMPDIR, /var/tmp and /tmp, that is on a
// disk-backed file system (a tmpfs's pages cannot be reclaimed without swap) with room for it;
// else it is an in-memory file (memfd). The caller closes fd.
struct ScratchFile {
    int fd = -1;
    std::string folder;  // empty for the in-memory file
};
ScratchFile openScratchFile(const std::vector<std::string>& near, uint64_t bytes);
ScratchFile openScratchInMemory();
// How many bytes each write(2) of a file of about fileBytes takes. The page cache gives a call
// folios up to its size, and on VMs that hand freed memory back to their host large folios are
// slow to fault in again: big files go in 64 KiB calls, small ones (written before that happens)
// in 1 MiB calls (docs/performance.md#export-write-size).
std::size_t writeCallFor(uint64_t fileBytes);
// The folder a path is in ("." for a bare name).
std::string folderOf(const std::string& path);

// The names in a folder (hidden ones included), sorted. Throws InputError when it cannot be read.
std::vector<std::string> folderEntries(const std::string& folder);

// A path the viewer should take as kernel information rather than a trace (a dropped file):
// a folder (tlparse output, TORCH_TRACE folder) or a file named as PyTorch names the forms
// KernelInfo::load reads (registry, TORCH_TRACE log, tlparse artifact, AOTInductor's
// kernel_information.json).
bool looksLikeKernelInfo(const std::string& path);

}  // namespace stackline
