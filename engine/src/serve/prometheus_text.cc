// Prometheus text exposition pieces (see prometheus_text.h).
#include "serve/prometheus_text.h"

#include <algorithm>

#include "text/ascii.h"
#include "text/utf8.h"

namespace logagg {
namespace {

bool name_byte(char c) { return is_digit(c) || is_alpha(c) || c == '_'; }

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

}  // namespace logagg
