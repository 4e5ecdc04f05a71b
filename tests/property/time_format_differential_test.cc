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
#include "reference/time_generators.h"
#include "reference/time_reference.h"

namespace {

using logagg::TimeFormat;
using Rng = std::mt19937_64;

using reference::EpochCase;
using reference::has;
using reference::in_zone;
using reference::near_boundary;
using reference::near_transition;
using reference::Piece;
using reference::pieces;
using reference::random_local;
using reference::Transition;
using reference::transitions;
using reference::truncated;
using reference::uniform;
using reference::write_time;

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
