// --plot: the series as a terminal bar chart of Unicode blocks (see plot.h).
#include "logagg/report.h"

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>
#include <utility>

#include "report/measure_text.h"
#include "report/report_text.h"
#include "time/civil_time.h"

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
int64_t local_day(const Bucketing& bucketing, int64_t t) { return floor_div(bucketing.local_time(t), kSecondsPerDay); }

// How round the local time of `t` is, for the middle label: the largest
// duration of the ladder below (choose_binning's, without 20m and 4h) that
// divides the time of day, and from midnight on, rounder dates: the first of
// a month, of a quarter, of a year, of a decade, of a century.
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
  static constexpr int64_t kSeconds[] = {1,   2,    5,    10,   15,   30,    60,    120,   300,   600,
                                         900, 1200, 1800, 3600, 7200, 10800, 14400, 21600, 43200, 86400};
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
    const Binning b{Binning::kMonths, bucketing, months, 0,
                    std::to_string(months) + (months == 1 ? " month" : " months")};
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

// The chart's columns: the binning, the starts of its first and last bins,
// the sum of each bin from the first to the last, and the largest sum.
struct Columns {
  Binning binning;
  int64_t first_bin = 0;
  int64_t last_bin = 0;
  std::vector<uint64_t> sums;
  uint64_t peak = 0;
  std::vector<MeasureCell> cells;  // with measures: the cells of each column's buckets added
  size_t margin = 0;               // the width of the axis labels
};

// A measure drawn as a line under the bars: its title, its value in a column
// (from the column's cells added and its count; none without one), and how
// a value is written.
struct Line {
  std::string title;
  std::function<std::optional<double>(const MeasureCell&, uint64_t)> value;
  std::optional<DurationUnit> unit;
};

std::string value_text(const Line& line, double v) {
  std::string out;
  if (line.unit) {
    append_duration(out, v, *line.unit);
  } else {
    append_rounded_double(out, v, 4);
  }
  return out;
}

// The lines of `m`: ratio(E) of each --count-if, the highest percentile of
// each --quantiles field, the sum of each field only --sum measures.
std::vector<Line> lines_of(const PlotMeasures& m) {
  std::vector<Line> lines;
  for (size_t i = 0; i < m.spec.count_if.size(); ++i) {
    lines.push_back({"ratio(" + m.spec.count_if[i] + ")",
                     [i](const MeasureCell& c, uint64_t count) {
                       return count == 0 ? std::nullopt
                                         : std::optional<double>(static_cast<double>(c.matched[i]) /
                                                                 static_cast<double>(count));
                     },
                     std::nullopt});
  }
  const auto highest = std::max_element(m.spec.percentiles.begin(), m.spec.percentiles.end(),
                                        [](const Percentile& a, const Percentile& b) {
                                          return static_cast<long double>(a.numerator) / std::pow(10.0L, a.scale) <
                                                 static_cast<long double>(b.numerator) / std::pow(10.0L, b.scale);
                                        });
  for (size_t i = 0; i < m.spec.fields.size(); ++i) {
    const MeasureSpec::Field& field = m.spec.fields[i];
    const std::optional<DurationUnit> unit = unit_of(m.units, field.name);
    if (field.quantiled) {
      const Percentile p = *highest;
      lines.push_back({"p" + p.text + "(" + field.name + ")",
                       [i, p](const MeasureCell& c, uint64_t) {
                         const FieldMeasure& f = c.fields[i];
                         return f.n == 0 ? std::nullopt : std::optional<double>(quantile_of(f, p));
                       },
                       unit});
    } else {
      lines.push_back({"sum(" + field.name + ")",
                       [i](const MeasureCell& c, uint64_t) {
                         const FieldMeasure& f = c.fields[i];
                         if (f.n == 0 || f.sum.overflowed()) return std::optional<double>();
                         return std::optional<double>(static_cast<double>(f.sum.units()) * 1e-18);
                       },
                       unit});
    }
  }
  return lines;
}

