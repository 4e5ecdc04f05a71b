// `logagg --follow PATH...`: the logs followed as they grow (logagg/follow.h),
// rows on stdout as their buckets complete, until SIGINT, SIGTERM or SIGHUP (or a
// closed stdout); then the open buckets, and the summary on stderr.
#pragma once

#include "cli.h"

namespace logagg::cli {

// Returns the exit code: 0, or 1 if an input could not be read, bytes were
// lost (truncated before they were read), no file could be opened, or the
// rows could not be written (a reader that goes away is not an error).
int run_follow(const Config& config);

}  // namespace logagg::cli
