// The differential checks of checks.h: the engine's RFC 3339 parser and its
// whole-buffer aggregation against the reference oracle (tests/reference/) and
// Howard Hinnant's date library.
#include "checks.h"

#include <date/date.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <zlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "input/input.h"
#include "logagg/aggregate.h"
#include "logagg/measures.h"
#include "logagg/merge.h"
#include "logagg/options.h"
#include "logagg/report.h"
#include "logagg/rfc3339.h"
#include "output_checks.h"
#include "parse/line_parser.h"
#include "reference/reference.h"

namespace logagg_fuzz {
namespace {

// The input as an escaped literal for a report, cut short so the report stays
// readable (the whole input is in the crash artifact or the replayed file).
std::string shown(std::string_view input) {
  constexpr size_t kMaxShown = 512;
  if (input.size() <= kMaxShown) return reference::quoted(input);
  return reference::quoted(input.substr(0, kMaxShown)) + "... (" + std::to_string(input.size()) +
         " bytes)";
}

std::string second_text(std::optional<int64_t> second) {
  return second ? std::to_string(*second) : "invalid";
}

// ---------------------------------------------------------------------------
// RFC 3339

// format_utc_second into a heap buffer of exactly kUtcSecondMaxChars, so that
// AddressSanitizer reports any write past the documented size.
std::string format(int64_t second) {
  const auto out = std::make_unique<char[]>(logagg::kUtcSecondMaxChars);
  const int n = logagg::format_utc_second(second, out.get());
  return std::string(out.get(), static_cast<size_t>(n));
}

// The second date::parse reads from `text`, a timestamp both parsers accepted,
// asked in date's dialect as tests/unit/rfc3339_test.cc does: 'T' between date and
// time, a numeric offset for Z, and at most 6 fraction digits (it parses into
// microseconds; truncating the fraction does not change the floored second).
// nullopt if date::parse fails or does not read the text whole.
std::optional<int64_t> date_parse_second(std::string_view text) {
  constexpr size_t kFixed = 19;  // "YYYY-MM-DDThh:mm:ss"
  std::string dialect(text.substr(0, kFixed));
  dialect[10] = 'T';
  size_t zone_at = kFixed;
  if (text[kFixed] == '.') {
    zone_at = text.find_first_not_of("0123456789", kFixed + 1);
    dialect += text.substr(kFixed, std::min<size_t>(zone_at - kFixed, 7));  // '.' + 6 digits
  }
  const std::string_view zone = text.substr(zone_at);
  dialect += zone == "Z" || zone == "z" ? std::string("+00:00") : std::string(zone);

  std::istringstream in(dialect);
  date::sys_time<std::chrono::microseconds> instant;
  in >> date::parse("%FT%T%Ez", instant);
  if (in.fail() || in.peek() != std::char_traits<char>::eof()) return std::nullopt;
  return date::floor<std::chrono::seconds>(instant).time_since_epoch().count();
}

// Checks that a valid `second` prints as date::format prints it and reads back.
std::string check_format(int64_t second) {
  const std::string text = format(second);
  const std::string where = "format_utc_second(" + std::to_string(second) + ") = " + shown(text);
  // date::format misprints negative years, which only a positive offset on
  // year 0000 reaches; tests/unit/rfc3339_test.cc pins those by value.
  if (text.front() != '-') {
    const std::string expected =
        date::format("%FT%TZ", date::sys_seconds{std::chrono::seconds{second}});
    if (text != expected) return where + ", date::format prints " + shown(expected);
  }
  // Only years 0000..9999 (four digits, no sign) are RFC 3339.
  if (text.size() == 20) {
    const std::optional<int64_t> back = logagg::parse_rfc3339(text);
    if (back != second) return where + ", which parses back as " + second_text(back);
  }
  return {};
}

// ---------------------------------------------------------------------------
// Whole buffers

// The app and time fields a log is read with.
struct Fields {
  const char *app, *time;
};

// The pair a first byte 0x01..0x04 chooses; index 0 is for every other input.
const Fields kFieldPairs[] = {
    {"app_id", "timestamp"},      // the defaults
    {"/request/host", "/ts"},     // a nested field beside a top-level one
    {"/r/app", "/r/t"},           // both in one object
    {"/a~1b/0", "/t~0"},          // ~1 and ~0; an array index
    {"svc.name", "/svc/name/1"},  // a plain name with a dot beside a pointer
};

// The first byte of an input that draws its options from the next three.
constexpr unsigned char kDrawOptions = 0x05;
// The first byte of an input that draws keys and filters (--by, --where,
// --app-field none) from the next one.
constexpr unsigned char kDrawKeys = 0x06;

// The keys and filters it chooses from: values, derived keys, --by-app
// beside --by, every filter kind, a nested field, no app field.
struct KeysAndFilters {
  bool by_app, no_app;
  std::vector<logagg::KeyField> by;
  std::vector<std::string> where;
};
using Kind = logagg::KeyField::Kind;
const KeysAndFilters kKeysAndFilters[] = {
    {false, false, {{"status", Kind::kValue, 0}}, {}},
    {false, false, {{"status", Kind::kStatusClass, 0}, {"path", Kind::kPathPrefix, 2}}, {}},
    {true, false, {{"m", Kind::kValue, 0}}, {"status>=500"}},
    {false, false, {}, {"status != 2e2", "path~/a.*", "missing x"}},
    {false, true, {{"/r/h", Kind::kValue, 0}}, {"exists status", "m == \"GET\""}},
    {false, true, {}, {"status < -0.5", "b == true"}},
};

// The first byte of an input that draws measures (--sum, --quantiles,
// --count-if, with or without keys) from the next one.
constexpr unsigned char kDrawMeasures = 0x07;

struct Measures {
  std::vector<logagg::KeyField> by;
  std::vector<std::string> sum, quantiles, count_if;
};
const Measures kMeasures[] = {
    {{{"status", Kind::kValue, 0}}, {"b"}, {"l"}, {"status>=500"}},
    {{}, {"l", "b"}, {"l"}, {}},
    {{{"m", Kind::kValue, 0}}, {}, {"/r/h", "b"}, {"b > 1e3", "missing l"}},
    {{}, {"status"}, {"status"}, {"status == 200"}},
};

// The time formats (and input zones) an input starting with kDrawOptions
// chooses from.
const std::pair<const char*, const char*> kTimeFormats[] = {
    {"rfc3339", ""}, {"unix", ""}, {"unix-ms", ""}, {"unix-us", ""}, {"unix-ns", ""}, {"clf", ""},
    {"%Y-%m-%d %H:%M:%S", "Europe/Berlin"},  // a local time, with a DST gap and overlap
    {"%d/%b/%Y:%H:%M:%S.%f%z", ""},          // a fraction and an offset
};

// The app patterns it chooses from; one more choice takes the pattern from
// the input itself.
const char* const kAppPatterns[] = {
    "[A-Za-z0-9]+",             // the default
    "[a-z0-9.-]+",              // a byte table
    "[a-z]+(-[a-z]+)*@[a-z]+",  // RE2
    ".+",                       // a byte table that takes every non-ASCII code point
};

// The options `input` asks for and the log in it (see check_engine in
// checks.h); nullopt if they are a usage error (a pattern from the input
// that does not compile).
std::optional<std::pair<logagg::Options, std::string_view>> options_and_log(std::string_view input) {
  logagg::Options options;
  const auto byte = [&input](size_t i) { return i < input.size() ? static_cast<unsigned char>(input[i]) : 0u; };
  const size_t pick = byte(0);
  if (pick == kDrawKeys) {
    const KeysAndFilters& k = kKeysAndFilters[byte(1) % std::size(kKeysAndFilters)];
    options.by_app = k.by_app;
    if (k.no_app) options.app_field = std::string(logagg::kNoAppField);
    options.by = k.by;
    options.where = k.where;
    return std::pair{options, input.substr(std::min(input.size(), size_t{2}))};
  }
  if (pick == kDrawMeasures) {
    const Measures& m = kMeasures[byte(1) % std::size(kMeasures)];
    options.by = m.by;
    options.sum = m.sum;
    options.quantiles = m.quantiles;
    options.count_if = m.count_if;
    options.percentiles = {"0", "50", "99.9", "100"};
    return std::pair{options, input.substr(std::min(input.size(), size_t{2}))};
  }
  if (pick != kDrawOptions) {
    const bool fields = pick != 0 && pick < std::size(kFieldPairs);
    options.app_field = kFieldPairs[fields ? pick : 0].app;
    options.time_field = kFieldPairs[fields ? pick : 0].time;
    return std::pair{options, fields ? input.substr(1) : input};
  }
  const Fields& f = kFieldPairs[byte(1) % std::size(kFieldPairs)];
  const auto& [format, zone] = kTimeFormats[byte(2) % std::size(kTimeFormats)];
  options.app_field = f.app;
  options.time_field = f.time;
  options.time_format = format;
  options.input_tz = zone;
  size_t header = 4;
  if (const size_t p = byte(3) % (std::size(kAppPatterns) + 1); p < std::size(kAppPatterns)) {
    options.app_pattern = kAppPatterns[p];
  } else {  // a length byte, then the pattern
    options.app_pattern = std::string(input.substr(std::min(input.size(), size_t{5}), byte(4)));
    header = 5 + options.app_pattern.size();
  }
  try {
    (void)logagg::Query(options).rules();
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
  return std::pair{options, input.substr(std::min(input.size(), header))};
}

const size_t kNoLimit = logagg::Options{}.max_line_bytes;  // the default, far above any fuzz input
constexpr size_t kRejectSamples = 5;

// A rejected line as the engine reports it: 1-based line number and reason.
struct Reject {
  uint64_t line;
  logagg::Reason reason;
  friend bool operator==(const Reject&, const Reject&) = default;
};

// What the reference expects of one input under one line limit.
struct Expected {
  reference::Aggregate tally;
  std::vector<Reject> rejects;  // the first kRejectSamples rejected lines
};

// How one engine run reads the input.
struct Run {
  bool stream;  // through a pipe (the path for stdin) instead of as a buffer
  unsigned threads;
  size_t segment_bytes;  // 0: the engine's choice (one segment for a small input)
  bool by_app = false;   // also count per app id (--by-app)
};

uint64_t fnv1a(std::string_view bytes) {
  uint64_t h = 14695981039346656037ull;
  for (const char c : bytes) {
    h ^= static_cast<unsigned char>(c);
    h *= 1099511628211ull;
  }
  return h;
}

// The engine runs for an input with hash `h`: one default run, one segment
// per line, and two multi-threaded runs with cuts the hash chooses; then the
// stream path, which takes no segments. Three of them also count per app.
std::vector<Run> runs_for(uint64_t h) {
  return {{false, 1, 0},
          {false, 1, 1, true},
          {false, 2, 1 + h % 64},
          {false, 3, 1 + (h >> 8) % 16, true},
          {true, 1, 0, true}};
}

// A line limit one below, at or one above the length of one of the lines
// (chosen by the hash), so that line_too_long is hit and missed by one byte.
size_t tight_limit(std::string_view data, uint64_t h) {
  const std::vector<std::string_view> lines = reference::split_lines(data);
  if (lines.empty()) return h % 4;
  const size_t length = lines[(h >> 16) % lines.size()].size();
  const size_t step = (h >> 32) % 3;
  return length + step == 0 ? 0 : length + step - 1;
}

// The keys and filters of `options`, "" without.
std::string keys_text(const logagg::Options& options) {
  std::string out = options.by_app ? ", by app" : "";
  for (const logagg::KeyField& key : options.by) out += ", by " + reference::quoted(key.column());
  for (const std::string& filter : options.where) out += ", where " + reference::quoted(filter);
  return out;
}

// The fields, time format and app pattern of `options`, its line limit, keys and filters.
std::string options_text(const logagg::Options& options) {
  return "fields " + reference::quoted(options.app_field) + ", " + reference::quoted(options.time_field) +
         ", time format " + reference::quoted(options.time_format) +
         (options.input_tz.empty() ? "" : " in " + options.input_tz) + ", app pattern " +
         reference::quoted(options.app_pattern) + ", max_line_bytes " + std::to_string(options.max_line_bytes) +
         keys_text(options);
}

std::string run_text(const Run& run, const logagg::Options& options) {
  return std::string(run.stream ? "stream" : "aggregate_buffer") + " (" + options_text(options) + ", threads " +
         std::to_string(run.threads) + ", segment_bytes " + std::to_string(run.segment_bytes) +
         (run.by_app ? ", by app" : "") + ")";
}

// Classifies every line of `data` with the engine's LineParser, reading in
// place with the rest of `data` readable after the line (as the engine reads a
// mapped file: near the end it must copy), with its BlockParser in blocks of
// `block_bytes`, and with the reference. Returns the first disagreement;
// fills `expected` from the reference.
std::string check_lines(std::string_view data, const logagg::Options& options, size_t block_bytes,
                        Expected& expected) {
  logagg::LineParser parser(logagg::Query(options).rules(), options.max_line_bytes);
  const reference::Rules rules(options);
  const char* const data_end = data.data() + data.size();
  // BlockParser's verdicts of the same lines (after a BOM, which the engine
  // skips before it), in blocks of `block_bytes`.
  std::vector<std::pair<logagg::LineVerdict, std::string>> blocks;
  logagg::BlockParser block_parser(logagg::Query(options).rules(), options.max_line_bytes, block_bytes);
  const std::string_view text = data.substr(data.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0);
  block_parser.classify_lines(text, text.size(), [&](const logagg::LineVerdict& v) {
    blocks.emplace_back(v, v.status == logagg::LineStatus::kCounted ? std::string(v.app) : "");
  });
  uint64_t number = 0;
  for (const std::string_view line : reference::split_lines(data)) {
    ++number;
    const logagg::LineVerdict got =
        parser.classify(line, static_cast<size_t>(data_end - line.data()));
    std::string want_app;
    reference::KeyTuple tuple;
    const logagg::LineVerdict want = reference::classify(line, rules, &want_app, &tuple);
    if (rules.keyed()) want_app = reference::engine_key(tuple);  // with keys, the tuple is the line's key
    if (number > blocks.size()) return "BlockParser gave " + std::to_string(blocks.size()) + " verdicts for more lines";
    const auto& [block_got, block_app] = blocks[number - 1];
    if (!reference::same_verdict(block_got, want) ||
        (want.status == logagg::LineStatus::kCounted && block_app != want_app)) {
      return "line " + std::to_string(number) + " " + shown(line) + ": BlockParser (blocks of " +
             std::to_string(block_bytes) + " bytes) " + reference::describe(block_got) + " app " + shown(block_app) +
             ", reference " + reference::describe(want) + " app " + shown(want_app) + " (" + options_text(options) +
             ")";
    }
    if (want.status == logagg::LineStatus::kCounted && got.status == want.status && got.app != want_app) {
      return "line " + std::to_string(number) + " " + shown(line) + ": LineParser app " + shown(got.app) +
             ", reference " + shown(want_app) + " (" + options_text(options) + ")";
    }
    if (!reference::same_verdict(got, want)) {
      return "line " + std::to_string(number) + " " + shown(line) + ": LineParser " + reference::describe(got) +
             ", reference " + reference::describe(want) + " (" + options_text(options) + ")";
    }
    if (want.status == logagg::LineStatus::kRejected && expected.rejects.size() < kRejectSamples) {
      expected.rejects.push_back({number, want.reason});
    }
  }
  if (number != blocks.size()) return "BlockParser gave " + std::to_string(blocks.size()) + " verdicts for " + std::to_string(number) + " lines";
  expected.tally = reference::aggregate_buffer(data, rules);
  return {};
}

std::string counts_text(const std::vector<logagg::SecondCount>& counts) {
  std::string out = "{";
  for (const auto& [second, count] : counts) {
    out += (out.size() > 1 ? ", " : "") + std::to_string(second) + ": " + std::to_string(count);
  }
  return out + "}";
}

std::string rejects_text(const std::vector<Reject>& rejects) {
  std::string out = "[";
  for (const Reject& r : rejects) {
    out += (out.size() > 1 ? ", " : "") + std::to_string(r.line) + " " +
           reference::describe(logagg::LineVerdict::rejected(r.reason));
  }
  return out + "]";
}

// The differences between an engine result and the reference's expectation,
// "" if there are none.
std::string differences(const logagg::Result& got, const Expected& want, size_t bytes, bool by_app) {
  std::string diff;
  if (by_app) {
    std::map<std::pair<int64_t, std::string>, uint64_t> apps;
    for (const logagg::AppCount& c : got.app_counts) apps[{c.second, got.apps.at(c.app)}] += c.count;
    if (apps != want.tally.app_counts) diff += " counts per app differ;";
  }
  auto compare = [&diff](const std::string& what, uint64_t engine, uint64_t oracle) {
    if (engine != oracle) {
      diff += " " + what + " " + std::to_string(engine) + " != " + std::to_string(oracle) + ";";
    }
  };
  std::vector<logagg::SecondCount> want_counts;
  for (const auto& [second, count] : want.tally.counts) want_counts.push_back({second, count});
  if (got.counts != want_counts) {
    diff += " counts " + counts_text(got.counts) + " != " + counts_text(want_counts) + ";";
  }
  const logagg::Summary& s = got.summary;
  compare("lines", s.lines, want.tally.lines);
  compare("counted", s.counted, want.tally.counted);
  compare("blank", s.blank, want.tally.blank);
  for (size_t r = 0; r < logagg::kReasonCount; ++r) {
    compare(reference::describe(logagg::LineVerdict::rejected(static_cast<logagg::Reason>(r))),
            s.rejected[r], want.tally.rejected[r]);
  }
  compare("files", s.files, 1);
  compare("bytes", s.bytes, bytes);
  std::vector<Reject> got_rejects;
  for (const logagg::RejectSample& r : got.rejects) got_rejects.push_back({r.line, r.reason});
  if (got_rejects != want.rejects) {
    diff += " rejects " + rejects_text(got_rejects) + " != " + rejects_text(want.rejects) + ";";
  }
  for (const logagg::InputError& e : got.errors) diff += " error " + e.path + ": " + e.message + ";";
  return diff;
}

// Aggregates `data` read through a pipe, as the engine reads standard input;
// nullopt (the run is skipped) if the pipe cannot take `data` in one go,
// which fuzz-sized inputs always fit.
std::optional<logagg::Result> aggregate_stream(std::string_view data,
                                               const logagg::Options& options) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return std::nullopt;
  const int capacity = ::fcntl(fds[1], F_GETPIPE_SZ);
  bool written = capacity >= 0 && data.size() <= static_cast<size_t>(capacity);
  for (size_t at = 0; written && at < data.size();) {
    const ssize_t n = ::write(fds[1], data.data() + at, data.size() - at);
    written = n > 0;
    at += written ? static_cast<size_t>(n) : 0;
  }
  ::close(fds[1]);
  std::optional<logagg::Result> result;
  if (written) result = logagg::aggregate({"/dev/fd/" + std::to_string(fds[0])}, options);
  ::close(fds[0]);
  return result;
}

// Whether `options` were drawn with keys, filters or measures (kDrawKeys, kDrawMeasures).
bool drawn_keys(const logagg::Options& options) {
  const logagg::Query query(options);
  return query.keyed() || !options.where.empty() || !query.has_app() || query.measured();
}

std::optional<logagg::Result> run_engine(std::string_view data, const Run& run, logagg::Options options);

// The measured runs (kDrawMeasures), which the reference does not count:
// every run prints the same csv; the json document reads back into the same
// rows; and each row adds up: its cells' counts are the summary's counted,
// n(F) and the lines without a number are the counted lines, a sketch holds
// n(F) values, and min <= every quantile <= max.
std::string check_measures(std::string_view data, const logagg::Options& options, uint64_t h,
                           std::string_view input) {
  logagg::ReportOptions csv, json;
  csv.format = logagg::Format::kCsv;
  json.format = logagg::Format::kJson;
  std::optional<std::string> first;
  const logagg::MeasureSpec spec = logagg::MeasureSpec::of(options);
  for (const Run& run : runs_for(h)) {
    const std::optional<logagg::Result> got = run_engine(data, run, options);
    if (!got) continue;
    const std::string text = logagg::format_report(*got, csv);
    const auto fail = [&](const std::string& what) {
      return run_text(run, options) + ": " + what + "; input " + shown(input);
    };
    if (!first) first = text;
    if (text != *first) return fail("measured csv " + shown(text) + " != the first run's " + shown(*first));
    const logagg::Partial back = logagg::parse_partial(logagg::format_report(*got, json));
    if (logagg::format_report(back.result, csv) != text) return fail("the json reads back otherwise");
    uint64_t counted = 0;
    std::vector<uint64_t> with_number(spec.fields.size());
    for (size_t row = 0; row < got->cells.size(); ++row) {
      const logagg::MeasureCell cell = got->cells[row];
      counted += cell.count;
      for (size_t i = 0; i < spec.fields.size(); ++i) {
        const logagg::FieldMeasure& f = cell.fields[i];
        with_number[i] += f.n;
        if (!spec.fields[i].quantiled) continue;
        if (f.sketch.total() != f.n) return fail("a sketch does not hold n values");
        if (f.n == 0) continue;
        // The value of each rank lies in [min, max]; its bucket's representative within 1 % of it.
        const double bound = 0.01 * std::max(std::fabs(f.min), std::fabs(f.max));
        for (const logagg::Percentile& p : spec.percentiles) {
          const double q = f.sketch.at_rank(p.rank(f.n));
          if (std::fabs(q - std::clamp(q, f.min, f.max)) > bound) return fail("a quantile's bucket lies outside [min, max]");
        }
      }
    }
    if (counted != got->summary.counted) return fail("the cells' counts are not summary.counted");
    for (size_t i = 0; i < spec.fields.size(); ++i) {
      if (with_number[i] + got->summary.no_measure[i] != counted) return fail("n + no number is not counted");
    }
  }
  return {};
}

// Runs the engine once as `run` says, with the counting options of `options`;
// nullopt if the run had to be skipped.
std::optional<logagg::Result> run_engine(std::string_view data, const Run& run, logagg::Options options) {
  options.threads = run.threads;
  options.segment_bytes = run.segment_bytes;
  options.max_reject_samples = kRejectSamples;
  if (!drawn_keys(options)) options.by_app = run.by_app;  // drawn keys stay as drawn
  if (run.stream) return aggregate_stream(data, options);
  return logagg::aggregate_buffer(data, options);
}

// What zlib makes of gzip members one after another: their bytes, or nullopt
// if the data is corrupt or ends inside a member.
std::optional<std::string> zlib_gunzip(std::string_view data) {
  z_stream z{};
  if (inflateInit2(&z, 15 + 16) != Z_OK) return std::nullopt;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
  z.avail_in = static_cast<uInt>(data.size());
  std::string out;
  char buf[16384];
  int rc = Z_OK;
  while (rc == Z_OK || (rc == Z_STREAM_END && z.avail_in > 0)) {
    if (rc == Z_STREAM_END) inflateReset(&z);
    z.next_out = reinterpret_cast<Bytef*>(buf);
    z.avail_out = sizeof buf;
    rc = inflate(&z, Z_NO_FLUSH);
    out.append(buf, sizeof buf - z.avail_out);
  }
  inflateEnd(&z);
  if (rc != Z_STREAM_END) return std::nullopt;
  return out;
}

// What a byte source gives, read to its end in reads of 1 to `max_read` bytes.
struct SourceRead {
  std::string bytes, error;
  uint64_t bytes_in = 0;
  bool operator==(const SourceRead&) const = default;
};

// `source` read to its end in reads of 1 to `max_read` bytes, their sizes drawn from `h`.
SourceRead read_source(std::unique_ptr<logagg::ByteSource> source, size_t max_read, uint64_t h) {
  SourceRead r;
  std::vector<char> buf(max_read);
  for (ptrdiff_t n; (n = source->read(buf.data(), 1 + (h = h * 6364136223846793005ull + 1) % max_read)) > 0;) {
    r.bytes.append(buf.data(), static_cast<size_t>(n));
  }
  r.error = source->error();
  r.bytes_in = source->bytes_in();
  return r;
}

// The decompression part of check_engine (checks.h), for compressed-looking data.
std::string check_decompression(std::string_view data, uint64_t h) {
  const int fd = ::memfd_create("logagg-fuzz", MFD_CLOEXEC);
  if (fd < 0) return {};
  std::string problem;
  if (::write(fd, data.data(), data.size()) == static_cast<ssize_t>(data.size())) {
    auto opened = [&](logagg::Decompression how) {
      ::lseek(fd, 0, SEEK_SET);
      return logagg::open_byte_source(fd, how);
    };
    const size_t max_read = 1 + h % 300;
    const SourceRead inline_read = read_source(opened(logagg::Decompression::kInline), max_read, h);
    const SourceRead ahead = read_source(opened(logagg::Decompression::kAhead), max_read, h);
    const SourceRead small_buffers = read_source(
        logagg::read_ahead_in_thread(opened(logagg::Decompression::kInline), 1 + (h >> 12) % 3, 1 + (h >> 16) % 64),
        max_read, h);
    // The same bytes, error and byte count, also for a fault in the middle
    // of the data: the decoder writes in chunks of a fixed size whatever the
    // reads (kDecodedChunkBytes, input.h).
    if (ahead != inline_read || small_buffers != inline_read) {
      problem = "decompressed ahead != inline: error " + shown(ahead.error) + " / " + shown(small_buffers.error) +
                " vs " + shown(inline_read.error);
    } else if (logagg::detect_compression(data.substr(0, 4)) == logagg::Compression::kGzip) {
      const std::optional<std::string> zlib = zlib_gunzip(data);
      if (zlib && (inline_read.bytes != *zlib || !inline_read.error.empty())) {
        problem = "gzip that zlib decodes cleanly: " + shown(inline_read.error) + ", " +
                  std::to_string(inline_read.bytes.size()) + " bytes vs zlib's " + std::to_string(zlib->size());
      }
    }
  }
  ::close(fd);
  return problem;
}

}  // namespace

std::string check_rfc3339(std::string_view text) {
  const std::optional<int64_t> engine = logagg::parse_rfc3339(text);
  const std::optional<int64_t> oracle = reference::rfc3339_second(text);
  const std::string where = "timestamp " + shown(text) + ": ";
  if (engine != oracle) {
    return where + "parse_rfc3339 " + second_text(engine) + ", reference " + second_text(oracle);
  }
  if (!engine) return {};
  // date::parse knows no leap seconds; 23:59:60 is pinned by the reference alone.
  if (text.substr(17, 2) != "60") {
    const std::optional<int64_t> date_parse = date_parse_second(text);
    if (date_parse != engine) {
      return where + "parse_rfc3339 and reference " + second_text(engine) + ", date::parse " +
             second_text(date_parse);
    }
  }
  const std::string format_problem = check_format(*engine);
  return format_problem.empty() ? format_problem : where + format_problem;
}

std::string check_engine(std::string_view input) {
  const uint64_t h = fnv1a(input);
  const auto chosen = options_and_log(input);
  if (!chosen) return {};  // a usage error: nothing to count
  auto [options, data] = *chosen;
  if (logagg::Query(options).measured()) return check_measures(data, options, h, input);
  for (const size_t max_line_bytes : {kNoLimit, tight_limit(data, h)}) {
    options.max_line_bytes = max_line_bytes;
    Expected want;
    // Blocks from one byte (a block a line) to 1 KiB, so that block ends fall
    // anywhere and a line stage 1 refuses makes it restart.
    const size_t block_bytes = 1 + (h >> 20) % 1024;
    if (std::string problem = check_lines(data, options, block_bytes, want); !problem.empty()) {
      return problem + "; input " + shown(input);
    }
    // Every run must match the reference, so all runs also match each other.
    for (const Run& run : runs_for(h)) {
      const std::optional<logagg::Result> got = run_engine(data, run, options);
      if (!got) continue;
      // Streams that start with a gzip or zstd magic number are decompressed,
      // which the reference does not do: only the accounting is checked.
      if (run.stream && logagg::detect_compression(data.substr(0, 4)) != logagg::Compression::kNone) {
        if (std::string problem = check_decompression(data, h); !problem.empty()) {
          return problem + "; input " + shown(input);
        }
        const logagg::Summary& s = got->summary;
        if (s.lines != s.counted + s.blank + s.rejected_total() + s.filtered()) {
          return run_text(run, options) + " on compressed-looking input: lines not accounted; input " +
                 shown(input);
        }
        continue;
      }
      if (std::string diff = differences(*got, want, data.size(), run.by_app && !drawn_keys(options));
          !diff.empty()) {
        return run_text(run, options) + " vs reference:" + diff + " input " + shown(input);
      }
      if (drawn_keys(options)) {  // the rows per key and the filters' tallies, as csv and counts
        logagg::ReportOptions csv;
        csv.format = logagg::Format::kCsv;
        const std::string got_csv = logagg::format_report(*got, csv);
        const std::string want_csv = reference::csv(want.tally, options);
        if (got_csv != want_csv) {
          return run_text(run, options) + " vs reference: csv " + shown(got_csv) + " != " + shown(want_csv) +
                 "; input " + shown(input);
        }
        if (got->summary.filtered_by != want.tally.filtered_by || got->summary.no_value != want.tally.no_value) {
          return run_text(run, options) + " vs reference: filtered or no-value tallies differ; input " + shown(input);
        }
        continue;
      }
      if (run.by_app && !run.stream && run.threads == 1) {  // once a limit: the writers on what was counted
        if (std::string problem = check_outputs(*got); !problem.empty()) {
          return run_text(run, options) + ": " + problem + "; input " + shown(input);
        }
      }
    }
  }
  return {};
}

int run_or_abort(Check check, const uint8_t* data, size_t size) {
  const std::string problem = check(std::string_view(reinterpret_cast<const char*>(data), size));
  if (!problem.empty()) {
    std::fprintf(stderr, "\n==== logagg fuzz check failed: %s\n\n", problem.c_str());
    std::fflush(stderr);
    std::abort();
  }
  return 0;
}

}  // namespace logagg_fuzz