// Each line's values in the columns of `c`, and the largest of each.
struct LineValues {
  std::vector<std::optional<double>> values;
  double peak = 0;
};
std::vector<LineValues> line_values(const std::vector<Line>& lines, const Columns& c) {
  std::vector<LineValues> out(lines.size());
  for (size_t l = 0; l < lines.size(); ++l) {
    for (size_t column = 0; column < c.cells.size(); ++column) {
      const std::optional<double> v = lines[l].value(c.cells[column], c.sums[column]);
      out[l].values.push_back(v);
      if (v) out[l].peak = std::max(out[l].peak, *v);
    }
  }
  return out;
}

// The cells of `m` added per column of `c`.
std::vector<MeasureCell> bin_cells(const PlotMeasures& m, const Columns& c) {
  std::vector<MeasureCell> cells(c.sums.size(), m.spec.empty_cell());
  MeasureCell cell;
  for (size_t row = 0; row < m.seconds.size(); ++row) {
    const uint64_t column = c.binning.count_between(c.first_bin, c.binning.start_of(m.seconds[row])) - 1;
    m.cells->get(row, cell);
    cells[std::min<uint64_t>(column, cells.size() - 1)].add(cell);
  }
  return cells;
}

// The sum of `buckets` (sorted, non-empty) in each bin of `binning` from the
// one starting at `first_bin` to the one starting at `last_bin`.
std::vector<uint64_t> bin_sums(const std::vector<SecondCount>& buckets, const Binning& binning, int64_t first_bin,
                               int64_t last_bin) {
  std::vector<uint64_t> sums(binning.count_between(first_bin, last_bin), 0);
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
  return sums;
}

// Columns: the binning that fits beside the count axis, whose label is the
// peak column's count. Sized first for the largest bucket (no column has
// less), then again for the peak column if that is wider, until it fits
// (twice at most in practice; each pass costs the non-empty buckets).
// With measures, the labels of their lines' peaks widen the margin too.
Columns fit_columns(const std::vector<SecondCount>& buckets, const Bucketing& bucketing, size_t width,
                    const PlotMeasures* measures, const std::vector<Line>& lines) {
  const int64_t first = buckets.front().second, last = buckets.back().second;
  const uint64_t n = bucketing.count_between(first, last);
  uint64_t largest = 0;
  for (const SecondCount& b : buckets) largest = std::max(largest, b.count);
  for (size_t label_width = digits(largest);;) {
    const uint64_t room = width > label_width + 3 ? width - label_width - 2 : 1;  // "1234 ┤"
    Columns c;
    c.binning = choose_binning(bucketing, first, last, n, room);
    c.first_bin = c.binning.start_of(first);
    c.last_bin = c.binning.start_of(last);
    c.sums = bin_sums(buckets, c.binning, c.first_bin, c.last_bin);
    c.peak = *std::max_element(c.sums.begin(), c.sums.end());
    c.margin = digits(c.peak);
    if (measures != nullptr) {
      c.cells = bin_cells(*measures, c);
      const std::vector<LineValues> values = line_values(lines, c);
      for (size_t l = 0; l < lines.size(); ++l) {
        c.margin = std::max(c.margin, display_width(value_text(lines[l], values[l].peak)));
      }
    }
    if (c.margin <= label_width) return c;
    label_width = c.margin;
  }
}

// "1 column = 1 bucket", or the bin and its buckets: "1 column = 20m (20
// buckets of 1m)". Bins hold a fixed number of buckets only in UTC and when
// they are whole buckets or days (months vary), so only then is the number
// stated.
std::string binning_text(const Binning& binning, const Bucketing& bucketing) {
  if (binning.name.empty()) return "1 column = 1 bucket";
  const int64_t w = bucketing.width_seconds();
  const int64_t bin_seconds = binning.kind == Binning::kBuckets ? binning.bins.width_seconds()
                              : binning.kind == Binning::kDays  ? binning.step * kSecondsPerDay
                                                                : 0;
  std::string text = "1 column = " + binning.name + " (";
  if (bucketing.zone() == nullptr && bin_seconds > 0) text += std::to_string(bin_seconds / w) + " ";
  return text + "buckets of " + duration(static_cast<uint64_t>(w)) + ")";
}

