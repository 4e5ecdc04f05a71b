// A row's measure columns as text (see measure_text.h).
#include "report/measure_text.h"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cmath>
#include <stdexcept>
#include <string_view>

#include "report/report_text.h"

namespace logagg {

namespace {

// An integer past 64 bits gets a fraction, so that JSON readers take it as
// a number (simdjson refuses such integers as too big). `v` is what `out`
// holds from `at` on.
void mark_big_integer(std::string& out, size_t at, double v) {
  if (std::fabs(v) >= 0x1p64 && out.find('.', at) == std::string::npos) out.append(".0");
}

}  // namespace

void append_plain_double(std::string& out, double v) {
  if (v == 0) {  // -0 too
    out.push_back('0');
    return;
  }
  char buf[400];  // the longest fixed-notation double (-1.8e308, or 4.9e-324's 327 fraction digits) fits
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed);
  const size_t at = out.size();
  out.append(buf, r.ptr);
  mark_big_integer(out, at, v);
}

void append_rounded_double(std::string& out, double v, int significant) {
  if (v == 0) {
    out.push_back('0');
    return;
  }
  // d.ddddddde±X (as printf's %.*e writes it: rounded exactly, half to even
  // on ties of the exact binary value), then the point moved by X and the
  // trailing zeros dropped. Once per quantile cell of a report: to_chars,
  // not snprintf, which was a measurable share of a RED report's run.
  char sci[64];
  const auto written = std::to_chars(sci, sci + sizeof sci, v, std::chars_format::scientific, significant - 1);
  const std::string_view s(sci, static_cast<size_t>(written.ptr - sci));
  const size_t e = s.find('e');
  const bool negative = s[0] == '-';
  char digit_buf[64];
  size_t n = 0;
  for (const char c : s.substr(negative, e - negative)) {
    if (c != '.') digit_buf[n++] = c;
  }
  int exponent = 0;
  std::from_chars(sci + e + (s[e + 1] == '+' ? 2 : 1), written.ptr, exponent);
  while (n > 1 && digit_buf[n - 1] == '0') --n;
  const std::string_view digits(digit_buf, n);
  if (negative) out.push_back('-');
  const int point = exponent + 1;  // digits before the point
  if (point <= 0) {
    out.append("0.").append(static_cast<size_t>(-point), '0').append(digits);
  } else if (static_cast<size_t>(point) >= digits.size()) {
    const size_t at = out.size();
    out.append(digits).append(static_cast<size_t>(point) - digits.size(), '0');
    mark_big_integer(out, at, v);
  } else {
    out.append(digits.substr(0, static_cast<size_t>(point))).append(".").append(digits.substr(static_cast<size_t>(point)));
  }
}

namespace {

// matched / count rounded half up to 4 decimals, in integers. count > 0.
void append_ratio(std::string& out, uint64_t matched, uint64_t count) {
  const auto scaled = static_cast<uint64_t>((static_cast<FixedMagnitude>(matched) * 20000 + count) / (2 * count));
  append_number(out, scaled / 10000);
  char frac[8];
  std::snprintf(frac, sizeof frac, ".%04llu", static_cast<unsigned long long>(scaled % 10000));
  out.append(frac);
}

constexpr int kQuantileDigits = 7;

}  // namespace

MeasureText::MeasureText(MeasureSpec spec, const std::vector<std::pair<std::string, DurationUnit>>& units)
    : spec_(std::move(spec)), columns_(spec_.columns()) {
  for (const MeasureSpec::Field& f : spec_.fields) units_.push_back(unit_of(units, f.name));
}

