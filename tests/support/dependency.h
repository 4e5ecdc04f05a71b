// Tests that need something the machine may lack (a program, a package): out
// of CI they skip with a message, but in CI (CI=true, as .ci/run runs) a
// missing dependency fails the test, so no test can pass there by being
// skipped. tests/support/dependency.sh is the same rule for shell tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <string_view>

namespace logagg::testing {

inline bool in_ci() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string_view(ci) == "true";
}

}  // namespace logagg::testing

// Skips the current test (outside CI) or fails it (in CI) when `available` is
// false; `what` says what is missing. Use at the top of a TEST body.
#define LOGAGG_REQUIRE_DEPENDENCY(available, what)                                        \
  do {                                                                                    \
    if (!(available)) {                                                                   \
      if (::logagg::testing::in_ci()) FAIL() << "missing in CI: " << what;               \
      GTEST_SKIP() << "skipped, missing: " << what << " (a failure when CI=true)";        \
    }                                                                                     \
  } while (0)
