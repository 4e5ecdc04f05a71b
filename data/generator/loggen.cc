// loggen: a fast, deterministic generator of JSON access logs for logagg.
//
// Writes realistic access-log lines (about 240 bytes, ten fields) and, for a
// --dirty fraction of lines, "tricky" ones: blank lines, lines rejected for
// each reason logagg reports (but line_too_long, which needs 64 MiB lines),
// and valid-but-unusual lines that must be counted.
// Every line is built deliberately, so loggen knows its verdict and can write
// exactly what logagg must report: --expected (the CSV of `logagg --format
// csv`) and --expected-summary (line totals and rejection reasons, as JSON).
//
// data/sample.log was made with:
//   loggen --seed 42 --lines 3500 --dirty 0.05 --rate 25 -o data/sample.log
//
// Build: g++ -O2 -std=c++20 -Wall -Wextra loggen.cc -o loggen (or through CMake).
// Only the C++ standard library is used.

#include <algorithm>
#include <array>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace {

// ============================================================== random numbers

// Items to pick from by weight (each has a `weight` member); the total is
// summed once, at compile time.
template <class T, size_t N>
struct Weighted {
  constexpr explicit Weighted(const std::array<T, N>& list) : items(list) {
    for (const T& item : list) total += item.weight;
  }
  std::array<T, N> items;
  uint64_t total = 0;
};

// xoshiro256** (Blackman and Vigna), seeded through splitmix64.
// For output that does not depend on the compiler, never draw twice among the
// arguments of one call: their order of evaluation is unspecified.
class Rng {
 public:
  explicit Rng(uint64_t seed) {
    for (uint64_t& word : s_) word = splitmix64(seed);
  }

  uint64_t next() {
    const uint64_t result = std::rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = std::rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, n), for 0 < n < 2^32.
  uint32_t below(uint64_t n) { return static_cast<uint32_t>(((next() >> 32) * n) >> 32); }
  // Uniform in [0, 1).
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
  bool chance(double p) { return unit() < p; }

  template <class Items>
  const auto& pick(const Items& items) {
    return items[below(std::size(items))];
  }

  template <class Table>
  const auto& pick_weighted(const Table& table) {
    uint64_t r = below(table.total);
    for (const auto& item : table.items) {
      if (r < item.weight) return item;
      r -= item.weight;
    }
    return table.items.back();
  }

 private:
  static uint64_t splitmix64(uint64_t& x) {
    uint64_t z = (x += 0x9e3779b97f4a7c15);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9;
    z = (z ^ (z >> 27)) * 0x94d049bb133111eb;
    return z ^ (z >> 31);
  }

  std::array<uint64_t, 4> s_{};
};

// ============================================================== errors

[[noreturn]] void usage_error(const std::string& message) {
  std::fprintf(stderr, "loggen: %s (see loggen --help)\n", message.c_str());
  std::exit(2);
}

[[noreturn]] void io_error(const std::string& what) {
  std::fprintf(stderr, "loggen: %s: %s\n", what.c_str(), std::strerror(errno));
  std::exit(1);
}

// ============================================================== text

char* write_uint(char* p, uint64_t v) { return std::to_chars(p, p + 20, v).ptr; }

char* write_2d(char* p, unsigned v) {
  p[0] = static_cast<char>('0' + v / 10);
  p[1] = static_cast<char>('0' + v % 10);
  return p + 2;
}

char* write_text(char* p, std::string_view text) {
  std::memcpy(p, text.data(), text.size());
  return p + text.size();
}

void append_uint(std::string& out, uint64_t v) {
  char buf[20];
  out.append(buf, write_uint(buf, v));
}

constexpr char kHexLower[] = "0123456789abcdef";
constexpr char kHexUpper[] = "0123456789ABCDEF";

// `text` as a JSON string literal: quotes, backslashes and control characters escaped.
std::string json_quote(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (byte < 0x20) {
      out += "\\u00";
      out += kHexLower[byte >> 4];
      out += kHexLower[byte & 15];
    } else {
      out += c;
    }
  }
  return out + '"';
}

// `text` (ASCII letters, digits and punctuation) as a JSON string literal in
// which some characters, at least one, are written as \u00XX escapes.
std::string json_quote_escaping_some(std::string_view text, Rng& rng) {
  std::string out = "\"";
  const size_t forced = rng.below(text.size());
  for (size_t i = 0; i < text.size(); ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (i == forced || rng.chance(0.3)) {
      const char* hex = rng.chance(0.5) ? kHexLower : kHexUpper;
      out += "\\u00";
      out += hex[byte >> 4];
      out += hex[byte & 15];
    } else {
      out += text[i];
    }
  }
  return out + '"';
}

// ============================================================== calendar

constexpr int64_t kSecondsPerDay = 86400;

constexpr int64_t floor_div(int64_t a, int64_t b) {
  return a / b - ((a % b != 0) && ((a < 0) != (b < 0)));
}

struct Date {
  int64_t year;
  unsigned month;  // 1..12
  unsigned day;    // 1..31
};

// Howard Hinnant's days_from_civil: days since 1970-01-01 (proleptic Gregorian).
constexpr int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const int64_t era = floor_div(y, 400);
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

// Howard Hinnant's civil_from_days, the inverse of days_from_civil.
constexpr Date civil_from_days(int64_t z) {
  z += 719468;
  const int64_t era = floor_div(z, 146097);
  const auto doe = static_cast<unsigned>(z - era * 146097);
  const unsigned yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
  const unsigned doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
  const unsigned mp = (5 * doy + 2) / 153;
  const unsigned d = doy - (153 * mp + 2) / 5 + 1;
  const unsigned m = mp < 10 ? mp + 3 : mp - 9;
  return {era * 400 + yoe + (m <= 2), m, d};
}

static_assert(days_from_civil(1970, 1, 1) == 0);
static_assert(days_from_civil(2023, 11, 14) * kSecondsPerDay + 22 * 3600 + 13 * 60 + 20 ==
              1700000000);
static_assert(civil_from_days(-1).year == 1969 && civil_from_days(-1).day == 31);

