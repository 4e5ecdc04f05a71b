// The count stage's face: what the run, the report and merge use of it.
// - RunTallies: what the workers of one run count into (run_tallies.cc), a
//   Counter for each worker and what they share, and how the result's rows
//   and tallies are taken from them. The run stage holds it and hands each
//   worker its Counter without seeing inside one: counter.h (the per-second
//   counts, the key table and the measured cells) stays the count stage's,
//   so a change there recompiles this stage's files, not the run's and
//   every stage above that includes this face.
// - scan_lines: the per-line loop shared by mapped segments and streamed
//   chunks (line_scanner.cc). It classifies each line of a run of whole
//   lines (BlockParser: split at LF, one CR before each LF dropped), records
//   the verdict in a worker's Counter and keeps the first rejected lines'
//   positions for --show-rejects.
// - The order of a result's rows and how equal rows add up: the key order
//   (app_before), and rows taken from the workers' tallies or from result
//   documents (measured_rows.cc), sorted and added.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "logagg/measures.h"
#include "logagg/result.h"

namespace logagg {

class BlockParser;  // the parse stage's (parse/line_parser.h)
class Counter;      // a worker's (counter.h)

// What the workers of one run for a query count into: a Counter each, and
// what they share: the per-second counts, the key numbering (--by-app,
// --by) and the measured cells.
class RunTallies {
 public:
  RunTallies(const Query& query, unsigned workers);
  ~RunTallies();
  RunTallies(const RunTallies&) = delete;
  RunTallies& operator=(const RunTallies&) = delete;

  // Worker `worker`'s Counter, where it stays while this lives.
  Counter& counter(unsigned worker);
  // Adds every worker's tally of its lines to `summary`.
  void add_tallies(Summary& summary) const;
  // Takes the counted rows into `result`: the measured cells and their
  // rows, or the (second, key tuple) counts with the key tuples numbered in
  // name order ("(other)" last), or the counts per second; then the
  // per-second counts from the keyed rows.
  void take_rows(Result& result);

 private:
  struct Shared;
  std::unique_ptr<Shared> shared_;
};

// Ends a worker's counting: the pairs it still lists are put in time order
// and handed to what the workers share. On the worker's own thread, so that
// the workers sort theirs in parallel.
void end_counting(Counter& counter);

// A rejected line, by index from the start of its segment or stream (0-based).
struct LocalReject {
  uint64_t line;
  Reason reason;
};

// What scanning one segment (or one whole stream) produced besides counts.
struct ScanLog {
  explicit ScanLog(size_t reject_limit = 0, bool keep_too_long = false)
      : limit(reject_limit), too_long(keep_too_long) {}

  uint64_t lines = 0;
  std::vector<LocalReject> rejects;  // at most `limit`, and with `too_long` every line too long past them
  size_t limit = 0;
  bool too_long = false;
};

// Classifies every line of `text` (whole lines; the last may lack its LF).
// `readable` bytes from text.data() may be read (>= text.size()).
void scan_lines(std::string_view text, size_t readable, BlockParser& parser, Counter& counter, ScanLog& log);

// Records one line that was too long to be buffered (streams only): blank if
// it held only blanks, else rejected as too long.
void record_skipped_line(bool blank, Counter& counter, ScanLog& log);

// ---- The order of a Result's rows and apps, and the per-second totals
// derived from per-app rows: one definition for the counting core
// (run/gather.cc), for result documents read back (report/result_document.cc)
// and for results added up (merge/merge.cc), so all three build the same
// Result.

// Apps (key tuples) in a result: by name (bytewise), a tuple part by part
// (kKeySeparator below every byte), kOtherApp last.
inline bool app_before(std::string_view a, std::string_view b) {
  const bool a_other = a == kOtherApp, b_other = b == kOtherApp;
  if (a_other != b_other) return b_other;
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    if (a[i] == b[i]) continue;
    if (a[i] == kKeySeparator || b[i] == kKeySeparator) return a[i] == kKeySeparator;
    return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[i]);
  }
  return a.size() < b.size();
}

// Puts `names` (key tuples by table number) in name order, and returns
// each table number's new number.
inline std::vector<uint32_t> name_order(std::vector<std::string>& names) {
  std::vector<uint32_t> by_name(names.size());
  for (uint32_t i = 0; i < by_name.size(); ++i) by_name[i] = i;
  std::sort(by_name.begin(), by_name.end(), [&](uint32_t a, uint32_t b) { return app_before(names[a], names[b]); });
  std::vector<uint32_t> order(names.size());
  std::vector<std::string> sorted(names.size());
  for (uint32_t i = 0; i < by_name.size(); ++i) {
    order[by_name[i]] = i;
    sorted[i] = std::move(names[by_name[i]]);
  }
  names = std::move(sorted);
  return order;
}

// Rows in one order: by second, then app (rows without an app have app 0).
// A function object, so that the sorts of a million rows inline it.
inline uint32_t app_of(const SecondCount&) { return 0; }
inline uint32_t app_of(const AppCount& c) { return c.app; }
struct RowBefore {
  template <typename Row>
  bool operator()(const Row& x, const Row& y) const {
    return x.second != y.second ? x.second < y.second : app_of(x) < app_of(y);
  }
};
inline constexpr RowBefore row_before;

// Sets result.counts to the totals per second of result.app_counts, which
// must be ascending by second.
inline void sum_app_counts_per_second(Result& result) {
  result.counts.clear();
  for (const AppCount& c : result.app_counts) {
    if (result.counts.empty() || result.counts.back().second != c.second) result.counts.push_back({c.second, 0});
    result.counts.back().count += c.count;
  }
}

// Sorts (second, app) rows by second then app and adds up equal ones into
// result.app_counts, and the totals per second into result.counts: for rows
// read back (merge) or renumbered (the html's first key).
inline void add_up_app_rows(std::vector<AppCount>& rows, Result& result) {
  std::sort(rows.begin(), rows.end(), row_before);
  result.app_counts.clear();
  for (const AppCount& r : rows) {
    if (!result.app_counts.empty() && result.app_counts.back().second == r.second &&
        result.app_counts.back().app == r.app) {
      result.app_counts.back().count += r.count;
    } else {
      result.app_counts.push_back(r);
    }
  }
  sum_app_counts_per_second(result);
}

// ---- A measured result's rows (--sum, --quantiles, --count-if) as (second,
// key tuple, cell): the form in which result documents read back and results
// added up (merge) put their rows in order and add equal ones, cells and all.
struct MeasuredRow {
  int64_t second;
  std::string key;  // the key tuple; empty without keys
  MeasureCell cell;
};

// The rows of a measured `result` (cells beside counts, or app_counts when keyed).
std::vector<MeasuredRow> measured_rows(const Result& result, bool keyed);

// Sorts `rows` by second then key (app_before), adds up equal ones, and sets
// result.apps (when keyed), counts, app_counts and cells (laid out by
// `spec`) from them. With an empty `spec` (nothing measured) the rows' cells
// carry only their counts, and result.cells stays empty.
void set_measured_rows(std::vector<MeasuredRow> rows, const MeasureSpec& spec, bool keyed, Result& result);

}  // namespace logagg
