// An incremental run and its report (see state_command.h).
#include "state_command.h"

#include <algorithm>

#include "logagg/state.h"
#include "print_result.h"

namespace logagg::cli {

int run_incremental(const Config& config) {
  IncrementalRun run;
  try {
    run = aggregate_incremental(config.paths, config.query, config.options, config.state, config.delta_dir);
  } catch (const StateError& e) {
    print_error(e.path(), e.what());
    return 2;
  }
  if (config.delta && !run.not_saved.empty()) {
    // A delta that the next run will print again is not printed: summed,
    // the deltas must count each line once.
    print_input_errors(run.added.errors);
    print_error(config.state, run.not_saved + "; no delta is printed");
    return kStateNotSaved;
  }
  bool written = false;
  const int code = print_result(config.delta ? run.added : run.total, config.report,
                                {!config.quiet, config.stats, config.plot, config.paths, config.strict}, &written);
  // The state is saved only once the report is out: a report lost (a full
  // disk, a reader gone) is reported again by the next run.
  const std::string not_saved =
      written ? run.save() : "the report was not written whole; the state was not saved, so the next run "
                             "counts this run's lines again";
  if (!not_saved.empty()) {
    print_error(config.state, not_saved);
    return kStateNotSaved;
  }
  if (!run.unpublished.empty()) {
    print_error(config.delta_dir, "this run's delta was saved with the state but is not in the folder yet (" +
                                      run.unpublished + "); the next run puts it there");
    return std::max(code, 1);
  }
  return code;
}

}  // namespace logagg::cli
