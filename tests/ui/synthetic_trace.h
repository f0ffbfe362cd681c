// A synthetic torch.compile trace built directly as an event table, for the paint benchmark and
// the level-of-detail tests: per launch unit a Triton launcher cpu_op holding a cuLaunchKernel on
// the CPU thread and a kernel on one of four GPU streams (one in a hundred runs long and overlaps
// the next), a compiled region per 100 units and a step per 1000. Kernels are 90 % annotated,
// 5 % unresolved, 5 % outside compiled regions.
#pragma once

#include <cstdint>
#include <memory>

#include "state/viewed_trace.h"

// About `events` events (three per launch unit); with index, its tracks and flows are built too.
std::shared_ptr<ViewedTrace> syntheticDocument(uint64_t events, uint32_t seed = 42,
                                               bool index = true);
