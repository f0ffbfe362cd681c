// Inflates a .gz file's members one after another, as `gzip -dc` does, with ISA-L's streaming
// inflate, and writes the text to a file as it goes (writing it back to disk window by window), so
// that the inflated trace lives in reclaimable page cache instead of anonymous memory.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace stackline {

// The scratch file's file system ran out of space (or quota) while the text was written.
struct ScratchFull : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Writes the inflated text of `compressed` (the contents of `path`) to `fd` from offset 0 and
// returns its size. Zero padding between and after members is skipped and garbage after a complete
// member ignored, as by gzip. Throws InputError naming the file and the compressed byte where the
// data is corrupt or truncated, ScratchFull, or InputError for another write error.
uint64_t inflateGzip(std::string_view compressed, int fd, const std::string& path);

// Whether bytes start a gzip member (its magic bytes).
bool isGzipMember(std::string_view bytes);

// A guess of the inflated size, to choose where the text goes: the last member's ISIZE is the
// size modulo 2^32, taken at the smallest value not below the compressed size.
uint64_t guessInflatedSize(std::string_view compressed);

}  // namespace stackline
