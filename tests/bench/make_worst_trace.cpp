// make_worst_trace OUT.json SHAPE EVENTS
// Writes one worst-case trace of worst_case_trace.h (SHAPE: nested, zero, staircase, one_thread,
// one_flow, counters, backward, deep_launches) and its kernel information beside it, then prints
// both paths.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <string>

#include "worst_case_trace.h"

int main(int argc, char** argv) {
    const auto shape = argc == 4 ? stackline::bench::worstShapeNamed(argv[2]) : std::nullopt;
    char* end = nullptr;
    const unsigned long long events = argc == 4 ? std::strtoull(argv[3], &end, 10) : 0;
    if (!shape || *end != '\0' || events < 100) {
        std::fprintf(stderr, "usage: make_worst_trace OUT.json SHAPE EVENTS (at least 100)\n");
        return 2;
    }
    try {
        const std::string info = stackline::bench::writeWorstTrace(argv[1], *shape, events);
        std::printf("%s\n%s\n", argv[1], info.c_str());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "make_worst_trace: %s\n", e.what());
        return 1;
    }
    return 0;
}
