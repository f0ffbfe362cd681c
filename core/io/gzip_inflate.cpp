#include "io/gzip_inflate.h"

#include <isa-l/igzip_lib.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <memory>

#include "base/file_system.h"
#include "io/trace_bytes.h"
#include "io/write_back.h"

namespace stackline {
namespace {

// Output is inflated into a buffer this size (it stays in the cache) and written from there.
constexpr uint32_t kBuffer = uint32_t(1) << 20;
// ISA-L counts input in 32 bits: a bigger file is handed over in pieces.
constexpr uint64_t kInputPiece = uint64_t(1) << 30;

void writeAll(int fd, const uint8_t* p, uint64_t n, uint64_t at, std::size_t call,
              const std::string& path) {
    while (n > 0) {
        ssize_t w = ::pwrite(fd, p, std::min<uint64_t>(n, call), off_t(at));
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) {
            std::string why =
                path + ": cannot keep the inflated text: " + std::strerror(w < 0 ? errno : ENOSPC);
            if (w == 0 || errno == ENOSPC || errno == EDQUOT) throw ScratchFull(why);
            throw InputError(why);
        }
        p += w;
        n -= uint64_t(w);
        at += uint64_t(w);
    }
}

}  // namespace

bool isGzipMember(std::string_view bytes) {
    return bytes.size() >= 2 && uint8_t(bytes[0]) == 0x1f && uint8_t(bytes[1]) == 0x8b;
}

uint64_t guessInflatedSize(std::string_view compressed) {
    if (compressed.size() < 18) return 0;
    uint32_t isize = 0;
    std::memcpy(&isize, compressed.data() + compressed.size() - 4, 4);
    uint64_t guess = isize;
    while (guess < compressed.size()) guess += uint64_t(1) << 32;
    return guess;
}

uint64_t inflateGzip(std::string_view compressed, int fd, const std::string& path) {
    auto state = std::make_unique<inflate_state>();
    std::unique_ptr<uint8_t[]> buffer(new uint8_t[kBuffer]);
    WriteBack writeBack(fd);
    const std::size_t call = writeCallFor(guessInflatedSize(compressed));
    const auto* in = reinterpret_cast<const uint8_t*>(compressed.data());
    const uint64_t size = compressed.size();
    uint64_t inPos = 0, outPos = 0;
    auto corrupt = [&](uint64_t at) {
        return InputError(path + ": corrupt or truncated gzip data (compressed byte " +
                          std::to_string(at) + ")");
    };
    while (inPos < size) {
        // Garbage after a complete member is ignored (as by gzip); a broken member is not.
        if (inPos > 0 && !isGzipMember(compressed.substr(inPos))) break;
        isal_inflate_init(state.get());
        state->crc_flag = ISAL_GZIP;
        bool finished = false;
        while (!finished) {
            const uint64_t piece = std::min(size - inPos, kInputPiece);
            state->next_in = const_cast<uint8_t*>(in + inPos);
            state->avail_in = uint32_t(piece);
            do {
                state->next_out = buffer.get();
                state->avail_out = kBuffer;
                const int r = isal_inflate(state.get());
                const uint64_t produced = kBuffer - state->avail_out;
                if (r != ISAL_DECOMP_OK) throw corrupt(inPos + (piece - state->avail_in));
                writeAll(fd, buffer.get(), produced, outPos, call, path);
                outPos += produced;
                writeBack.wrote(outPos);
                finished = state->block_state == ISAL_BLOCK_FINISH;
            } while (!finished && (state->avail_in > 0 || state->avail_out == 0));
            inPos += piece - state->avail_in;
            if (!finished && inPos >= size) throw corrupt(size);
        }
        // Skip zero padding between or after members.
        while (inPos < size && in[inPos] == 0) ++inPos;
    }
    return outPos;
}

}  // namespace stackline
