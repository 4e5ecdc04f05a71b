// `logagg split`: cuts a log into line-aligned chunk files of at most a given
// size or number of lines (the engine's split.h does the work).
#pragma once

namespace logagg::cli {

// Runs `logagg split` with argv[0] == "split". Returns the exit code: 0 on
// success and after --help, 1 on a runtime failure, 2 on a usage error.
int run_split(int argc, char** argv);

}  // namespace logagg::cli
