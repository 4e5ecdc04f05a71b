// The engine's front door: aggregate inputs into exact per-second counts plus
// a summary that accounts for every line read.
//
//   logagg::Options opt;
//   logagg::Result r = logagg::aggregate({"access.log", "/var/log/app/"}, opt);
//   for (auto [second, count] : r.counts) ...
//
// Inputs are files, folders (every regular file below, recursively, in sorted
// path order, skipping hidden entries) or "-" for standard input. An input that
// cannot be read is reported in Result::errors; all others are still processed.
// The result does not depend on Options::threads or Options::segment_bytes.
//
// Thread-safe in the sense that independent calls do not share state.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "logagg/counts.h"
#include "logagg/line_verdict.h"
#include "logagg/options.h"

namespace logagg {

// How every line read was accounted for.
struct Summary {
  uint64_t files = 0;       // inputs read (files and streams), including ones that failed midway
  uint64_t unreadable = 0;  // inputs that could not be read (see Result::errors)
  uint64_t bytes = 0;
  uint64_t lines = 0;
  uint64_t counted = 0;
  uint64_t outside_range = 0;  // valid lines outside Options::since / until, not counted
  uint64_t blank = 0;
  ReasonCounts rejected{};  // indexed by Reason
  double elapsed_seconds = 0;

  uint64_t rejected_total() const noexcept;
  // Adds another summary's counts (elapsed times add too).
  void add(const Summary& other) noexcept;
};

struct InputError {
  std::string path;
  std::string message;  // includes the OS reason, e.g. "No such file or directory"
};

struct RejectSample {
  std::string path;  // "<stdin>" for standard input
  uint64_t line;     // 1-based
  Reason reason;
};

// The name the lines of apps not told apart are counted under (app ids are
// alphanumeric, so no app has it).
inline constexpr std::string_view kOtherApp = "(other)";

struct Result {
  std::vector<SecondCount> counts;  // ascending by second, only seconds with count > 0
  // With Options::by_app: the app ids, ascending (bytewise), then kOtherApp
  // if any line was counted as that; and the counts per (second, app index),
  // ascending by second then index, only counts > 0. They sum to `counts`.
  std::vector<std::string> apps;
  std::vector<AppCount> app_counts;
  bool apps_capped = false;  // more than Options::max_apps ids: some counted as kOtherApp
  Summary summary;
  std::vector<InputError> errors;     // in input order
  std::vector<RejectSample> rejects;  // the first Options::max_reject_samples, in input order
};

// Live counters for a progress display, updated by the workers as they go
// (relaxed atomics: read them from any thread, at any time). The totals are
// set before any input is read: the files to read and their sizes on disk
// (compressed sizes for compressed files; standard input adds no bytes).
// Bytes done count bytes read from the files, so they reach the total.
struct Progress {
  std::atomic<uint64_t> bytes_total{0}, files_total{0};
  std::atomic<uint64_t> bytes_done{0}, files_done{0};
};

// Aggregates the given paths. With `progress`, each input is also stat'ed
// up front for the byte total, and the counters move as the work does.
Result aggregate(const std::vector<std::string>& paths, const Options& options, Progress* progress = nullptr);

// Aggregates one in-memory buffer as if it were a file named `name`.
Result aggregate_buffer(std::string_view data, const Options& options,
                        std::string_view name = "<buffer>");

}  // namespace logagg
