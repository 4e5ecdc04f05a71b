// --plot: the series as a terminal bar chart of Unicode blocks (see plot.h).
#include "report/plot.h"

#include <algorithm>
#include <utility>

#include "parse/civil_time.h"
#include "report/report_text.h"

namespace logagg {
namespace {

__extension__ typedef unsigned __int128 Wide;  // for value * eighths without overflow

// A cell filled from 0 to 8 eighths of its height.
constexpr const char* kBlocks[9] = {" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};

void append_line(std::string& out, std::string line) {
  line.erase(line.find_last_not_of(' ') + 1);
  out += line;
  out += '\n';
}

// "1d", "19m44s": a duration in its nonzero units, largest first.
std::string duration(uint64_t seconds) {
  static constexpr std::pair<uint64_t, char> kUnits[] = {{86400, 'd'}, {3600, 'h'}, {60, 'm'}, {1, 's'}};
  std::string out;
  for (const auto& [unit, suffix] : kUnits) {
    if (seconds >= unit) out += std::to_string(seconds / unit) + suffix;
    seconds %= unit;
  }
  return out;
}

// The local day (days since 1970-01-01 on the wall clock) of the second `t`.
int64_t local_day(const Bucketing& bucketing, int64_t t) {
  return floor_div(bucketing.local_time(t), kSecondsPerDay);
}

// How round the local time of `t` is, for the middle label: the largest
// duration of the ladder below that divides the time of day, and from
// midnight on, rounder dates: the first of a month, of a quarter, of a year,
// of a decade, of a century.
int64_t roundness(const Bucketing& bucketing, int64_t t) {
  const int64_t local = bucketing.local_time(t), day = floor_div(local, kSecondsPerDay);
  const int64_t of_day = local - day * kSecondsPerDay;
  if (of_day != 0) {
    int64_t best = 0;
    for (const int64_t d : {1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10800, 21600, 43200}) {
      if (of_day % d == 0) best = d;
    }
    return best;
  }
  const CivilDate date = civil_from_days(day);
  if (date.day != 1) return kSecondsPerDay;
  if ((date.month - 1) % 3 != 0) return 2 * kSecondsPerDay;
  if (date.month != 1) return 3 * kSecondsPerDay;
  return date.year % 100 == 0 ? 6 * kSecondsPerDay : date.year % 10 == 0 ? 5 * kSecondsPerDay : 4 * kSecondsPerDay;
}

// The first second of local day `day`: the start of the first day bucket
// whose local day is `day` or later (later if the zone skipped `day`).
int64_t day_start(const Bucketing& bucketing, int64_t day) {
  if (bucketing.zone() == nullptr) return day * kSecondsPerDay;
  const Bucketing days = Bucketing::of_seconds(kSecondsPerDay).in_zone(bucketing.zone());
  int64_t s = days.start_of(day * kSecondsPerDay);  // within a day or so of it
  while (local_day(bucketing, s) >= day) s = days.start_of(s - 1);
  while (local_day(bucketing, s) < day) s = days.next(s);
  return s;
}

// How buckets are binned into columns: whole coarser buckets (durations that
// divide a day, aligned as the buckets are: in their zone, on its wall clock),
// or runs of `step` local days (from day `offset` on: 4 is a Monday) or of
// `step` calendar months (from January of year 0 on).
struct Binning {
  enum Kind { kBuckets, kDays, kMonths } kind = kBuckets;
  Bucketing bins;  // kBuckets: the bins as buckets; otherwise the buckets (for their zone)
  int64_t step = 1;
  int64_t offset = 0;
  std::string name;  // "20m", "7d", "3 months", "1 year"

  // kDays and kMonths: the bin holding second t, numbered from day 0 / year 0.
  int64_t key(int64_t t) const {
    const int64_t day = local_day(bins, t);
    if (kind == kDays) return floor_div(day - offset, step);
    const CivilDate date = civil_from_days(day);
    return floor_div(date.year * 12 + date.month - 1, step);
  }
  int64_t start_of_key(int64_t key) const {
    if (kind == kDays) return day_start(bins, key * step + offset);
    const int64_t month = key * step, year = floor_div(month, 12);
    return day_start(bins, days_from_civil(year, static_cast<unsigned>(month - year * 12 + 1), 1));
  }
  int64_t start_of(int64_t t) const { return kind == kBuckets ? bins.start_of(t) : start_of_key(key(t)); }
  int64_t next(int64_t start) const { return kind == kBuckets ? bins.next(start) : start_of_key(key(start) + 1); }
  // Bins from the one starting at `first` to the one starting at `last`, both included.
  uint64_t count_between(int64_t first, int64_t last) const {
    if (kind == kBuckets) return bins.count_between(first, last);
    return static_cast<uint64_t>(key(last) - key(first)) + 1;
  }
  // The start of the bin `index` bins after the one starting at `first`.
  int64_t start_at(int64_t first, uint64_t index) const {
    if (kind == kBuckets) return bins.advance(first, index);
    return start_of_key(key(first) + static_cast<int64_t>(index));
  }
};

// The finest binning of `bucketing`'s buckets from `first` to `last` (bucket
// starts, n buckets) into at most `room` columns: one bucket a column if they
// fit, else the first of 1s, 2s, 5s, ... 12h, 1d (whole multiples of the
// bucket), 2d, 7d, 14d, 1, 3, 6 months, 1, 2, 5, 10, 20, 50, ... years that does.
Binning choose_binning(const Bucketing& bucketing, int64_t first, int64_t last, uint64_t n, uint64_t room) {
  if (n <= room) return Binning{Binning::kBuckets, bucketing, 1, 0, ""};
  const auto fits = [&](const Binning& b) { return b.count_between(b.start_of(first), b.start_of(last)) <= room; };
  const int64_t w = bucketing.width_seconds();
  static constexpr int64_t kSeconds[] = {1,    2,    5,    10,    15,    30,    60,    120,   300,  600,
                                         900,  1200, 1800, 3600,  7200,  10800, 14400, 21600, 43200, 86400};
  for (const int64_t s : kSeconds) {
    if (s <= w || s % w != 0) continue;
    const Binning b{Binning::kBuckets, Bucketing::of_seconds(s).in_zone(bucketing.zone()), 1, 0, duration(s)};
    if (fits(b)) return b;
  }
  for (const auto& [days, offset] : {std::pair<int64_t, int64_t>{2, 0}, {7, 4}, {14, 4}}) {
    const Binning b{Binning::kDays, bucketing, days, offset, std::to_string(days) + "d"};
    if (fits(b)) return b;
  }
  for (const int64_t months : {1, 3, 6}) {
    const Binning b{Binning::kMonths, bucketing, months, 0, std::to_string(months) + (months == 1 ? " month" : " months")};
    if (fits(b)) return b;
  }
  for (int64_t years = 1;; years *= 10) {
    for (const int64_t y : {years, 2 * years, 5 * years}) {
      const Binning b{Binning::kMonths, bucketing, 12 * y, 0, std::to_string(y) + (y == 1 ? " year" : " years")};
      if (fits(b) || y >= 1000000000000) return b;  // past any date a bucket can have
    }
  }
}

// Eighths of a cell a column of `value` fills when `peak` fills `eighths`:
// rounded to the nearest, and at least one for a nonzero value.
uint64_t scaled(uint64_t value, uint64_t peak, uint64_t eighths) {
  if (value == 0) return 0;
  const Wide v = (Wide{value} * eighths * 2 + peak) / (Wide{peak} * 2);
  return std::max<uint64_t>(1, static_cast<uint64_t>(v));
}

// Pieces joined by their separators (", " or " ") into lines of at most
// `width` (unless a piece alone is wider); a line broken before ", " ends
// with the comma.
std::string wrap(const std::vector<std::pair<std::string, std::string>>& pieces, size_t width) {
  std::string out, line;
  for (const auto& [separator, text] : pieces) {
    if (line.empty()) {
      line = text;
    } else if (line.size() + separator.size() + text.size() < width) {  // room for a comma
      line += separator + text;
    } else {
      append_line(out, line + (separator[0] == ',' ? "," : ""));
      line = text;
    }
  }
  append_line(out, line);
  return out;
}

size_t digits(uint64_t v) { return std::to_string(v).size(); }

}  // namespace

std::string format_plot(const std::vector<SecondCount>& buckets, const Bucketing& bucketing, PlotSize size) {
  if (buckets.empty()) return "no counted lines\n";
  const size_t width = size.width;
  const uint64_t rows = std::max(1u, size.height);
  const int64_t first = buckets.front().second, last = buckets.back().second;
  const uint64_t n = bucketing.count_between(first, last);

  // Columns: the binning that fits beside the count axis, whose label is the
  // peak column's count. Sized first for the largest bucket (no column has
  // less), then again for the peak column if that is wider, until it fits
  // (twice at most in practice; each pass costs the non-empty buckets).
  uint64_t largest = 0;
  for (const SecondCount& b : buckets) largest = std::max(largest, b.count);
  size_t label_width = digits(largest);
  Binning binning;
  int64_t first_bin = 0, last_bin = 0;
  std::vector<uint64_t> sums;
  uint64_t peak = 0;
  for (;;) {
    const uint64_t room = width > label_width + 3 ? width - label_width - 2 : 1;  // "1234 ┤"
    binning = choose_binning(bucketing, first, last, n, room);
    first_bin = binning.start_of(first);
    last_bin = binning.start_of(last);
    sums.assign(binning.count_between(first_bin, last_bin), 0);
    uint64_t column = 0;
    int64_t bin = first_bin, bin_end = binning.next(first_bin);
    for (const SecondCount& b : buckets) {
      if (b.second >= bin_end) {
        const int64_t start = binning.start_of(b.second);
        column += binning.count_between(bin, start) - 1;
        bin = start;
        bin_end = binning.next(start);
      }
      sums[std::min<uint64_t>(column, sums.size() - 1)] += b.count;
    }
    peak = *std::max_element(sums.begin(), sums.end());
    if (digits(peak) <= label_width) break;
    label_width = digits(peak);
  }
  const size_t columns = sums.size();

  // Heading: what is counted, the span, the binning and the peak.
  std::string per = "requests per " + bucketing.name();
  if (bucketing.zone() != nullptr) per += " in " + time_zone_name(*bucketing.zone());
  std::string bins = "1 column = 1 bucket";
  std::string partial;
  if (!binning.name.empty()) {
    // Bins hold a fixed number of buckets only in UTC and up to whole days.
    const int64_t w = bucketing.width_seconds();
    const int64_t bin_seconds = binning.kind == Binning::kBuckets ? binning.bins.width_seconds()
                                : binning.kind == Binning::kDays ? binning.step * kSecondsPerDay
                                                                 : 0;
    bins = "1 column = " + binning.name + " (";
    if (bucketing.zone() == nullptr && bin_seconds > 0) bins += std::to_string(bin_seconds / w) + " ";
    bins += "buckets of " + duration(static_cast<uint64_t>(w)) + ")";
    const bool first_partial = first_bin < first, last_partial = binning.next(last_bin) > bucketing.next(last);
    if (first_partial || last_partial) {
      partial = first_partial && last_partial ? "first and last columns partial"
                : first_partial               ? "first column partial"
                                              : "last column partial";
    }
  }
  std::vector<std::pair<std::string, std::string>> pieces = {
      {"", per}, {", ", "from " + start_text(bucketing, first)}, {" ", "to " + start_text(bucketing, last)},
      {", ", bins}};
  if (!partial.empty()) pieces.push_back({", ", partial});
  pieces.push_back({", ", "peak column " + std::to_string(peak)});
  std::string out = wrap(pieces, width);

  // Bars, top row first, after the count axis: the peak at the top, 0 below.
  const std::string top = std::to_string(peak);
  const std::string indent(top.size() + 2, ' ');
  std::vector<uint64_t> fill(columns);
  for (size_t c = 0; c < columns; ++c) fill[c] = scaled(sums[c], peak, 8 * rows);
  for (uint64_t r = rows; r-- > 0;) {
    std::string line = r + 1 == rows ? top + " ┤" : std::string(top.size() + 1, ' ') + "│";
    for (const uint64_t f : fill) line += kBlocks[f > 8 * r ? std::min<uint64_t>(8, f - 8 * r) : 0];
    append_line(out, line);
  }

  // Time axis: column starts (the first column's may precede the first
  // bucket): the first column's under it, the last column's ending under it
  // (or further right, or on a line of its own, if the chart is too narrow),
  // and the middle column's centred under it if it fits.
  const size_t room_after_axis = width > indent.size() ? width - indent.size() : 0;
  std::vector<size_t> ticks = {0};
  std::string labels = start_text(bucketing, first_bin);
  std::string own_line;
  if (columns > 1) {
    const std::string end = start_text(bucketing, last_bin);
    const size_t at = std::max<size_t>(columns > end.size() ? columns - end.size() : 0, labels.size() + 2);
    if (at + end.size() <= room_after_axis) {
      // The middle tick: the roundest column start within a sixth of the
      // columns of the middle one whose label fits between the others, the
      // nearest to the middle of those.
      const size_t centre = (columns - 1) / 2, reach = columns / 6, half = labels.size() / 2;
      const size_t lo = std::max(centre - reach, labels.size() + 2 + half);
      const size_t hi = std::min(centre + reach, at >= labels.size() + 2 ? at - labels.size() - 2 + half : 0);
      const auto off_centre = [&](size_t c) { return c > centre ? c - centre : centre - c; };
      size_t middle = 0;
      int64_t mid_start = first_bin, best = -1;
      if (lo <= hi) {
        int64_t start = binning.start_at(first_bin, lo);
        for (size_t c = lo; c <= hi; ++c, start = binning.next(start)) {
          const int64_t r = roundness(bucketing, start);
          if (r > best || (r == best && off_centre(c) < off_centre(middle))) {
            best = r;
            middle = c;
            mid_start = start;
          }
        }
      }
      const std::string mid = start_text(bucketing, mid_start);
      const size_t mid_at = middle >= mid.size() / 2 ? middle - mid.size() / 2 : 0;
      if (middle > 0 && mid_at >= labels.size() + 2 && mid_at + mid.size() + 2 <= at) {
        labels += std::string(mid_at - labels.size(), ' ') + mid;
        ticks.push_back(middle);
      }
      labels += std::string(at - labels.size(), ' ') + end;
    } else {
      own_line = end;
    }
    ticks.push_back(columns - 1);
  }
  std::string axis = std::string(top.size() - 1, ' ') + "0 └";
  for (size_t c = 0; c < columns; ++c) axis += std::find(ticks.begin(), ticks.end(), c) != ticks.end() ? "┬" : "─";
  append_line(out, axis);
  append_line(out, indent + labels);
  if (!own_line.empty()) append_line(out, indent + own_line);
  return out;
}

}  // namespace logagg
