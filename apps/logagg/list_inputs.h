// `logagg --list-inputs`: the input files a run over the same paths and
// --include/--exclude would read, without reading them.
#pragma once

#include <string>
#include <vector>

#include "logagg/options.h"

namespace logagg::cli {

// Prints on stdout, one a line, the inputs a run would read, in the order it
// reads them: the engine's expand_paths() of `paths` with the options'
// include and exclude globs (a folder's regular files sorted by path, hidden
// entries skipped; files named as given; "-" for standard input). Paths are
// printed as terminal_text shows them (report/terminal_text.h), so each is
// one line whatever bytes it holds, and reads back unambiguously: \\, \n,
// \r, \t, \xHH for a byte, \uHHHH for a code point. Then, on stderr,
// "logagg: PATH: reason" for each path that cannot be read, as a run prints
// it. Returns 0, or 1 if a path cannot be read (the others are still listed)
// or the list cannot be written; a reader that goes away is not an error.
// SIGPIPE must be ignored by the caller.
int list_inputs(const std::vector<std::string>& paths, const Options& options);

}  // namespace logagg::cli
