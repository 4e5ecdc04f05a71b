// `logagg --state FILE PATH...`: an incremental run (logagg/state.h) and its
// report: the running total, or with --delta what this run added; with
// --delta-dir DIR each run's delta also as a file of DIR, saved with the
// state.
#pragma once

#include "cli.h"

namespace logagg::cli {

// The exit status of a run whose state was not saved: nothing it printed or
// wrote is committed, and the next run counts its lines again.
inline constexpr int kStateNotSaved = 3;

// Returns the exit code: as print_result (0, or 1 if an input could not be
// read: the state was saved all the same, and so was the delta), 1 also if
// the delta, saved, could not be put in its folder yet; kStateNotSaved if
// the state was not saved (a file changed while it was read: then with
// --delta nothing is printed, since the next run's delta holds those lines;
// the report could not be written whole; the state or the delta file could
// not be written); 2 if the state file cannot be used (in use, damaged,
// another version, other counting options, another --delta-dir).
int run_incremental(const Config& config);

}  // namespace logagg::cli
