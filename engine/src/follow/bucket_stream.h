// The buckets of --follow (logagg/follow.h): counts added round by round,
// rows handed out once a bucket is complete, corrections for lines that
// arrive for a bucket handed out already.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "logagg/buckets.h"
#include "logagg/follow.h"
#include "logagg/result.h"

namespace logagg {

class BucketStream {
 public:
  // `top` > 0 (--top N): each bucket shows its N busiest apps, chosen when
  // it is first handed out (the most lines, ties to the smaller id), and
  // the rest as kOtherApp; its later lines of other apps count there too.
  // `max_apps` (--max-apps) caps the apps told apart over the whole run, as
  // a batch run's: those met after the first `max_apps` count as kOtherApp
  // (each round's engine caps its own apps the same way).
  BucketStream(const Bucketing& bucketing, int64_t late_seconds, size_t top = 0, size_t max_apps = SIZE_MAX)
      : bucketing_(bucketing), late_(late_seconds), top_(top), max_apps_(max_apps) {}

  // Adds a round's counts (per second, and per app if it has app counts).
  void add(const Result& round);

  // The rows due: corrections of buckets handed out, then the buckets that
  // are complete (the newest second counted is `late` seconds past their
  // end), or every open bucket if `all` (no line for a while, or the end).
  std::vector<FollowRow> take(bool all);

  uint64_t late() const { return late_lines_; }
  // Everything counted, per bucket start (and app), for the statistics;
  // apps_capped if a round or the run met more than max_apps apps.
  Result totals() const;

 private:
  struct Bucket {
    uint64_t total = 0;
    std::map<std::string, uint64_t> apps;  // bytewise order: kOtherApp last
    std::set<std::string> shown;           // with top: the apps it shows
    // With measures: the bucket's, or each app's (keyed).
    MeasureCell cell;
    std::map<std::string, MeasureCell> cells;
  };
  void add_count(int64_t second, const std::string* app, uint64_t count, const MeasureCell* cell);
  // The rows of a bucket handed out for the first time (choosing the apps
  // it shows, with top).
  void append_rows(int64_t start, Bucket& b, std::vector<FollowRow>& rows) const;
  // The lines of the apps a bucket does not show, with top.
  static uint64_t others(const Bucket& b);
  // A row of a bucket, or of one of its apps (with their measures).
  static FollowRow row_of(int64_t start, const Bucket& b, const std::string* app, bool correction);
  // With top: the "(other)" row of the apps a bucket does not show.
  static FollowRow others_row(int64_t start, const Bucket& b, bool correction);

  Bucketing bucketing_;
  int64_t late_;
  size_t top_;
  size_t max_apps_;
  std::set<std::string> known_apps_;  // told apart so far: at most max_apps_
  bool capped_ = false;
  std::optional<int64_t> newest_;      // the newest second counted
  std::map<int64_t, Bucket> open_;     // by start: not handed out yet
  std::map<int64_t, Bucket> done_;     // handed out, with their totals
  std::map<int64_t, Bucket> changed_;  // lines since for buckets in done_: what to correct
  uint64_t late_lines_ = 0;
  std::optional<MeasureTable> cells_;  // rounds came with measures' cells: none laid out alike
};

}  // namespace logagg
