// Differential tests of the time formats (engine/src/parse/time_format.h)
// against the slow reference (tests/reference/time_reference.h), and both
// against the truth the generators know:
// - unix, unix-ms, unix-us, unix-ns: numbers next to second boundaries (the
//   units just at, after and before one, fractions of up to 30 digits of 0s,
//   9s or noise), negative ones, at the year limits 0000 and 9999, written
//   plainly and with exponents that move the point anywhere; then the same
//   with random edits;
// - clf and patterns with %z: texts written by date::format from random local
//   times and offsets (years 0000..9999), brackets and %z's three forms,
//   fractions of any length; then with random edits;
// - patterns in an input zone: local times within two hours of every
//   transition from 1900 to 2037 of Europe/Berlin, America/New_York,
//   Australia/Lord_Howe (30-minute DST) and Asia/Kathmandu (+05:30 to +05:45),
//   inside their gaps and overlaps as well, and in UTC;
// - formats shared by threads, whose per-thread zone caches must not mix.
// A disagreement prints the format, zone and text.
#include <date/date.h>
#include <date/tz.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "parse/time_format.h"
#include "reference/time_reference.h"

namespace {

using logagg::TimeFormat;
using Rng = std::mt19937_64;

constexpr int64_t kFirstSecond = -62167219200;  // 0000-01-01T00:00:00Z
constexpr int64_t kLastSecond = 253402300799;   // 9999-12-31T23:59:59Z

std::string printable(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", static_cast<unsigned char>(c));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

std::string show(const std::optional<int64_t>& s) { return s ? std::to_string(*s) : "no match"; }

// Counts disagreements and reports the first few in full; some cases must
// match, so that a broken generator cannot pass by rejecting everything.
class Disagreements {
 public:
  void check(const std::string& what, std::string_view text, const std::optional<int64_t>& engine,
             const std::optional<int64_t>& expected, const char* expected_by) {
    ++cases_;
    matched_ += expected.has_value();
    if (engine == expected) return;
    if (++count_ <= 10) {
      ADD_FAILURE() << what << " on " << printable(text) << ": engine " << show(engine) << ", " << expected_by << " "
                    << show(expected);
    }
  }
  ~Disagreements() {
    EXPECT_EQ(count_, 0) << "disagreements in " << cases_ << " cases";
    EXPECT_GT(matched_, 0) << "no case in " << cases_ << " matches: the generator is broken";
  }

 private:
  long cases_ = 0, count_ = 0, matched_ = 0;
};

int64_t uniform(Rng& rng, int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); }

std::string random_digits(Rng& rng, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s += static_cast<char>('0' + rng() % 10);
  return s;
}

// One to three random edits (insert, delete, replace) with bytes from `alphabet`.
std::string mutated(std::string text, Rng& rng, std::string_view alphabet) {
  for (int edits = 1 + static_cast<int>(rng() % 3); edits > 0; --edits) {
    const size_t at = text.empty() ? 0 : rng() % (text.size() + 1);
    const char c = alphabet[rng() % alphabet.size()];
    switch (rng() % 3) {
      case 0:
        text.insert(at, 1, c);
        break;
      case 1:
        if (at < text.size()) text.erase(at, 1);
        break;
      default:
        if (at < text.size()) text[at] = c;
        break;
    }
  }
  return text;
}

// ---------------------------------------------------------------------------
// unix, unix-ms, unix-us, unix-ns

struct EpochFormat {
  const char* name;
  int unit_digits;
};
constexpr EpochFormat kEpochFormats[] = {{"unix", 0}, {"unix-ms", 3}, {"unix-us", 6}, {"unix-ns", 9}};

// A number and the second it floors to (nullopt outside the years 0000..9999).
struct EpochCase {
  std::string text;
  std::optional<int64_t> second;
};

// Writes sign, integer digits and fraction digits as an RFC 8259 number in
// one of several forms, moving the decimal point with an exponent.
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
      return out + d.substr(0, 1) + (n > 1 ? "." + d.substr(1) : "") + exponent(point - 1);
    case 2:  // all digits before the point
      return out + d + exponent(point - n);
    default: {  // the point anywhere, or before every digit
      const auto q = uniform(rng, 0, n);
      if (q == 0) return out + "0." + d + exponent(point);
      return out + d.substr(0, static_cast<size_t>(q)) + (q < n ? "." + d.substr(static_cast<size_t>(q)) : "") +
             exponent(point - q);
    }
  }
}

// A number next to a second boundary: `whole` seconds and units into the
// next second of 0, 1, all but one or any, then a fraction of a unit.
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
  const bool negative = rng() % 2 == 0;
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

