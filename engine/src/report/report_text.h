// Small text helpers shared by the report writers (report.cc,
// document_writer.cc, plot.cc, html/html_data.cc): numbers, bucket starts,
// padding by terminal columns and exact ratios (JSON numbers and strings:
// logagg/json_text.h).
#pragma once

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

#include "logagg/buckets.h"
#include "logagg/json_text.h"
#include "logagg/rfc3339.h"
#include "report/terminal_text.h"

namespace logagg {

inline void append_second(std::string& out, int64_t second) {
  char buf[kUtcSecondMaxChars];
  out.append(buf, static_cast<size_t>(format_utc_second(second, buf)));
}

// A bucket start as the bucketing prints it: UTC "...Z", or local time with
// its offset in a zone.
inline void append_start(std::string& out, const Bucketing& bucketing, int64_t start) {
  char buf[kBucketStartMaxChars];
  out.append(buf, static_cast<size_t>(bucketing.format_start(start, buf)));
}

// Bucket starts of rows in order, as text: each start is formatted once, and
// the rows after it with the same start (--by-app gives one per app) reuse
// the text: formatting each row's start was a measurable share of a --by-app
// run on the bench corpus (docs/bench-notes/2026-12-02-by-app.md).
class StartTexts {
 public:
  explicit StartTexts(const Bucketing& bucketing) : bucketing_(bucketing) {}

  std::string_view of(int64_t start) {
    if (len_ == 0 || start != start_) {
      len_ = static_cast<size_t>(bucketing_.format_start(start, buf_));
      start_ = start;
    }
    return {buf_, len_};
  }

 private:
  const Bucketing& bucketing_;
  int64_t start_ = 0;
  size_t len_ = 0;  // 0: nothing formatted yet
  char buf_[kBucketStartMaxChars];
};

// The same, as a string of its own.
inline std::string start_text(const Bucketing& bucketing, int64_t start) {
  std::string s;
  append_start(s, bucketing, start);
  return s;
}

// The columns a table gives bucket starts: "YYYY-MM-DDThh:mm:ssZ", or in a
// zone "YYYY-MM-DDThh:mm:ss+hh:mm".
inline size_t start_width(const Bucketing& bucketing) { return bucketing.zone() != nullptr ? 25 : 20; }

// `text` padded with spaces to `width` terminal columns (display_width).
inline void append_padded(std::string& out, std::string_view text, size_t width, bool right) {
  const size_t columns = display_width(text);
  const size_t pad = width > columns ? width - columns : 0;
  if (right) out.append(pad, ' ');
  out.append(text);
  if (!right) out.append(pad, ' ');
}

// A key as rows show it: "(other)" for the keys not told apart, "(none)"
// for a key field without a value.
inline std::string_view shown_key(std::string_view key) {
  return key == kOtherApp ? kOtherAppName : key == kNoKey ? kNoKeyName : key;
}

// A key tuple (logagg/result.h) of `parts` parts as one text, for the
// statistics and a chart's series: its parts joined by ", ", a key without
// a value as "(none)", the keys not told apart as "(other)". Not escaped.
inline std::string key_text(std::string_view tuple, size_t parts) {
  if (tuple == kOtherApp) return std::string(kOtherAppName);
  std::string out;
  for (const std::string_view part : key_parts(tuple, parts)) {
    if (!out.empty()) out.append(", ");
    out.append(part == kNoKey ? kNoKeyName : part);
  }
  return out;
}

// total / n rounded half up to 3 decimals ("1120.333"), in integers, so the
// printed mean is exact to the digits shown. n > 0.
inline std::string ratio_text(uint64_t total, uint64_t n) {
  uint64_t whole = total / n;
  // remainder < n, and n (buckets) is far below 2^64 / 2000.
  uint64_t thousandths = (total % n * 2000 + n) / (2 * n);
  if (thousandths == 1000) {
    ++whole;
    thousandths = 0;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%llu.%03llu", static_cast<unsigned long long>(whole),
                static_cast<unsigned long long>(thousandths));
  return buf;
}

}  // namespace logagg
