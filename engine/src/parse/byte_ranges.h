// Sixteen bytes checked against sixteen byte ranges at once, with the
// compiler's portable vector extension (SSE2 on x86-64, NEON on arm64): the
// fixed-position checks of the RFC 3339 parser and of compiled time patterns.
// Pure, inline and thread-safe.
#pragma once

#include <cstdint>
#include <cstring>

namespace logagg {

using Bytes16 = uint8_t __attribute__((vector_size(16)));

inline Bytes16 load16(const void* p) noexcept {
  Bytes16 v;
  std::memcpy(&v, p, 16);
  return v;
}

// Nonzero lanes where v is outside [lo, lo + span], an unsigned byte range:
// three instructions, and the results of several checks can be ORed and
// tested once with none().
inline Bytes16 excess(Bytes16 v, Bytes16 lo, Bytes16 span) noexcept {
  const Bytes16 above_lo = v - lo;
  return above_lo - (above_lo < span ? above_lo : span);
}

inline bool none(Bytes16 lanes) noexcept {
  uint64_t half[2];
  std::memcpy(half, &lanes, 16);
  return (half[0] | half[1]) == 0;
}

}  // namespace logagg
