// Survives files that shrink while mapped. Reading a page of a mapping that
// lies past the end of its (since truncated) file raises SIGBUS; log rotation
// with copytruncate does exactly this to a file logagg is reading.
//
// run_guarded(f) runs f with a SIGBUS handler armed for the calling thread: if
// f touches a vanished page, the handler jumps back out of f and run_guarded
// returns false. Whatever f recorded before the fault stays recorded, so f must
// keep its own state consistent at every point where it reads mapped memory
// (the line loop does: a line is recorded only after it has been read). A
// SIGBUS outside a guard gets the previous disposition (default: terminate).
#pragma once

#include <csetjmp>
#include <csignal>

namespace logagg {

namespace fault_guard_internal {
extern thread_local sigjmp_buf* armed;
void install_handler();
}  // namespace fault_guard_internal

// Returns true if f completed, false if it was interrupted by SIGBUS.
template <class F>
bool run_guarded(F&& f) {
  using namespace fault_guard_internal;
  install_handler();
  sigjmp_buf env;
  if (sigsetjmp(env, /*savemask=*/1) != 0) {
    armed = nullptr;
    return false;
  }
  armed = &env;
  f();
  armed = nullptr;
  return true;
}

}  // namespace logagg