constexpr unsigned days_in_month(int64_t y, unsigned m) {
  constexpr unsigned kDays[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = y % 4 == 0 && (y % 100 != 0 || y % 400 == 0);
  return m == 2 && leap ? 29 : kDays[m - 1];
}

// At least four year digits, '-' before negative years (as logagg prints them).
char* write_year(char* p, int64_t year) {
  if (year < 0) *p++ = '-';
  const uint64_t y = year < 0 ? 0 - static_cast<uint64_t>(year) : static_cast<uint64_t>(year);
  if (y >= 10000) return write_uint(p, y);
  p = write_2d(p, static_cast<unsigned>(y / 100));
  return write_2d(p, static_cast<unsigned>(y % 100));
}

// Writes `second` (seconds since the epoch, already shifted into the wanted
// zone) as "YYYY-MM-DD<sep>hh:mm:ss".
char* write_date_time(char* p, int64_t second, char sep) {
  const int64_t days = floor_div(second, kSecondsPerDay);
  const auto sod = static_cast<unsigned>(second - days * kSecondsPerDay);
  const Date date = civil_from_days(days);
  p = write_year(p, date.year);
  *p++ = '-';
  p = write_2d(p, date.month);
  *p++ = '-';
  p = write_2d(p, date.day);
  *p++ = sep;
  p = write_2d(p, sod / 3600);
  *p++ = ':';
  p = write_2d(p, sod / 60 % 60);
  *p++ = ':';
  return write_2d(p, sod % 60);
}

// Room for write_utc_second of any int64_t second.
constexpr size_t kUtcSecondMaxChars = 48;

// "YYYY-MM-DDThh:mm:ssZ", the form of logagg's CSV.
char* write_utc_second(char* p, int64_t second) {
  p = write_date_time(p, second, 'T');
  *p++ = 'Z';
  return p;
}

// ============================================================== timestamps

// The clock stays in [0001-01-01, 9999-01-01) UTC, so local times in any
// zone (up to 23:59 away) keep four-digit years 0000..9999.
constexpr int64_t kClockMin = days_from_civil(1, 1, 1) * kSecondsPerDay;
constexpr int64_t kClockMax = days_from_civil(9999, 1, 1) * kSecondsPerDay;

struct Instant {
  int64_t sec;  // seconds since 1970-01-01T00:00:00Z
  uint32_t ns;  // 0..999'999'999
};

struct Zone {
  int minutes;  // local = UTC + minutes
  std::string_view text;
  uint32_t weight;
};

constexpr Weighted kZones(std::to_array<Zone>({
    {0, "Z", 40},
    {0, "z", 5},
    {0, "+00:00", 10},
    {0, "-00:00", 5},
    {330, "+05:30", 8},
    {-300, "-05:00", 8},
    {120, "+02:00", 8},
    {540, "+09:00", 5},
    {-480, "-08:00", 5},
    {345, "+05:45", 2},
    {-210, "-03:30", 2},
    {840, "+14:00", 1},
    {-720, "-12:00", 1},
    {1439, "+23:59", 1},
    {-1439, "-23:59", 1},
}));

// How one timestamp is written: the instant, its zone, the date/time
// separator and the number of fraction digits.
struct Stamp {
  Instant at;
  const Zone* zone;
  char sep;
  unsigned digits;
};

// Longest text write_stamp produces: 4-digit year, 30 fraction digits.
constexpr size_t kStampMaxChars = 64;

// Writes the stamp as RFC 3339 local time. The first nine fraction digits
// come from the instant, any further ones are random: logagg truncates the
// fraction, so they never change the counted second.
char* write_stamp(char* p, const Stamp& s, Rng& rng) {
  p = write_date_time(p, s.at.sec + s.zone->minutes * 60, s.sep);
  if (s.digits > 0) {
    *p++ = '.';
    char ns[9];
    uint32_t rest = s.at.ns;
    for (int i = 8; i >= 0; --i, rest /= 10) ns[i] = static_cast<char>('0' + rest % 10);
    for (unsigned i = 0; i < s.digits; ++i) {
      *p++ = i < 9 ? ns[i] : static_cast<char>('0' + rng.below(10));
    }
  }
  return write_text(p, s.zone->text);
}

std::string stamp_text(const Stamp& s, Rng& rng) {
  char buf[kStampMaxChars];
  return {buf, write_stamp(buf, s, rng)};
}

// Parses a strict RFC 3339 date-time (no leap second): the --start value and
// the calendar-edge timestamps. Returns the UTC instant, fraction truncated
// to nanoseconds.
std::optional<Instant> parse_instant(std::string_view s) {
  size_t pos = 0;
  auto number = [&](size_t n) -> std::optional<unsigned> {
    if (pos + n > s.size()) return std::nullopt;
    unsigned v = 0;
    for (size_t i = 0; i < n; ++i, ++pos) {
      if (s[pos] < '0' || s[pos] > '9') return std::nullopt;
      v = v * 10 + static_cast<unsigned>(s[pos] - '0');
    }
    return v;
  };
  auto literal = [&](std::string_view options) {
    if (pos >= s.size() || options.find(s[pos]) == std::string_view::npos) return false;
    ++pos;
    return true;
  };
  const auto year = number(4);
  const bool dash1 = literal("-");
  const auto month = number(2);
  const bool dash2 = literal("-");
  const auto day = number(2);
  const bool sep = literal("Tt ");
  const auto hour = number(2);
  const bool colon1 = literal(":");
  const auto minute = number(2);
  const bool colon2 = literal(":");
  const auto second = number(2);
  if (!(year && dash1 && month && dash2 && day && sep && hour && colon1 && minute && colon2 &&
        second) ||
      *month < 1 || *month > 12 || *day < 1 || *day > days_in_month(*year, *month) || *hour > 23 ||
      *minute > 59 || *second > 59) {
    return std::nullopt;
  }
  uint32_t ns = 0;
  if (literal(".")) {
    size_t digits = 0;
    for (; pos < s.size() && s[pos] >= '0' && s[pos] <= '9'; ++pos, ++digits) {
      if (digits < 9) ns = ns * 10 + static_cast<uint32_t>(s[pos] - '0');
    }
    if (digits == 0) return std::nullopt;
    for (; digits < 9; ++digits) ns *= 10;
  }
  int offset_minutes = 0;
  if (!literal("Zz")) {
    if (pos >= s.size() || (s[pos] != '+' && s[pos] != '-')) return std::nullopt;
    const int sign = s[pos++] == '-' ? -1 : 1;
    const auto oh = number(2);
    const bool colon3 = literal(":");
    const auto om = number(2);
    if (!(oh && colon3 && om) || *oh > 23 || *om > 59) return std::nullopt;
    offset_minutes = sign * static_cast<int>(*oh * 60 + *om);
  }
  if (pos != s.size()) return std::nullopt;
  const int64_t local =
      days_from_civil(*year, *month, *day) * kSecondsPerDay + *hour * 3600 + *minute * 60 + *second;
  return Instant{local - offset_minutes * 60, ns};
}

// ============================================================== verdicts

// Why logagg rejects a line; when several apply, the first in this order.
enum class Reason : uint8_t {
  kLineTooLong,
  kInvalidJson,
  kNotObject,
  kMissingApp,
  kDuplicateApp,
  kAppNotString,
  kBadApp,
  kMissingTime,
  kDuplicateTime,
  kTimeNotString,
  kBadTime,
};

constexpr std::array<std::string_view, 11> kReasonKeys = {
    "line_too_long",  "invalid_json",    "not_object", "missing_app",
    "duplicate_app",  "app_not_string",  "bad_app",    "missing_time",
    "duplicate_time", "time_not_string", "bad_time",
};

struct Verdict {
  enum class Status : uint8_t { kCounted, kBlank, kRejected };
  Status status;
  Reason reason;   // when rejected
  int64_t second;  // when counted: the UTC second it counts in

  static Verdict counted(int64_t second) { return {Status::kCounted, Reason{}, second}; }
  static Verdict blank() { return {Status::kBlank, Reason{}, 0}; }
  static Verdict rejected(Reason reason) { return {Status::kRejected, reason, 0}; }
};

// Adds up verdicts into what logagg must report.
class Tally {
 public:
  Tally() = default;
  Tally(const Tally&) = delete;
  Tally& operator=(const Tally&) = delete;

  void add(const Verdict& v) {
    ++lines_;
    switch (v.status) {
      case Verdict::Status::kCounted:
        ++counted_;
        count_second(v.second);
        break;
      case Verdict::Status::kBlank:
        ++blank_;
        break;
      case Verdict::Status::kRejected:
        ++rejected_[static_cast<size_t>(v.reason)];
        break;
    }
  }

  uint64_t lines() const { return lines_; }

  // The output of `logagg --format csv`.
  std::string csv() const {
    std::string out = "second,count\n";
    char buf[kUtcSecondMaxChars];
    for (const auto& [second, count] : per_second_) {
      out.append(buf, write_utc_second(buf, second));
      out += ',';
      append_uint(out, count);
      out += '\n';
    }
    return out;
  }

  // {"lines":N,"counted":N,"blank":N,"rejected":{"line_too_long":N,...}}
  std::string summary_json() const {
    std::string out = "{\"lines\":";
    append_uint(out, lines_);
    out += ",\"counted\":";
    append_uint(out, counted_);
    out += ",\"blank\":";
    append_uint(out, blank_);
    out += ",\"rejected\":{";
    for (size_t i = 0; i < kReasonKeys.size(); ++i) {
      if (i > 0) out += ',';
      out += json_quote(kReasonKeys[i]);
      out += ':';
      append_uint(out, rejected_[i]);
    }
    return out + "}}\n";
  }

 private:
  // Lines mostly arrive in runs of the same second: remember the last one.
  void count_second(int64_t second) {
    if (last_ == per_second_.end() || last_->first != second) {
      last_ = per_second_.try_emplace(second, 0).first;
    }
    ++last_->second;
  }

  uint64_t lines_ = 0;
  uint64_t counted_ = 0;
  uint64_t blank_ = 0;
  std::array<uint64_t, kReasonKeys.size()> rejected_{};
  std::map<int64_t, uint64_t> per_second_;
  std::map<int64_t, uint64_t>::iterator last_ = per_second_.end();
};

// ============================================================== options

constexpr std::string_view kUsage = R"(usage: loggen [--lines N | --bytes SIZE] [options]

Writes synthetic JSON access-log lines for logagg, and what logagg must report.

  --lines N               lines to write (default 1000)
  --bytes SIZE            stop at the first line end at or after SIZE bytes;
                          suffixes K, M, G are powers of 1024
  --seed S                random seed (default 1): same seed and options, same bytes
  --dirty F               fraction of tricky lines: blank, rejected, or valid but
                          unusual (default 0.02)
  --shuffle F             fraction of lines with shuffled field order (default 0.2)
  --crlf F                fraction of lines ending in CR LF (default 0)
  --start TIME            RFC 3339 instant of the first line
                          (default 2023-11-14T22:13:20Z)
  --rate R                average lines per second of log time (default 1000)
  --app-field NAME        name of the application id field (default app_id)
  --time-field NAME       name of the timestamp field (default timestamp)
  --expected FILE         write the CSV `logagg --format csv` must print
  --expected-summary FILE write the expected line totals and reasons, as JSON
  -o FILE                 output file (default standard output)
)";

