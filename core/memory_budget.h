// What this process may hold in memory, and how it gives memory back: the limit of its memory
// cgroup (what a cluster's job, a container or systemd-run gives it), and freed memory returned
// to the system after a stage that freed much of it.
#pragma once

#include <cstdint>
#include <optional>

namespace stackline {

// The smallest memory limit of this process's cgroup and its ancestors (cgroup v2 memory.max, v1
// memory.limit_in_bytes), when one is set below the machine's memory; nullopt otherwise.
std::optional<uint64_t> memoryLimit();

// glibc raises its mmap threshold each time a big block is freed, up to 32 MB, after which
// blocks of that size come from the heap (another thread's arena for the loader's workers), and
// freed ones stay with the process: the loader's chunk tables, freed as they are appended, would
// stay until exit. This hands the free pages of every arena back (malloc_trim). A fixed threshold
// would too, but then every big vector is a fresh mapping, and processing ran 30% slower.
void returnFreedMemory();

}  // namespace stackline
