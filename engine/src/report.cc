// Report and summary formatting (see report.h).
#include "logagg/report.h"

#include <algorithm>
#include <charconv>
#include <cstdio>

#include "logagg/rfc3339.h"

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

// Accumulates report text and hands it to the sink in chunks, so a report of
// millions of rows never sits in memory whole.
class Output {
 public:
  explicit Output(const ReportSink& sink) : sink_(sink) {}
  ~Output() { flush(); }
  std::string& text() { return buf_; }
  void row_done() {
    if (buf_.size() >= kChunkBytes) flush();
  }

 private:
  static constexpr size_t kChunkBytes = size_t{64} << 10;
  void flush() {
    if (!buf_.empty()) sink_(buf_);
    buf_.clear();
  }
  const ReportSink& sink_;
  std::string buf_;
};

void write_csv(const Result& r, Output& o) {
  std::string& out = o.text();
  out.append("second,count\n");
  for (const SecondCount& c : r.counts) {
    append_second(out, c.second);
    out.push_back(',');
    append_number(out, c.count);
    out.push_back('\n');
    o.row_done();
  }
}

void write_table(const Result& r, Output& o) {
  const std::string total = std::to_string(r.summary.counted);
  const size_t count_width = std::max<size_t>(total.size(), 5);
  constexpr size_t second_width = 20;  // "YYYY-MM-DDThh:mm:ssZ"
  std::string& out = o.text();
  append_padded(out, "second", second_width, false);
  out.append("  ");
  append_padded(out, "count", count_width, true);
  out.push_back('\n');
  for (const SecondCount& c : r.counts) {
    char buf[kUtcSecondMaxChars];
    const auto len = static_cast<size_t>(format_utc_second(c.second, buf));
    append_padded(out, std::string_view(buf, len), second_width, false);
    out.append("  ");
    append_padded(out, std::to_string(c.count), count_width, true);
    out.push_back('\n');
    o.row_done();
  }
  append_padded(out, "total", second_width, false);
  out.append("  ");
  append_padded(out, total, count_width, true);
  out.push_back('\n');
}

void write_json(const Result& r, const Options& options, Output& o) {
  const Summary& s = r.summary;
  std::string& out = o.text();
  out.append("{\n  \"logagg\": 1,\n  \"bucket\": \"second\",\n  \"app_field\": ");
  append_json_string(out, options.app_field);
  out.append(",\n  \"time_field\": ");
  append_json_string(out, options.time_field);
  out.append(",\n  \"counts\": [");
  for (size_t i = 0; i < r.counts.size(); ++i) {
    out.append(i == 0 ? "\n    {\"second\": \"" : ",\n    {\"second\": \"");
    append_second(out, r.counts[i].second);
    out.append("\", \"count\": ");
    append_number(out, r.counts[i].count);
    out.push_back('}');
    o.row_done();
  }
  out.append(r.counts.empty() ? "],\n" : "\n  ],\n");
  out.append("  \"summary\": {\n");
  const std::pair<const char*, uint64_t> fields[] = {
      {"files", s.files},     {"unreadable", s.unreadable}, {"bytes", s.bytes},
      {"lines", s.lines},     {"counted", s.counted},       {"blank", s.blank},
      {"rejected", s.rejected_total()}};
  for (const auto& [key, value] : fields) {
    out.append("    \"").append(key).append("\": ");
    append_number(out, value);
    out.append(",\n");
  }
  out.append("    \"rejected_by_reason\": {");
  for (size_t i = 0; i < kReasonCount; ++i) {
    out.append(i == 0 ? "\n      \"" : ",\n      \"");
    out.append(reason_key(static_cast<Reason>(i))).append("\": ");
    append_number(out, s.rejected[i]);
  }
  out.append("\n    }\n  }\n}\n");
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

}  // namespace

void write_report(const Result& result, const Options& options, Format format, const ReportSink& sink) {
  Output out(sink);
  switch (format) {
    case Format::kCsv:
      return write_csv(result, out);
    case Format::kJson:
      return write_json(result, options, out);
    case Format::kTable:
      return write_table(result, out);
  }
}

std::string format_report(const Result& result, const Options& options, Format format) {
  std::string text;
  write_report(result, options, format, [&text](std::string_view chunk) { text.append(chunk); });
  return text;
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
  row(2, "blank", s.blank);
  row(2, "rejected", s.rejected_total());
  for (size_t i = 0; i < kReasonCount; ++i) {
    if (s.rejected[i] != 0) row(4, reason_text(static_cast<Reason>(i)), s.rejected[i]);
  }
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
