// What this process may hold in memory, and how it gives memory back: the limit of its memory
// cgroup (what a cluster's job, a container or systemd-run gives it), and the allocator tuned so
// that freed tables go back to the system at once.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace stackline {

// The smallest memory limit of this process's cgroup and its ancestors (cgroup v2 memory.max, v1
// memory.limit_in_bytes), when one is set below the machine's memory; nullopt otherwise.
std::optional<uint64_t> memoryLimit();

// glibc raises its mmap threshold each time a big block is freed, up to 32 MB, after which
// blocks of that size come from the heap and a freed one stays with the process: the loader's
// chunk tables, freed as they are appended, would then stay until exit. A fixed threshold keeps
// every block of a MiB or more mapped and returned when freed. Called first thing in main().
void returnFreedBlocksPromptly();

// Hands back the free pages inside the allocator's heaps (malloc_trim): what threads freed in
// small blocks stays in their arenas otherwise. After a phase of many threads' small blocks
// (the loader's chunk tables: 4 bytes an event on a 1 GB trace), before the phases that peak.
void returnFreedPages();

// Asks for transparent huge pages (MADV_HUGEPAGE) for the 2 MiB pages wholly inside
// [data, data + bytes): for a big column reserved to its final size and about to be filled, so
// that filling it takes a page fault every 2 MiB instead of every 4 KiB. It costs no memory: the
// column's pages are all written, and its partial 2 MiB ends keep small pages. (glibc's
// glibc.malloc.hugetlb=1 does this for every block, growing ones and arenas included: that cost
// 5-9% more peak memory, docs/performance.md.) Nothing for blocks under 4 MiB.
void adviseHugePages(const void* data, std::size_t bytes);

// Room for exactly n elements in a column about to be filled to n, on huge pages.
template <class T>
void reserveExactly(std::vector<T>& column, std::size_t n) {
    column.reserve(n);
    adviseHugePages(column.data(), column.capacity() * sizeof(T));
}

// Gives the whole pages inside [data, data + bytes) back to the system (MADV_DONTNEED): for a
// table read once in order and freed after, the part already read, so that it does not add to
// the peak of what is built from it. Its bytes read as zeros after.
void releasePagesOf(const void* data, std::size_t bytes);

// Gives back the pages of columns read by index in blocks of work (a table in file order filled
// into rows in time order), each chunk of indices once the last block that reads it is done: the
// columns shrink while what is made from them grows, as far as the reading follows the file (a
// trace's tracks written one after another are each read in order). A chunk's pages read as
// zeros after.
class PagesAfterLastUse {
public:
    explicit PagesAfterLastUse(std::size_t indices)
        : lastBlock_((indices + kChunk - 1) / kChunk, kUnread) {}
    // Block `block` reads index i; blocks are noted in order.
    void reads(uint32_t i, uint32_t block) { lastBlock_[i / kChunk] = block; }
    // Block `block` is done: the columns' pages of the chunks no later block reads are released.
    template <class... Column>
    void done(uint32_t block, const Column&... columns) {
        for (std::size_t c = 0; c < lastBlock_.size(); ++c) {
            if (lastBlock_[c] != block && lastBlock_[c] != kUnread) continue;
            lastBlock_[c] = kReleased;
            auto release = [&](const auto& column) {
                const std::size_t from = c * kChunk, to = std::min(from + kChunk, column.size());
                if (to > from)
                    releasePagesOf(column.data() + from, (to - from) * sizeof(column[0]));
            };
            (release(columns), ...);
        }
    }

private:
    static constexpr std::size_t kChunk = 1 << 14;  // 64 KiB of a 4-byte column
    static constexpr uint32_t kUnread = UINT32_MAX, kReleased = UINT32_MAX - 1;
    std::vector<uint32_t> lastBlock_;  // by chunk of indices
};

}  // namespace stackline
