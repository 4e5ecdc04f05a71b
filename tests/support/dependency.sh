# Sourced by shell tests that need something the machine may lack:
#   missing_dependency "chromium (scripts/install-deps.sh installs it)"
# exits 77, which ctest reports as skipped (SKIP_RETURN_CODE 77), outside CI,
# and 1, a failure, in CI (CI=true), so no test passes there by being skipped.
# tests/support/dependency.h is the same rule for GoogleTest tests.
missing_dependency() {
  if [ "${CI:-}" = true ]; then
    echo "FAIL: missing in CI: $1" >&2
    exit 1
  fi
  echo "SKIPPED: missing: $1 (a failure when CI=true)" >&2
  exit 77
}