struct Options {
  uint64_t lines = 1000;
  std::optional<uint64_t> bytes;  // when set, replaces `lines`
  uint64_t seed = 1;
  double dirty = 0.02;
  double shuffle = 0.2;
  double crlf = 0;
  Instant start{1700000000, 0};  // 2023-11-14T22:13:20Z
  double rate = 1000;
  std::string app_field = "app_id";
  std::string time_field = "timestamp";
  std::string expected;
  std::string expected_summary;
  std::string output;  // empty: standard output
};

uint64_t parse_u64(std::string_view text, std::string_view flag) {
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || end != text.data() + text.size()) {
    usage_error(std::string(flag) + ": not a non-negative integer: " + std::string(text));
  }
  return v;
}

uint64_t parse_size(std::string_view text, std::string_view flag) {
  unsigned shift = 0;
  if (!text.empty()) {
    switch (text.back()) {
      case 'K':
      case 'k':
        shift = 10;
        break;
      case 'M':
      case 'm':
        shift = 20;
        break;
      case 'G':
      case 'g':
        shift = 30;
        break;
      default:
        break;
    }
  }
  const uint64_t v = parse_u64(shift ? text.substr(0, text.size() - 1) : text, flag);
  if (v > (UINT64_MAX >> shift))
    usage_error(std::string(flag) + ": too large: " + std::string(text));
  return v << shift;
}

double parse_double(std::string_view text, std::string_view flag) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc{} || end != text.data() + text.size() || !std::isfinite(v)) {
    usage_error(std::string(flag) + ": not a number: " + std::string(text));
  }
  return v;
}

double parse_fraction(std::string_view text, std::string_view flag) {
  const double v = parse_double(text, flag);
  if (v < 0 || v > 1)
    usage_error(std::string(flag) + ": must be between 0 and 1: " + std::string(text));
  return v;
}

Options parse_args(int argc, char** argv) {
  Options o;
  bool saw_lines = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    auto value = [&]() -> std::string_view {
      if (i + 1 >= argc) usage_error("missing value for " + std::string(flag));
      return argv[++i];
    };
    if (flag == "-h" || flag == "--help") {
      std::fwrite(kUsage.data(), 1, kUsage.size(), stdout);
      std::exit(0);
    } else if (flag == "--lines") {
      o.lines = parse_u64(value(), flag);
      saw_lines = true;
    } else if (flag == "--bytes") {
      o.bytes = parse_size(value(), flag);
    } else if (flag == "--seed") {
      o.seed = parse_u64(value(), flag);
    } else if (flag == "--dirty") {
      o.dirty = parse_fraction(value(), flag);
    } else if (flag == "--shuffle") {
      o.shuffle = parse_fraction(value(), flag);
    } else if (flag == "--crlf") {
      o.crlf = parse_fraction(value(), flag);
    } else if (flag == "--start") {
      const std::string_view text = value();
      const auto start = parse_instant(text);
      if (!start) usage_error("--start: not an RFC 3339 date-time: " + std::string(text));
      o.start = *start;
    } else if (flag == "--rate") {
      o.rate = parse_double(value(), flag);
      if (o.rate < 0.001) usage_error("--rate: must be at least 0.001");
    } else if (flag == "--app-field") {
      o.app_field = value();
    } else if (flag == "--time-field") {
      o.time_field = value();
    } else if (flag == "--expected") {
      o.expected = value();
    } else if (flag == "--expected-summary") {
      o.expected_summary = value();
    } else if (flag == "-o") {
      o.output = value();
    } else {
      usage_error("unknown argument: " + std::string(flag));
    }
  }
  if (saw_lines && o.bytes) usage_error("--lines and --bytes are exclusive");
  if (o.app_field == o.time_field) usage_error("--app-field and --time-field must differ");
  return o;
}

// ============================================================== records

enum class FieldId : uint8_t {
  kIp,
  kMethod,
  kPath,
  kStatus,
  kBytes,
  kLatency,
  kApp,
  kTime,
  kUa,
  kRequestId,
  kExtra,
};

// One member of a JSON object, as JSON text: `key` is a quoted string,
// `value` any JSON value (or, in tricky lines, deliberately not one).
struct Field {
  FieldId id;
  std::string_view key;
  std::string_view value;
};

// The fields of the line being built. Values made on the fly live in the
// record's arena until the next clear().
class Record {
 public:
  std::vector<Field> fields;

  void clear() {
    fields.clear();
    used_ = 0;
  }

  std::string_view keep(std::string_view text) {
    if (text.size() > arena_.size() - used_) {
      std::fputs("loggen: internal error: record arena full\n", stderr);
      std::abort();
    }
    char* start = arena_.data() + used_;
    std::memcpy(start, text.data(), text.size());
    used_ += text.size();
    return {start, text.size()};
  }

  Field* find(FieldId id) {
    for (Field& f : fields) {
      if (f.id == id) return &f;
    }
    return nullptr;
  }

  void remove(FieldId id) {
    std::erase_if(fields, [id](const Field& f) { return f.id == id; });
  }

  void insert_randomly(const Field& field, Rng& rng) {
    fields.insert(fields.begin() + rng.below(fields.size() + 1), field);
  }

 private:
  std::array<char, 16384> arena_;
  size_t used_ = 0;
};

// Spacing of an object: `{"a":1,"b":2}`, `{"a": 1, "b": 2}`, ...
struct Style {
  static constexpr size_t kMaxPartChars = 3;  // longest open, colon, comma or close
  std::string_view open, colon, comma, close;
  uint32_t weight;
};

constexpr Weighted kStyles(std::to_array<Style>({
    {"{", ":", ",", "}", 55},
    {"{", ": ", ", ", "}", 35},
    {"{ ", " : ", " , ", " }", 6},
    {"{\t", ":\t", ",\t", "\t}", 2},
    {"{  ", ":  ", ",  ", "  }", 2},
}));

// Appends the object to `out`: sized once, then copied piece by piece.
void render(const std::vector<Field>& fields, const Style& style, std::string& out) {
  size_t size = style.open.size() + style.close.size();
  for (const Field& f : fields)
    size += style.comma.size() + f.key.size() + style.colon.size() + f.value.size();
  const size_t start = out.size();
  out.resize(start + size);
  char* p = write_text(out.data() + start, style.open);
  for (size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) p = write_text(p, style.comma);
    p = write_text(p, fields[i].key);
    p = write_text(p, style.colon);
    p = write_text(p, fields[i].value);
  }
  p = write_text(p, style.close);
  out.resize(static_cast<size_t>(p - out.data()));
}

// ============================================================== value pools

struct Choice {
  std::string_view text;
  uint32_t weight;
};

constexpr Weighted kMethods(std::to_array<Choice>({
    {"\"GET\"", 70},
    {"\"POST\"", 15},
    {"\"PUT\"", 5},
    {"\"DELETE\"", 3},
    {"\"PATCH\"", 3},
    {"\"HEAD\"", 3},
    {"\"OPTIONS\"", 1},
}));

constexpr Weighted kStatuses(std::to_array<Choice>({
    {"200", 70},
    {"201", 5},
    {"204", 3},
    {"301", 1},
    {"302", 2},
    {"304", 5},
    {"400", 3},
    {"401", 2},
    {"403", 1},
    {"404", 5},
    {"429", 1},
    {"500", 1},
    {"502", 1},
    {"503", 1},
}));

