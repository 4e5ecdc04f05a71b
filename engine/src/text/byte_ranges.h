// Sixteen bytes checked against sixteen byte ranges at once, with the
// compiler's portable vector extension (SSE2 on x86-64, NEON on arm64): the
// fixed-position checks of the RFC 3339 parser and of compiled time patterns.
// Pure, inline and thread-safe.
#pragma once

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace logagg {

using Bytes16 = uint8_t __attribute__((vector_size(16)));

inline Bytes16 load16(const void* p) noexcept {
  Bytes16 v;
  std::memcpy(&v, p, 16);
  return v;
}

// Nonzero lanes where v is outside [lo, lo + span], an unsigned byte range:
// how far each lane is above lo + span, by a saturating subtract, and the
// results of several checks can be ORed and tested once with none(). On x86
// the subtract is one instruction (the vector extension's min-and-subtract
// was two, and the RFC 3339 parser makes three of these checks: llvm-mca
// counts fewer micro-ops and cycles a parse, docs/bench-notes/2026-12-02-rfc3339.md).
inline Bytes16 excess(Bytes16 v, Bytes16 lo, Bytes16 span) noexcept {
  const Bytes16 above_lo = v - lo;
#if defined(__SSE2__)
  return reinterpret_cast<Bytes16>(_mm_subs_epu8(reinterpret_cast<__m128i>(above_lo), reinterpret_cast<__m128i>(span)));
#else
  return above_lo - (above_lo < span ? above_lo : span);
#endif
}

inline bool none(Bytes16 lanes) noexcept {
  uint64_t half[2];
  std::memcpy(half, &lanes, 16);
  return (half[0] | half[1]) == 0;
}

}  // namespace logagg
