// The engine's front door: aggregate inputs into exact per-second counts plus
// a summary that accounts for every line read.
//
//   logagg::Options opt;
//   logagg::Result r = logagg::aggregate({"access.log", "/var/log/app/"}, opt);
//   for (auto [second, count] : r.counts) ...
//
// Inputs are files, folders (every regular file below, recursively, in sorted
// path order, skipping hidden entries, filtered by Options::include and
// exclude) or "-" for standard input. An input that cannot be read is
// reported in Result::errors; all others are still processed. The result does
// not depend on Options::threads or Options::segment_bytes (except, with
// by_app, which ids are told apart once more than max_apps are met: then
// Result::apps_capped says so).
//
// Contracts:
// - Threads: independent calls share no state and may run at once; each call
//   runs Options::threads workers of its own and joins them before it returns.
// - Errors: inputs that cannot be read go to Result::errors, never thrown;
//   std::invalid_argument is thrown, before anything is read, for a
//   question the engine cannot answer (by the Query of the options'
//   question, query.h, carried by Result::query); otherwise only std::bad_alloc (or std::system_error if no
//   thread can be started) escapes.
// - Memory: mapped files are read in segments whose pages are released as
//   they are done, so resident memory does not grow with file size; counts
//   take memory per distinct second (and per app with by_app), not per line.
// - Signals: the first call installs a process-wide SIGBUS handler, once, so
//   that a file truncated while mapped (log rotation by copytruncate) ends
//   that input with an error instead of killing the process. A SIGBUS that is
//   not a guarded read is passed on to the handler installed before it (or
//   gets the default action, terminate).
// - Buffers: aggregate_buffer reads `data` only during the call; it need not
//   be padded.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "logagg/options.h"
#include "logagg/query.h"
#include "logagg/result.h"

namespace logagg {

// Live counters for a progress display, updated by the workers as they go
// (relaxed atomics: read them from any thread, at any time). The totals are
// set before any input is read: the files to read and their sizes on disk
// (compressed sizes for compressed files; standard input adds no bytes).
// Bytes done count bytes read from the files, so they reach the total.
struct Progress {
  std::atomic<uint64_t> bytes_total{0}, files_total{0};
  std::atomic<uint64_t> bytes_done{0}, files_done{0};
};

// Aggregates the given paths, answering `query` (Result::query), read as
// `run` says. With `progress`, each input is also stat'ed up front for the
// byte total, and the counters move as the work does.
Result aggregate(const std::vector<std::string>& paths, const Query& query, const RunSettings& run,
                 Progress* progress = nullptr);
// The same for the question of `options` (Query(options), built here).
Result aggregate(const std::vector<std::string>& paths, const Options& options, Progress* progress = nullptr);

// Aggregates one in-memory buffer as if it were a file named `name`.
Result aggregate_buffer(std::string_view data, const Options& options,
                        std::string_view name = "<buffer>");

}  // namespace logagg
