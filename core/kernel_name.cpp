#include "kernel_name.h"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace stackline {

std::string demangledKernelName(std::string_view name) {
    // Only "_Z" names: the demangler also accepts bare type names ("i" → "int").
    if (name.size() < 3 || name.substr(0, 2) != "_Z") return std::string(name);
    const std::string mangled(name);  // NUL-terminated for the ABI call
    int status = 0;
    std::unique_ptr<char, decltype(&std::free)> out(
        abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status), &std::free);
    return status == 0 && out ? std::string(out.get()) : mangled;
}

}  // namespace stackline
