// The rows of --follow as text (FollowWriter of logagg/follow.h), with the
// batch formats' escaping: csv_field.h, report_text.h, terminal_text.h.
#include "logagg/follow.h"

#include "report/csv_field.h"
#include "report/report_text.h"
#include "report/terminal_text.h"

namespace logagg {
namespace {

constexpr size_t kCountWidth = 10;

// "(other)" for the lines of ids not told apart; a real id as it is.
std::string_view shown_app(const std::string& app) { return app == kOtherApp ? kOtherAppName : std::string_view(app); }

}  // namespace

std::string FollowWriter::header() const {
  const std::string column = report_.bucketing.column();
  std::string out;
  switch (report_.format) {
    case Format::kCsv:
      out = column + (by_app_ ? ",app_id,count\n" : ",count\n");
      break;
    case Format::kTable:
      append_padded(out, column, start_width(report_.bucketing), false);
      out.append("  ");
      append_padded(out, "count", kCountWidth, true);
      out.append(by_app_ ? "  app_id\n" : "\n");
      break;
    case Format::kJson:
    case Format::kHtml:
      break;
  }
  return out;
}

std::string FollowWriter::rows(const std::vector<FollowRow>& rows) const {
  const std::string column = report_.bucketing.column();
  std::string out;
  for (const FollowRow& r : rows) {
    switch (report_.format) {
      case Format::kCsv:
        append_start(out, report_.bucketing, r.start);
        out.push_back(',');
        if (by_app_) {
          append_csv_field(out, shown_app(r.app), report_.csv_neutralise_formulas);
          out.push_back(',');
        }
        append_number(out, r.count);
        out.push_back('\n');
        break;
      case Format::kJson:
        out.append("{");
        append_json_string(out, column);
        out.append(": ");
        append_json_string(out, start_text(report_.bucketing, r.start));
        if (by_app_) {
          out.append(", \"app_id\": ");
          append_json_string(out, shown_app(r.app));
          if (r.app == kOtherAppName) out.append(", \"real_app\": true");
        }
        out.append(", \"count\": ");
        append_number(out, r.count);
        out.append(r.correction ? ", \"correction\": true}\n" : "}\n");
        break;
      case Format::kTable:
        append_padded(out, start_text(report_.bucketing, r.start), start_width(report_.bucketing), false);
        out.append("  ");
        append_padded(out, std::to_string(r.count), kCountWidth, true);
        if (by_app_) {
          out.append("  ");
          append_terminal_text(out, shown_app(r.app));
        }
        out.append(r.correction ? "  (correction)\n" : "\n");
        break;
      case Format::kHtml:
        break;
    }
  }
  return out;
}

std::string FollowWriter::footer(uint64_t counted) const {
  if (report_.format != Format::kTable) return {};
  std::string out;
  append_padded(out, "total", start_width(report_.bucketing), false);
  out.append("  ");
  append_padded(out, std::to_string(counted), kCountWidth, true);
  out.push_back('\n');
  return out;
}

}  // namespace logagg
