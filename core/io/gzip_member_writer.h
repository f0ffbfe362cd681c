// Writes ONE gzip member compressed on several threads, as pigz does. Readers that stop after the
// first member (chrome://tracing's importer, speedscope's pako 1.x) would silently show a
// truncated trace if chunks were written as members of their own. Each chunk is compressed alone
// (no history from the chunk before) and, except the last, ends on a byte boundary with a full
// flush, so that the compressed chunks concatenate into one deflate stream; their CRC-32s are
// combined into the one trailer.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "io/atomic_file.h"

namespace stackline {

class GzipMemberWriter {
public:
    static constexpr int kMinLevel = 0, kMaxLevel = 3;  // ISA-L's levels

    // Writes the gzip header. threads: compressing threads (at least one). At most threads + 1
    // chunks wait to be compressed or written (besides the newest, held back until the next one
    // shows that it is not the last); handing over more blocks the caller.
    GzipMemberWriter(AtomicFile& file, int level, unsigned threads);
    ~GzipMemberWriter();  // without finish(): drops what is still queued and stops
    GzipMemberWriter(const GzipMemberWriter&) = delete;
    GzipMemberWriter& operator=(const GzipMemberWriter&) = delete;

    // Queues the next chunk of uncompressed bytes; returns an empty buffer to fill next (the
    // memory of a written chunk when there is one). Writes the chunks compressed so far, in order.
    // Throws OutputError.
    std::string push(std::string&& chunk);
    // Compresses and writes the rest, ends the deflate stream and writes the trailer.
    void finish();

private:
    struct Chunk {
        std::string in, out;  // out: compressed into its first outSize bytes
        std::size_t outSize = 0;
        bool last = false;
        bool done = false;  // compressed and crc computed
        uint32_t crc = 0;
    };
    void enqueue(std::string&& in, bool last);
    void writeDone(std::unique_lock<std::mutex>& lock, bool all);
    void compress(int level);  // a compressing thread

    AtomicFile& file_;
    const std::size_t queued_;
    std::string held_;  // the newest chunk: not known to be the last until the next one comes
    bool holding_ = false;
    uint32_t crc_ = 0, size_ = 0;  // of everything written so far; size modulo 2^32, as gzip's

    std::mutex mutex_;
    std::condition_variable changed_;
    std::deque<Chunk> chunks_;        // in stream order, not written yet
    std::size_t nextToCompress_ = 0;  // index into chunks_
    // Buffers of written chunks, to be used again (fresh memory is slow to fault in on a VM).
    std::vector<std::string> freeIn_, freeOut_;
    bool stopping_ = false;
    std::exception_ptr error_;
    std::vector<std::thread> threads_;  // last: start once the members above exist
};

}  // namespace stackline
