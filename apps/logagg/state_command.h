// `logagg --state FILE PATH...`: an incremental run (logagg/state.h) and its
// report: the running total, or with --delta what this run added.
#pragma once

#include "cli.h"

namespace logagg::cli {

// Returns the exit code: as print_result, 1 also if the state was not saved
// (a file changed while it was read: then with --delta nothing is printed,
// since the next run's delta holds those lines; the report could not be
// written whole; the state could not be written), 2 if the state file cannot
// be used (in use, damaged, another version, other counting options).
int run_incremental(const Config& config);

}  // namespace logagg::cli
