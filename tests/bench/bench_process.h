// Child processes for the benchmarks: wall time and peak RSS of one run, and the moments a child
// printed its milestones. Linux only (fork, wait4, poll).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace stackline::bench {

struct Proc {
    double seconds = 0;
    double peakRssMb = 0;
    int exitCode = -1;  // 128 + signal when killed
};

// Runs argv[0] (looked up in PATH) with stdout and stderr sent to files; wall time and peak RSS
// come from the child alone (wait4).
Proc runProcess(const std::vector<std::string>& args, const std::string& outPath,
                const std::string& errPath);
// The same for a command that must succeed; on failure its stderr goes into the exception.
Proc runChecked(const std::vector<std::string>& args, const std::string& outPath,
                const std::string& errPath);

// A run whose stderr lines "timings: NAME=..." are stamped as they arrive: seconds from the fork,
// measured here, so that the child's own start-up (loading its libraries) counts too.
struct StampedRun {
    Proc proc;
    std::map<std::string, double> stamps;
    std::string stderrText;
};
// Throws when the command fails.
StampedRun runStamped(const std::vector<std::string>& args,
                      const std::vector<std::string>& environment = {});

std::string readFile(const std::string& path);
// The median of some timings (0 for none).
double median(std::vector<double> v);
bool isExecutableInPath(const std::string& name);

}  // namespace stackline::bench
