// The generators of time texts the time-format tests share (see
// time_generators.h).
#include "reference/time_generators.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace reference {

using Rng = std::mt19937_64;

int64_t uniform(Rng& rng, int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); }

std::string random_digits(Rng& rng, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s += static_cast<char>('0' + rng() % 10);
  return s;
}

std::string write_number(Rng& rng, bool negative, const std::string& int_part, const std::string& fraction) {
  std::string d = int_part + fraction;
  int64_t point = static_cast<int64_t>(int_part.size());  // the value is 0.d * 10^point
  const size_t leading = d.find_first_not_of('0');
  std::string out = negative ? "-" : "";
  if (leading == std::string::npos) {
    const char* zeros[] = {"0", "0.0", "0e7", "0.000E-3"};
    return out + zeros[rng() % 4];
  }
  d.erase(0, leading);
  point -= static_cast<int64_t>(leading);
  if (rng() % 2 == 0) d += std::string(rng() % 4, '0');  // trailing zeros change nothing
  const auto n = static_cast<int64_t>(d.size());
  const auto exponent = [&rng](int64_t e) {
    std::string s = rng() % 2 ? "e" : "E";
    if (e >= 0 && rng() % 2) s += '+';
    return s + std::to_string(e);
  };
  switch (rng() % 4) {
    case 0:  // plain
      if (point <= 0) return out + "0." + std::string(static_cast<size_t>(-point), '0') + d;
      if (point >= n) return out + d + std::string(static_cast<size_t>(point - n), '0');
      return out + d.substr(0, static_cast<size_t>(point)) + "." + d.substr(static_cast<size_t>(point));
    case 1:  // scientific
      return out + d.substr(0, 1) + (n > 1 ? std::string(".").append(d, 1) : "") + exponent(point - 1);
    case 2:  // all digits before the point
      return out + d + exponent(point - n);
    default: {  // the point anywhere, or before every digit
      const auto q = uniform(rng, 0, n);
      if (q == 0) return out + "0." + d + exponent(point);
      return out + d.substr(0, static_cast<size_t>(q)) +
             (q < n ? std::string(".").append(d, static_cast<size_t>(q)) : "") + exponent(point - q);
    }
  }
}

EpochCase near_boundary(Rng& rng, int unit_digits) {
  int64_t whole;
  switch (rng() % 5) {
    case 0:
      whole = uniform(rng, 0, kLastSecond + 1);
      break;
    case 1:
      whole = kLastSecond + uniform(rng, -2, 2);
      break;
    case 2:
      whole = -kFirstSecond + uniform(rng, -2, 2);
      break;
    case 3:
      whole = 1700000000 + uniform(rng, -2, 2);
      break;
    default:
      whole = uniform(rng, 0, 3);
      break;
  }
  return epoch_near(rng, unit_digits, whole);
}

EpochCase epoch_near(Rng& rng, int unit_digits, int64_t whole, std::optional<bool> negative_or_not) {
  int64_t per_second = 1;
  for (int i = 0; i < unit_digits; ++i) per_second *= 10;
  int64_t units;  // into the second
  switch (rng() % 4) {
    case 0:
      units = 0;
      break;
    case 1:
      units = 1 % per_second;
      break;
    case 2:
      units = per_second - 1;
      break;
    default:
      units = uniform(rng, 0, per_second - 1);
      break;
  }
  std::string fraction;
  switch (rng() % 5) {
    case 0:
      break;
    case 1:
      fraction = std::string(1 + rng() % 30, '0');
      break;
    case 2:
      fraction = std::string(1 + rng() % 30, '9');
      break;
    case 3:
      fraction = std::string(rng() % 29, '0') + "1";
      break;
    default:
      fraction = random_digits(rng, 1 + rng() % 30);
      break;
  }
  const bool negative = negative_or_not ? *negative_or_not : rng() % 2 == 0;
  std::string int_part = std::to_string(whole);
  if (unit_digits > 0) {
    const std::string u = std::to_string(units);
    int_part += std::string(static_cast<size_t>(unit_digits) - u.size(), '0') + u;
  }
  const bool exact = units == 0 && fraction.find_first_not_of('0') == std::string::npos;
  const int64_t second = negative ? -whole - (exact ? 0 : 1) : whole;
  EpochCase c{write_number(rng, negative, int_part, fraction), second};
  if (second < kFirstSecond || second > kLastSecond) c.second = std::nullopt;
  return c;
}

