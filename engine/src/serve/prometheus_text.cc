// Prometheus text exposition pieces (see prometheus_text.h).
#include "serve/prometheus_text.h"

#include <algorithm>

#include "text/ascii.h"
#include "text/utf8.h"

namespace logagg {
namespace {

bool name_byte(char c) { return is_digit(c) || is_alpha(c) || c == '_'; }

// The names a field's values in `unit` may end in, as a name's last token.
std::vector<std::string_view> unit_suffixes(DurationUnit unit) {
  switch (unit) {
    case DurationUnit::kSeconds:
      return {"_s", "_sec", "_secs", "_seconds"};
    case DurationUnit::kMillis:
      return {"_ms", "_millis", "_milliseconds"};
    case DurationUnit::kMicros:
      return {"_us", "_micros", "_microseconds"};
    case DurationUnit::kNanos:
      return {"_ns", "_nanos", "_nanoseconds"};
  }
  return {};
}

}  // namespace

std::string metric_name(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    const bool upper = c >= 'A' && c <= 'Z';
    // camelCase as snake_case, as Prometheus's names are written.
    if (upper && i > 0 && ((text[i - 1] >= 'a' && text[i - 1] <= 'z') || is_digit(text[i - 1]))) out.push_back('_');
    out.push_back(upper ? static_cast<char>(c - 'A' + 'a') : name_byte(c) ? c : '_');
  }
  if (out.empty() || is_digit(out.front())) out.insert(out.begin(), '_');
  return out;
}

std::string label_name(std::string_view text) {
  std::string out = metric_name(text);
  if (out.starts_with("__")) out.erase(0, out.find_first_not_of('_'));
  if (out.empty() || is_digit(out.front())) out.insert(out.begin(), '_');
  return out;
}

void append_label_value(std::string& out, std::string_view value) {
  for (size_t i = 0; i < value.size();) {
    const size_t start = i;
    if (next_code_point(value, i) < 0) {
      out.append("\xef\xbf\xbd");  // U+FFFD
      continue;
    }
    const char c = value[start];
    if (c == '\\') {
      out.append("\\\\");
    } else if (c == '"') {
      out.append("\\\"");
    } else if (c == '\n') {
      out.append("\\n");
    } else {
      out.append(value.substr(start, i - start));
    }
  }
}

void append_help_text(std::string& out, std::string_view text) {
  for (const char c : text) {
    if (c == '\\') {
      out.append("\\\\");
    } else if (c == '\n') {
      out.append("\\n");
    } else {
      out.push_back(c);
    }
  }
}

std::string shift_decimal(std::string_view decimal, int digits) {
  const bool negative = !decimal.empty() && decimal.front() == '-';
  if (negative) decimal.remove_prefix(1);
  const size_t dot = std::min(decimal.find('.'), decimal.size());
  std::string all(decimal.substr(0, dot));
  if (dot < decimal.size()) all.append(decimal.substr(dot + 1));
  // The point moves `digits` places to the left of where it was.
  const auto point = static_cast<std::ptrdiff_t>(dot) - digits;
  std::string whole, fraction;
  if (point <= 0) {
    fraction.assign(static_cast<size_t>(-point), '0');
    fraction.append(all);
  } else if (static_cast<size_t>(point) >= all.size()) {
    whole = all + std::string(static_cast<size_t>(point) - all.size(), '0');
  } else {
    whole = all.substr(0, static_cast<size_t>(point));
    fraction = all.substr(static_cast<size_t>(point));
  }
  const size_t first = whole.find_first_not_of('0');
  whole = first == std::string::npos ? "0" : whole.substr(first);
  while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
  std::string out = negative && (whole != "0" || !fraction.empty()) ? "-" : "";
  out.append(whole);
  if (!fraction.empty()) out.append(".").append(fraction);
  return out;
}

std::optional<DurationUnit> field_unit(std::string_view field,
                                       const std::vector<std::pair<std::string, DurationUnit>>& units) {
  const auto given = std::find_if(units.rbegin(), units.rend(), [&](const auto& u) { return u.first == field; });
  if (given != units.rend()) return given->second;
  const std::string name = metric_name(field);
  for (const DurationUnit unit :
       {DurationUnit::kSeconds, DurationUnit::kMillis, DurationUnit::kMicros, DurationUnit::kNanos}) {
    for (const std::string_view suffix : unit_suffixes(unit)) {
      if (name.size() > suffix.size() && name.ends_with(suffix)) return unit;
    }
  }
  return std::nullopt;
}

std::string field_metric_name(std::string_view field, std::optional<DurationUnit> unit) {
  std::string name = metric_name(field);
  if (!unit) return name;
  for (const std::string_view suffix : unit_suffixes(*unit)) {
    if (name.size() > suffix.size() && name.ends_with(suffix)) {
      name.erase(name.size() - suffix.size());
      break;
    }
  }
  return name + "_seconds";
}

int digits_to_seconds(DurationUnit unit) {
  switch (unit) {
    case DurationUnit::kSeconds:
      return 0;
    case DurationUnit::kMillis:
      return 3;
    case DurationUnit::kMicros:
      return 6;
    case DurationUnit::kNanos:
      return 9;
  }
  return 0;
}

}  // namespace logagg
