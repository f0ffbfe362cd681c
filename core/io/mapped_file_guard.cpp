#include "io/mapped_file_guard.h"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <mutex>

namespace stackline {
namespace {

// Fixed slots, read lock-free by the signal handler. A slot is free when its end is 0.
constexpr int kSlots = 64;
struct Slot {
    std::atomic<uintptr_t> begin{0}, end{0};
    std::atomic<bool> faulted{false};
};
Slot slots[kSlots];
std::mutex slotsMutex;  // registration only; the handler never locks
struct sigaction previous {};

void forward(int signal, siginfo_t* info, void* context) {
    if (previous.sa_flags & SA_SIGINFO) {
        if (previous.sa_sigaction) return previous.sa_sigaction(signal, info, context);
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        return previous.sa_handler(signal);
    }
    // Returning re-executes the faulting read, which now gets the default action.
    ::signal(signal, SIG_DFL);
}

void onBusError(int signal, siginfo_t* info, void* context) {
    auto address = reinterpret_cast<uintptr_t>(info->si_addr);
    for (Slot& s : slots) {
        uintptr_t begin = s.begin.load(std::memory_order_acquire);
        uintptr_t end = s.end.load(std::memory_order_acquire);
        if (address < begin || address >= end) continue;
        auto page = uintptr_t(::sysconf(_SC_PAGESIZE));
        uintptr_t from = address / page * page;
        // mmap is a plain system call: safe here in practice, though POSIX does not list it.
        void* zeros = ::mmap(reinterpret_cast<void*>(from), end - from, PROT_READ,
                             MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
        if (zeros == MAP_FAILED) break;
        s.faulted.store(true, std::memory_order_release);
        return;
    }
    forward(signal, info, context);
}

void installOnce() {
    static std::once_flag once;
    std::call_once(once, [] {
        struct sigaction action {};
        action.sa_sigaction = onBusError;
        action.sa_flags = SA_SIGINFO | SA_NODEFER;
        sigemptyset(&action.sa_mask);
        ::sigaction(SIGBUS, &action, &previous);
    });
}

}  // namespace

MappedFileGuard::MappedFileGuard(const void* begin, std::size_t size) {
    if (size == 0) return;
    installOnce();
    std::lock_guard lock(slotsMutex);
    for (int i = 0; i < kSlots; ++i) {
        if (slots[i].end.load() != 0) continue;
        auto b = reinterpret_cast<uintptr_t>(begin);
        slots[i].faulted.store(false);
        slots[i].begin.store(b, std::memory_order_release);
        slots[i].end.store(b + size, std::memory_order_release);
        slot_ = i;
        return;
    }
}

MappedFileGuard::MappedFileGuard(MappedFileGuard&& other) noexcept : slot_(other.slot_) {
    other.slot_ = -1;
}

MappedFileGuard& MappedFileGuard::operator=(MappedFileGuard&& other) noexcept {
    if (this != &other) {
        reset();
        slot_ = other.slot_;
        other.slot_ = -1;
    }
    return *this;
}

MappedFileGuard::~MappedFileGuard() {
    reset();
}

void MappedFileGuard::reset() {
    if (slot_ < 0) return;
    std::lock_guard lock(slotsMutex);
    slots[slot_].end.store(0, std::memory_order_release);
    slots[slot_].begin.store(0, std::memory_order_release);
    slot_ = -1;
}

bool MappedFileGuard::faulted() const {
    return slot_ >= 0 && slots[slot_].faulted.load(std::memory_order_acquire);
}

}  // namespace stackline
