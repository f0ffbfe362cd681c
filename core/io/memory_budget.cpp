#include "io/memory_budget.h"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <fstream>
#include <string>

namespace stackline {
namespace {

// A limit file's value; nullopt for "max" or when it cannot be read.
std::optional<uint64_t> readLimit(const std::string& path) {
    std::ifstream in(path);
    std::string value;
    if (!(in >> value) || value == "max") return std::nullopt;
    try {
        return std::stoull(value);
    } catch (const std::exception&) {
        return std::nullopt;
    }
}

// The smallest limit in `file` along `path` (a cgroup path) and its ancestors under `root`.
std::optional<uint64_t> smallestAlong(const std::string& root, std::string path, const char* file) {
    std::optional<uint64_t> smallest;
    while (true) {
        if (std::optional<uint64_t> l = readLimit(root + path + "/" + file))
            smallest = smallest ? std::min(*smallest, *l) : *l;
        if (path.empty() || path == "/") break;
        path.resize(path.rfind('/'));
    }
    return smallest;
}

std::optional<uint64_t> findLimit() {
    std::ifstream cgroups("/proc/self/cgroup");
    std::optional<uint64_t> limit;
    for (std::string line; std::getline(cgroups, line);) {
        // hierarchy-id:controllers:path; v2's line is "0::path".
        const size_t a = line.find(':'), b = line.find(':', a + 1);
        if (a == std::string::npos || b == std::string::npos) continue;
        const std::string controllers = line.substr(a + 1, b - a - 1), path = line.substr(b + 1);
        std::optional<uint64_t> l;
        if (controllers.empty())
            l = smallestAlong("/sys/fs/cgroup", path, "memory.max");
        else if (("," + controllers + ",").find(",memory,") != std::string::npos)
            l = smallestAlong("/sys/fs/cgroup/memory", path, "memory.limit_in_bytes");
        if (l) limit = limit ? std::min(*limit, *l) : *l;
    }
    const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
    if (limit && pages > 0 && page > 0 && *limit >= uint64_t(pages) * uint64_t(page))
        return std::nullopt;  // v1 writes "no limit" as a huge number
    return limit;
}

// madvise(advice) on the pages of `page` bytes (a power of two) wholly inside [data, data + bytes).
void adviseWholePages(const void* data, std::size_t bytes, uintptr_t page, int advice) {
    const auto begin = (uintptr_t(data) + page - 1) / page * page;
    const auto end = (uintptr_t(data) + bytes) / page * page;
    if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, advice);
}

}  // namespace

std::optional<uint64_t> memoryLimit() {
    static const std::optional<uint64_t> limit = findLimit();
    return limit;
}

void returnFreedBlocksPromptly() {
    ::mallopt(M_MMAP_THRESHOLD, 1 << 20);
}

// GCC says that AddressSanitizer is on by __SANITIZE_ADDRESS__, clang 14 (the sanitizer stage's
// compiler) only by __has_feature.
#if defined(__SANITIZE_ADDRESS__)
#define STACKLINE_ADDRESS_SANITIZER 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define STACKLINE_ADDRESS_SANITIZER 1
#endif
#endif

void returnFreedPages() {
    // Under AddressSanitizer the blocks are ASan's, not glibc's: malloc_trim would walk arenas
    // that hold none of them, and doing so from several loader threads at once crashed in glibc's
    // mtrim (cli.steps_fleet, about one run in two, only in the sanitizer build).
#if defined(STACKLINE_ADDRESS_SANITIZER)
    return;
#else
    ::malloc_trim(0);
#endif
}

void adviseHugePages(const void* data, std::size_t bytes) {
    constexpr uintptr_t kHuge = uintptr_t(2) << 20;
    if (bytes >= 2 * kHuge) adviseWholePages(data, bytes, kHuge, MADV_HUGEPAGE);
}

void releasePagesOf(const void* data, std::size_t bytes) {
    adviseWholePages(data, bytes, uintptr_t(sysconf(_SC_PAGESIZE)), MADV_DONTNEED);
}

}  // namespace stackline
