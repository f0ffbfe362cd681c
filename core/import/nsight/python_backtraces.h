// The Python backtraces of an Nsight Systems export (`nsys profile --python-backtrace=cuda`), read
// into Trace::launchStacks so that eager kernels get Python lines as with_stack traces give them.
//
// What the schema says (Nsight Systems Analysis Guide, "SQLite Schema Reference", 2026.4 /
// schema 3.28.1, https://docs.nvidia.com/nsight-systems/AnalysisGuide/index.html): a runtime call's
// CUPTI_ACTIVITY_KIND_RUNTIME.callchainId references CUDA_CALLCHAINS(id), whose rows are one frame
// each: symbol and module (StringIds), unresolved, originalIP and stackDepth ("zero-base index of
// the given function in call stack"), primary key (id, stackDepth). There is no other callchain
// table for CUDA calls and no column telling Python frames from native ones; public scripts read
// Python function names from symbol and .py paths from module. Frame 0 is the innermost (the
// frame nearest the call), as public queries that print caller -> callee read them.
//
// What it does not say, and is assumed here: the line of a Python frame. It is taken from
// originalIP for frames whose module is a Python file (a .py path, or "<string>", "<frozen ...>").
// Frames of other modules (native code, when --cudabacktrace was also given) and unresolved
// frames are dropped; a frame with no module is kept under its symbol (a built-in).
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "base/string_pool.h"
#include "model/launch_stacks.h"

namespace stackline::nsight {

class Database;

struct CallchainOfCall {
    uint32_t row;       // the runtime call's row
    int64_t callchain;  // its callchainId
};

// Reads CUDA_CALLCHAINS for the calls (rows ascending) into out; frames are named as Kineto names
// a python_function slice ("path.py(12): forward"), interned in strings. stringOf maps a StringIds
// id to its pool id (0: none). A call whose chain has no Python frame gets no stack.
void readPythonBacktraces(const Database& db, const std::vector<CallchainOfCall>& calls,
                          const std::function<uint32_t(int64_t)>& stringOf, StringPool& strings,
                          LaunchStacks& out);

}  // namespace stackline::nsight
