// Whether this test binary is built with a sanitizer: tests that measure
// resident memory skip then, since sanitizers inflate it; property tests run
// fewer seeds.
#pragma once

#include <cstddef>

namespace logagg::testing {

// GCC says so with __SANITIZE_ADDRESS__ and __SANITIZE_THREAD__, clang with
// __has_feature.
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

// How many seeds a property test runs: all `n`, or under a sanitizer the
// first `sanitized`, chosen to run once each case the seeds cycle through.
// A sanitized build is several times slower and looks for memory and thread
// errors; wrong answers the release suite looks for with every seed.
inline constexpr size_t seeds(size_t n, size_t sanitized) { return kSanitized ? sanitized : n; }

}  // namespace logagg::testing
