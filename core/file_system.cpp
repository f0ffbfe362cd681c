#include "file_system.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "trace_bytes.h"

namespace stackline {
namespace fs = std::filesystem;

namespace {

// The status of a path, or fs::file_type::not_found (also when it cannot be examined).
fs::file_type typeOf(const std::string& path) {
    std::error_code error;
    fs::file_status s = fs::status(path, error);
    return error ? fs::file_type::not_found : s.type();
}

bool startsWith(const std::string& s, const char* prefix) {
    return s.rfind(prefix, 0) == 0;
}

bool endsWith(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() &&
           s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

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
