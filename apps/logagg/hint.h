// The hint that ends the summary of a run whose lines mostly lack what the
// options look for: when most of the lines that are not blank are rejected
// for a missing, wrong-typed or unreadable app or time field (missing_app,
// app_not_string, bad_app, missing_time, time_not_string, bad_time), one
// line on stderr naming the top-level fields the lines do have (from a
// sample of the files and folders among the inputs, as `logagg detect` reads
// them; not standard input or a FIFO, read to their end already) and the
// `logagg detect` command for them; when most of those lines have the time
// field but in a form the time format does not read (bad_time,
// time_not_string), it says so and names --time-format auto. Never otherwise: a run that counts most of its
// lines, or whose lines are mostly not JSON, prints no hint.
#pragma once

#include <string>
#include <vector>

#include "logagg/result.h"

namespace logagg::cli {

// The hint line (with its LF) for a run of `question` over `paths` that gave
// `summary`; empty when there is none.
std::string hint_line(const Summary& summary, const Question& question, const std::vector<std::string>& paths);

}  // namespace logagg::cli
