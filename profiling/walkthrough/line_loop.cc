// The shared line loop of stages 0-3 (see line_loop.h).
#include "line_loop.h"

#include <cerrno>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include "input/input.h"
#include "logagg/query.h"
#include "model/line_verdict.h"

namespace logagg::walkthrough {
namespace {

bool is_blank(std::string_view line) { return line.find_first_not_of(" \t\r") == std::string_view::npos; }

// The reason order of Reason (logagg/result.h), applied to what the pieces found.
LineVerdict classify(const std::string& line, const Options& options, const Pieces& pieces) {
  if (is_blank(line)) return LineVerdict::blank();
  if (line.size() > options.max_line_bytes) return LineVerdict::rejected(Reason::kLineTooLong);
  const JsonFields f = pieces.json->read(line);
  if (f.shape == JsonFields::Shape::kInvalid) return LineVerdict::rejected(Reason::kInvalidJson);
  if (f.shape == JsonFields::Shape::kNotObject) return LineVerdict::rejected(Reason::kNotObject);
  if (f.app.count == 0) return LineVerdict::rejected(Reason::kMissingApp);
  if (f.app.count > 1) return LineVerdict::rejected(Reason::kDuplicateApp);
  if (!f.app.is_string) return LineVerdict::rejected(Reason::kAppNotString);
  if (!pieces.app_id(f.app.text)) return LineVerdict::rejected(Reason::kBadApp);
  if (f.time.count == 0) return LineVerdict::rejected(Reason::kMissingTime);
  if (f.time.count > 1) return LineVerdict::rejected(Reason::kDuplicateTime);
  if (!f.time.is_string) return LineVerdict::rejected(Reason::kTimeNotString);
  const std::optional<int64_t> second = pieces.timestamp(f.time.text);
  if (!second) return LineVerdict::rejected(Reason::kBadTime);
  return LineVerdict::counted(*second);
}

// Kept out of line so that the flame graphs show std::map's share on its own.
[[gnu::noinline]] void count_second(std::map<int64_t, uint64_t>& counts, int64_t second) { ++counts[second]; }

}  // namespace

Result count_lines(const std::string& path, const Options& options, const Pieces& pieces) {
  const auto start = std::chrono::steady_clock::now();
  Result result;
  result.query = Query(options);
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    result.errors.push_back({path, std::strerror(errno)});
    result.summary.unreadable = 1;
    return result;
  }
  Summary& summary = result.summary;
  summary.files = 1;
  std::error_code size_error;
  summary.bytes = std::filesystem::file_size(path, size_error);

  std::map<int64_t, uint64_t> counts;
  std::string line;
  for (bool first = true; std::getline(in, line); first = false) {
    const bool ended_by_lf = !in.eof();
    if (first && line.starts_with(kUtf8Bom)) {
      line.erase(0, kUtf8Bom.size());
      if (line.empty() && !ended_by_lf) break;  // the file was only a BOM: no line at all
    }
    if (ended_by_lf && !line.empty() && line.back() == '\r') line.pop_back();
    ++summary.lines;
    const LineVerdict v = classify(line, options, pieces);
    switch (v.status) {
      case LineStatus::kCounted:
        ++summary.counted;
        count_second(counts, v.second);
        break;
      case LineStatus::kBlank:
        ++summary.blank;
        break;
      case LineStatus::kRejected:
        ++summary.rejected[static_cast<size_t>(v.reason)];
        break;
      case LineStatus::kFiltered:  // failed a --where filter: tallied by the first that failed
        if (summary.filtered_by.size() <= v.filter) summary.filtered_by.resize(v.filter + 1u);
        ++summary.filtered_by[v.filter];
        break;
    }
  }
  result.counts.reserve(counts.size());
  for (const auto& [second, count] : counts) result.counts.push_back({second, count});
  summary.elapsed_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return result;
}

}  // namespace logagg::walkthrough
