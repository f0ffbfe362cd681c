// Sixteen bytes compared at once, for the JSON scanner: with SSE2 on x86-64 and NEON on aarch64
// (both part of their architecture's baseline, so no dispatch), byte by byte elsewhere. Results
// are masks with one bit per byte, bit i for byte i, as SSE2's movemask gives them; callers find
// the first set bit with __builtin_ctz. STACKLINE_SIMD_GENERIC forces the byte-by-byte path (to
// test or measure it on x86-64).
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__SSE2__) && !defined(STACKLINE_SIMD_GENERIC)
#define STACKLINE_SIMD_SSE2 1
#include <emmintrin.h>
#elif defined(__ARM_NEON) && !defined(STACKLINE_SIMD_GENERIC)
#define STACKLINE_SIMD_NEON 1
#include <arm_neon.h>
#endif

namespace stackline::simd {

#if defined(STACKLINE_SIMD_SSE2)

using Bytes = __m128i;
inline Bytes load(const void* p) {
    return _mm_loadu_si128(static_cast<const __m128i*>(p));
}
inline Bytes splat(char c) {
    return _mm_set1_epi8(c);
}
inline Bytes equal(Bytes a, Bytes b) {
    return _mm_cmpeq_epi8(a, b);
}
inline Bytes either(Bytes a, Bytes b) {
    return _mm_or_si128(a, b);
}
// The bytes that are ASCII digits: x - '0' <= 9 as unsigned.
inline Bytes digits(Bytes v) {
    Bytes x = _mm_sub_epi8(v, _mm_set1_epi8('0'));
    return _mm_cmpeq_epi8(_mm_min_epu8(x, _mm_set1_epi8(9)), x);
}
inline unsigned mask(Bytes m) {
    return unsigned(_mm_movemask_epi8(m));
}

#elif defined(STACKLINE_SIMD_NEON)

using Bytes = uint8x16_t;
inline Bytes load(const void* p) {
    return vld1q_u8(static_cast<const uint8_t*>(p));
}
inline Bytes splat(char c) {
    return vdupq_n_u8(uint8_t(c));
}
inline Bytes equal(Bytes a, Bytes b) {
    return vceqq_u8(a, b);
}
inline Bytes either(Bytes a, Bytes b) {
    return vorrq_u8(a, b);
}
inline Bytes digits(Bytes v) {
    return vcleq_u8(vsubq_u8(v, vdupq_n_u8('0')), vdupq_n_u8(9));
}
// NEON has no movemask: each byte keeps its own bit of its half's byte, and each half is summed.
inline unsigned mask(Bytes m) {
    static constexpr uint8_t kBits[16] = {1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128};
    Bytes bits = vandq_u8(m, vld1q_u8(kBits));
    return unsigned(vaddv_u8(vget_low_u8(bits))) | unsigned(vaddv_u8(vget_high_u8(bits))) << 8;
}

#else

struct Bytes {
    uint8_t b[16];
};
inline Bytes load(const void* p) {
    Bytes v;
    std::memcpy(v.b, p, 16);
    return v;
}
inline Bytes splat(char c) {
    Bytes v;
    std::memset(v.b, c, 16);
    return v;
}
inline Bytes equal(Bytes a, Bytes b) {
    for (int i = 0; i < 16; ++i) a.b[i] = a.b[i] == b.b[i] ? 0xFF : 0;
    return a;
}
inline Bytes either(Bytes a, Bytes b) {
    for (int i = 0; i < 16; ++i) a.b[i] |= b.b[i];
    return a;
}
inline Bytes digits(Bytes v) {
    for (int i = 0; i < 16; ++i) v.b[i] = uint8_t(v.b[i] - '0') <= 9 ? 0xFF : 0;
    return v;
}
inline unsigned mask(Bytes m) {
    unsigned bits = 0;
    for (int i = 0; i < 16; ++i) bits |= unsigned(m.b[i] >> 7) << i;
    return bits;
}

#endif

}  // namespace stackline::simd
