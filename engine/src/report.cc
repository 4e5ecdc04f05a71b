// Report and summary formatting (see report.h).
#include "logagg/report.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "logagg/rfc3339.h"
#include "logagg/stats.h"

namespace logagg {
namespace {

void append_number(std::string& out, uint64_t n) {
  char buf[24];
  const auto r = std::to_chars(buf, buf + sizeof buf, n);
  out.append(buf, r.ptr);
}

void append_second(std::string& out, int64_t second) {
  char buf[kUtcSecondMaxChars];
  out.append(buf, static_cast<size_t>(format_utc_second(second, buf)));
}

// A bucket start as the bucketing prints it: UTC "...Z", or local time with
// its offset in a zone.
void append_start(std::string& out, const Bucketing& bucketing, int64_t start) {
  char buf[kBucketStartMaxChars];
  out.append(buf, static_cast<size_t>(bucketing.format_start(start, buf)));
}

void append_padded(std::string& out, std::string_view text, size_t width, bool right) {
  const size_t pad = width > text.size() ? width - text.size() : 0;
  if (right) out.append(pad, ' ');
  out.append(text);
  if (!right) out.append(pad, ' ');
}

// A JSON string literal for arbitrary bytes from the command line.
void append_json_string(std::string& out, std::string_view s) {
  out.push_back('"');
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", u);
      out.append(buf);
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
}

// total / n rounded half up to 3 decimals ("1120.333"), in integers, so the
// printed mean is exact to the digits shown. n > 0.
std::string ratio_text(uint64_t total, uint64_t n) {
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

// The report's rows: the per-second counts summed into the options' buckets
// (the counts themselves, not a copy, for one-second buckets), walked with the
// empty buckets between them as zero rows when gaps are filled. The zero rows
// are generated while walking, so filling a gap of years stores nothing.
class Rows {
 public:
  Rows(const Result& result, const Options& options)
      : bucketing_(options.bucketing), fill_gaps_(options.fill_gaps), buckets_(&result.counts) {
    if (bucketing_ != Bucketing{}) {
      owned_ = rebucket(result.counts, bucketing_);
      buckets_ = &owned_;
    }
  }
  const std::vector<SecondCount>& buckets() const { return *buckets_; }
  const Bucketing& bucketing() const { return bucketing_; }

  // Calls emit(bucket_start, count) for every row, ascending.
  template <typename Emit>
  void for_each(Emit&& emit) const {
    const std::vector<SecondCount>& b = *buckets_;
    for (size_t i = 0; i < b.size(); ++i) {
      if (fill_gaps_ && i > 0) {
        for (int64_t start = bucketing_.next(b[i - 1].second); start < b[i].second; start = bucketing_.next(start)) {
          emit(start, uint64_t{0});
        }
      }
      emit(b[i].second, b[i].count);
    }
  }

 private:
  Bucketing bucketing_;
  bool fill_gaps_;
  const std::vector<SecondCount>* buckets_;
  std::vector<SecondCount> owned_;
};

// Accumulates report text and hands it to the sink in chunks, so a report of
// millions of rows never sits in memory whole. A sink that throws is not
// called again.
class Output {
 public:
  explicit Output(const ReportSink& sink) : sink_(sink) {}
  std::string& text() { return buf_; }
  void row_done() {
    if (buf_.size() >= kChunkBytes) flush();
  }
  void flush() {
    if (!buf_.empty()) sink_(buf_);
    buf_.clear();
  }

 private:
  static constexpr size_t kChunkBytes = size_t{64} << 10;
  const ReportSink& sink_;
  std::string buf_;
};

void write_csv(const Rows& rows, Output& o) {
  std::string& out = o.text();
  out.append(rows.bucketing().column()).append(",count\n");
  rows.for_each([&](int64_t start, uint64_t count) {
    append_start(out, rows.bucketing(), start);
    out.push_back(',');
    append_number(out, count);
    out.push_back('\n');
    o.row_done();
  });
}

void write_table(const Result& r, const Rows& rows, Output& o) {
  const std::string total = std::to_string(r.summary.counted);
  const size_t count_width = std::max<size_t>(total.size(), 5);
  // "YYYY-MM-DDThh:mm:ssZ", or "YYYY-MM-DDThh:mm:ss+hh:mm" in a zone
  const size_t second_width = rows.bucketing().zone() != nullptr ? 25 : 20;
  std::string& out = o.text();
  append_padded(out, rows.bucketing().column(), second_width, false);
  out.append("  ");
  append_padded(out, "count", count_width, true);
  out.push_back('\n');
  rows.for_each([&](int64_t start, uint64_t count) {
    char buf[kBucketStartMaxChars];
    const auto len = static_cast<size_t>(rows.bucketing().format_start(start, buf));
    append_padded(out, std::string_view(buf, len), second_width, false);
    out.append("  ");
    append_padded(out, std::to_string(count), count_width, true);
    out.push_back('\n');
    o.row_done();
  });
  append_padded(out, "total", second_width, false);
  out.append("  ");
  append_padded(out, total, count_width, true);
  out.push_back('\n');
}

// The "stats" object of the json document; null where an empty series has no value.
void append_json_stats(std::string& out, const BucketStats& st, const Bucketing& bucketing) {
  const bool any = st.buckets > 0;
  const auto field = [&](const char* key, auto&& append_value, bool last = false) {
    out.append("    \"").append(key).append("\": ");
    if (any) {
      append_value();
    } else {
      out.append("null");
    }
    out.append(last ? "\n" : ",\n");
  };
  const auto quoted_second = [&](int64_t second) {
    out.push_back('"');
    append_start(out, bucketing, second);
    out.push_back('"');
  };
  out.append("  \"stats\": {\n    \"buckets\": ");
  append_number(out, st.buckets);
  out.append(",\n    \"empty_buckets\": ");
  append_number(out, st.empty);
  out.append(",\n    \"total\": ");
  append_number(out, st.total);
  out.append(",\n");
  field("first", [&] { quoted_second(st.first); });
  field("last", [&] { quoted_second(st.last); });
  field("peak", [&] {
    out.append("{\"bucket\": ");
    quoted_second(st.peak);
    out.append(", \"count\": ");
    append_number(out, st.max);
    out.push_back('}');
  });
  field("mean", [&] { out.append(ratio_text(st.total, st.buckets)); });
  field("median", [&] { append_number(out, st.median); });
  field("p95", [&] { append_number(out, st.p95); });
  field("p99", [&] { append_number(out, st.p99); });
  field("max", [&] { append_number(out, st.max); }, true);
  out.append("  }\n");
}

void write_json(const Result& r, const Rows& rows, const Options& options, Output& o) {
  const Summary& s = r.summary;
  std::string& out = o.text();
  out.append("{\n  \"logagg\": 1,\n  \"bucket\": \"").append(rows.bucketing().name()).append("\",\n  \"app_field\": ");
  append_json_string(out, options.app_field);
  out.append(",\n  \"time_field\": ");
  append_json_string(out, options.time_field);
  if (const TimeZone* zone = rows.bucketing().zone()) {  // only with --tz, so merges can refuse others
    out.append(",\n  \"tz\": ");
    append_json_string(out, time_zone_name(*zone));
  }
  // Only with --since / --until: the range, so merges can refuse others.
  for (const auto& [key, bound] : {std::pair{"since", options.since}, std::pair{"until", options.until}}) {
    if (!bound) continue;
    out.append(",\n  \"").append(key).append("\": \"");
    append_second(out, *bound);
    out.push_back('"');
  }
  out.append(",\n  \"counts\": [");
  const std::string row_start = "\n    {\"" + rows.bucketing().column() + "\": \"";
  bool first = true;
  rows.for_each([&](int64_t start, uint64_t count) {
    if (!first) out.push_back(',');
    first = false;
    out.append(row_start);
    append_start(out, rows.bucketing(), start);
    out.append("\", \"count\": ");
    append_number(out, count);
    out.push_back('}');
    o.row_done();
  });
  out.append(first ? "],\n" : "\n  ],\n");
  out.append("  \"summary\": {\n");
  const std::pair<const char*, uint64_t> fields[] = {
      {"files", s.files},     {"unreadable", s.unreadable}, {"bytes", s.bytes},
      {"lines", s.lines},     {"counted", s.counted},       {"blank", s.blank},
      {"rejected", s.rejected_total()}};
  for (const auto& [key, value] : fields) {
    out.append("    \"").append(key).append("\": ");
    append_number(out, value);
    out.append(",\n");
    if (key == std::string_view("counted") && (options.since || options.until)) {
      out.append("    \"outside_range\": ");
      append_number(out, s.outside_range);
      out.append(",\n");
    }
  }
  out.append("    \"rejected_by_reason\": {");
  for (size_t i = 0; i < kReasonCount; ++i) {
    out.append(i == 0 ? "\n      \"" : ",\n      \"");
    out.append(reason_key(static_cast<Reason>(i))).append("\": ");
    append_number(out, s.rejected[i]);
  }
  out.append("\n    }\n  },\n");
  append_json_stats(out, compute_stats(rows.buckets(), rows.bucketing()), rows.bucketing());
  out.append("}\n");
}


}  // namespace

void write_report(const Result& result, const Options& options, Format format, const ReportSink& sink) {
  const Rows rows(result, options);
  Output out(sink);
  switch (format) {
    case Format::kCsv:
      write_csv(rows, out);
      break;
    case Format::kJson:
      write_json(result, rows, options, out);
      break;
    case Format::kTable:
      write_table(result, rows, out);
      break;
  }
  out.flush();
}

std::string format_report(const Result& result, const Options& options, Format format) {
  std::string text;
  write_report(result, options, format, [&text](std::string_view chunk) { text.append(chunk); });
  return text;
}

std::string human_bytes(double bytes) {
  const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int u = 0;
  while (bytes >= 1024 && u < 4) {
    bytes /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", bytes, units[u]);
  return buf;
}

std::string format_summary(const Summary& s) {
  char buf[256];
  const double secs = std::max(s.elapsed_seconds, 1e-9);
  std::snprintf(buf, sizeof buf,
                "logagg: %llu file%s (%llu unreadable), %s, %llu lines in %.3f s (%s/s, %.2f M lines/s)\n",
                static_cast<unsigned long long>(s.files), s.files == 1 ? "" : "s",
                static_cast<unsigned long long>(s.unreadable), human_bytes(static_cast<double>(s.bytes)).c_str(),
                static_cast<unsigned long long>(s.lines), s.elapsed_seconds,
                human_bytes(static_cast<double>(s.bytes) / secs).c_str(), static_cast<double>(s.lines) / secs / 1e6);
  std::string out = buf;
  auto row = [&](int indent, std::string_view label, uint64_t n) {
    std::snprintf(buf, sizeof buf, "%*s%-*.*s %12llu\n", indent, "", 30 - indent, static_cast<int>(label.size()),
                  label.data(), static_cast<unsigned long long>(n));
    out.append(buf);
  };
  row(2, "counted", s.counted);
  if (s.outside_range != 0) row(2, "outside --since/--until", s.outside_range);
  row(2, "blank", s.blank);
  row(2, "rejected", s.rejected_total());
  for (size_t i = 0; i < kReasonCount; ++i) {
    if (s.rejected[i] != 0) row(4, reason_text(static_cast<Reason>(i)), s.rejected[i]);
  }
  return out;
}

std::string format_stats(const Result& result, const Options& options) {
  const Rows rows(result, options);
  const BucketStats st = compute_stats(rows.buckets(), rows.bucketing());
  std::string out = "logagg: stats per " + rows.bucketing().name();
  if (st.buckets == 0) return out + ": no counted lines\n";
  out.append(": ");
  append_number(out, st.buckets);
  out.append(st.buckets == 1 ? " bucket, " : " buckets, ");
  append_start(out, rows.bucketing(), st.first);
  out.append(" to ");
  append_start(out, rows.bucketing(), st.last);
  out.append(" (");
  append_number(out, st.empty);
  out.append(" empty)\n");
  auto row = [&](std::string_view label, const std::string& value) {
    out.append("  ");
    append_padded(out, label, 28, false);
    // Values end in column 43; a longer label (a peak's start with its
    // offset) takes from the value's padding.
    append_padded(out, value, 41 - std::min<size_t>(std::max<size_t>(label.size(), 28), 41 - value.size()), true);
    out.push_back('\n');
  };
  std::string peak = "peak at ";
  append_start(peak, rows.bucketing(), st.peak);
  row("total", std::to_string(st.total));
  row(peak, std::to_string(st.max));
  row("mean", ratio_text(st.total, st.buckets));
  row("median", std::to_string(st.median));
  row("p95", std::to_string(st.p95));
  row("p99", std::to_string(st.p99));
  row("max", std::to_string(st.max));
  return out;
}

std::string format_rejects(const Result& result) {
  std::string out;
  for (const RejectSample& r : result.rejects) {
    out.append(r.path).push_back(':');
    append_number(out, r.line);
    out.append(": ").append(reason_text(r.reason)).push_back('\n');
  }
  return out;
}

}  // namespace logagg
