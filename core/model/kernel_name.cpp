#include "model/kernel_name.h"

#include <cstdlib>
#include <memory>

#ifdef STACKLINE_LLVM_DEMANGLE
#include <llvm/Demangle/Demangle.h>
#else
#include <cxxabi.h>
#endif

namespace stackline {

std::string demangledKernelName(std::string_view name) {
    // Only "_Z" names: the demangler also accepts bare type names ("i" → "int").
    if (name.size() < 3 || name.substr(0, 2) != "_Z") return std::string(name);
    const std::string mangled(name);  // NUL-terminated for the C call
    int status = 0;
#ifdef STACKLINE_LLVM_DEMANGLE
    char* text = llvm::itaniumDemangle(mangled.c_str(), nullptr, nullptr, &status);
#else
    char* text = abi::__cxa_demangle(mangled.c_str(), nullptr, nullptr, &status);
#endif
    const std::unique_ptr<char, decltype(&std::free)> owned(text, &std::free);
    return status == 0 && text ? std::string(text) : mangled;
}

}  // namespace stackline
