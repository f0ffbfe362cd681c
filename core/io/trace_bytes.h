// The bytes of an input file: a read-only mapping of a plain file, or of the inflated contents of a
// gzip file (detected by its magic bytes) kept in an unlinked scratch file. Either way the text is
// followed by readable NUL bytes, which the scanner uses as a sentinel. A pipe (standard input as
// "-", a FIFO, a process substitution) is first copied to a scratch file, then read the same way;
// a device is refused.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "base/errors.h"
#include "base/file_system.h"
#include "io/mapped_file_guard.h"

namespace stackline {

// The path that names standard input, and how messages name it.
inline constexpr std::string_view kStandardInput = "-";
inline constexpr std::string_view kStandardInputName = "standard input";
inline bool isStandardInput(std::string_view path) {
    return path == kStandardInput;
}

class TraceBytes {
public:
    TraceBytes() = default;
    // Throws InputError naming the file (or "standard input") when it cannot be read.
    static TraceBytes open(const std::string& path);
    static TraceBytes fromString(std::string_view text);  // for tests and small inputs
    TraceBytes(TraceBytes&& other) noexcept;
    TraceBytes& operator=(TraceBytes&& other) noexcept;
    TraceBytes(const TraceBytes&) = delete;
    TraceBytes& operator=(const TraceBytes&) = delete;
    ~TraceBytes();

    std::string_view text() const { return {data_, size_}; }
    uint64_t size() const { return size_; }
    // The bytes in [begin, end); end is clamped to the text's end.
    std::string_view slice(uint64_t begin, uint64_t end) const {
        return text().substr(begin, end - begin);
    }
    bool wasCompressed() const { return compressed_; }
    uint64_t fileSize() const { return fileSize_; }
    // Lets the kernel drop mapped pages of a plain file that were read (they stay in the page
    // cache), so resident memory does not grow with the file. No effect on bytes copied from a
    // string: their pages would come back as zeros.
    void release(uint64_t begin, uint64_t end) const;
    // The bytes in [begin, end) will not be read again (stackline-cli's export, which reads the
    // trace once): the pages of inflated text are freed (a hole punched in the scratch file), so
    // that what is written next reuses them instead of fresh memory beside them; a plain file's
    // are released. Inflated bytes read after this are zeros.
    void discard(uint64_t begin, uint64_t end) const;
    // The file's stamp when it was opened (none for bytes from no file), and whether a read of
    // its mapping found it truncated since (MappedFileGuard): what Trace::changedOnDisk checks.
    const std::optional<FileStamp>& stamp() const { return stamp_; }
    bool faulted() const { return guard_.faulted(); }

private:
    void reset();
    static TraceBytes fromFile(int fd, uint64_t size, const std::string& path,
                               const std::vector<std::string>& near);
    void mapFile(int fd, uint64_t size, const std::string& path);
    char* data_ = nullptr;
    uint64_t size_ = 0;
    uint64_t mapped_ = 0;
    uint64_t fileSize_ = 0;
    bool compressed_ = false;
    bool fileBacked_ = false;
    int scratch_ = -1;                // the unlinked file holding inflated text, kept for discard
    std::optional<FileStamp> stamp_;  // of the file opened
    MappedFileGuard guard_;           // of the mapped file's pages
};

}  // namespace stackline
