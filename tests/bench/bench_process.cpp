#include "bench_process.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

extern char** environ;

namespace stackline::bench {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point start) {
    return std::chrono::duration<double>(Clock::now() - start).count();
}

Proc waitFor(pid_t pid, Clock::time_point start) {
    int status = 0;
    rusage usage{};
    while (wait4(pid, &status, 0, &usage) < 0) {
        if (errno != EINTR) throw std::runtime_error(std::string("wait4: ") + std::strerror(errno));
    }
    Proc p;
    p.seconds = secondsSince(start);
    p.peakRssMb = double(usage.ru_maxrss) / 1024.0;  // Linux reports KiB
    p.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    return p;
}

std::vector<char*> argvOf(const std::vector<std::string>& args) {
    std::vector<char*> argv;
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    return argv;
}

}  // namespace

Proc runProcess(const std::vector<std::string>& args, const std::string& outPath,
                const std::string& errPath) {
    std::vector<char*> argv = argvOf(args);
    const auto start = Clock::now();
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
    if (pid == 0) {
        const int out = open(outPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        const int err = open(errPath.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0) _exit(126);
        execvp(argv[0], argv.data());
        _exit(127);
    }
    return waitFor(pid, start);
}

std::string readFile(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

Proc runChecked(const std::vector<std::string>& args, const std::string& outPath,
                const std::string& errPath) {
    const Proc p = runProcess(args, outPath, errPath);
    if (p.exitCode != 0) {
        throw std::runtime_error(args[0] + " exited with " + std::to_string(p.exitCode) + ":\n" +
                                 readFile(errPath));
    }
    return p;
}

StampedRun runStamped(const std::vector<std::string>& args,
                      const std::vector<std::string>& environment) {
    std::vector<char*> argv = argvOf(args);
    std::vector<std::string> envText(environment);
    for (char** e = environ; *e; ++e) envText.emplace_back(*e);
    std::vector<char*> env = argvOf(envText);  // settings given first win
    int fds[2];
    if (pipe(fds) < 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
    const auto start = Clock::now();
    const pid_t pid = fork();
    if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
    if (pid == 0) {
        const int out = open("/dev/null", O_WRONLY);
        if (out < 0 || dup2(out, 1) < 0 || dup2(fds[1], 2) < 0) _exit(126);
        close(fds[0]);
        execvpe(argv[0], argv.data(), env.data());
        _exit(127);
    }
    close(fds[1]);
    StampedRun run;
    std::string pending;
    char buffer[4096];
    for (;;) {
        const ssize_t n = read(fds[0], buffer, sizeof buffer);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) break;
        const double now = secondsSince(start);
        pending.append(buffer, size_t(n));
        for (size_t eol; (eol = pending.find('\n')) != std::string::npos;) {
            const std::string line = pending.substr(0, eol);
            pending.erase(0, eol + 1);
            run.stderrText += line + "\n";
            const size_t eq = line.find('=');
            if (line.rfind("timings: ", 0) == 0 && eq != std::string::npos)
                run.stamps.emplace(line.substr(9, eq - 9), now);
        }
    }
    close(fds[0]);
    run.proc = waitFor(pid, start);
    if (run.proc.exitCode != 0)
        throw std::runtime_error(args[0] + " exited with " + std::to_string(run.proc.exitCode) +
                                 ":\n" + run.stderrText);
    return run;
}

bool isExecutableInPath(const std::string& name) {
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "");
    for (std::string dir; std::getline(dirs, dir, ':');) {
        if (!dir.empty() && access((dir + "/" + name).c_str(), X_OK) == 0) return true;
    }
    return false;
}

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace stackline::bench
