// A log written by loggen (data/generator) into a temporary folder, with what
// logagg must report for it, computed by loggen on its own: the CSV of
// `logagg --format csv` and the line accounting by reason. The folder goes
// with the object.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "logagg/result.h"
#include "support/json_numbers.h"
#include "support/run_process.h"
#include "support/test_paths.h"
#include "time/civil_time.h"

namespace logagg::testing {

class GeneratedLog {
 public:
  // Runs loggen with `loggen_args` (size, seed, dirt, ...); ok() says whether it worked.
  explicit GeneratedLog(const std::vector<std::string>& loggen_args) {
    char tmpl[] = "/tmp/logagg-generated-XXXXXX";
    dir_ = mkdtemp(tmpl);
    std::vector<std::string> argv = {
        loggen_bin(), "-o", path(), "--expected", file("expected.csv"), "--expected-summary", file("expected.json")};
    argv.insert(argv.end(), loggen_args.begin(), loggen_args.end());
    ok_ = run_process(argv).exit_code == 0;
  }
  ~GeneratedLog() { std::filesystem::remove_all(dir_); }
  GeneratedLog(const GeneratedLog&) = delete;
  GeneratedLog& operator=(const GeneratedLog&) = delete;

  bool ok() const { return ok_; }
  std::string path() const { return file("access.log"); }
  std::string content() const { return slurp(path()); }

  // What `logagg --format csv` must print for the log.
  std::string expected_csv() const { return slurp(file("expected.csv")); }
  // The same as counts per UTC second, ascending.
  std::vector<SecondCount> expected_counts() const {
    std::vector<SecondCount> counts;
    std::istringstream csv(expected_csv());
    std::string row;
    std::getline(csv, row);  // header
    while (std::getline(csv, row)) {
      const size_t comma = row.find(',');
      counts.push_back({utc_second(row.substr(0, comma)), std::stoull(row.substr(comma + 1))});
    }
    return counts;
  }
  // "lines", "counted", "blank", "rejected" and each reason's key -> lines.
  std::map<std::string, uint64_t> expected_summary() const { return json_numbers(slurp(file("expected.json"))); }

 private:
  // The second of a printed bucket start, "[-]YYYY-MM-DDThh:mm:ssZ" (years
  // below 0000 and above 9999 included: an offset can move a line there).
  static int64_t utc_second(const std::string& text) {
    const size_t t = text.find('T');
    const int64_t year = std::stoll(text.substr(0, t - 6));
    const auto month = static_cast<unsigned>(std::stoul(text.substr(t - 5, 2)));
    const auto day = static_cast<unsigned>(std::stoul(text.substr(t - 2, 2)));
    const int64_t time = std::stoll(text.substr(t + 1, 2)) * 3600 + std::stoll(text.substr(t + 4, 2)) * 60 +
                         std::stoll(text.substr(t + 7, 2));
    return days_from_civil(year, month, day) * 86400 + time;
  }

  std::string file(const std::string& name) const { return (dir_ / name).string(); }

  std::filesystem::path dir_;
  bool ok_ = false;
};

}  // namespace logagg::testing
