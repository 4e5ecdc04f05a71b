// An incremental run and its report (see state_command.h).
#include "state_command.h"

#include "logagg/state.h"
#include "print_result.h"

namespace logagg::cli {

int run_incremental(const Config& config) {
  IncrementalRun run;
  try {
    run = aggregate_incremental(config.paths, config.options, config.state);
  } catch (const StateError& e) {
    print_error(e.path(), e.what());
    return 2;
  }
  const int code = print_result(config.delta ? run.added : run.total, config.options, config.report,
                                {!config.quiet, config.stats, config.plot});
  if (run.not_saved.empty()) return code;
  print_error(config.state, run.not_saved);
  return 1;
}

}  // namespace logagg::cli
