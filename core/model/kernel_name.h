// Kernel names as a person reads them: the Itanium C++ ABI's mangled names (`_ZN2ck…`, as HIP
// and some CUDA profilers record them) demangled; every other name as it is.
#pragma once

#include <string>
#include <string_view>

namespace stackline {

// The demangled form of a mangled name (`_Z…`); the name itself when it is not mangled or does
// not demangle.
std::string demangledKernelName(std::string_view name);

}  // namespace stackline
