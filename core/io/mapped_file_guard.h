// Reading a memory-mapped file that was truncated after it was mapped raises SIGBUS, which would
// kill the process. A mapping registered here is guarded instead: on such a fault, the rest of the
// mapping is replaced by zero pages and marked as faulted, so the read goes on (it sees zeros) and
// the mapping's owner reports the change to the user. Faults elsewhere go to the handler that was
// installed before (or the default action).
#pragma once

#include <cstddef>

namespace stackline {

class MappedFileGuard {
public:
    MappedFileGuard() = default;
    // Guards [begin, begin + size), which must be a page-aligned private read-only mapping.
    MappedFileGuard(const void* begin, std::size_t size);
    MappedFileGuard(MappedFileGuard&& other) noexcept;
    MappedFileGuard& operator=(MappedFileGuard&& other) noexcept;
    MappedFileGuard(const MappedFileGuard&) = delete;
    MappedFileGuard& operator=(const MappedFileGuard&) = delete;
    ~MappedFileGuard();  // before the mapping is unmapped

    // A read of the mapping found the file shorter than when it was mapped.
    bool faulted() const;

private:
    void reset();
    int slot_ = -1;  // -1: not guarded (nothing registered, or every slot taken)
};

}  // namespace stackline