constexpr Weighted kUserAgents(std::to_array<Choice>({
    {"\"curl/8.4.0\"", 15},
    {"\"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) "
     "Chrome/119.0.0.0 Safari/537.36\"",
     5},
    {"\"Mozilla/5.0 (X11; Linux x86_64; rv:120.0) Gecko/20100101 Firefox/120.0\"", 4},
    {"\"Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15\"", 4},
    {"\"python-requests/2.31.0\"", 15},
    {"\"Go-http-client/1.1\"", 12},
    {"\"okhttp/4.12.0\"", 10},
    {"\"kube-probe/1.28\"", 8},
    {"\"Prometheus/2.48.0\"", 6},
    {"\"PostmanRuntime/7.35.0\"", 8},
}));

// A request path: `prefix`, then a generated tail, then `suffix`.
struct PathShape {
  enum class Tail : uint8_t { kNone, kId, kQuery, kHash };
  std::string_view prefix;
  Tail tail;
  std::string_view suffix;
  uint32_t weight;
};

constexpr Weighted kPaths(std::to_array<PathShape>({
    {"/api/v1/users", PathShape::Tail::kQuery, "", 10},
    {"/api/v1/users/", PathShape::Tail::kId, "", 15},
    {"/api/v1/orders/", PathShape::Tail::kId, "/items", 10},
    {"/api/v1/products", PathShape::Tail::kQuery, "", 8},
    {"/api/v1/products/", PathShape::Tail::kId, "", 8},
    {"/api/v2/search", PathShape::Tail::kQuery, "", 6},
    {"/static/js/app.", PathShape::Tail::kHash, ".js", 8},
    {"/static/css/main.", PathShape::Tail::kHash, ".css", 4},
    {"/health", PathShape::Tail::kNone, "", 10},
    {"/metrics", PathShape::Tail::kNone, "", 4},
    {"/login", PathShape::Tail::kNone, "", 4},
    {"/favicon.ico", PathShape::Tail::kNone, "", 3},
    {"/api/v1/cart", PathShape::Tail::kNone, "", 5},
}));

// Names for fields added by tricky lines (those equal to the app or time
// field name are not used).
constexpr std::array<std::string_view, 8> kExtraNames = {
    "region", "cache", "retries", "note", "user", "tags", "meta", "trace",
};

constexpr size_t kAppPoolSize = 300;

// Quoted random ids of 4..12 characters from [A-Za-z0-9].
std::vector<std::string> make_app_pool(Rng& rng) {
  constexpr std::string_view kAlnum =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
  std::vector<std::string> pool;
  for (size_t i = 0; i < kAppPoolSize; ++i) {
    std::string id = "\"";
    for (size_t n = 4 + rng.below(9); n > 0; --n) id += rng.pick(kAlnum);
    pool.push_back(id + '"');
  }
  return pool;
}

// A field name logagg must not take for `name`: its first letter's case
// flipped, or `name` with an underscore added; never equal to `other`.
std::string near_miss(const std::string& name, const std::string& other) {
  std::string flipped = name;
  for (char& c : flipped) {
    if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
      c = static_cast<char>(c ^ 0x20);
      break;
    }
  }
  for (const std::string& candidate : {flipped, name + "_", "_" + name}) {
    if (candidate != name && candidate != other) return candidate;
  }
  return name + other + "_";
}

// ============================================================== output buffer

// Bytes waiting to be written. Writers ask for room, write into it, then
// commit what they wrote; unlike std::string, nothing is zero-filled per line.
class Buffer {
 public:
  explicit Buffer(size_t capacity) : bytes_(capacity) {}

  // At least `n` writable bytes at the end of the buffer.
  char* room(size_t n) {
    if (size_ + n > bytes_.size()) bytes_.resize(std::max(2 * bytes_.size(), size_ + n));
    return bytes_.data() + size_;
  }
  // Keeps what was written into room() up to `end`.
  void commit(const char* end) { size_ = static_cast<size_t>(end - bytes_.data()); }

  void append(std::string_view text) { commit(write_text(room(text.size()), text)); }
  std::string_view view() const { return {bytes_.data(), size_}; }
  size_t size() const { return size_; }
  void clear() { size_ = 0; }

 private:
  std::vector<char> bytes_;
  size_t size_ = 0;
};

// ============================================================== the generator

class Generator {
 public:
  explicit Generator(const Options& o);
  Generator(const Generator&) = delete;
  Generator& operator=(const Generator&) = delete;

  // Appends the next line, with its line ending, to `out`; returns its verdict.
  Verdict next(Buffer& out);

 private:
  // A field of plain lines: its quoted key and the writer of its value.
  using WriteFn = char* (Generator::*)(char*);
  struct Column {
    FieldId id;
    std::string_view key;
    WriteFn write;
    // Per style: comma, key and colon, written as one piece.
    std::array<std::string, kStyles.items.size()> leads{};
  };
  // Longest value a WriteFn writes.
  static constexpr size_t kMaxValueChars = 160;
  // What tricky lines may break: the app field or the time field.
  struct Target {
    FieldId id;
    Reason missing, duplicate, not_string;
  };
  static constexpr Target kApp{FieldId::kApp, Reason::kMissingApp, Reason::kDuplicateApp,
                               Reason::kAppNotString};
  static constexpr Target kTime{FieldId::kTime, Reason::kMissingTime, Reason::kDuplicateTime,
                                Reason::kTimeNotString};

  // Plain lines.
  Verdict plain(Buffer& out);
  const std::vector<const Column*>& column_order();
  void fill_record();
  void render_record(std::string& out);
  Stamp random_stamp();
  std::string_view pick_app();
  char* write_ip(char* p);
  char* write_method(char* p);
  char* write_path(char* p);
  char* write_status(char* p);
  char* write_bytes(char* p);
  char* write_latency(char* p);
  char* write_app(char* p);
  char* write_time(char* p);
  char* write_ua(char* p);
  char* write_request_id(char* p);
  char* write_quoted_stamp(char* p, const Stamp& s);
  std::string_view time_json(const Stamp& s);

  // Tricky lines; each builder starts from a fresh plain record.
  Verdict tricky(Buffer& out);
  Verdict rendered(std::string& line, Verdict v);
  Verdict blank(std::string& line);
  Verdict truncated(std::string& line);
  Verdict trailing_comma(std::string& line);
  Verdict bad_token(std::string& line);
  Verdict bad_string(std::string& line);
  Verdict extra_value(std::string& line);
  Verdict broken_syntax(std::string& line);
  Verdict not_object(std::string& line);
  Verdict missing(std::string& line, const Target& t);
  Verdict duplicate(std::string& line, const Target& t);
  Verdict not_string(std::string& line, const Target& t);
  Verdict bad_app(std::string& line);
  Verdict bad_time(std::string& line);
  Verdict several_problems(std::string& line);
  Verdict escaped_app(std::string& line);
  Verdict huge_numbers(std::string& line);
  Verdict leap_second(std::string& line);
  Verdict odd_stamp(std::string& line);
  Verdict escaped_time(std::string& line);
  Verdict unicode_text(std::string& line);
  Verdict padded(std::string& line);
  Verdict decoys(std::string& line);
  Verdict odd_values(std::string& line);
  Verdict calendar_edge(std::string& line);

  // Record edits and values for tricky lines.
  std::string_view key_of(FieldId id) const;  // of the app or time field
  void set(FieldId id, std::string_view json);
  void set_or_add(FieldId id, std::string_view json);
  void add_extra(std::string_view json);
  std::string_view valid_json(FieldId id);
  std::string_view bad_json(FieldId id);
  std::string_view bad_app_json();
  std::string_view bad_time_json();
  std::string_view non_string_json();
  std::string_view bad_string_json();
  std::string_view nested_json(FieldId id);
  std::string_view keep(std::string_view text) { return rec_.keep(text); }

  Rng rng_;
  double dirty_;
  double shuffle_;
  double crlf_;
  double mean_gap_ns_;
  Instant clock_;
  uint64_t line_no_ = 0;
  std::string app_name_, time_name_;
  std::string app_key_, time_key_;
  std::string app_near_key_, time_near_key_;
  std::vector<std::string> extra_keys_;
  std::vector<std::string> apps_;
  std::vector<Column> layout_;
  std::vector<const Column*> in_order_;  // the layout, in order
  std::vector<const Column*> shuffled_;  // the layout, shuffled for the current line
  size_t max_plain_chars_ = 0;
  Record rec_;
  std::string line_;
};

