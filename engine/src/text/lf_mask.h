// Where the LFs are in 64 bytes of text, as a bit mask: the block parser's
// line search (find_lines in parse/block_parser.cc) reads every byte of its
// input through this first. With SSE2, which every x86-64 CPU has, or with
// AVX2's compares of twice the width where the CPU has them (chosen at run
// time: the binary is built for any x86-64).
#pragma once

#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include <immintrin.h>
#endif

// A function built for AVX2 (where lf_mask64_avx2 inlines); off x86, where
// lf_mask64_avx2 is lf_mask64, an ordinary function.
#if defined(__x86_64__)
#define LOGAGG_TARGET_AVX2 [[gnu::target("avx2")]]
#else
#define LOGAGG_TARGET_AVX2
#endif

namespace logagg {

// Bit i set where p[i] is a LF, for the 64 bytes at p.
inline uint64_t lf_mask64(const char* p) noexcept {
#if defined(__SSE2__)
  const __m128i lf = _mm_set1_epi8('\n');
  uint64_t mask = 0;
  for (int k = 0; k < 4; ++k) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    mask |= uint64_t{static_cast<uint16_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, lf)))} << (16 * k);
  }
  return mask;
#else
  uint64_t mask = 0;
  for (int i = 0; i < 64; ++i) mask |= uint64_t{p[i] == '\n'} << i;
  return mask;
#endif
}

#if defined(__x86_64__)
// Whether this CPU has AVX2: lf_mask64_avx2 may run only where it has.
inline bool cpu_has_avx2() noexcept { return __builtin_cpu_supports("avx2"); }

// lf_mask64 in two 32-byte compares, for a function built for AVX2 (into
// which it inlines).
LOGAGG_TARGET_AVX2 inline uint64_t lf_mask64_avx2(const char* p) noexcept {
  const __m256i lf = _mm256_set1_epi8('\n');
  const __m256i low = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p));
  const __m256i high = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + 32));
  return uint64_t{static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(low, lf)))} |
         uint64_t{static_cast<uint32_t>(_mm256_movemask_epi8(_mm256_cmpeq_epi8(high, lf)))} << 32;
}
#else
inline bool cpu_has_avx2() noexcept { return false; }
inline uint64_t lf_mask64_avx2(const char* p) noexcept { return lf_mask64(p); }
#endif

}  // namespace logagg
