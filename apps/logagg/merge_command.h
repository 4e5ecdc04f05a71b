// `logagg merge`: adds up `logagg --format json` results of runs over
// different inputs or byte ranges into one report (the engine's merge.h does
// the adding).
#pragma once

namespace logagg::cli {

// Runs `logagg merge` with argv[0] == "merge". Returns the exit code: 0 on
// success and after --help, 1 if a result could not be read or does not fit
// the others, 2 on a usage error.
int run_merge(int argc, char** argv);

}  // namespace logagg::cli