std::vector<Piece> pieces(std::string_view pattern) {
  std::vector<Piece> out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '%' && i + 1 < pattern.size() && pattern[i + 1] != '%') {
      out.push_back({pattern[++i], ""});
      continue;
    }
    if (out.empty() || out.back().directive != 0) out.push_back({0, ""});
    out.back().literal += pattern[i];
    i += pattern[i] == '%';
  }
  return out;
}

bool has(const std::vector<Piece>& ps, char directive) {
  return std::any_of(ps.begin(), ps.end(), [directive](const Piece& p) { return p.directive == directive; });
}

std::string offset_text(Rng& rng, int64_t offset_minutes, bool clf) {
  if (!clf && offset_minutes == 0 && rng() % 3 == 0) return "Z";
  const int64_t a = offset_minutes < 0 ? -offset_minutes : offset_minutes;
  char buf[16];
  std::snprintf(buf, sizeof buf, !clf && rng() % 2 ? "%c%02d:%02d" : "%c%02d%02d", offset_minutes < 0 ? '-' : '+',
                static_cast<int>(a / 60), static_cast<int>(a % 60));
  return buf;
}

std::string write_time(Rng& rng, const std::vector<Piece>& ps, date::local_seconds local, int64_t offset_minutes,
                       bool clf) {
  std::string out;
  for (const Piece& p : ps) {
    switch (p.directive) {
      case 0:
        out += p.literal;
        break;
      case 'f':
        out += random_digits(rng, 1 + rng() % 25);
        break;
      case 'z':
        out += offset_text(rng, offset_minutes, clf);
        break;
      case 'e': {
        std::string e = date::format("%e", local);
        if (e[0] == ' ' && rng() % 4 == 0) e[0] = '0';  // "05" is a day for %e too
        out += e;
        break;
      }
      default:
        out += date::format(std::string("%") + p.directive, local);
        break;
    }
  }
  return out;
}

date::local_seconds truncated(const std::vector<Piece>& ps, date::local_seconds local) {
  using namespace std::chrono;
  if (!has(ps, 'H')) return date::floor<date::days>(local);
  if (!has(ps, 'M')) return date::floor<hours>(local);
  if (!has(ps, 'S')) return date::floor<minutes>(local);
  return local;
}

date::local_seconds random_local(Rng& rng) {
  const int64_t first = kFirstSecond, last = kLastSecond;
  const int64_t s = rng() % 3 == 0 ? uniform(rng, first, last) : uniform(rng, -2208988800, 4102444799);  // 1900..2099
  return date::local_seconds{std::chrono::seconds{s}};
}
std::vector<Transition> transitions(const date::time_zone* zone) {
  std::vector<Transition> out;
  date::sys_seconds t = date::sys_days{date::year{1900} / 1 / 1};
  const date::sys_seconds end = date::sys_days{date::year{2037} / 1 / 1};
  for (;;) {
    const date::sys_info info = zone->get_info(t);
    if (info.end >= end) break;
    const date::sys_info next = zone->get_info(info.end);
    out.push_back({info.end.time_since_epoch().count(), info.offset.count(), next.offset.count()});
    t = info.end;
  }
  return out;
}

date::local_seconds near_transition(Rng& rng, const std::vector<Transition>& ts) {
  if (ts.empty() || rng() % 8 == 0) return random_local(rng);
  const Transition& t = ts[rng() % ts.size()];
  const int64_t lo = t.at + std::min(t.before, t.after), hi = t.at + std::max(t.before, t.after);
  int64_t s;
  switch (rng() % 3) {
    case 0:
      s = lo + uniform(rng, -7200, 7200);
      break;
    case 1:
      s = hi + uniform(rng, -7200, 7200);
      break;
    default:
      s = hi > lo ? uniform(rng, lo, hi - 1) : lo;
      break;
  }
  return date::local_seconds{std::chrono::seconds{s}};
}

std::optional<int64_t> in_zone(const date::time_zone* zone, date::local_seconds local) {
  if (zone->get_info(local).result == date::local_info::nonexistent) return std::nullopt;
  return zone->to_sys(local, date::choose::earliest).time_since_epoch().count();
}

}  // namespace reference
