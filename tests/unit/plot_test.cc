// Tests for --plot's chart: an exact small chart, the width limit, round bins
// and how they are stated and labelled, the count label sized by the peak
// column, bins on a zone's wall clock across DST, gaps drawn as zeros, spans
// of years and millennia (binned without visiting every bucket), zone labels with their offsets, and nonzero
// columns never drawn blank.

#include "logagg/report.h"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "support/timing.h"
#include "time/civil_time.h"  // kSecondsPerDay

namespace logagg {
namespace {

constexpr int64_t kT0 = 1700000000;  // 2023-11-14T22:13:20Z

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// Display width: UTF-8 code points (every char of the chart is one cell wide).
size_t display_width(const std::string& s) {
  size_t n = 0;
  for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80;
  return n;
}

// The cells after the count axis of each bar row, top row first, one string per cell.
std::vector<std::vector<std::string>> bar_rows(const std::string& chart) {
  std::vector<std::vector<std::string>> rows;
  for (const std::string& line : lines_of(chart)) {
    size_t at = line.find("┤");
    if (at == std::string::npos) at = line.find("│");
    if (at == std::string::npos) continue;
    std::vector<std::string> cells;
    for (size_t i = at + std::string("│").size(); i < line.size();) {
      size_t len = 1;
      while (i + len < line.size() && (static_cast<unsigned char>(line[i + len]) & 0xC0) == 0x80) ++len;
      cells.push_back(line.substr(i, len));
      i += len;
    }
    rows.push_back(cells);
  }
  return rows;
}

// Is the bottom row's cell `column` drawn (trailing blanks are trimmed)?
bool drawn(const std::vector<std::string>& bottom, size_t column) {
  return column < bottom.size() && bottom[column] != " ";
}

TEST(Plot, NothingCountedIsOneLine) { EXPECT_EQ(format_plot({}, Bucketing{}, PlotSize{}), "no counted lines\n"); }

TEST(Plot, SmallSeriesIsExact) {
  // Second kT0+1 is empty and drawn as a zero column; 1 of 8 rounds to 2 eighths of 16.
  const std::vector<SecondCount> buckets = {{kT0, 1}, {kT0 + 2, 3}, {kT0 + 3, 8}};
  EXPECT_EQ(format_plot(buckets, Bucketing{}, PlotSize{80, 2}),
            "requests per second, from 2023-11-14T22:13:20Z to 2023-11-14T22:13:23Z,\n"
            "1 column = 1 bucket, peak column 8\n"
            "8 ┤   █\n"
            "  │▂ ▆█\n"
            "0 └┬──┬\n"
            "   2023-11-14T22:13:20Z  2023-11-14T22:13:23Z\n");
}

// A cell of `count` lines, `matched` of them matching the one --count-if, with
// the one measured field's values `values` (summed and sketched).
MeasureCell cell_of(uint64_t count, uint64_t matched, std::vector<double> values) {
  MeasureCell c;
  c.count = count;
  c.matched = {matched};
  c.fields.resize(1);
  FieldMeasure& f = c.fields[0];
  for (const double v : values) {
    ++f.n;
    f.sum.add(FixedSum::of_units(static_cast<FixedUnits>(v) * 1'000'000'000'000'000'000));
    f.min = std::min(f.min, v);
    f.max = std::max(f.max, v);
    f.sketch.add_key(LogSketch::key_of(v));
  }
  return c;
}

TEST(Plot, MeasuresAreLinesOnTheSameColumns) {
  Options o;
  o.count_if = {"status>=500"};
  o.quantiles = {"latency"};
  o.percentiles = {"99", "50"};  // the highest is drawn
  MeasureTable cells(MeasureSpec::of(o));
  for (const MeasureCell& c :
       {cell_of(1, 1, {4000}), cell_of(3, 0, {10, 20, 30}), cell_of(4, 1, {}), cell_of(4, 1, {1000})}) {
    cells.push_back(c);
  }
  // Two rows in second kT0 + 2 (keys): their cells add up in its column.
  PlotMeasures m{MeasureSpec::of(o), {{"latency", DurationUnit::kMillis}}, &cells, {kT0, kT0 + 2, kT0 + 2, kT0 + 3}};
  const std::vector<SecondCount> buckets = {{kT0, 1}, {kT0 + 2, 7}, {kT0 + 3, 4}};
  EXPECT_EQ(format_plot(buckets, Bucketing{}, PlotSize{80, 6}, &m),
            "requests per second, from 2023-11-14T22:13:20Z to 2023-11-14T22:13:23Z,\n"
            "1 column = 1 bucket, peak column 7\n"
            "  7 ┤  █\n"
            "    │  █\n"
            "    │  █▃\n"
            "    │  ██\n"
            "    │  ██\n"
            "    │▇ ██\n"
            "  0 └┬──┬\n"
            "     2023-11-14T22:13:20Z  2023-11-14T22:13:23Z\n"
            "ratio(status>=500) per column, peak column 1\n"  // 1 of 1, 1 of 7, 1 of 4
            "  1 ┤█\n"
            "    │  ▂▄\n"
            "p99(latency) per column, peak column 4 s\n"  // 4000, 30, 1000 ms
            "4 s ┤█\n"
            "    │  ▁▄\n");
  // Without measures the chart is the same bars with the narrower margin.
  const std::string plain = format_plot(buckets, Bucketing{}, PlotSize{80, 6});
  EXPECT_EQ(lines_of(plain)[2], "7 ┤  █");
}

TEST(Plot, OneBucketHasOneLabel) {
  EXPECT_EQ(format_plot({{kT0 - 20, 5}}, Bucketing::of_seconds(60), PlotSize{80, 1}),
            "requests per minute, from 2023-11-14T22:13:00Z to 2023-11-14T22:13:00Z,\n"
            "1 column = 1 bucket, peak column 5\n"
            "5 ┤█\n"
            "0 └┬\n"
            "   2023-11-14T22:13:00Z\n");
}

std::vector<SecondCount> daily_traffic(int64_t start, int64_t seconds) {
  std::vector<SecondCount> buckets;
  for (int64_t s = 0; s < seconds; ++s) {
    const double phase = 2 * M_PI * static_cast<double>(s % 86400) / 86400;
    buckets.push_back({start + s, static_cast<uint64_t>(40 - 35 * std::cos(phase) + (s * 7919 % 13))});
  }
  return buckets;
}

TEST(Plot, NeverWiderThanAsked) {
  const auto day = daily_traffic(kT0, 86400);
  const Bucketing madrid = Bucketing::of_seconds(1).in_zone(find_time_zone("Europe/Madrid"));
  for (const Bucketing& b : {Bucketing{}, madrid}) {
    for (const unsigned width : {40u, 41u, 57u, 60u, 79u, 80u, 81u, 120u, 200u, 1000u}) {
      for (const size_t n : {size_t{1}, size_t{2}, size_t{7}, size_t{33}, size_t{100}, size_t{86400}}) {
        const std::vector<SecondCount> series(day.begin(), day.begin() + static_cast<std::ptrdiff_t>(n));
        const std::string chart = format_plot(series, b, PlotSize{width, 5});
        for (const std::string& line : lines_of(chart)) {
          EXPECT_LE(display_width(line), width) << "width " << width << ", " << n << " buckets:\n" << chart;
          EXPECT_TRUE(line.empty() || line.back() != ' ') << "trailing space in '" << line << "'";
        }
        const auto rows = bar_rows(chart);
        ASSERT_EQ(rows.size(), 5u) << chart;
        if (n <= 33) {
          EXPECT_EQ(rows.back().size(), n) << "one column per bucket, not stretched:\n" << chart;
        }
      }
    }
  }
  // Sparse spans: Madrid hours over weeks and years, seconds over a decade.
  const Bucketing hours = Bucketing::of_seconds(3600).in_zone(find_time_zone("Europe/Madrid"));
  for (const int64_t span : {int64_t{3 * 3600}, int64_t{200 * 3600}, int64_t{3000 * 3600}, int64_t{87600 * 3600}}) {
    for (const Bucketing& b : {Bucketing{}, hours}) {
      const std::vector<SecondCount> series = {{b.start_of(kT0), 123456}, {b.start_of(kT0 + span), 7}};
      for (const unsigned width : {40u, 41u, 57u, 80u, 81u, 120u, 1000u}) {
        const std::string chart = format_plot(series, b, PlotSize{width, 3});
        for (const std::string& line : lines_of(chart)) {
          EXPECT_LE(display_width(line), width) << "width " << width << ", span " << span << ":\n" << chart;
          EXPECT_TRUE(line.empty() || line.back() != ' ') << "trailing space in '" << line << "'";
        }
        const auto rows = bar_rows(chart);
        ASSERT_EQ(rows.size(), 3u) << chart;
        EXPECT_TRUE(drawn(rows.back(), 0) && drawn(rows.back(), rows.back().size() - 1)) << chart;
      }
    }
  }
}

TEST(Plot, BinsAreRoundDurations) {
  // 86400 buckets of 1 line from 22:13:20: more than the 77 columns a 1-char
  // count label leaves, so binned: 15s..15m need more, 20m bins from 22:00 to
  // 22:00 the next day need 73 columns. The peak column, 1200, then takes 4
  // chars, leaving 74: still 20m.
  std::vector<SecondCount> buckets;
  for (int64_t s = 0; s < 86400; ++s) buckets.push_back({kT0 + s, 1});
  const std::string chart = format_plot(buckets, Bucketing{}, PlotSize{80, 4});
  EXPECT_NE(chart.find("1 column = 20m (1200 buckets of 1s), first and last columns partial"), std::string::npos)
      << chart;
  EXPECT_NE(chart.find("peak column 1200"), std::string::npos) << chart;
  const auto rows = bar_rows(chart);
  ASSERT_EQ(rows.size(), 4u);
  ASSERT_EQ(rows.back().size(), 73u) << chart;
  EXPECT_EQ(rows.front().size(), 72u) << chart;  // the partial last column does not reach the top
  EXPECT_EQ(rows[2][0], "▃") << "22:13:20-22:20: 400 of 1200, 11 eighths of 32\n" << chart;
  EXPECT_EQ(rows[1][72], "▅") << "22:00-22:13:20: 800 of 1200, 21 eighths of 32\n" << chart;
  const std::vector<std::string> lines = lines_of(chart);
  // Labels at column starts: the first column's (before the first bucket),
  // the roundest near the middle whose label fits (09:00, column 33), the last's.
  EXPECT_EQ(lines.back(), "      2023-11-14T22:00:00Z   2023-11-15T09:00:00Z          2023-11-15T22:00:00Z") << chart;

  // A whole UTC day: 72 columns, no partial ones, 12:00 in the middle.
  std::vector<SecondCount> day;
  for (int64_t s = 0; s < 86400; ++s) day.push_back({1699920000 + s, 1});  // 2023-11-14T00:00:00Z
  const std::string whole = format_plot(day, Bucketing{}, PlotSize{80, 4});
  EXPECT_NE(whole.find("1 column = 20m (1200 buckets of 1s), peak column 1200"), std::string::npos) << whole;
  EXPECT_EQ(lines_of(whole).back(), "      2023-11-14T00:00:00Z      2023-11-14T12:00:00Z      2023-11-14T23:40:00Z")
      << whole;
  // Wider: 15m, 96 columns.
  const std::string wide = format_plot(day, Bucketing{}, PlotSize{120, 4});
  EXPECT_NE(wide.find("1 column = 15m (900 buckets of 1s)"), std::string::npos) << wide;
  EXPECT_EQ(bar_rows(wide).back().size(), 96u) << wide;

  // 1000 minute buckets from 22:13: 15m bins, 22:00 to 14:45, 68 columns; in
  // a zone the bins' bucket counts are not stated.
  std::vector<SecondCount> minutes;
  for (int64_t m = 0; m < 1000; ++m) minutes.push_back({kT0 - 20 + 60 * m, 1});
  const std::string m = format_plot(minutes, Bucketing::of_seconds(60), PlotSize{80, 4});
  EXPECT_NE(m.find("1 column = 15m (15 buckets of 1m)"), std::string::npos) << m;
  EXPECT_EQ(bar_rows(m).back().size(), 68u) << m;
  const Bucketing zoned = Bucketing::of_seconds(60).in_zone(find_time_zone("Europe/Madrid"));
  const std::string z = format_plot(minutes, zoned, PlotSize{80, 4});
  EXPECT_NE(z.find("1 column = 15m (buckets of 1m),"), std::string::npos) << z;
  EXPECT_NE(z.find("requests per minute in Europe/Madrid"), std::string::npos) << z;
  EXPECT_NE(z.find("2023-11-14T23:00:00+01:00"), std::string::npos) << "the first column's local start\n" << z;
}

TEST(Plot, CountLabelWidthFollowsThePeakColumn) {
  // 154 seconds of 9 lines: a 1-char label leaves 77 columns, enough for 2s
  // bins, but their peak, 18, takes 2 chars and leaves 76: 5s bins, 31 columns.
  std::vector<SecondCount> buckets;
  for (int64_t s = 0; s < 154; ++s) buckets.push_back({kT0 + s, 9});
  const std::string chart = format_plot(buckets, Bucketing{}, PlotSize{80, 2});
  EXPECT_NE(chart.find("1 column = 5s (5 buckets of 1s), last column partial, peak column 45"), std::string::npos)
      << chart;
  for (const std::string& line : lines_of(chart)) EXPECT_LE(display_width(line), 80u) << chart;
  EXPECT_EQ(lines_of(chart)[2].substr(0, 3), "45 ") << chart;
  EXPECT_EQ(bar_rows(chart).back().size(), 31u) << chart;
}

TEST(Plot, ZonedBinsFollowTheWallClock) {
  // A week of Madrid hours, Monday 2023-10-23 to Sunday the 29th, when the
  // clocks go back at 03:00: 169 buckets, 3h bins, 56 columns; the bin from
  // 00:00 to 03:00 on the 29th holds the two 02:00 hours.
  const Bucketing hours = Bucketing::of_seconds(3600).in_zone(find_time_zone("Europe/Madrid"));
  std::vector<SecondCount> week;
  for (int64_t h = 0; h < 169; ++h) week.push_back({1698012000 + 3600 * h, 1});
  const std::string chart = format_plot(week, hours, PlotSize{80, 4});
  EXPECT_NE(chart.find("1 column = 3h (buckets of 1h), peak column 4"), std::string::npos) << chart;
  const auto rows = bar_rows(chart);
  ASSERT_EQ(rows.back().size(), 56u) << chart;
  for (size_t c = 0; c < 56; ++c) EXPECT_EQ(rows.front().size() > c && rows.front()[c] == "█", c == 48) << c << chart;
  EXPECT_EQ(lines_of(chart).back(), "   2023-10-23T00:00:00+02:00      2023-10-29T21:00:00+01:00") << chart;

  // 400 New York days from Monday 2023-11-13: weeks from Monday, local midnight.
  std::vector<SecondCount> days;
  const Bucketing ny = Bucketing::of_seconds(86400).in_zone(find_time_zone("America/New_York"));
  for (int64_t d = 0; d < 400; ++d) days.push_back({ny.start_of(1699876800 + 86400 * d), 1});  // noon UTC
  const std::string weeks = format_plot(days, ny, PlotSize{80, 2});
  EXPECT_NE(weeks.find("1 column = 7d (buckets of 1d),\nlast column partial, peak column 7"), std::string::npos)
      << weeks;
  EXPECT_EQ(lines_of(weeks).back(), "   2023-11-13T00:00:00-05:00        2024-12-16T00:00:00-05:00") << weeks;
}

TEST(Plot, GapsAreZeroColumns) {
  std::vector<SecondCount> buckets;
  for (int64_t s = 0; s < 10; ++s) {
    if (s < 3 || s > 6) buckets.push_back({kT0 + s * 5, 4});
  }
  const auto rows = bar_rows(format_plot(buckets, Bucketing::of_seconds(5), PlotSize{80, 3}));
  ASSERT_EQ(rows.size(), 3u);
  const std::vector<std::string> want = {"█", "█", "█", " ", " ", " ", " ", "█", "█", "█"};
  for (const auto& row : rows) EXPECT_EQ(row, want);
}

TEST(Plot, YearsOfSecondsAreBinned) {
  const int64_t span = 10 * 365 * kSecondsPerDay;  // 315,360,001 one-second buckets
  const std::vector<SecondCount> buckets = {{kT0, 3}, {kT0 + span, 4}};
  const std::string chart = format_plot(buckets, Bucketing{}, PlotSize{80, 2});
  const Bucketing hours = Bucketing::of_seconds(3600).in_zone(find_time_zone("Europe/Madrid"));
  const std::string zoned = format_plot({{kT0 - 800, 1}, {kT0 - 800 + span, 2}}, hours, PlotSize{80, 2});
  // 3 months a column: 2023-10-01 to 2033-10-01, 41 columns.
  EXPECT_NE(chart.find("1 column = 3 months (buckets of 1s), first and last columns partial"), std::string::npos)
      << chart;
  const auto rows = bar_rows(chart);
  ASSERT_EQ(rows.size(), 2u);
  ASSERT_EQ(rows.back().size(), 41u) << chart;
  for (size_t c = 0; c < 41; ++c) EXPECT_EQ(drawn(rows.back(), c), c == 0 || c == 40) << c << "\n" << chart;
  EXPECT_NE(chart.find("2023-10-01T00:00:00Z"), std::string::npos) << chart;
  EXPECT_NE(chart.find("2033-10-01T00:00:00Z"), std::string::npos) << chart;
  // In Madrid: local quarters, starting at local midnight.
  EXPECT_NE(zoned.find("1 column = 3 months (buckets of 1h),"), std::string::npos) << zoned;
  EXPECT_NE(zoned.find("2023-10-01T00:00:00+02:00"), std::string::npos) << zoned;
  ASSERT_EQ(bar_rows(zoned).back().size(), 41u) << zoned;
  EXPECT_TRUE(drawn(bar_rows(zoned).back(), 0) && drawn(bar_rows(zoned).back(), 40)) << zoned;
}

// Guards the binning's cost: a column sums the buckets that hold counts and
// steps from column edge to column edge, never through every empty bucket.
// Every second of years 1..9999 (3.2e11 buckets, in UTC and in Madrid's
// hours) would take minutes to walk; binning takes about a millisecond. The
// bound is generous and checked only in release builds (support/timing.h).
TEST(Plot, MillenniaOfSecondsAreBinnedWithoutVisitingEveryBucket) {
  const int64_t first = -62135596800, last = 253370764800;  // 0001-01-01, 9999-01-01
  const Bucketing hours = Bucketing::of_seconds(3600).in_zone(find_time_zone("Europe/Madrid"));
  const auto started = std::chrono::steady_clock::now();
  const std::string chart = format_plot({{first, 1}, {last, 2}}, Bucketing{}, PlotSize{120, 2});
  const std::string zoned = format_plot({{first, 1}, {last, 2}}, hours, PlotSize{120, 2});
  const auto elapsed = std::chrono::steady_clock::now() - started;
  EXPECT_NE(chart.find("1 column = "), std::string::npos) << chart;
  EXPECT_NE(zoned.find("1 column = "), std::string::npos) << zoned;
  if (testing::kTimingChecked) EXPECT_LT(elapsed, std::chrono::seconds(5));
  std::printf("two charts of 3.2e11 buckets in %.3f s\n", std::chrono::duration<double>(elapsed).count());
}

TEST(Plot, ZoneLabelsShowOffsets) {
  // Hours of 2023-10-29 in Madrid: 22:00Z on the 28th is 00:00+02:00; the
  // clocks go back at 01:00Z, so the day has 25 hours.
  const Bucketing hours = Bucketing::of_seconds(3600).in_zone(find_time_zone("Europe/Madrid"));
  const int64_t midnight = 1698530400;  // 2023-10-28T22:00:00Z
  std::vector<SecondCount> buckets;
  for (int64_t h = 0; h < 25; ++h) buckets.push_back({midnight + h * 3600, static_cast<uint64_t>(h + 1)});
  const std::string chart = format_plot(buckets, hours, PlotSize{80, 3});
  EXPECT_NE(chart.find("requests per hour in Europe/Madrid"), std::string::npos) << chart;
  EXPECT_NE(chart.find("from 2023-10-29T00:00:00+02:00"), std::string::npos) << chart;
  EXPECT_NE(chart.find("to 2023-10-29T23:00:00+01:00"), std::string::npos) << chart;
  const std::vector<std::string> lines = lines_of(chart);
  const std::string& labels = lines.back();
  EXPECT_EQ(labels.find("2023-10-29T00:00:00+02:00"), 4u) << chart;  // under the first column
  EXPECT_NE(labels.find("2023-10-29T23:00:00+01:00"), std::string::npos) << chart;
  EXPECT_EQ(bar_rows(chart).back().size(), 25u) << chart;
}

TEST(Plot, MiddleLabelIsARoundColumnStart) {
  std::vector<SecondCount> buckets;
  for (int64_t h = 0; h < 73; ++h) buckets.push_back({kT0 - 800 + h * 3600, 1});
  const std::string chart = format_plot(buckets, Bucketing::of_seconds(3600), PlotSize{80, 2});
  const std::vector<std::string> lines = lines_of(chart);
  // Of the columns whose label fits between the others (32 to 41: 06:00 to
  // 15:00 on the 16th), 12:00 is the roundest: column 38, centred under its tick.
  EXPECT_EQ(lines.back().find("2023-11-16T12:00:00Z"), 3u + 38 - 10) << chart;
  EXPECT_EQ(lines[lines.size() - 2].find("┬", 3 + 1 + 3 * 37), 3 + 2 + 3 * 38) << chart;  // └ then ─, 3 bytes each
  EXPECT_EQ(display_width(lines[lines.size() - 2]), 3u + 73) << chart;
}

TEST(Plot, NonzeroColumnsAreNeverBlank) {
  std::vector<SecondCount> buckets;
  for (int64_t s = 0; s < 50; ++s) buckets.push_back({kT0 + 2 * s, s == 20 ? 1000000000000u : 1u});
  const std::string chart = format_plot(buckets, Bucketing{}, PlotSize{200, 12});
  const auto rows = bar_rows(chart);
  ASSERT_EQ(rows.size(), 12u);
  for (size_t c = 0; c < 99; ++c) {
    EXPECT_EQ(drawn(rows.back(), c), c % 2 == 0) << c << "\n" << chart;
    if (c % 2 == 0 && c != 40 && drawn(rows.back(), c)) {
      EXPECT_EQ(rows.back()[c], "▁");
    }
  }
  EXPECT_EQ(rows.front()[40], "█");
}

}  // namespace
}  // namespace logagg
