// The reference for the time formats (see time_reference.h).
#include "reference/time_reference.h"

#include <date/date.h>
#include <date/tz.h>

#include <chrono>
#include <sstream>
#include <stdexcept>

namespace reference {
namespace {

// The UTC seconds of 0000-01-01T00:00:00 and 9999-12-31T23:59:59.
int64_t first_second() { return date::sys_seconds{date::sys_days{date::year{0} / 1 / 1}}.time_since_epoch().count(); }
int64_t last_second() {
  return date::sys_seconds{date::sys_days{date::year{10000} / 1 / 1}}.time_since_epoch().count() - 1;
}

std::string escaped(char c) {
  const std::string plain = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ";
  if (plain.find(c) != std::string::npos) return std::string(1, c);
  if (static_cast<unsigned char>(c) >= 0x80) return std::string(1, c);  // no special meaning in a regex
  return std::string("\\") + c;
}

}  // namespace

std::optional<int64_t> epoch_second(std::string_view text, int unit_digits) {
  static const std::regex kNumber(R"(-?(0|[1-9][0-9]*)(\.([0-9]+))?([eE]([+-]?[0-9]+))?)");
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_match(text.begin(), text.end(), m, kNumber)) return std::nullopt;
  const bool negative = text.front() == '-';
  const std::string int_part = m[1].str(), fraction = m[3].str();
  std::string exponent_text = m[5].str();
  long long exponent = 0;
  {
    const bool minus = !exponent_text.empty() && exponent_text[0] == '-';
    if (!exponent_text.empty() && (exponent_text[0] == '-' || exponent_text[0] == '+')) exponent_text.erase(0, 1);
    exponent_text.erase(0, std::min(exponent_text.find_first_not_of('0'), exponent_text.size()));
    // Beyond a billion, every nonzero value is out of range or under a unit.
    exponent = exponent_text.size() > 9 ? 1000000000LL : (exponent_text.empty() ? 0 : std::stoll(exponent_text));
    if (minus) exponent = -exponent;
  }
  // value = digits * 10^shift seconds
  std::string digits = int_part + fraction;
  const long long shift = exponent - static_cast<long long>(fraction.size()) - unit_digits;
  const size_t leading = digits.find_first_not_of('0');
  if (leading == std::string::npos) return 0;
  digits.erase(0, leading);

  std::string whole, rest;
  if (shift >= 0) {
    if (static_cast<long long>(digits.size()) + shift > 15) return std::nullopt;
    whole = digits + std::string(static_cast<size_t>(shift), '0');
  } else {
    const long long integer_digits = static_cast<long long>(digits.size()) + shift;
    if (integer_digits <= 0) {
      whole = "0";
      rest = digits;
    } else {
      whole = digits.substr(0, static_cast<size_t>(integer_digits));
      rest = digits.substr(static_cast<size_t>(integer_digits));
    }
  }
  if (whole.size() > 15) return std::nullopt;
  int64_t second = std::stoll(whole);
  if (negative) second = -second - (rest.find_first_not_of('0') != std::string::npos ? 1 : 0);
  if (second < first_second() || second > last_second()) return std::nullopt;
  return second;
}

TimePattern::TimePattern(std::string_view pattern, std::string_view zone)
    : zone_(zone.empty() ? nullptr : date::locate_zone(zone)) {
  std::string regex;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%' || (i + 1 < pattern.size() && pattern[i + 1] == '%')) {
      if (tokens_.empty() || tokens_.back().directive != 0) tokens_.push_back({0, ""});
      tokens_.back().literal += pattern[i];
      regex += escaped(pattern[i]);
      date_format_ += pattern[i] == '%' ? "%%" : std::string(1, pattern[i]);
      i += pattern[i] == '%';
      continue;
    }
    const char d = pattern[++i];
    tokens_.push_back({d, ""});
    switch (d) {
      case 'Y':
        regex += "([0-9]{4})";
        break;
      case 'm':
      case 'd':
      case 'H':
      case 'M':
      case 'S':
        regex += "([0-9]{2})";
        break;
      case 'e':
        regex += "([ 0-9][0-9])";
        break;
      case 'j':
        regex += "([0-9]{3})";
        break;
      case 'b':
        regex += "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)";
        break;
      case 'f':
        regex += "([0-9]+)";
        break;
      case 'z':
        regex += "(Z|[+-](?:[01][0-9]|2[0-3]):?[0-5][0-9])";
        has_offset_ = true;
        break;
      default:
        throw std::invalid_argument(std::string("no directive %") + d);
    }
    if (d != 'f') date_format_ += std::string("%") + d;
  }
  regex_ = std::regex(regex);
}

TimePattern TimePattern::clf() {
  TimePattern p("%d/%b/%Y:%H:%M:%S %z", "");
  p.regex_ = std::regex(R"(([0-9]{2})/(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)/([0-9]{4}):)"
                        R"(([0-9]{2}):([0-9]{2}):([0-9]{2}) ([+-](?:[01][0-9]|2[0-3])[0-5][0-9]))");
  p.brackets_ = true;
  return p;
}

std::optional<int64_t> TimePattern::second(std::string_view text) const {
  if (brackets_ && text.size() >= 2 && text.front() == '[' && text.back() == ']') {
    text = text.substr(1, text.size() - 2);
  }
  std::match_results<std::string_view::const_iterator> m;
  if (!std::regex_match(text.begin(), text.end(), m, regex_)) return std::nullopt;

  // The text date::parse reads: no fraction, "+hhmm" offsets, %e as two digits.
  std::string rewritten;
  int year = -1, year_day = -1;
  size_t group = 1;
  for (const Token& token : tokens_) {
    if (token.directive == 0) {
      rewritten += token.literal;
      continue;
    }
    std::string value = m[group++].str();
    switch (token.directive) {
      case 'f':
        value.clear();
        break;
      case 'z':
        if (value == "Z") value = "+0000";
        if (value.size() == 6) value.erase(3, 1);  // +hh:mm
        break;
      case 'e':
        if (value[0] == ' ') value[0] = '0';
        break;
      case 'Y':
        year = std::stoi(value);
        break;
      case 'j':
        year_day = std::stoi(value);
        break;
      default:
        break;
    }
    rewritten += value;
  }

  std::istringstream in(rewritten);
  date::local_seconds local;
  std::chrono::minutes offset{0};
  in >> date::parse(date_format_, local, offset);
  if (in.fail() || in.peek() != std::char_traits<char>::eof()) return std::nullopt;
  // date takes any day of the year (000 is the last of the year before, and
  // past the year's end it counts on into the next year's months), so the
  // range is checked here, and the year once more.
  if (year_day != -1 && (year_day < 1 || year_day > (date::year{year}.is_leap() ? 366 : 365))) return std::nullopt;
  if (date::year_month_day{date::floor<date::days>(local)}.year() != date::year{year}) return std::nullopt;
  if (has_offset_) return (local - offset).time_since_epoch().count();
  const date::local_info info = zone_->get_info(local);
  if (info.result == date::local_info::nonexistent) return std::nullopt;
  return zone_->to_sys(local, date::choose::earliest).time_since_epoch().count();
}

}  // namespace reference