TEST(TimeFormatDifferential, EpochsNextToSecondBoundaries) {
  Rng rng(1401);
  for (const EpochFormat& f : kEpochFormats) {
    const TimeFormat format = TimeFormat::compile(f.name);
    Disagreements by_truth, by_reference;
    for (int i = 0; i < 40000; ++i) {
      const EpochCase c = near_boundary(rng, f.unit_digits);
      const auto engine = format.second(c.text);
      by_truth.check(f.name, c.text, engine, c.second, "generator");
      by_reference.check(f.name, c.text, engine, reference::epoch_second(c.text, f.unit_digits), "reference");
    }
  }
}

TEST(TimeFormatDifferential, EpochsEdited) {
  Rng rng(1402);
  for (const EpochFormat& f : kEpochFormats) {
    const TimeFormat format = TimeFormat::compile(f.name);
    Disagreements d;
    for (int i = 0; i < 40000; ++i) {
      const std::string text = mutated(near_boundary(rng, f.unit_digits).text, rng, "0123456789012345.eE+-- x0");
      d.check(f.name, text, format.second(text), reference::epoch_second(text, f.unit_digits), "reference");
    }
  }
}

// ---------------------------------------------------------------------------
// clf and patterns

// A pattern's pieces: a directive, or literal bytes (directive 0).
struct Piece {
  char directive;
  std::string literal;
};

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

// `local` written in `ps`, with `offset_minutes` for %z.
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

// `local` without the time fields the pattern leaves out.
date::local_seconds truncated(const std::vector<Piece>& ps, date::local_seconds local) {
  using namespace std::chrono;
  if (!has(ps, 'H')) return date::floor<date::days>(local);
  if (!has(ps, 'M')) return date::floor<hours>(local);
  if (!has(ps, 'S')) return date::floor<minutes>(local);
  return local;
}

// A local time in the years 0000..9999, mostly in this era.
date::local_seconds random_local(Rng& rng) {
  const int64_t first = kFirstSecond, last = kLastSecond;
  const int64_t s = rng() % 3 == 0 ? uniform(rng, first, last) : uniform(rng, -2208988800, 4102444799);  // 1900..2099
  return date::local_seconds{std::chrono::seconds{s}};
}

const char* const kOffsetPatterns[] = {
    "%Y-%m-%dT%H:%M:%S.%f%z", "%d/%b/%Y:%H:%M:%S %z", "[%Y-%m-%d %H:%M:%S%z]",
    "%Y%m%d%H%M%S%z",         "%Y %j %H:%M:%S %z",    "%z %Y-%m-%d %H:%M",
};

const char* const kZonedPatterns[] = {
    "%Y-%m-%d %H:%M:%S", "%b %e %H:%M:%S %Y", "%d.%m.%Y %H:%M:%S,%f",    "%Y-%m-%d %H:%M",
    "%Y-%m-%d",          "%Y %j %H",          "100%% %Y-%m-%dT%H:%M:%S",
};

const char* const kZones[] = {"UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Asia/Kathmandu"};

// The bytes edits draw from for a pattern's texts.
std::string edit_alphabet(std::string_view pattern) {
  return std::string(pattern) + "0123456789012345678901234567890 +-:Z[]JanFebNovDecjan.";
}

TEST(TimeFormatDifferential, ClfAgainstDateParse) {
  Rng rng(1403);
  const TimeFormat format = TimeFormat::compile("clf");
  const reference::TimePattern ref = reference::TimePattern::clf();
  const std::vector<Piece> ps = pieces("%d/%b/%Y:%H:%M:%S %z");
  Disagreements by_truth, by_reference, edited;
  for (int i = 0; i < 20000; ++i) {
    const date::local_seconds local = random_local(rng);
    const int64_t offset = rng() % 2 ? uniform(rng, -1439, 1439) : 60 * uniform(rng, -12, 14);
    std::string text = write_time(rng, ps, local, offset, true);
    if (rng() % 2) text = "[" + text + "]";
    const auto engine = format.second(text);
    by_truth.check("clf", text, engine, (local - std::chrono::minutes{offset}).time_since_epoch().count(), "generator");
    by_reference.check("clf", text, engine, ref.second(text), "reference");
    const std::string edit = mutated(text, rng, edit_alphabet("[]/:"));
    edited.check("clf", edit, format.second(edit), ref.second(edit), "reference");
  }
}

