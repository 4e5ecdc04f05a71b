// Command-line flags -> what to run. Only parsing and validation live here;
// the engine does the work and main() picks the exit code.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "logagg/options.h"
#include "logagg/query.h"
#include "logagg/report.h"
#include "logagg/serve.h"

namespace logagg::cli {

struct Config {
  std::vector<std::string> paths;
  Options options;
  Query query;  // options' question, read and checked once by parse()
  ReportOptions report;
  bool list_inputs = false;  // only print the inputs a run would read (list_inputs.h)
  uint64_t piece_size = 0;   // with list_inputs as json: --range pieces of at most this many bytes; 0: none
  std::string state;   // --state FILE: count only what is new since the last run with FILE (logagg/state.h)
  bool delta = false;  // with state: print what this run added, not the cumulative result
  std::string delta_dir;  // with state: each run's delta also as a file of this folder, committed with the state
  bool follow = false;  // --follow: keep reading what is appended (follow_command.h)
  std::chrono::milliseconds late{5000};  // --late: how far past its end a bucket is complete
  // --serve ADDR (with --follow): /metrics and /events over HTTP (logagg/serve.h).
  std::optional<ServeOptions> serve;
  bool quiet = false;
  bool strict = false;  // --strict: a warning about the run's fields fails the run (print_result.h)
  bool stats = false;  // bucket statistics on stderr (json documents always carry them)
  bool plot = false;   // a terminal chart instead of the report
  // How long a job runs before a progress line appears (when stderr is a
  // terminal); a hidden flag sets it for tests.
  std::chrono::milliseconds progress_delay{1000};
};

// Parses argv. Returns the exit code to stop with (0 after --help/--version,
// 2 after a usage error, with the message already printed), or -1 to run.
int parse(int argc, char** argv, Config& config);

}  // namespace logagg::cli
