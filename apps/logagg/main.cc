// logagg's entry point: flags -> engine -> report on stdout, summary and
// errors on stderr. Exit 0 on success, 1 if any input could not be read or the
// report could not be written, 2 on a usage error. A reader that goes away
// (`logagg big.log | head -1`) is not an error: logagg stops writing quietly.
// `logagg split ...` runs the split subcommand instead (split_command.h).
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <string_view>

#include "cli.h"
#include "split_command.h"
#include "logagg/aggregate.h"
#include "logagg/report.h"

namespace {

// Writes to stdout; on the first failure remembers its errno and throws
// WriteFailed, which stops the report at once, so that a long one (--fill-gaps
// over years) does not run on after its reader has gone.
struct WriteFailed {};
struct StdoutSink {
  int error = 0;
  void operator()(std::string_view chunk) {
    if (std::fwrite(chunk.data(), 1, chunk.size(), stdout) != chunk.size()) {
      error = errno;
      throw WriteFailed{};
    }
  }
  void finish() {
    if (error == 0 && std::fflush(stdout) != 0) error = errno;
  }
};

void write_stderr(const std::string& s) { std::fwrite(s.data(), 1, s.size(), stderr); }

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string_view(argv[1]) == "split") return logagg::cli::run_split(argc - 1, argv + 1);
  std::signal(SIGPIPE, SIG_IGN);  // a closed pipe shows up as EPIPE instead
  logagg::cli::Config config;
  if (const int code = logagg::cli::parse(argc, argv, config); code >= 0) return code;

  const logagg::Result result = logagg::aggregate(config.paths, config.options);

  StdoutSink out;
  try {
    logagg::write_report(result, config.options, config.format, std::ref(out));
  } catch (const WriteFailed&) {
    // out.error says why; reported below unless the reader just went away.
  }
  out.finish();

  for (const logagg::InputError& e : result.errors) {
    std::fprintf(stderr, "logagg: %s: %s\n", e.path.c_str(), e.message.c_str());
  }
  write_stderr(logagg::format_rejects(result));
  if (!config.quiet) write_stderr(logagg::format_summary(result.summary));
  if (config.stats && config.format != logagg::Format::kJson) {
    write_stderr(logagg::format_stats(result, config.options));
  }
  if (out.error != 0 && out.error != EPIPE) {
    std::fprintf(stderr, "logagg: cannot write the report: %s\n", std::strerror(out.error));
    return 1;
  }
  return result.errors.empty() ? 0 : 1;
}
