// The libFuzzer entry point of every target in this folder. CMake compiles it
// once per target with LOGAGG_FUZZ_CHECK naming that target's check in
// checks.h (see logagg_add_fuzzer in CMakeLists.txt).
#include <cstddef>
#include <cstdint>

#include "checks.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return logagg_fuzz::run_or_abort(logagg_fuzz::LOGAGG_FUZZ_CHECK, data, size);
}
