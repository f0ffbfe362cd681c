// kernel-info: the kernel information, read in any of its forms, written as a registry file.
#include <iostream>

#include "cli_options.h"
#include "command_support.h"
#include "commands.h"

using namespace stackline;

namespace cli {

// The kernel information as a registry file. A kernel-only one (AOTInductor's form) is written
// as it is, since no graph key can express "every compiled region".
int kernelInfo(const Args& a) {
    KernelInfo info = KernelInfo::load(a.trace);
    printNotes(info);
    const OrderedJson* kernelOnly = info.kernelOnlyJson();
    const OrderedJson& out =
        kernelOnly && info.graphCount() == 0 ? *kernelOnly : info.registryJson();
    if (kernelOnly && info.graphCount() != 0)
        std::cerr << "stackline-cli: the kernels without a compile id are left out: one file holds "
                     "either graph keys or kernels only\n";
    std::string text = dumpJson(out, 1) + "\n";
    if (a.out.empty()) {
        std::cout << text;
        return 0;
    }
    writeFile(a.out, text);
    return 0;
}

}  // namespace cli
