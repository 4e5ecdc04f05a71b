// The buckets of --follow (logagg/follow.h): counts added round by round,
// rows handed out once a bucket is complete, corrections for lines that
// arrive for a bucket handed out already.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "logagg/buckets.h"
#include "logagg/follow.h"
#include "logagg/result.h"

namespace logagg {

class BucketStream {
 public:
  BucketStream(const Bucketing& bucketing, int64_t late_seconds) : bucketing_(bucketing), late_(late_seconds) {}

  // Adds a round's counts (per second, and per app if it has app counts).
  void add(const Result& round);

  // The rows due: corrections of buckets handed out, then the buckets that
  // are complete (the newest second counted is `late` seconds past their
  // end), or every open bucket if `all` (no line for a while, or the end).
  std::vector<FollowRow> take(bool all);

  uint64_t late() const { return late_lines_; }
  // Everything counted, per bucket start (and app), for the statistics.
  Result totals() const;

 private:
  struct Bucket {
    uint64_t total = 0;
    std::map<std::string, uint64_t> apps;  // bytewise order: kOtherApp last
  };
  void add_count(int64_t second, const std::string* app, uint64_t count);
  static void append_rows(int64_t start, const Bucket& b, bool correction, std::vector<FollowRow>& rows);

  Bucketing bucketing_;
  int64_t late_;
  std::optional<int64_t> newest_;      // the newest second counted
  std::map<int64_t, Bucket> open_;     // by start: not handed out yet
  std::map<int64_t, Bucket> done_;     // handed out, with their totals
  std::map<int64_t, Bucket> changed_;  // lines since for buckets in done_: what to correct
  uint64_t late_lines_ = 0;
};

}  // namespace logagg
