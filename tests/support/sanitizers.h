// Whether this test binary is built with a sanitizer: tests that measure
// resident memory skip then, since sanitizers inflate it.
#pragma once

namespace logagg::testing {

inline constexpr bool kSanitized =
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
    true;
#else
    false;
#endif

}  // namespace logagg::testing
