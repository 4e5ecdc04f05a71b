// Tests for count/counter.h: a Counter tallies every verdict (counted, outside
// [since, until), blank, rejected by reason) and counts lines per UTC second,
// or per (second, app) with an app table (listed as each second ends); when
// its map or list reaches the cap it empties it into the SharedCounts at once;
// SharedCounts adds what every counter spills and hands the counts back sorted
// (take_sorted), the apps renumbered and equal pairs added up
// (take_app_sorted). A MeasureCounter's cells spilled at its cap and made
// again over the spilled ones count as cells never spilled; its cap grows
// only while spilled cells come back.
#include "count/counter.h"

#include <gtest/gtest.h>

#include <map>
#include <numeric>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "count/measure_counter.h"
#include "logagg/measure_table.h"
#include "parse/measure_value.h"
#include "support/print_counts.h"

namespace logagg {
namespace {

LineVerdict counted(int64_t second, std::string_view app = {}) { return LineVerdict::counted(second, app); }
LineVerdict rejected(Reason r) { return LineVerdict::rejected(r); }

uint64_t rejected_count(const Summary& s, Reason r) { return s.rejected[static_cast<size_t>(r)]; }

TEST(Counter, TalliesEveryVerdict) {
  SharedCounts shared;
  Counter counter(shared);
  for (const LineVerdict& v :
       {counted(5), LineVerdict::blank(), rejected(Reason::kBadTime), counted(5), rejected(Reason::kInvalidJson),
        rejected(Reason::kBadTime), LineVerdict::blank(), rejected(Reason::kLineTooLong), counted(-3)}) {
    counter.record(v);
  }
  const Summary s = counter.tally();
  EXPECT_EQ(s.lines, 9u);
  EXPECT_EQ(s.counted, 3u);
  EXPECT_EQ(s.blank, 2u);
  EXPECT_EQ(s.outside_range, 0u);
  EXPECT_EQ(s.rejected_total(), 4u);
  EXPECT_EQ(rejected_count(s, Reason::kBadTime), 2u);
  EXPECT_EQ(rejected_count(s, Reason::kInvalidJson), 1u);
  EXPECT_EQ(rejected_count(s, Reason::kLineTooLong), 1u);
  EXPECT_EQ(rejected_count(s, Reason::kNotObject), 0u);
  EXPECT_EQ(s.files, 0u);
  EXPECT_EQ(s.bytes, 0u);
  EXPECT_EQ(s.lines, s.counted + s.outside_range + s.blank + s.rejected_total());
}

// How lines held the question's fields (field_kinds, two bits a field) is
// tallied per field, for counted and filtered lines alike: with few fields
// the lines are counted by all their kinds at once and spread at tally(),
// with more field by field; both against a count of each line's kinds.
TEST(Counter, TalliesHowLinesHeldEachField) {
  std::mt19937_64 rng(8);
  for (const size_t fields : {size_t{1}, size_t{3}, size_t{4}, size_t{9}}) {
    SharedCounts shared;
    Counter counter(shared, INT64_MIN, INT64_MAX, nullptr, Counter::kDefaultMaxSeconds, nullptr, nullptr, false,
                    fields);
    std::vector<FieldTally> want(fields);
    for (int line = 0; line < 2000; ++line) {
      uint32_t kinds = 0;
      for (size_t f = 0; f < fields; ++f) {
        const auto kind = static_cast<uint32_t>(rng() % 4);
        kinds |= kind << (2 * f);
        ++(kind == 0 ? want[f].absent : kind == 1 ? want[f].numbers : kind == 2 ? want[f].strings : want[f].others);
      }
      LineVerdict v = rng() % 3 == 0 ? LineVerdict::filtered(0, kinds) : counted(100 + line / 100);
      v.field_kinds = kinds;
      counter.record(v);
    }
    const Summary s = counter.tally();
    ASSERT_EQ(s.fields.size(), fields);
    for (size_t f = 0; f < fields; ++f) {
      EXPECT_EQ(s.fields[f].absent, want[f].absent) << fields << " " << f;
      EXPECT_EQ(s.fields[f].numbers, want[f].numbers) << fields << " " << f;
      EXPECT_EQ(s.fields[f].strings, want[f].strings) << fields << " " << f;
      EXPECT_EQ(s.fields[f].others, want[f].others) << fields << " " << f;
    }
    EXPECT_EQ(counter.tally().fields[0].absent, s.fields[0].absent);  // tally() again: the same, not added twice
  }
}

TEST(Counter, EveryReasonHasItsOwnSlot) {
  SharedCounts shared;
  Counter counter(shared);
  for (size_t r = 0; r < kReasonCount; ++r) {
    for (size_t k = 0; k <= r; ++k) counter.record(rejected(static_cast<Reason>(r)));
  }
  for (size_t r = 0; r < kReasonCount; ++r) EXPECT_EQ(counter.tally().rejected[r], r + 1) << r;
  EXPECT_EQ(counter.tally().counted, 0u);
}

TEST(Counter, CountsPerSecondSortedAfterTheSpill) {
  SharedCounts shared;
  Counter counter(shared);
  for (const int64_t s : {7, -1, 7, 0, 7, 1700000000, -1}) counter.record(counted(s));
  counter.record(LineVerdict::blank());
  counter.record(rejected(Reason::kBadApp));
  counter.spill();
  EXPECT_EQ(shared.take_sorted(), (std::vector<SecondCount>{{-1, 2}, {0, 1}, {7, 3}, {1700000000, 1}}));
  EXPECT_TRUE(shared.take_sorted().empty()) << "taking leaves the shared counts empty";
}

TEST(Counter, SinceIsIncludedUntilIsNot) {
  SharedCounts shared;
  Counter counter(shared, /*since=*/100, /*until=*/200);
  for (const int64_t s : {99, 100, 150, 199, 200, 5000, -100}) counter.record(counted(s));
  counter.spill();
  EXPECT_EQ(counter.tally().lines, 7u);
  EXPECT_EQ(counter.tally().counted, 3u);
  EXPECT_EQ(counter.tally().outside_range, 4u);
  EXPECT_EQ(shared.take_sorted(), (std::vector<SecondCount>{{100, 1}, {150, 1}, {199, 1}}));
}

TEST(Counter, TheRangeAppliesPerAppToo) {
  SharedCounts shared;
  AppTable apps(10);
  Counter counter(shared, 10, 20, &apps);
  counter.record(counted(9, "early"));
  counter.record(counted(10, "kept"));
  counter.record(counted(20, "late"));
  counter.spill();
  EXPECT_EQ(counter.tally().outside_range, 2u);
  EXPECT_EQ(apps.names(), std::vector<std::string>{"kept"}) << "apps of lines outside the range are not numbered";
  EXPECT_EQ(shared.take_app_sorted({0}, 1), (std::vector<AppCount>{{10, 0, 1}}));
}

TEST(Counter, CountsPerSecondAndAppWithAnAppTable) {
  SharedCounts shared;
  AppTable apps(10);
  Counter counter(shared, INT64_MIN, INT64_MAX, &apps);
  // Numbered in the order met: web 0, api 1, db 2.
  for (const auto& [s, app] : std::vector<std::pair<int64_t, std::string_view>>{
           {2, "web"}, {1, "api"}, {2, "web"}, {2, "api"}, {1, "db"}, {1, "api"}}) {
    counter.record(counted(s, app));
  }
  counter.spill();
  EXPECT_EQ(counter.tally().counted, 6u);
  EXPECT_TRUE(shared.take_sorted().empty()) << "with apps, lines are counted per (second, app) instead";
  // Renumbered by name: api 0, db 1, web 2.
  EXPECT_EQ(shared.take_app_sorted({2, 0, 1}, 3), (std::vector<AppCount>{{1, 0, 2}, {1, 1, 1}, {2, 0, 1}, {2, 2, 2}}));
  EXPECT_TRUE(shared.take_app_sorted({2, 0, 1}, 3).empty()) << "taking leaves the shared counts empty";
}

TEST(Counter, IdsLeftOutOfAFullTableAreCountedAsOther) {
  SharedCounts shared;
  AppTable apps(1);
  Counter counter(shared, INT64_MIN, INT64_MAX, &apps);
  for (const std::string_view app : {"a", "b", "c", "a", "b"}) counter.record(counted(5, app));
  counter.spill();
  EXPECT_TRUE(apps.capped());
  // b and c share one count under the number given for kOther.
  EXPECT_EQ(shared.take_app_sorted({0}, 7), (std::vector<AppCount>{{5, 0, 2}, {5, 7, 3}}));
}

TEST(Counter, AFullMapSpillsIntoTheSharedCountsAtOnce) {
  SharedCounts shared;
  Counter counter(shared, INT64_MIN, INT64_MAX, nullptr, /*max_seconds=*/3);
  counter.record(counted(1));
  counter.record(counted(2));
  counter.record(counted(1));
  EXPECT_TRUE(shared.take_sorted().empty()) << "below the cap nothing is spilled before the end";
  counter.record(counted(3));  // the third distinct second: the map is full
  EXPECT_EQ(shared.take_sorted(), (std::vector<SecondCount>{{1, 2}, {2, 1}, {3, 1}}));
  // The emptied map goes on; a second already spilled adds up with the next spill.
  counter.record(counted(1));
  counter.record(counted(4));
  counter.record(counted(2));
  counter.record(counted(1));
  counter.record(counted(9));
  EXPECT_EQ(shared.take_sorted(), (std::vector<SecondCount>{{1, 1}, {2, 1}, {4, 1}}));
  counter.spill();
  EXPECT_EQ(shared.take_sorted(), (std::vector<SecondCount>{{1, 1}, {9, 1}}));
  EXPECT_EQ(counter.tally().counted, 9u);
}

// Lines of one second in a row are counted as a run, the map holding only its
// first line until the run ends: every run must reach the counts whole, when
// another second comes, at a spill of the full map in the middle of a run,
// and at the end.
TEST(Counter, RunsOfOneSecondReachTheCountsWhole) {
  SharedCounts shared;
  Counter counter(shared, INT64_MIN, INT64_MAX, nullptr, /*max_seconds=*/3);
  for (const int64_t second : {5, 5, 5, 6, 5, 5}) counter.record(counted(second));
  EXPECT_TRUE(shared.take_sorted().empty()) << "two distinct seconds: below the cap";
  counter.record(counted(0));  // the third distinct second fills the map: the runs of 5 went in whole
  EXPECT_EQ(shared.take_sorted(), (std::vector<SecondCount>{{0, 1}, {5, 5}, {6, 1}}));
  counter.record(counted(0));
  counter.spill();  // ends the run
  EXPECT_EQ(shared.take_sorted(), (std::vector<SecondCount>{{0, 1}}));
  // A run whose first line fills the map: that line is spilled at once, the
  // rest of the run with the next spill.
  for (const int64_t second : {1, 2, 3, 3, 3, 3}) counter.record(counted(second));
  EXPECT_EQ(shared.take_sorted(), (std::vector<SecondCount>{{1, 1}, {2, 1}, {3, 1}}));
  counter.spill();
  EXPECT_EQ(shared.take_sorted(), (std::vector<SecondCount>{{3, 3}}));
  EXPECT_EQ(counter.tally().counted, 14u);
}

TEST(Counter, PerAppTwoSecondsStayOpenTheLeastRecentIsListedAndAFullListSpills) {
  SharedCounts shared;
  AppTable apps(10);
  Counter counter(shared, INT64_MIN, INT64_MAX, &apps, /*max_seconds=*/2);
  counter.record(counted(1, "a"));
  counter.record(counted(1, "a"));
  counter.record(counted(1, "b"));
  counter.record(counted(2, "a"));  // a line from another second: second 1 stays open
  counter.record(counted(1, "a"));
  EXPECT_TRUE(shared.take_app_sorted({0, 1}, 2).empty()) << "seconds 1 and 2 are still open";
  counter.record(counted(3, "a"));  // a third second: 2, read least recently, is listed (one pair)
  EXPECT_TRUE(shared.take_app_sorted({0, 1}, 2).empty()) << "one pair, under the cap";
  counter.record(counted(4, "a"));  // then 1 (two pairs): the cap, so the list spills
  EXPECT_EQ(shared.take_app_sorted({0, 1}, 2), (std::vector<AppCount>{{1, 0, 3}, {1, 1, 1}, {2, 0, 1}}));
  counter.record(counted(3, "b"));
  counter.spill();
  EXPECT_EQ(shared.take_app_sorted({0, 1}, 2), (std::vector<AppCount>{{3, 0, 1}, {3, 1, 1}, {4, 0, 1}}));
}

TEST(Counter, PerAppASecondMetAgainAddsUp) {
  SharedCounts shared;
  AppTable apps(1);
  Counter counter(shared, INT64_MIN, INT64_MAX, &apps);
  // a is number 0; b and c are left out (kOther).
  for (const auto& [s, app] : std::vector<std::pair<int64_t, std::string_view>>{
           {5, "a"}, {6, "b"}, {5, "a"}, {5, "c"}, {6, "a"}, {5, "b"}, {6, "b"}}) {
    counter.record(counted(s, app));
  }
  counter.spill();
  EXPECT_EQ(shared.take_app_sorted({0}, 1), (std::vector<AppCount>{{5, 0, 2}, {5, 1, 2}, {6, 0, 1}, {6, 1, 2}}));
}

TEST(SharedCounts, AddsWhatEveryCounterSpills) {
  // Two workers over one SharedCounts, the second spilling twice on its cap.
  SharedCounts shared;
  std::thread one([&] {
    Counter counter(shared);
    for (int i = 0; i < 100; ++i) counter.record(counted(i % 4));
    counter.spill();
  });
  std::thread two([&] {
    Counter counter(shared, INT64_MIN, INT64_MAX, nullptr, 2);
    for (int i = 0; i < 100; ++i) counter.record(counted(2 + i % 3));
    counter.spill();
  });
  one.join();
  two.join();
  EXPECT_EQ(shared.take_sorted(), (std::vector<SecondCount>{{0, 25}, {1, 25}, {2, 25 + 34}, {3, 25 + 33}, {4, 33}}));
}

TEST(SharedCounts, TakeAppSortedOrdersBySecondThenNewNumber) {
  SharedCounts shared;
  const AppPairs counts{{3, 0, 1}, {1, 0, 2}, {1, 1, 3}, {1, AppTable::kOther, 4}, {-5, 2, 5}};
  AppPairs once = counts, twice = counts;
  shared.add(once);
  shared.add(twice);  // adds up
  EXPECT_TRUE(once.empty() && twice.empty()) << "added pairs are taken";
  // Old 0 -> new 2, old 1 -> new 0, old 2 -> new 1, kOther -> 3.
  EXPECT_EQ(shared.take_app_sorted({2, 0, 1}, 3),
            (std::vector<AppCount>{{-5, 1, 10}, {1, 0, 6}, {1, 2, 4}, {1, 3, 8}, {3, 2, 2}}));
}

// Pairs listed as workers list them: a second at a time, its apps in the
// order met (each of `app_count` apps one time in `one_in`), the seconds in
// the order `shape` gives.
AppPairs listed_pairs(std::mt19937& rng, int shape, uint32_t app_count, unsigned one_in) {
  std::vector<int64_t> seconds;
  for (int64_t s = 0; s < 300; ++s) seconds.push_back(s);
  switch (shape) {
    case 0:  // in time order, a few far off
      for (int k = 0; k < 20; ++k) seconds.insert(seconds.begin() + rng() % seconds.size(), 1000000 + rng() % 5);
      for (int k = 0; k < 20; ++k) seconds.insert(seconds.begin() + rng() % seconds.size(), -1000 - int64_t(rng() % 5));
      break;
    case 1:  // neighbours swapped, seconds listed twice
      for (size_t k = 1; k < seconds.size(); k += 1 + rng() % 4) std::swap(seconds[k - 1], seconds[k]);
      for (int k = 0; k < 30; ++k) seconds.push_back(seconds[rng() % seconds.size()]);
      break;
    case 2: {  // two or three workers' lists, one after the other
      std::vector<int64_t> all;
      const unsigned workers = 2 + rng() % 2;
      for (int w = 0; w < workers; ++w) {
        for (const int64_t s : seconds) if (rng() % workers == static_cast<unsigned>(w)) all.push_back(s);
      }
      seconds = all;
      break;
    }
    case 3:  // descending
      std::reverse(seconds.begin(), seconds.end());
      break;
    default:  // any order
      std::shuffle(seconds.begin(), seconds.end(), rng);
  }
  AppPairs pairs;
  for (const int64_t s : seconds) {
    std::vector<uint32_t> apps;
    for (uint32_t a = 0; a < app_count; ++a) if (rng() % one_in == 0) apps.push_back(a);
    std::shuffle(apps.begin(), apps.end(), rng);
    for (const uint32_t a : apps) pairs.push_back({s, a, 1 + rng() % 9});
    if (rng() % 4 == 0) pairs.push_back({s, AppTable::kOther, 1 + rng() % 9});
  }
  return pairs;
}

TEST(SharedCounts, TakeAppSortedAgreesWithAMapForAnyListingOrder) {
  // Each spilled list is put in time order by blocks of a second, the lists
  // are merged as runs, compacted when they have grown past the threshold:
  // whatever order the blocks come in, however many lists (odd numbers
  // too) and whether they were compacted never, once or after every list,
  // the result is that of adding every pair into an ordered map. Seconds
  // with a third of 12 apps are added up by app number, seconds with one in
  // forty of 200 apps sorted (sort_seconds_and_add_up); a second listed more
  // than once, or added again after a compaction, has equal pairs.
  std::mt19937 rng(7);
  for (int round = 0; round < 90; ++round) {
    const int shape = round % 5;
    const bool dense = (round / 5) % 2 == 0;
    const uint32_t app_count = dense ? 12 : 200;
    std::vector<uint32_t> order(app_count);  // old number -> new
    std::iota(order.begin(), order.end(), 0u);
    std::shuffle(order.begin(), order.end(), rng);
    AppPairs pairs = listed_pairs(rng, shape, app_count, dense ? 3 : 40);
    std::map<std::pair<int64_t, uint32_t>, uint64_t> expected;
    for (const AppCount& c : pairs) {
      expected[{c.second, c.app == AppTable::kOther ? app_count : order[c.app]}] += c.count;
    }
    const size_t lists = 1 + round % 6;
    const size_t compact_at = std::vector<size_t>{size_t{1} << 20, pairs.size() / 2, 1}[round % 3];
    SharedCounts shared(compact_at);
    for (size_t k = 0; k < lists; ++k) {
      AppPairs list(pairs.begin() + static_cast<ptrdiff_t>(pairs.size() * k / lists),
                    pairs.begin() + static_cast<ptrdiff_t>(pairs.size() * (k + 1) / lists));
      shared.add(list);
      ASSERT_TRUE(list.empty()) << "added pairs are taken";
    }
    std::vector<AppCount> want;
    for (const auto& [key, count] : expected) want.push_back({key.first, key.second, count});
    ASSERT_EQ(shared.take_app_sorted(order, app_count), want)
        << "round " << round << ", shape " << shape << ", " << app_count << " apps, " << lists
        << " lists, compacted past " << compact_at;
  }
}

// A worker's cells spilled at a cap of 1 to 64 cells, each new cell made
// over a spilled one in the pool, add up to the cells of a worker that
// never spills: every cell made again starts empty (its count, matched
// predicates, sum and digits, extremes and their texts, sketch with its
// window open, histogram). Cells of 600 lines open their sketches' windows;
// seconds come back after their cells were spilled.
TEST(MeasureCounter, CellsMadeAgainOverSpilledOnesCountAsNeverSpilled) {
  MeasureSpec spec;
  spec.fields = {{"bytes", true, false, {}}, {"latency_ms", false, true, {1.0, 100.0}}};
  spec.percentiles = {{"50", 50, 0}};
  spec.count_if = {"status>=500"};
  const std::string_view latencies[] = {
      "12.5", "0.004", "1234567.891", "0.10000000000000000555", "-3.5", "98765432109876543.21", "7"};
  const auto cells_of = [&](size_t max_cells) {
    SharedMeasures shared(spec);
    Summary tally;
    tally.no_measure.resize(spec.fields.size());
    MeasureCounter counter(shared, spec, max_cells);
    std::mt19937_64 rng(5);
    LineMeasures line;
    line.values.resize(2);
    for (int i = 0; i < 30'000; ++i) {
      const int64_t second = 1'700'000'000 + i / 1'800 + static_cast<int64_t>(rng() % 4 == 0 ? rng() % 8 : 0);
      const auto key = static_cast<uint32_t>(rng() % 3);
      EXPECT_TRUE(read_measure(std::to_string(rng() % 100'000), line.values[0]));
      EXPECT_TRUE(read_measure(latencies[rng() % std::size(latencies)], line.values[1]));
      line.usable = rng() % 8 == 0 ? 1 : 3;
      line.matched = rng() % 2;
      counter.add(second, key, line, tally);
    }
    counter.spill();
    MeasureTable table;
    std::vector<CellKey> keys = shared.take_sorted({}, 0, table);
    std::vector<std::pair<CellKey, MeasureCell>> cells;
    for (size_t row = 0; row < keys.size(); ++row) cells.emplace_back(keys[row], table[row]);
    return std::pair{cells, tally.no_measure};
  };
  const auto never_spilled = cells_of(size_t{1} << 20);
  ASSERT_GT(never_spilled.first.size(), 50u);
  for (const size_t cap : {1, 2, 7, 64}) {
    const auto spilled = cells_of(cap);
    EXPECT_EQ(spilled.second, never_spilled.second) << cap;
    ASSERT_EQ(spilled.first.size(), never_spilled.first.size()) << cap;
    for (size_t row = 0; row < spilled.first.size(); ++row) {
      EXPECT_TRUE(spilled.first[row].first == never_spilled.first[row].first) << cap << " row " << row;
      EXPECT_TRUE(spilled.first[row].second == never_spilled.first[row].second) << cap << " row " << row;
    }
  }
}

// The cap starts at kFirstCells and stays there while the cells spilled are
// done with (a log in time order: a few keys a second); it doubles up to
// max_cells while spilled cells come back (a shuffled log: more live at
// once than the cap), and each cell's count and sum, split across spills or
// not, is its lines'.
TEST(MeasureCounter, CapGrowsOnlyWhileSpilledCellsComeBack) {
  MeasureSpec spec;
  spec.fields = {{"bytes", true, false, {}}};
  const auto run = [&](bool shuffled, size_t max_cells) {
    SharedMeasures shared(spec);
    Summary tally;
    tally.no_measure.resize(1);
    MeasureCounter counter(shared, spec, max_cells);
    std::mt19937_64 rng(11);
    LineMeasures line;
    line.values.resize(1);
    EXPECT_TRUE(read_measure("3", line.values[0]));
    line.usable = 1;
    // 6 keys a second over 500 seconds in order, or 3,000 (second, key)
    // cells at random: 30,000 lines, 10 a cell on average.
    std::map<std::pair<int64_t, uint32_t>, uint64_t> lines_of;
    for (int i = 0; i < 30'000; ++i) {
      const int cell = shuffled ? static_cast<int>(rng() % 3'000) : i / 60 * 6 + static_cast<int>(rng() % 6);
      const int64_t second = 1'700'000'000 + cell / 6;
      const auto key = static_cast<uint32_t>(cell % 6);
      counter.add(second, key, line, tally);
      ++lines_of[{second, key}];
    }
    const size_t cap = counter.cap();
    counter.spill();
    MeasureTable table;
    const std::vector<CellKey> keys = shared.take_sorted({}, 0, table);
    std::map<std::pair<int64_t, uint32_t>, uint64_t> counted;
    for (size_t row = 0; row < keys.size(); ++row) {
      const MeasureCell& cell = table[row];
      counted[{keys[row].second, keys[row].app}] = cell.count;
      const FixedUnits three = 3'000'000'000'000'000'000;  // 3 in units of 10^-18
      EXPECT_EQ(cell.fields[0].sum, FixedSum::of_units(three * static_cast<FixedUnits>(cell.count)))
          << keys[row].second << " " << keys[row].app;
    }
    EXPECT_EQ(counted, lines_of);
    return std::pair{cap, keys.size()};
  };
  EXPECT_EQ(run(false, MeasureCounter::kDefaultMaxCells), std::pair(MeasureCounter::kFirstCells, size_t{3'000}));
  EXPECT_EQ(run(true, MeasureCounter::kDefaultMaxCells), std::pair(MeasureCounter::kDefaultMaxCells, size_t{3'000}));
  EXPECT_EQ(run(true, 2'000), std::pair(size_t{2'000}, size_t{3'000}));  // doubled, but not past max_cells
  EXPECT_EQ(run(true, 100), std::pair(size_t{100}, size_t{3'000}));      // below kFirstCells: max_cells from the start
}

}  // namespace
}  // namespace logagg
