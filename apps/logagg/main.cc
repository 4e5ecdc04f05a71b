// logagg's entry point: flags -> engine -> report on stdout, summary and
// errors on stderr. Exit 0 on success, 1 if any input could not be read,
// 2 on a usage error.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <string>

#include "cli.h"
#include "logagg/aggregate.h"
#include "logagg/report.h"

namespace {

void write_all(std::FILE* f, const std::string& s) { std::fwrite(s.data(), 1, s.size(), f); }

}  // namespace

int main(int argc, char** argv) {
  logagg::cli::Config config;
  if (const int code = logagg::cli::parse(argc, argv, config); code >= 0) return code;

  const logagg::Result result = logagg::aggregate(config.paths, config.options);

  write_all(stdout, logagg::format_report(result, config.options, config.format));
  const bool output_failed = std::fflush(stdout) != 0 || std::ferror(stdout) != 0;
  const int output_errno = errno;
  for (const logagg::InputError& e : result.errors) {
    std::fprintf(stderr, "logagg: %s: %s\n", e.path.c_str(), e.message.c_str());
  }
  write_all(stderr, logagg::format_rejects(result));
  if (!config.quiet) write_all(stderr, logagg::format_summary(result.summary));
  if (output_failed) {
    std::fprintf(stderr, "logagg: cannot write the report: %s\n", std::strerror(output_errno));
    return 1;
  }
  return result.errors.empty() ? 0 : 1;
}
