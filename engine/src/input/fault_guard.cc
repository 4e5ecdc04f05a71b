// The process-wide SIGBUS handler behind run_guarded (input.h).
#include "input/input.h"

#include <mutex>

namespace logagg::fault_guard_internal {
namespace {

struct sigaction previous_action;

extern "C" void on_sigbus(int sig, siginfo_t* info, void* context) {
  if (armed != nullptr) siglongjmp(*armed, 1);
  // Not ours: behave as if we had never been installed.
  if (previous_action.sa_flags & SA_SIGINFO) {
    if (previous_action.sa_sigaction != nullptr) {
      previous_action.sa_sigaction(sig, info, context);
      return;
    }
  } else if (previous_action.sa_handler != SIG_DFL && previous_action.sa_handler != SIG_IGN) {
    previous_action.sa_handler(sig);
    return;
  }
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace

thread_local sigjmp_buf* armed = nullptr;

void install_handler() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_sigaction = on_sigbus;
    action.sa_flags = SA_SIGINFO | SA_NODEFER;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGBUS, &action, &previous_action);
  });
}

}  // namespace logagg::fault_guard_internal
