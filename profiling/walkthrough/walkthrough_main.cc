// logagg-walkthrough: runs one stage of the profiling walkthrough over a log,
// several passes in one process as the Java walkthrough timed its runs, and
// prints the last pass's report exactly as logagg would.
//
//   logagg-walkthrough --stage 0 --passes 10 --format csv access.log
//   logagg-walkthrough --list
//
// stdout: the report. stderr: one line, "stage N NAME: P passes in S s, C s CPU"
// (elapsed, and user + system time of all threads).
#include <sys/resource.h>

#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <map>

#include "logagg/report.h"
#include "stages.h"

namespace {

using logagg::walkthrough::kStages;

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  const auto seconds = [](const timeval& t) {
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6;
  };
  return seconds(usage.ru_utime) + seconds(usage.ru_stime);
}

int list_stages() {
  for (size_t i = 0; i < kStages.size(); ++i) {
    std::printf("%zu\t%.*s\t%.*s\n", i, static_cast<int>(kStages[i].name.size()), kStages[i].name.data(),
                static_cast<int>(kStages[i].change.size()), kStages[i].change.data());
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"logagg-walkthrough: one stage of the profiling walkthrough (profiling/walkthrough.sh)",
               "logagg-walkthrough"};
  size_t stage = 0;
  unsigned passes = 1;
  std::string path;
  logagg::Options options;
  logagg::Format format = logagg::Format::kTable;
  bool list = false;
  app.add_flag("--list", list, "List the stages as NUMBER<TAB>NAME<TAB>CHANGE and exit");
  app.add_option("--stage", stage, "Stage to run, 0..4")->check(CLI::Range(size_t{0}, kStages.size() - 1));
  app.add_option("--passes", passes, "Passes over the log (default 1)")->check(CLI::Range(1u, 100000u));
  const std::map<std::string, logagg::Format> formats{
      {"table", logagg::Format::kTable}, {"csv", logagg::Format::kCsv}, {"json", logagg::Format::kJson}};
  app.add_option("--format", format, "Output: table, csv or json (default table)")
      ->transform(CLI::CheckedTransformer(formats, CLI::ignore_case).description(""));
  app.add_option("--threads", options.threads, "Stage 4's worker threads (default: hardware threads)")
      ->check(CLI::Range(1u, 1024u));
  app.add_option("LOG", path, "The log file");
  CLI11_PARSE(app, argc, argv);
  if (list) return list_stages();
  if (path.empty()) {
    std::fprintf(stderr, "logagg-walkthrough: LOG is required\nRun with --help for more information.\n");
    return 2;
  }

  const auto start = std::chrono::steady_clock::now();
  const double cpu_start = cpu_seconds();
  logagg::Result result;
  for (unsigned p = 0; p < passes; ++p) result = kStages[stage].run(path, options);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const double cpu = cpu_seconds() - cpu_start;

  for (const logagg::InputError& e : result.errors) {
    std::fprintf(stderr, "logagg-walkthrough: %s: %s\n", e.path.c_str(), e.message.c_str());
  }
  if (!result.errors.empty()) return 1;
  logagg::ReportOptions report;
  report.format = format;
  logagg::write_report(result, report,
                       [](std::string_view chunk) { std::fwrite(chunk.data(), 1, chunk.size(), stdout); });
  std::fprintf(stderr, "stage %zu %.*s: %u passes in %.3f s, %.3f s CPU\n", stage,
               static_cast<int>(kStages[stage].name.size()), kStages[stage].name.data(), passes, seconds, cpu);
  return 0;
}