// Which binned columns cover time outside the buckets from `first` to
// `last`: the first starting before `first`, the last ending after `last`'s
// bucket; "" if neither (always so with a bucket a column).
std::string partial_text(const Columns& c, const Bucketing& bucketing, int64_t first, int64_t last) {
  if (c.binning.name.empty()) return "";
  const bool first_partial = c.first_bin<first, last_partial = c.binning.next(c.last_bin)> bucketing.next(last);
  if (first_partial && last_partial) return "first and last columns partial";
  if (first_partial) return "first column partial";
  return last_partial ? "last column partial" : "";
}

// Heading: what is counted, the span, the binning and the peak, wrapped to `width`.
std::string heading(const Columns& c, const Bucketing& bucketing, int64_t first, int64_t last, size_t width) {
  std::string per = "requests per " + bucketing.name();
  if (bucketing.zone() != nullptr) per += " in " + time_zone_name(*bucketing.zone());
  std::vector<std::pair<std::string, std::string>> pieces = {{"", per},
                                                             {", ", "from " + start_text(bucketing, first)},
                                                             {" ", "to " + start_text(bucketing, last)},
                                                             {", ", binning_text(c.binning, bucketing)}};
  if (std::string partial = partial_text(c, bucketing, first, last); !partial.empty()) {
    pieces.push_back({", ", std::move(partial)});
  }
  pieces.push_back({", ", "peak column " + std::to_string(c.peak)});
  return wrap(pieces, width);
}

// Bars, `rows` of them, top row first, after the count axis: the peak at the
// top, 0 below.
void append_bars(std::string& out, const Columns& c, uint64_t rows) {
  const std::string top = std::to_string(c.peak);
  std::vector<uint64_t> fill(c.sums.size());
  for (size_t i = 0; i < c.sums.size(); ++i) fill[i] = scaled(c.sums[i], c.peak, 8 * rows);
  for (uint64_t r = rows; r-- > 0;) {
    std::string line =
        r + 1 == rows ? std::string(c.margin - top.size(), ' ') + top + " ┤" : std::string(c.margin + 1, ' ') + "│";
    for (const uint64_t f : fill) line += kBlocks[f > 8 * r ? std::min<uint64_t>(8, f - 8 * r) : 0];
    append_line(out, line);
  }
}

// A tick on the time axis: its column and the start of that column's bin.
struct Tick {
  size_t column = 0;
  int64_t start = 0;
};

// The middle tick: the roundest column start within a sixth of the columns
// of the middle one whose label fits between the first label (`first_size`
// chars) and the last (from `end_at` on), the nearest to the middle of
// those; column 0 if there is none.
Tick middle_tick(const Columns& c, const Bucketing& bucketing, size_t first_size, size_t end_at) {
  const size_t columns = c.sums.size();
  const size_t centre = (columns - 1) / 2, reach = columns / 6, half = first_size / 2;
  const size_t lo = std::max(centre - reach, first_size + 2 + half);
  const size_t hi = std::min(centre + reach, end_at >= first_size + 2 ? end_at - first_size - 2 + half : 0);
  const auto off_centre = [&](size_t column) { return column > centre ? column - centre : centre - column; };
  Tick middle{0, c.first_bin};
  int64_t best = -1;
  if (lo <= hi) {
    int64_t start = c.binning.start_at(c.first_bin, lo);
    for (size_t column = lo; column <= hi; ++column, start = c.binning.next(start)) {
      const int64_t r = roundness(bucketing, start);
      if (r > best || (r == best && off_centre(column) < off_centre(middle.column))) {
        best = r;
        middle = {column, start};
      }
    }
  }
  return middle;
}

// The labels under the time axis and the columns they mark.
struct AxisLabels {
  std::string line;                 // under the axis
  std::string own_line;             // the last column's, if it does not fit on `line`
  std::vector<size_t> ticks = {0};  // columns with a label, in order
};