void MeasureText::values(const MeasureCell* cell, uint64_t count, std::vector<Value>& out) const {
  out.resize(columns_.size());
  size_t c = 0;
  const auto next = [&](bool present, bool exact = false) -> std::string& {
    Value& v = out[c++];
    v.text.clear();
    v.present = present;
    v.exact = exact;
    return v.text;
  };
  for (size_t i = 0; i < spec_.count_if.size(); ++i) {
    const uint64_t matched = cell != nullptr ? cell->matched[i] : 0;
    append_number(next(true), matched);
    std::string& ratio = next(count > 0);
    if (count > 0) append_ratio(ratio, matched, count);
  }
  for (size_t i = 0; i < spec_.fields.size(); ++i) {
    const MeasureSpec::Field& field = spec_.fields[i];
    static const FieldMeasure kNone;
    const FieldMeasure& f = cell != nullptr ? cell->fields[i] : kNone;
    const std::optional<DurationUnit> unit = units_[i];
    append_number(next(true), f.n);
    if (field.summed) {
      // No sum of lines none of which had a number (an empty bucket's is 0), nor past the range.
      const bool summed = !f.sum.overflowed() && (f.n > 0 || count == 0);
      std::string& sum = next(summed, true);
      if (summed) {
        f.sum.append(sum, f.digits);
        if (unit) sum.append(" ").append(unit_name(*unit));
      }
    }
    if (!field.quantiled) continue;
    const bool any = f.n > 0;
    // min, max and the least and greatest rank exactly (with the decimal
    // of a value its double does not write back); other ranks rounded.
    const auto value = [&](double v, const std::string* exact, bool quoted) {
      std::string& text = next(any, quoted);
      if (!any) return;
      if (unit) {
        append_duration(text, v, *unit);
      } else if (exact != nullptr && !exact->empty()) {
        text.append(*exact);
        mark_big_integer(text, 0, v);
      } else if (exact != nullptr) {
        append_plain_double(text, v);
      } else {
        append_rounded_double(text, v, kQuantileDigits);
      }
    };
    value(f.min, &f.min_text, true);
    value(f.max, &f.max_text, true);
    for (const Percentile& p : spec_.percentiles) {
      bool exact = true;
      const double q = any ? quantile_of(f, p, &exact) : 0;
      value(q, !exact ? nullptr : p.rank(f.n) == 1 ? &f.min_text : &f.max_text, false);
    }
  }
}

std::optional<DurationUnit> unit_of(const std::vector<std::pair<std::string, DurationUnit>>& units,
                                    std::string_view field) {
  std::optional<DurationUnit> found;
  for (const auto& [name, unit] : units) {
    if (name == field) found = unit;
  }
  return found;
}

std::string_view unit_name(DurationUnit unit) {
  static constexpr std::string_view kNames[] = {"s", "ms", "µs", "ns"};
  return kNames[static_cast<size_t>(unit)];
}

DurationUnit parse_duration_unit(std::string_view text) {
  if (text == "s") return DurationUnit::kSeconds;
  if (text == "ms") return DurationUnit::kMillis;
  if (text == "us" || text == "µs") return DurationUnit::kMicros;
  if (text == "ns") return DurationUnit::kNanos;
  throw std::invalid_argument("want a unit of time: s, ms, us (or µs), ns");
}

void append_duration(std::string& out, double v, DurationUnit unit) {
  const auto written = static_cast<int>(unit);
  if (v == 0) {
    out.append("0 ").append(unit_name(unit));
    return;
  }
  // The largest unit in which v rounds to 1 or more at 3 digits (999.7 ms is 1 s).
  int shown = 3;
  double scaled = 0;
  for (int u = 0; u <= 3; ++u) {
    scaled = v * std::pow(1000.0, u - written);
    if (std::fabs(scaled) >= 0.9995) {
      shown = u;
      break;
    }
  }
  const double whole = std::floor(std::log10(std::fabs(scaled))) + 1;  // digits before the point
  const size_t at = out.size();
  append_rounded_double(out, scaled, std::clamp(static_cast<int>(whole), 3, 17));
  // The ".0" that marks an integer past 2^64 for json readers: none read this.
  if (out.size() > at + 2 && out.ends_with(".0")) out.resize(out.size() - 2);
  out.append(" ").append(unit_name(static_cast<DurationUnit>(shown)));
}

void MeasureText::append_json(std::string& out, const Value& v) {
  if (!v.present) {
    out.append("null");
  } else if (v.exact) {
    out.append("\"").append(v.text).push_back('"');
  } else {
    out.append(v.text);
  }
}

}  // namespace logagg
