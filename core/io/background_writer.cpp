#include "io/background_writer.h"

#include <algorithm>

namespace stackline {

BackgroundWriter::BackgroundWriter(AtomicFile& file, std::size_t queued)
    : file_(file), queued_(std::max<std::size_t>(queued, 1)), thread_([this] { run(); }) {}

BackgroundWriter::~BackgroundWriter() {
    {
        std::lock_guard lock(mutex_);
        closing_ = true;
        abandon_ = true;
    }
    changed_.notify_all();
    if (thread_.joinable()) thread_.join();
}

std::string BackgroundWriter::push(std::string&& full) {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return full_.size() < queued_ || error_; });
    if (error_) std::rethrow_exception(error_);
    full_.push_back(std::move(full));
    std::string next;
    if (!empty_.empty()) {
        next = std::move(empty_.front());
        empty_.pop_front();
    }
    lock.unlock();
    changed_.notify_all();
    return next;
}

void BackgroundWriter::finish() {
    {
        std::lock_guard lock(mutex_);
        closing_ = true;
    }
    changed_.notify_all();
    thread_.join();
    if (error_) std::rethrow_exception(error_);
}

void BackgroundWriter::run() {
    std::unique_lock lock(mutex_);
    for (;;) {
        changed_.wait(lock, [&] { return !full_.empty() || closing_; });
        if (abandon_ || error_ || full_.empty()) return;
        std::string buffer = std::move(full_.front());
        full_.pop_front();
        lock.unlock();
        changed_.notify_all();  // room in the queue
        try {
            file_.write(buffer);
        } catch (...) {
            lock.lock();
            error_ = std::current_exception();
            changed_.notify_all();
            return;
        }
        buffer.clear();
        lock.lock();
        empty_.push_back(std::move(buffer));
    }
}

}  // namespace stackline
