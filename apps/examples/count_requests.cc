// Counting requests through logagg's public API: a log held in memory, then
// the files named on the command line, each printed as per-second CSV with
// the line accounting. Exits 1 if a file could not be read.
#include <logagg/aggregate.h>
#include <logagg/options.h>
#include <logagg/report.h>

#include <cstdio>
#include <string>
#include <vector>

namespace {

void print(const char* title, const logagg::Result& result, const logagg::Options& options) {
  std::printf("# %s: %llu lines, %llu counted, %llu blank, %llu rejected\n", title,
              static_cast<unsigned long long>(result.summary.lines),
              static_cast<unsigned long long>(result.summary.counted),
              static_cast<unsigned long long>(result.summary.blank),
              static_cast<unsigned long long>(result.summary.rejected_total()));
  logagg::ReportOptions csv;  // per second, UTC
  csv.format = logagg::Format::kCsv;
  std::fputs(logagg::format_report(result, csv).c_str(), stdout);
}

}  // namespace

int main(int argc, char** argv) {
  logagg::Options options;  // app_id and timestamp fields, all hardware threads

  const std::string buffer =
      "{\"app_id\":\"web1\",\"timestamp\":\"2023-11-14T22:13:20.120Z\"}\n"
      "{\"app_id\":\"web2\",\"timestamp\":\"2023-11-14T23:13:20+01:00\"}\n"
      "\n"
      "{\"app_id\":\"bad id\",\"timestamp\":\"2023-11-14T22:13:21Z\"}\n";
  print("buffer", logagg::aggregate_buffer(buffer, options), options);

  const std::vector<std::string> paths(argv + 1, argv + argc);
  if (paths.empty()) return 0;
  const logagg::Result result = logagg::aggregate(paths, options);
  print("files", result, options);
  for (const logagg::InputError& e : result.errors) {
    std::fprintf(stderr, "count_requests: %s: %s\n", e.path.c_str(), e.message.c_str());
  }
  return result.errors.empty() ? 0 : 1;
}