TEST(TimeFormatDifferential, PatternsWithOffsetsAgainstDateParse) {
  Rng rng(1404);
  for (const char* pattern : kOffsetPatterns) {
    const TimeFormat format = TimeFormat::compile(pattern);
    const reference::TimePattern ref(pattern, "");
    const std::vector<Piece> ps = pieces(pattern);
    Disagreements by_truth, by_reference, edited;
    for (int i = 0; i < 6000; ++i) {
      const date::local_seconds local = random_local(rng);
      const int64_t offset = rng() % 2 ? uniform(rng, -1439, 1439) : 60 * uniform(rng, -12, 14);
      const std::string text = write_time(rng, ps, local, offset, false);
      const auto engine = format.second(text);
      by_truth.check(pattern, text, engine,
                     (truncated(ps, local) - std::chrono::minutes{offset}).time_since_epoch().count(), "generator");
      by_reference.check(pattern, text, engine, ref.second(text), "reference");
      const std::string edit = mutated(text, rng, edit_alphabet(pattern));
      edited.check(pattern, edit, format.second(edit), ref.second(edit), "reference");
    }
  }
}

// A zone's transitions (UTC) from 1900 to 2037, with the offsets before and after.
struct Transition {
  int64_t at, before, after;
};
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

// A local time near one of `ts`: within two hours of its wall-clock times
// before and after, or inside its gap or overlap.
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

// The earliest UTC second showing `local` in `zone`, or nullopt in a gap.
std::optional<int64_t> in_zone(const date::time_zone* zone, date::local_seconds local) {
  if (zone->get_info(local).result == date::local_info::nonexistent) return std::nullopt;
  return zone->to_sys(local, date::choose::earliest).time_since_epoch().count();
}

TEST(TimeFormatDifferential, PatternsInZonesAroundTransitions) {
  Rng rng(1405);
  for (const char* zone_name : kZones) {
    const date::time_zone* zone = date::locate_zone(zone_name);
    const std::vector<Transition> ts = transitions(zone);
    for (const char* pattern : kZonedPatterns) {
      const TimeFormat format = TimeFormat::compile(pattern, zone_name);
      const reference::TimePattern ref(pattern, zone_name);
      const std::vector<Piece> ps = pieces(pattern);
      const std::string what = std::string(pattern) + " in " + zone_name;
      Disagreements by_truth, by_reference, edited;
      int skipped = 0;  // local times in a gap
      for (int i = 0; i < 3000; ++i) {
        const date::local_seconds local = near_transition(rng, ts);
        const std::string text = write_time(rng, ps, local, 0, false);
        const auto engine = format.second(text);
        const auto truth = in_zone(zone, truncated(ps, local));
        skipped += !truth.has_value();
        by_truth.check(what, text, engine, truth, "generator");
        by_reference.check(what, text, engine, ref.second(text), "reference");
        const std::string edit = mutated(text, rng, edit_alphabet(pattern));
        edited.check(what, edit, format.second(edit), ref.second(edit), "reference");
      }
      // Every zone but UTC skips local times, at least at the hour for patterns with %H.
      if (ts.empty() || !has(ps, 'H')) continue;
      EXPECT_GT(skipped, 0) << what;
    }
  }
}

TEST(TimeFormatDifferential, ThreadsShareFormatsAndKeepTheirOwnZoneCaches) {
  Rng rng(1406);
  struct Item {
    const TimeFormat* format;
    std::string text;
    std::optional<int64_t> expected;
  };
  const std::vector<std::string> zones = {"Europe/Berlin", "America/New_York", "Australia/Lord_Howe"};
  std::vector<TimeFormat> formats;
  for (const std::string& z : zones) formats.push_back(TimeFormat::compile("%Y-%m-%d %H:%M:%S", z));
  const std::vector<Piece> ps = pieces("%Y-%m-%d %H:%M:%S");
  std::vector<Item> items;
  for (size_t z = 0; z < zones.size(); ++z) {
    const date::time_zone* zone = date::locate_zone(zones[z]);
    const std::vector<Transition> ts = transitions(zone);
    for (int i = 0; i < 3000; ++i) {
      const date::local_seconds local = near_transition(rng, ts);
      items.push_back({&formats[z], write_time(rng, ps, local, 0, false), in_zone(zone, local)});
    }
  }
  std::atomic<long> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&items, &wrong, t] {
      std::vector<const Item*> order;
      for (const Item& item : items) order.push_back(&item);
      std::shuffle(order.begin(), order.end(), Rng(static_cast<uint64_t>(t)));
      for (int round = 0; round < 3; ++round) {
        for (const Item* item : order) wrong += item->format->second(item->text) != item->expected;
      }
    });
  }
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(wrong.load(), 0);
}

}  // namespace
