// logagg's entry point: flags -> engine -> report on stdout, summary and
// errors on stderr. Exit 0 on success, 1 if any input could not be read or the
// report could not be written, 2 on a usage error, and with --state 3 if the
// state was not saved (state_command.h). A reader that goes away
// (`logagg big.log | head -1`) is not an error: logagg stops writing quietly.
// `logagg split ...`, `logagg merge ...` and `logagg detect ...` run those
// subcommands instead (split_command.h, merge_command.h, detect_command.h); --list-inputs only lists the inputs
// (list_inputs.h); --state FILE counts only what is new (state_command.h);
// --follow keeps reading what is appended (follow_command.h). A run whose
// lines mostly lack its fields ends with a hint (hint.h).
#include <sys/resource.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <string_view>

#include "cli.h"
#include "detect_command.h"
#include "follow_command.h"
#include "hint.h"
#include "list_inputs.h"
#include "logagg/aggregate.h"
#include "merge_command.h"
#include "print_result.h"
#include "progress_line.h"
#include "split_command.h"
#include "state_command.h"

int main(int argc, char** argv) {
  std::signal(SIGPIPE, SIG_IGN);  // a closed pipe shows up as EPIPE instead
  // --follow holds a descriptor per followed file, --state one per changed
  // file (up to half the limit): as many as the hard limit allows, not the
  // soft 1024 of a cron job.
  if (rlimit files{}; ::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < files.rlim_max) {
    files.rlim_cur = files.rlim_max;
    ::setrlimit(RLIMIT_NOFILE, &files);
  }
  if (argc > 1 && std::string_view(argv[1]) == "split") return logagg::cli::run_split(argc - 1, argv + 1);
  if (argc > 1 && std::string_view(argv[1]) == "merge") return logagg::cli::run_merge(argc - 1, argv + 1);
  if (argc > 1 && std::string_view(argv[1]) == "detect") return logagg::cli::run_detect(argc - 1, argv + 1);
  logagg::cli::Config config;
  if (const int code = logagg::cli::parse(argc, argv, config); code >= 0) return code;
  if (config.list_inputs) return logagg::cli::list_inputs(config);
  if (!config.state.empty()) return logagg::cli::run_incremental(config);
  if (config.follow) return logagg::cli::run_follow(config);
  logagg::Result result;
  if (!config.quiet && ::isatty(STDERR_FILENO) == 1) {  // a person is watching: show progress
    logagg::Progress progress;
    const logagg::cli::ProgressLine line(progress, config.progress_delay, std::chrono::milliseconds(250));
    result = logagg::aggregate(config.paths, config.query, config.options, &progress);
  } else {
    result = logagg::aggregate(config.paths, config.query, config.options);
  }
  const int code = logagg::cli::print_result(result, config.report,
                                             {!config.quiet, config.stats, config.plot, config.paths, config.strict});
  if (!config.quiet)
    std::fputs(logagg::cli::hint_line(result.summary, config.query.question(), config.paths).c_str(), stderr);
  return code;
}