Generator::Generator(const Options& o)
    : rng_(o.seed),
      dirty_(o.dirty),
      shuffle_(o.shuffle),
      crlf_(o.crlf),
      mean_gap_ns_(1e9 / o.rate),
      clock_(o.start),
      app_name_(o.app_field),
      time_name_(o.time_field),
      app_key_(json_quote(o.app_field)),
      time_key_(json_quote(o.time_field)),
      app_near_key_(json_quote(near_miss(o.app_field, o.time_field))),
      time_near_key_(json_quote(near_miss(o.time_field, o.app_field))),
      apps_(make_app_pool(rng_)) {
  const Column columns[] = {
      {FieldId::kIp, "\"ip\"", &Generator::write_ip},
      {FieldId::kMethod, "\"method\"", &Generator::write_method},
      {FieldId::kPath, "\"path\"", &Generator::write_path},
      {FieldId::kStatus, "\"status\"", &Generator::write_status},
      {FieldId::kBytes, "\"bytes\"", &Generator::write_bytes},
      {FieldId::kLatency, "\"latency_ms\"", &Generator::write_latency},
      {FieldId::kApp, app_key_, &Generator::write_app},
      {FieldId::kTime, time_key_, &Generator::write_time},
      {FieldId::kUa, "\"ua\"", &Generator::write_ua},
      {FieldId::kRequestId, "\"request_id\"", &Generator::write_request_id},
  };
  max_plain_chars_ = 2 * Style::kMaxPartChars;
  for (const Column& c : columns) {
    const bool clashes = c.id != FieldId::kApp && c.id != FieldId::kTime &&
                         (c.key == app_key_ || c.key == time_key_);
    if (clashes) continue;
    Column& column = layout_.emplace_back(c);
    for (size_t s = 0; s < kStyles.items.size(); ++s) {
      column.leads[s] = std::string(kStyles.items[s].comma) + std::string(c.key) +
                        std::string(kStyles.items[s].colon);
    }
    max_plain_chars_ += 2 * Style::kMaxPartChars + c.key.size() + kMaxValueChars;
  }
  for (const Column& c : layout_) in_order_.push_back(&c);
  for (const std::string_view name : kExtraNames) {
    if (name != app_name_ && name != time_name_) extra_keys_.push_back(json_quote(name));
  }
  rec_.fields.reserve(64);
  line_.reserve(4096);
}

