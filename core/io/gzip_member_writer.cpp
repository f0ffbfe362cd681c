#include "io/gzip_member_writer.h"

#include <isa-l/crc.h>
#include <isa-l/igzip_lib.h>
#include <zlib.h>

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string_view>

namespace stackline {
namespace {

// The level buffer ISA-L needs for a level (level 0 needs none).
std::size_t levelBufferSize(int level) {
    switch (level) {
        case 1:
            return ISAL_DEF_LVL1_DEFAULT;
        case 2:
            return ISAL_DEF_LVL2_DEFAULT;
        case 3:
            return ISAL_DEF_LVL3_DEFAULT;
        default:
            return ISAL_DEF_LVL0_DEFAULT;
    }
}

// Compresses one chunk into raw deflate at the start of out (grown when needed, never shrunk, so
// that reused memory is not cleared again); returns the compressed size. A full flush ends every
// chunk but the last, which ends the stream. ISA-L stores what does not compress, in blocks of at
// most 65,535 bytes with a 5-byte header each, so that bound always suffices.
std::size_t deflateChunk(std::string_view in, bool last, int level,
                         std::vector<uint8_t>& levelBuffer, std::string& out) {
    if (in.size() > (uint32_t(-1) >> 1)) throw OutputError("a gzip chunk over 2 GB");
    std::size_t bound = in.size() + 5 * (in.size() / 65535 + 1);
    if (out.size() < bound) out.resize(bound);
    isal_zstream s;
    isal_deflate_stateless_init(&s);
    s.level = uint32_t(level);
    s.level_buf = levelBuffer.empty() ? nullptr : levelBuffer.data();
    s.level_buf_size = uint32_t(levelBuffer.size());
    s.flush = last ? NO_FLUSH : FULL_FLUSH;
    s.end_of_stream = last;
    s.next_in = reinterpret_cast<uint8_t*>(const_cast<char*>(in.data()));
    s.avail_in = uint32_t(in.size());
    s.next_out = reinterpret_cast<uint8_t*>(out.data());
    s.avail_out = uint32_t(bound);
    if (int r = isal_deflate_stateless(&s); r != COMP_OK || s.avail_in != 0)
        throw OutputError("gzip compression failed (ISA-L error " + std::to_string(r) + ")");
    return s.total_out;
}

std::string gzipHeader() {
    isal_gzip_header header;
    isal_gzip_header_init(&header);
    std::array<uint8_t, 32> bytes{};  // a header without name, comment or extra field: 10 bytes
    isal_zstream s;
    isal_deflate_init(&s);
    s.next_out = bytes.data();
    s.avail_out = uint32_t(bytes.size());
    if (isal_write_gzip_header(&s, &header) != 0) throw std::logic_error("gzip header too long");
    return std::string(reinterpret_cast<const char*>(bytes.data()), s.total_out);
}

}  // namespace

GzipMemberWriter::GzipMemberWriter(AtomicFile& file, int level, unsigned threads)
    : file_(file), queued_(std::max(threads, 1u) + 1) {
    if (level < kMinLevel || level > kMaxLevel)
        throw std::invalid_argument("gzip level " + std::to_string(level) + " is not in 0-3");
    file_.write(gzipHeader());
    for (unsigned i = 0; i < std::max(threads, 1u); ++i)
        threads_.emplace_back([this, level] { compress(level); });
}

GzipMemberWriter::~GzipMemberWriter() {
    {
        std::lock_guard lock(mutex_);
        stopping_ = true;
    }
    changed_.notify_all();
    for (std::thread& t : threads_) t.join();
}

std::string GzipMemberWriter::push(std::string&& chunk) {
    std::string next;
    if (holding_) enqueue(std::move(held_), false);
    held_ = std::move(chunk);
    holding_ = true;
    std::unique_lock lock(mutex_);
    writeDone(lock, false);
    if (!freeIn_.empty()) {
        next = std::move(freeIn_.back());
        freeIn_.pop_back();
    }
    return next;
}

void GzipMemberWriter::finish() {
    enqueue(holding_ ? std::move(held_) : std::string(), true);
    holding_ = false;
    std::unique_lock lock(mutex_);
    writeDone(lock, true);
    std::array<char, 8> trailer;  // CRC-32 and size, little-endian
    for (int i = 0; i < 4; ++i) {
        trailer[i] = char(crc_ >> (8 * i));
        trailer[4 + i] = char(size_ >> (8 * i));
    }
    file_.write({trailer.data(), trailer.size()});
}

void GzipMemberWriter::enqueue(std::string&& in, bool last) {
    std::unique_lock lock(mutex_);
    // Waiting for room, write what is compressed meanwhile.
    while (chunks_.size() >= queued_) {
        writeDone(lock, false);
        if (chunks_.size() >= queued_) changed_.wait(lock, [&] { return chunks_.front().done; });
        if (error_) std::rethrow_exception(error_);
    }
    Chunk& c = chunks_.emplace_back();
    c.in = std::move(in);
    c.last = last;
    lock.unlock();
    changed_.notify_all();
}

// Writes the compressed chunks at the head of the queue, in order; with all, waits for every
// queued chunk. The lock is held except while writing.
void GzipMemberWriter::writeDone(std::unique_lock<std::mutex>& lock, bool all) {
    for (;;) {
        if (all) changed_.wait(lock, [&] { return chunks_.empty() || chunks_.front().done; });
        if (error_) std::rethrow_exception(error_);
        if (chunks_.empty() || !chunks_.front().done) return;
        Chunk c = std::move(chunks_.front());
        chunks_.pop_front();
        --nextToCompress_;
        lock.unlock();
        changed_.notify_all();
        file_.write({c.out.data(), c.outSize});
        crc_ = uint32_t(crc32_combine(crc_, c.crc, z_off_t(c.in.size())));
        size_ += uint32_t(c.in.size());
        c.in.clear();
        lock.lock();
        freeIn_.push_back(std::move(c.in));
        freeOut_.push_back(std::move(c.out));
    }
}

void GzipMemberWriter::compress(int level) {
    std::vector<uint8_t> levelBuffer(levelBufferSize(level));
    std::unique_lock lock(mutex_);
    for (;;) {
        changed_.wait(lock, [&] { return stopping_ || nextToCompress_ < chunks_.size(); });
        if (stopping_) return;
        Chunk& c = chunks_[nextToCompress_++];  // deque elements stay put while others come and go
        std::string out;
        if (!freeOut_.empty()) {
            out = std::move(freeOut_.back());
            freeOut_.pop_back();
        }
        lock.unlock();
        uint32_t crc =
            crc32_gzip_refl(0, reinterpret_cast<const uint8_t*>(c.in.data()), c.in.size());
        std::size_t outSize = 0;
        std::exception_ptr error;
        try {
            outSize = deflateChunk(c.in, c.last, level, levelBuffer, out);
        } catch (...) {
            error = std::current_exception();
        }
        lock.lock();
        c.crc = crc;
        c.out = std::move(out);
        c.outSize = outSize;
        c.done = true;
        if (error) error_ = error;
        changed_.notify_all();
    }
}

}  // namespace stackline