// Column starts (the first column's may precede the first bucket): the first
// column's under it, the last column's ending under it (or further right, or
// on a line of its own, if `room` is too narrow), and the middle column's
// centred under it if it fits.
AxisLabels axis_labels(const Columns& c, const Bucketing& bucketing, size_t room) {
  const size_t columns = c.sums.size();
  AxisLabels labels;
  labels.line = start_text(bucketing, c.first_bin);
  if (columns == 1) return labels;
  const std::string end = start_text(bucketing, c.last_bin);
  const size_t at = std::max<size_t>(columns > end.size() ? columns - end.size() : 0, labels.line.size() + 2);
  if (at + end.size() <= room) {
    const Tick middle = middle_tick(c, bucketing, labels.line.size(), at);
    const std::string mid = start_text(bucketing, middle.start);
    const size_t mid_at = middle.column >= mid.size() / 2 ? middle.column - mid.size() / 2 : 0;
    if (middle.column > 0 && mid_at >= labels.line.size() + 2 && mid_at + mid.size() + 2 <= at) {
      labels.line += std::string(mid_at - labels.line.size(), ' ') + mid;
      labels.ticks.push_back(middle.column);
    }
    labels.line += std::string(at - labels.line.size(), ' ') + end;
  } else {
    labels.own_line = end;
  }
  labels.ticks.push_back(columns - 1);
  return labels;
}

// Time axis: "0 └┬───┬──┬" below the bars, then its labels, within `width`.
void append_time_axis(std::string& out, const Columns& c, const Bucketing& bucketing, size_t width) {
  const std::string indent(c.margin + 2, ' ');
  const AxisLabels labels = axis_labels(c, bucketing, width > indent.size() ? width - indent.size() : 0);
  std::string axis = std::string(c.margin - 1, ' ') + "0 └";
  for (size_t column = 0; column < c.sums.size(); ++column) {
    axis += std::find(labels.ticks.begin(), labels.ticks.end(), column) != labels.ticks.end() ? "┬" : "─";
  }
  append_line(out, axis);
  append_line(out, indent + labels.line);
  if (!labels.own_line.empty()) append_line(out, indent + labels.own_line);
}

// A line chart of `line` on the columns of `c`, `rows` high: its title and
// peak, then its rows, the peak's value labelling the top one.
void append_line_chart(std::string& out, const Columns& c, const Line& line, const LineValues& values, uint64_t rows,
                       size_t width) {
  const std::string top = value_text(line, values.peak);
  out += wrap({{"", line.title + " per column"}, {", ", "peak column " + top}}, width);
  for (uint64_t r = rows; r-- > 0;) {
    std::string text = r + 1 == rows ? std::string(c.margin - display_width(top), ' ') + top + " ┤"
                                     : std::string(c.margin + 1, ' ') + "│";
    for (const std::optional<double>& v : values.values) {
      uint64_t f = 0;  // eighths from the bottom; 0: blank
      if (v)
        f = *v <= 0 || values.peak <= 0 ? 1
                                        : std::clamp<uint64_t>(std::llround(*v / values.peak * 8 * rows), 1, 8 * rows);
      text += f > 8 * r && f <= 8 * (r + 1) ? kBlocks[f - 8 * r] : " ";
    }
    append_line(out, text);
  }
}

}  // namespace

std::optional<PlotMeasures> plot_measures(const Result& result, const ReportOptions& report) {
  if (result.cells.empty()) return std::nullopt;
  PlotMeasures m{result.query.measures(), report.units, &result.cells, {}};
  const bool keyed = !result.app_counts.empty();
  for (size_t i = 0; i < result.cells.size(); ++i) {
    m.seconds.push_back(keyed ? result.app_counts[i].second : result.counts[i].second);
  }
  return m;
}

std::string format_plot(const std::vector<SecondCount>& buckets, const Bucketing& bucketing, PlotSize size,
                        const PlotMeasures* measures) {
  if (buckets.empty()) return "no counted lines\n";
  const std::vector<Line> lines = measures != nullptr ? lines_of(*measures) : std::vector<Line>{};
  const Columns columns = fit_columns(buckets, bucketing, size.width, measures, lines);
  std::string out = heading(columns, bucketing, buckets.front().second, buckets.back().second, size.width);
  const unsigned height = std::max(1u, size.height);
  append_bars(out, columns, height);
  append_time_axis(out, columns, bucketing, size.width);
  const std::vector<LineValues> values = line_values(lines, columns);
  for (size_t l = 0; l < lines.size(); ++l)
    append_line_chart(out, columns, lines[l], values[l], std::max(2u, height / 3), size.width);
  return out;
}

}  // namespace logagg