Verdict Generator::next(Buffer& out) {
  if (clock_.sec < kClockMin || clock_.sec >= kClockMax) {
    usage_error("the log clock left years 0001..9998: use a later --start or a higher --rate");
  }
  // The first line is always plain: a tricky line starting with a BOM would
  // be read as the file's BOM there.
  const Verdict v = line_no_ > 0 && rng_.chance(dirty_) ? tricky(out) : plain(out);
  out.append(rng_.chance(crlf_) ? "\r\n" : "\n");
  ++line_no_;
  const auto gap = static_cast<uint64_t>(rng_.unit() * 2 * mean_gap_ns_);
  const uint64_t ns = clock_.ns + gap % 1'000'000'000;
  clock_.sec += static_cast<int64_t>(gap / 1'000'000'000 + ns / 1'000'000'000);
  clock_.ns = static_cast<uint32_t>(ns % 1'000'000'000);
  return v;
}

// -------------------------------------------------------------- plain lines

// The hot path: writes the line straight into `out`, without a Record.
Verdict Generator::plain(Buffer& out) {
  const Style& style = rng_.pick_weighted(kStyles);
  const auto s = static_cast<size_t>(&style - kStyles.items.data());
  const std::vector<const Column*>& columns = column_order();
  char* p = write_text(out.room(max_plain_chars_), style.open);
  for (size_t i = 0; i < columns.size(); ++i) {
    const std::string_view lead = columns[i]->leads[s];
    p = write_text(p, i == 0 ? lead.substr(style.comma.size()) : lead);
    p = (this->*columns[i]->write)(p);
  }
  out.commit(write_text(p, style.close));
  return Verdict::counted(clock_.sec);
}

// The layout, shuffled for a --shuffle fraction of lines.
const std::vector<const Generator::Column*>& Generator::column_order() {
  if (!rng_.chance(shuffle_)) return in_order_;
  shuffled_ = in_order_;
  for (size_t i = shuffled_.size(); i > 1; --i)
    std::swap(shuffled_[i - 1], shuffled_[rng_.below(i)]);
  return shuffled_;
}

// A plain line as a Record, for tricky lines to edit.
void Generator::fill_record() {
  rec_.clear();
  for (const Column* c : column_order()) {
    char buf[kMaxValueChars];
    rec_.fields.push_back({c->id, c->key, keep({buf, (this->*c->write)(buf)})});
  }
}

void Generator::render_record(std::string& out) {
  render(rec_.fields, rng_.pick_weighted(kStyles), out);
}

Stamp Generator::random_stamp() {
  constexpr char kSeps[] = "TTTTTTTTTTTTTTTTT  t";
  const uint32_t r = rng_.below(100);
  const unsigned digits = r < 10   ? 0
                          : r < 40 ? 3
                          : r < 70 ? 6
                          : r < 80 ? 9
                          : r < 99 ? 1 + rng_.below(9)
                                   : 10 + rng_.below(21);
  return {clock_, &rng_.pick_weighted(kZones), kSeps[rng_.below(sizeof kSeps - 1)], digits};
}

char* Generator::write_ip(char* p) {
  *p++ = '"';
  const uint32_t kind = rng_.below(10);
  const uint32_t a = kind < 4 ? 10 : kind < 6 ? 192 : 1 + rng_.below(223);
  p = write_uint(p, a);
  *p++ = '.';
  p = write_uint(p, a == 192 ? 168 : rng_.below(256));
  *p++ = '.';
  p = write_uint(p, rng_.below(256));
  *p++ = '.';
  p = write_uint(p, 1 + rng_.below(254));
  *p++ = '"';
  return p;
}

char* Generator::write_method(char* p) { return write_text(p, rng_.pick_weighted(kMethods).text); }

char* Generator::write_path(char* p) {
  constexpr std::array<uint32_t, 4> kLimits = {10, 20, 50, 100};
  const PathShape& shape = rng_.pick_weighted(kPaths);
  *p++ = '"';
  p = write_text(p, shape.prefix);
  switch (shape.tail) {
    case PathShape::Tail::kNone:
      break;
    case PathShape::Tail::kId:
      p = write_uint(p, 1 + rng_.below(1u << (4 + rng_.below(16))));
      break;
    case PathShape::Tail::kQuery:
      if (rng_.chance(0.5)) {
        p = write_text(p, "?page=");
        p = write_uint(p, 1 + rng_.below(40));
        p = write_text(p, "&limit=");
        p = write_uint(p, rng_.pick(kLimits));
      }
      break;
    case PathShape::Tail::kHash: {
      const uint64_t h = rng_.next();
      for (int shift = 60; shift >= 32; shift -= 4) *p++ = kHexLower[(h >> shift) & 15];
      break;
    }
  }
  p = write_text(p, shape.suffix);
  *p++ = '"';
  return p;
}

char* Generator::write_status(char* p) { return write_text(p, rng_.pick_weighted(kStatuses).text); }

char* Generator::write_bytes(char* p) { return write_uint(p, rng_.below(1u << rng_.below(18))); }

char* Generator::write_latency(char* p) {
  p = write_uint(p, rng_.below(1u << rng_.below(12)));
  *p++ = '.';
  const uint32_t frac = rng_.below(1000);
  *p++ = static_cast<char>('0' + frac / 100);
  return write_2d(p, frac % 100);
}

// A quoted pool id, skewed towards the start of the pool so some apps are
// much busier than others.
std::string_view Generator::pick_app() { return apps_[rng_.below(rng_.below(apps_.size()) + 1)]; }

char* Generator::write_app(char* p) { return write_text(p, pick_app()); }

char* Generator::write_time(char* p) { return write_quoted_stamp(p, random_stamp()); }

char* Generator::write_quoted_stamp(char* p, const Stamp& s) {
  *p++ = '"';
  p = write_stamp(p, s, rng_);
  *p++ = '"';
  return p;
}

std::string_view Generator::time_json(const Stamp& s) {
  char buf[kStampMaxChars + 2];
  return keep({buf, write_quoted_stamp(buf, s)});
}

char* Generator::write_ua(char* p) { return write_text(p, rng_.pick_weighted(kUserAgents).text); }

char* Generator::write_request_id(char* p) {
  *p++ = '"';
  const uint64_t id = rng_.next();
  for (int i = 0; i < 8; ++i) *p++ = kHexLower[(id >> (60 - 4 * i)) & 15];
  *p++ = '"';
  return p;
}

// -------------------------------------------------------------- tricky lines

Verdict Generator::tricky(Buffer& out) {
  using Build = Verdict (*)(Generator&, std::string&);
  struct Kind {
    Build build;
    uint32_t weight;
  };
  static constexpr Weighted kKinds(std::to_array<Kind>({
      // blank
      {[](Generator& g, std::string& l) { return g.blank(l); }, 8},
      // invalid_json
      {[](Generator& g, std::string& l) { return g.truncated(l); }, 6},
      {[](Generator& g, std::string& l) { return g.trailing_comma(l); }, 3},
      {[](Generator& g, std::string& l) { return g.bad_token(l); }, 5},
      {[](Generator& g, std::string& l) { return g.bad_string(l); }, 6},
      {[](Generator& g, std::string& l) { return g.extra_value(l); }, 4},
      {[](Generator& g, std::string& l) { return g.broken_syntax(l); }, 4},
      // not_object
      {[](Generator& g, std::string& l) { return g.not_object(l); }, 5},
      // the app field
      {[](Generator& g, std::string& l) { return g.missing(l, kApp); }, 4},
      {[](Generator& g, std::string& l) { return g.duplicate(l, kApp); }, 4},
      {[](Generator& g, std::string& l) { return g.not_string(l, kApp); }, 3},
      {[](Generator& g, std::string& l) { return g.bad_app(l); }, 6},
      // the time field
      {[](Generator& g, std::string& l) { return g.missing(l, kTime); }, 4},
      {[](Generator& g, std::string& l) { return g.duplicate(l, kTime); }, 4},
      {[](Generator& g, std::string& l) { return g.not_string(l, kTime); }, 3},
      {[](Generator& g, std::string& l) { return g.bad_time(l); }, 10},
      // several problems: the first in logagg's order wins
      {[](Generator& g, std::string& l) { return g.several_problems(l); }, 6},
      // valid but unusual: counted
      {[](Generator& g, std::string& l) { return g.escaped_app(l); }, 3},
      {[](Generator& g, std::string& l) { return g.huge_numbers(l); }, 3},
      {[](Generator& g, std::string& l) { return g.leap_second(l); }, 2},
      {[](Generator& g, std::string& l) { return g.odd_stamp(l); }, 3},
      {[](Generator& g, std::string& l) { return g.escaped_time(l); }, 2},
      {[](Generator& g, std::string& l) { return g.unicode_text(l); }, 3},
      {[](Generator& g, std::string& l) { return g.padded(l); }, 2},
      {[](Generator& g, std::string& l) { return g.decoys(l); }, 3},
      {[](Generator& g, std::string& l) { return g.odd_values(l); }, 2},
      {[](Generator& g, std::string& l) { return g.calendar_edge(l); }, 1},
  }));
  const Kind& kind = rng_.pick_weighted(kKinds);
  fill_record();
  line_.clear();
  const Verdict v = kind.build(*this, line_);
  out.append(line_);
  return v;
}

Verdict Generator::rendered(std::string& line, Verdict v) {
  render_record(line);
  return v;
}

Verdict Generator::blank(std::string& line) {
  constexpr std::array<std::string_view, 7> kBlanks = {"",     " ",    "    ", "\t",
                                                       " \t ", "\t\r", "  \r"};
  line = rng_.pick(kBlanks);
  return Verdict::blank();
}

Verdict Generator::truncated(std::string& line) {
  render_record(line);
  line.resize(1 + rng_.below(line.size() - 1));  // keeps the '{', loses the '}'
  return Verdict::rejected(Reason::kInvalidJson);
}

Verdict Generator::trailing_comma(std::string& line) {
  render_record(line);
  line.insert(line.size() - 1, ",");
  return Verdict::rejected(Reason::kInvalidJson);
}

Verdict Generator::bad_token(std::string& line) {
  constexpr std::array<std::string_view, 22> kTokens = {
      "True",  "False", "NULL",     "nul",       "tru", "undefined", ".5",  "01",
      "1.",    "-",     "+1",       "1e",        "1e+", "0x1F",      "-01", "1.e5",
      "1_000", "NaN",   "Infinity", "-Infinity", "--1", "1.5.2",
  };
  constexpr std::array<FieldId, 3> kNumeric = {FieldId::kStatus, FieldId::kBytes,
                                               FieldId::kLatency};
  const FieldId target = rng_.pick(kNumeric);
  set_or_add(target, rng_.pick(kTokens));
  return rendered(line, Verdict::rejected(Reason::kInvalidJson));
}

Verdict Generator::bad_string(std::string& line) {
  const FieldId target = rng_.chance(0.5) ? FieldId::kUa : FieldId::kPath;
  set_or_add(target, bad_string_json());
  return rendered(line, Verdict::rejected(Reason::kInvalidJson));
}

Verdict Generator::extra_value(std::string& line) {
  constexpr std::array<std::string_view, 10> kTails = {
      "{}", " {}", " x", " null", ",", " 1", "]", "}", " //", "\"\"",
  };
  render_record(line);
  if (rng_.chance(0.5)) {
    if (rng_.chance(0.5)) line += ' ';
    render_record(line);  // two objects on one line
  } else {
    line += rng_.pick(kTails);
  }
  return Verdict::rejected(Reason::kInvalidJson);
}

Verdict Generator::broken_syntax(std::string& line) {
  constexpr Style kNoColon{"{", " ", ",", "}", 1};
  constexpr Style kNoComma{"{", ":", " ", "}", 1};
  switch (rng_.below(6)) {
    case 0: {  // unquoted key
      const std::string_view key = rng_.pick(extra_keys_);
      rec_.insert_randomly({FieldId::kExtra, key.substr(1, key.size() - 2), "1"}, rng_);
      break;
    }
    case 1:
      add_extra("'single quoted'");
      break;
    case 2:
      add_extra("");
      break;
    case 3:
      render(rec_.fields, kNoColon, line);
      return Verdict::rejected(Reason::kInvalidJson);
    case 4:
      render(rec_.fields, kNoComma, line);
      return Verdict::rejected(Reason::kInvalidJson);
    default:
      line = "\xEF\xBB\xBF";  // a BOM, but not at the start of the file
      break;
  }
  return rendered(line, Verdict::rejected(Reason::kInvalidJson));
}

Verdict Generator::not_object(std::string& line) {
  constexpr std::array<std::string_view, 10> kValues = {
      "null", "true", "false", "42", "-1.5e3", "\"hello\"", "\"\"", "[]", "[1,2,3]", " [{}] ",
  };
  switch (rng_.below(3)) {
    case 0:
      line = rng_.pick(kValues);
      break;
    case 1:
      line = "[";
      render_record(line);
      line += ']';
      break;
    default: {
      std::string object;
      render_record(object);
      line = json_quote(object);
      break;
    }
  }
  return Verdict::rejected(Reason::kNotObject);
}

Verdict Generator::missing(std::string& line, const Target& t) {
  const std::string_view value = rec_.find(t.id)->value;
  rec_.remove(t.id);
  switch (rng_.below(3)) {
    case 0:
      break;
    case 1:  // a near-miss name: "App_id", "Timestamp"
      rec_.insert_randomly(
          {FieldId::kExtra, t.id == FieldId::kApp ? app_near_key_ : time_near_key_, value}, rng_);
      break;
    default:  // only nested, where it does not count
      add_extra(nested_json(t.id));
      break;
  }
  return rendered(line, Verdict::rejected(t.missing));
}

Verdict Generator::duplicate(std::string& line, const Target& t) {
  std::string_view second;
  switch (rng_.below(4)) {
    case 0:
      second = rec_.find(t.id)->value;
      break;
    case 1:
      second = valid_json(t.id);
      break;
    case 2:
      second = non_string_json();
      break;
    default:
      second = bad_json(t.id);
      break;
  }
  rec_.insert_randomly({t.id, key_of(t.id), second}, rng_);
  return rendered(line, Verdict::rejected(t.duplicate));
}

Verdict Generator::not_string(std::string& line, const Target& t) {
  set(t.id, non_string_json());
  return rendered(line, Verdict::rejected(t.not_string));
}

Verdict Generator::bad_app(std::string& line) {
  set(FieldId::kApp, bad_app_json());
  return rendered(line, Verdict::rejected(Reason::kBadApp));
}

Verdict Generator::bad_time(std::string& line) {
  set(FieldId::kTime, bad_time_json());
  return rendered(line, Verdict::rejected(Reason::kBadTime));
}

Verdict Generator::several_problems(std::string& line) {
  switch (rng_.below(10)) {
    case 0:  // no app, no time
      rec_.remove(FieldId::kApp);
      rec_.remove(FieldId::kTime);
      return rendered(line, Verdict::rejected(Reason::kMissingApp));
    case 1:  // no app, bad time
      rec_.remove(FieldId::kApp);
      set(FieldId::kTime, bad_time_json());
      return rendered(line, Verdict::rejected(Reason::kMissingApp));
    case 2:  // two apps, the second not a string; two times
      rec_.insert_randomly({FieldId::kApp, app_key_, non_string_json()}, rng_);
      rec_.insert_randomly({FieldId::kTime, time_key_, valid_json(FieldId::kTime)}, rng_);
      return rendered(line, Verdict::rejected(Reason::kDuplicateApp));
    case 3:  // app not a string, no time
      set(FieldId::kApp, non_string_json());
      rec_.remove(FieldId::kTime);
      return rendered(line, Verdict::rejected(Reason::kAppNotString));
    case 4:  // bad app, two times
      set(FieldId::kApp, bad_app_json());
      rec_.insert_randomly({FieldId::kTime, time_key_, valid_json(FieldId::kTime)}, rng_);
      return rendered(line, Verdict::rejected(Reason::kBadApp));
    case 5:  // bad app, time not a string
      set(FieldId::kApp, bad_app_json());
      set(FieldId::kTime, non_string_json());
      return rendered(line, Verdict::rejected(Reason::kBadApp));
    case 6:  // no app, trailing comma
      rec_.remove(FieldId::kApp);
      render_record(line);
      line.insert(line.size() - 1, ",");
      return Verdict::rejected(Reason::kInvalidJson);
    case 7:  // bad time, bad string
      set(FieldId::kTime, bad_time_json());
      set_or_add(FieldId::kUa, bad_string_json());
      return rendered(line, Verdict::rejected(Reason::kInvalidJson));
    case 8:  // an array holding an object without app
      rec_.remove(FieldId::kApp);
      line = "[";
      render_record(line);
      line += ']';
      return Verdict::rejected(Reason::kNotObject);
    default:  // two times, the second not a string
      rec_.insert_randomly({FieldId::kTime, time_key_, non_string_json()}, rng_);
      return rendered(line, Verdict::rejected(Reason::kDuplicateTime));
  }
}

Verdict Generator::escaped_app(std::string& line) {
  const std::string_view id = pick_app();
  set(FieldId::kApp, keep(json_quote_escaping_some(id.substr(1, id.size() - 2), rng_)));
  return rendered(line, Verdict::counted(clock_.sec));
}

Verdict Generator::huge_numbers(std::string& line) {
  constexpr std::array<std::string_view, 9> kNumbers = {
      "98765432109876543210",
      "-1.5e+300",
      "1e999",
      "1E-999",
      "-0",
      "0e0",
      "123456789012345678901234567890",
      "-0.0E+00",
      "1.7976931348623157e309",
  };
  set_or_add(FieldId::kBytes, rng_.pick(kNumbers));
  set_or_add(FieldId::kLatency, rng_.pick(kNumbers));
  return rendered(line, Verdict::counted(clock_.sec));
}

// 23:59:60 UTC on the clock's day, in a random zone; counts in 23:59:59 UTC.
Verdict Generator::leap_second(std::string& line) {
  const int64_t last_second = (floor_div(clock_.sec, kSecondsPerDay) + 1) * kSecondsPerDay - 1;
  Stamp s = random_stamp();
  s.at.sec = last_second;
  std::string text = stamp_text(s, rng_);
  text.replace(17, 2, "60");  // local seconds are :59 too, whatever the zone
  set(FieldId::kTime, keep(json_quote(text)));
  return rendered(line, Verdict::counted(last_second));
}

// Long fractions (truncated, never rounded up) and the rarer zone spellings.
Verdict Generator::odd_stamp(std::string& line) {
  constexpr std::array<Zone, 3> kOddZones = {{{0, "-00:00", 1}, {0, "z", 1}, {1439, "+23:59", 1}}};
  Stamp s = random_stamp();
  s.digits = 30;
  if (rng_.chance(0.5)) s.at.ns = 999'999'999;
  s.zone = &rng_.pick(kOddZones);
  set(FieldId::kTime, time_json(s));
  return rendered(line, Verdict::counted(clock_.sec));
}

Verdict Generator::escaped_time(std::string& line) {
  set(FieldId::kTime, keep(json_quote_escaping_some(stamp_text(random_stamp(), rng_), rng_)));
  return rendered(line, Verdict::counted(clock_.sec));
}

Verdict Generator::unicode_text(std::string& line) {
  constexpr std::array<std::string_view, 8> kTexts = {
      "\"Mozilla/5.0 (\xE2\x82\xAC)\"",            // raw U+20AC
      "\"caf\\u00e9 \\u20AC\"",                    // escaped
      "\"\xF0\x9F\x98\x80 emoji\"",                // raw U+1F600
      "\"\\ud83d\\ude00 pair\"",                   // escaped surrogate pair
      "\"\xE3\x82\xA2\xE3\x83\x97\xE3\x83\xAA\"",  // raw CJK
      "\"del \x7F is not a control\"",
      "\"tab\\tquote\\\"slash\\/backslash\\\\\"",
      "\"nul \\u0000 escaped\"",
  };
  set_or_add(FieldId::kUa, rng_.pick(kTexts));
  return rendered(line, Verdict::counted(clock_.sec));
}

Verdict Generator::padded(std::string& line) {
  constexpr std::array<std::string_view, 5> kPads = {" ", "\t", "  \t", " \r", ""};
  line = rng_.pick(kPads);
  render_record(line);
  line += rng_.pick(kPads);
  return Verdict::counted(clock_.sec);
}

// Nested app and time fields, which must not count, next to valid top-level ones.
Verdict Generator::decoys(std::string& line) {
  std::string nested = "{" + app_key_ + ":\"not valid!\"," + time_key_ + ":\"yesterday\"}";
  if (rng_.chance(0.5)) nested = "[" + nested + "," + app_key_ + "]";
  add_extra(keep(nested));
  return rendered(line, Verdict::counted(clock_.sec));
}

Verdict Generator::odd_values(std::string& line) {
  constexpr std::array<std::string_view, 7> kValues = {
      "[1,\"a\",null,true,{\"k\":[]}]",
      "{}",
      "[]",
      "\"\"",
      "[[[[[[[[]]]]]]]]",
      "{\"\":{\"\":{}}}",
      "-0.0e-0",
  };
  add_extra(rng_.pick(kValues));
  rec_.insert_randomly({FieldId::kExtra, "\"\"", "false"}, rng_);
  const std::string_view key = rng_.pick(extra_keys_);  // a duplicate key that does not matter
  rec_.insert_randomly({FieldId::kExtra, key, "1"}, rng_);
  rec_.insert_randomly({FieldId::kExtra, key, "2"}, rng_);
  return rendered(line, Verdict::counted(clock_.sec));
}

Verdict Generator::calendar_edge(std::string& line) {
  constexpr std::array<std::string_view, 9> kEdges = {
      "1970-01-01T00:00:00Z",
      "1969-12-31T23:59:59.999999999Z",
      "2024-02-29T12:00:00+00:00",
      "2000-02-29T23:59:59.5-00:30",
      "2100-02-28t23:30:00-01:00",
      "0000-01-01T00:00:00+00:01",
      "9999-12-31T23:59:59-01:00",
      "1999-12-31 23:59:59.99+23:59",
      "2023-11-14T22:13:20.000000000000000000000000000001z",
  };
  const std::string_view text = rng_.pick(kEdges);
  set(FieldId::kTime, keep(json_quote(text)));
  return rendered(line, Verdict::counted(parse_instant(text)->sec));
}

// -------------------------------------------------------------- record edits

std::string_view Generator::key_of(FieldId id) const {
  return id == FieldId::kApp ? app_key_ : time_key_;
}

void Generator::set(FieldId id, std::string_view json) { rec_.find(id)->value = json; }

// Sets a filler field, or adds an extra one when a clash with the app or time
// field name removed it from the layout.
void Generator::set_or_add(FieldId id, std::string_view json) {
  if (Field* f = rec_.find(id)) {
    f->value = json;
  } else {
    add_extra(json);
  }
}

void Generator::add_extra(std::string_view json) {
  rec_.insert_randomly({FieldId::kExtra, rng_.pick(extra_keys_), json}, rng_);
}

std::string_view Generator::valid_json(FieldId id) {
  return id == FieldId::kApp ? pick_app() : time_json(random_stamp());
}

std::string_view Generator::bad_json(FieldId id) {
  return id == FieldId::kApp ? bad_app_json() : bad_time_json();
}

std::string_view Generator::nested_json(FieldId id) {
  const std::string member = std::string(key_of(id)) + ":" + std::string(valid_json(id));
  return keep(rng_.chance(0.5) ? "{" + member + "}" : "[{" + member + "}]");
}

std::string_view Generator::non_string_json() {
  constexpr std::array<std::string_view, 11> kValues = {
      "123",        "1700000000",        "1700000000.5", "null", "true", "false",
      "[\"App1\"]", "{\"id\":\"App1\"}", "1e999",        "[]",   "{}",
  };
  return rng_.pick(kValues);
}

std::string_view Generator::bad_app_json() {
  constexpr std::array<std::string_view, 17> kValues = {
      "\"\"",          "\"my_app\"",          "\"my-app\"",
      "\"app 1\"",     "\"Caf\\u00e9\"",      "\"Caf\xC3\xA9\"",
      "\"App1\\n\"",   "\"\\u0000\"",         "\" App1\"",
      "\"App1 \"",     "\"App.1\"",           "\"\\u0041pp_1\"",
      "\"\\uFF21pp\"", "\"App\\/1\"",         "\"\xE3\x82\xA2\"",
      "\"App1\\t\"",   "\"\\u00c9t\\u00e9\"",
  };
  if (rng_.chance(0.5)) return rng_.pick(kValues);
  // A pool id with one bad character in it.
  constexpr std::string_view kBadChars = "_-. /:@+";
  std::string id(pick_app());
  const size_t at = 1 + rng_.below(id.size() - 1);
  id.insert(at, 1, rng_.pick(kBadChars));
  return keep(id);
}

std::string_view Generator::bad_time_json() {
  using Edit = void (*)(std::string&);
  // Each edit breaks "YYYY-MM-DDThh:mm:ss.fffZ" (positions fixed).
  static constexpr std::array<Edit, 34> kEdits = {{
      [](std::string& t) { t.pop_back(); },               // no offset
      [](std::string& t) { t.replace(23, 1, "+0200"); },  // offset without colon
      [](std::string& t) { t.replace(23, 1, "+02"); },
      [](std::string& t) { t.replace(23, 1, "+2:00"); },
      [](std::string& t) { t.replace(23, 1, "+24:00"); },  // offset hour > 23
      [](std::string& t) { t.replace(23, 1, "-05:60"); },  // offset minute > 59
      [](std::string& t) { t.replace(23, 1, " UTC"); },
      [](std::string& t) { t.replace(23, 1, "GMT"); },
      [](std::string& t) { t.replace(23, 1, "+05:30:00"); },
      [](std::string& t) { t.replace(11, 8, "24:00:00"); },
      [](std::string& t) { t.replace(14, 2, "60"); },        // minute 60
      [](std::string& t) { t.replace(17, 2, "61"); },        // second 61
      [](std::string& t) { t.replace(11, 8, "23:58:60"); },  // not a leap second
      [](std::string& t) {
        t.replace(11, 8, "23:59:60").replace(23, 1, "+01:00");
      },                                                       // UTC 22:59:60
      [](std::string& t) { t[19] = ','; },                     // comma fraction
      [](std::string& t) { t.erase(20, 3); },                  // '.' without digits
      [](std::string& t) { t.replace(0, 10, "2023-02-29"); },  // not a leap year
      [](std::string& t) { t.replace(0, 10, "2023-02-30"); },
      [](std::string& t) { t.replace(0, 10, "2024-02-30"); },
      [](std::string& t) { t.replace(0, 10, "2023-04-31"); },
      [](std::string& t) { t.replace(0, 10, "2023-13-01"); },
      [](std::string& t) { t.replace(0, 10, "2023-00-10"); },
      [](std::string& t) { t.replace(0, 10, "2023-11-00"); },
      [](std::string& t) { t[10] = '_'; },  // separator
      [](std::string& t) { t.replace(10, 1, "  "); },
      [](std::string& t) { t += ' '; },              // trailing space
      [](std::string& t) { t.insert(0, " "); },      // leading space
      [](std::string& t) { t.resize(10); },          // date only
      [](std::string& t) { t.erase(16, 3); },        // no seconds
      [](std::string& t) { t.replace(5, 2, "1"); },  // one-digit month
      [](std::string& t) { t[4] = t[7] = '/'; },
      [](std::string& t) { t.insert(0, "1"); },                 // five-digit year
      [](std::string& t) { t.replace(0, 1, "\xEF\xBC\x92"); },  // fullwidth digit
      [](std::string& t) { t = "1700000000"; },
  }};
  Stamp s = random_stamp();
  s.zone = &kZones.items[0];
  s.sep = 'T';
  s.digits = 3;
  std::string text = stamp_text(s, rng_);
  rng_.pick(kEdits)(text);
  return keep(json_quote(text));
}

// A string with an invalid escape, a raw control character or invalid UTF-8.
std::string_view Generator::bad_string_json() {
  constexpr std::array<std::string_view, 21> kBad = {
      "\\x41",
      "\\u12G4",
      "\\U0041",
      "\\'",
      "\\a",
      "\\u00",
      "\\",
      "\x01",
      "\t",
      "\x1F",
      std::string_view("\0", 1),
      "\xFF",
      "\xC3",
      "\x80",
      "\xC0\xAF",
      "\xED\xA0\x80",
      "\xF4\x90\x80\x80",
      "\xE2\x82",
      "\xFE",
      "\xF8\x88\x80\x80\x80",
      "\x1B[0m",
  };
  return keep("\"client " + std::string(rng_.pick(kBad)) + " end\"");
}

// ============================================================== output

// A file (or standard output) written in large blocks.
class Output {
 public:
  explicit Output(const std::string& path)
      : name_(path.empty() ? "standard output" : path),
        file_(path.empty() ? stdout : std::fopen(path.c_str(), "wb")) {
    if (file_ == nullptr) io_error("cannot open " + name_);
  }
  Output(const Output&) = delete;
  Output& operator=(const Output&) = delete;

  void write(std::string_view data) {
    if (std::fwrite(data.data(), 1, data.size(), file_) != data.size())
      io_error("cannot write " + name_);
  }

  void close() {
    const int rc = file_ == stdout ? std::fflush(file_) : std::fclose(file_);
    if (rc != 0) io_error("cannot write " + name_);
  }

 private:
  std::string name_;
  std::FILE* file_;
};

void write_file(const std::string& path, std::string_view text) {
  Output out(path);
  out.write(text);
  out.close();
}

constexpr size_t kFlushBytes = size_t{4} << 20;

}  // namespace

int main(int argc, char** argv) {
  const Options options = parse_args(argc, argv);
  Output out(options.output);
  Generator generator(options);
  Tally tally;

  Buffer buffer(kFlushBytes + (size_t{1} << 16));
  uint64_t written = 0;
  auto more = [&] {
    return options.bytes ? written < *options.bytes : tally.lines() < options.lines;
  };
  while (more()) {
    const size_t before = buffer.size();
    tally.add(generator.next(buffer));
    written += buffer.size() - before;
    if (buffer.size() >= kFlushBytes) {
      out.write(buffer.view());
      buffer.clear();
    }
  }
  out.write(buffer.view());
  out.close();

  if (!options.expected.empty()) write_file(options.expected, tally.csv());
  if (!options.expected_summary.empty()) write_file(options.expected_summary, tally.summary_json());
  return 0;
}
