// Differential tests: random log lines and whole buffers go through the engine
// (LineParser, aggregate_buffer) and through the reference oracle, and must get
// the same verdicts, counts and summaries. Lines come from a generator that
// mixes access-log objects (shuffled, duplicated or missing fields, escapes,
// huge numbers, random UTF-8, deep nesting) with byte-level mutations, and
// near-valid lines on purpose: every clause of the counting rules one step
// off (or just on the valid side of its edge), timestamps among them (hour
// 24, minute 60, misplaced leap seconds, days past the month's end, offsets
// +-24:00 and minutes 60). Half the buffers keep most timestamps within ten
// seconds, so seconds repeat across segments and threads and the per-thread
// counts must be added when they merge. A second suite, differential_pointers,
// puts the two fields at the ends of JSON Pointer paths (NestedLineGenerator:
// nested objects and arrays, escaped keys, decoys beside every step, missing
// and repeated steps, scalars in the way) and runs the engine and the
// reference with those pointers as the field options. A third,
// differential_shapes, runs both generators in every time format (times
// written by the time-format tests' generators, tests/reference/
// time_generators.h: epoch numbers, bare and quoted, next to second
// boundaries; clf; patterns in zones around their transitions; then edited)
// with app ids for the default, a byte-table and two RE2 app patterns, so
// that the fields, the format and the pattern compose. A disagreement is
// shrunk and printed as an escaped literal, ready to become a unit test.
#include <date/tz.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <span>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include "logagg/aggregate.h"
#include "logagg/options.h"
#include "parse/line_parser.h"
#include "reference/reference.h"
#include "reference/time_generators.h"
#include "support/sanitizers.h"

namespace {

using namespace std::literals;

// Which fields the lines are about, and the line length limit.
struct Fields {
  std::u32string app;
  std::u32string time;
  size_t max_line_bytes;
};

const Fields kFieldSets[] = {
    {U"app_id", U"timestamp", size_t{1} << 30},
    {U"app_id", U"timestamp", 200},
    {U"svc", U"t\u00e9", size_t{1} << 30},  // matched after unescaping "\u00e9" too
};

std::u32string ascii(std::string_view s) { return {s.begin(), s.end()}; }

logagg::Options options_of(const Fields& fields) {
  logagg::Options options;
  options.app_field = reference::utf8(fields.app);
  options.time_field = reference::utf8(fields.time);
  options.max_line_bytes = fields.max_line_bytes;
  return options;
}

// The UTC second the narrow timestamps start at: 2023-11-14T22:13:20Z.
constexpr int64_t kNarrowStart = 1700000000;

// A time format of differential_shapes.
struct TimeShape {
  std::string_view format;
  std::string_view zone;  // the input zone of a pattern without %z
  int epoch_digits;       // unix*: the digits of a unit (0, 3, 6, 9); else -1
};

const TimeShape kTimeShapes[] = {
    {"rfc3339", "", -1},
    {"unix", "", 0},
    {"unix-ms", "", 3},
    {"unix-us", "", 6},
    {"unix-ns", "", 9},
    {"clf", "", -1},
    {"%Y-%m-%d %H:%M:%S", "Europe/Berlin", -1},
    {"%b %e %H:%M:%S %Y", "America/New_York", -1},
    {"%d.%m.%Y %H:%M:%S,%f", "Australia/Lord_Howe", -1},
};

// An app pattern of differential_shapes, and how its valid ids are made.
enum class AppIds { kDefault, kHostnames, kServiceAtProvider, kAnything };

struct AppShape {
  std::string_view pattern;
  AppIds ids;
};

const AppShape kAppShapes[] = {
    {logagg::kDefaultAppPattern, AppIds::kDefault},
    {"[a-z0-9.-]+", AppIds::kHostnames},                   // the byte table
    {"[a-z]+(-[a-z]+)*@[a-z]+", AppIds::kServiceAtProvider},  // RE2
    {".+", AppIds::kAnything},                             // the byte table, any code point but \n
};

struct Shape {
  const TimeShape* time;
  const AppShape* app;

  // `options` with this shape's time format and app pattern.
  logagg::Options applied(logagg::Options options) const {
    options.time_format = std::string(time->format);
    options.input_tz = std::string(time->zone);
    options.app_pattern = std::string(app->pattern);
    return options;
  }
};

// Produces random lines (never containing LF) about the given fields. With
// `narrow`, three timestamps in four fall in the ten seconds from kNarrowStart.
// With a `shape`, times are written in its format and valid app ids are its
// pattern's; without one, lines are the same as they always were (the shape
// draws nothing from the generator's random numbers).
class LineGenerator {
 public:
  LineGenerator(uint64_t seed, const Fields& fields, bool narrow = false, const Shape* shape = nullptr)
      : rng_(seed), fields_(fields), narrow_(narrow), shape_(shape) {
    if (shape_ == nullptr || shape_->time->epoch_digits >= 0 || shape_->time->format == "rfc3339") return;
    const bool clf = shape_->time->format == "clf";
    time_pieces_ = reference::pieces(clf ? "%d/%b/%Y:%H:%M:%S %z" : shape_->time->format);
    if (!clf) {
      zone_ = date::locate_zone(shape_->time->zone);
      transitions_ = reference::transitions(zone_);
    }
  }
  virtual ~LineGenerator() = default;

  virtual std::string line() {
    std::string out;
    switch (uniform(0, 39)) {
      case 0:
      case 1:
        return blank();
      case 2:
      case 3:
        out = ws() + value(0) + ws();
        break;  // usually not an object
      case 4:
        out = deep_object();
        break;
      case 5:
      case 6:
      case 7:
      case 8:
      case 9:
      case 10:
        return near_valid_line();
      default:
        out = ws() + object() + ws();
        break;
    }
    if (one_in(3)) {
      // Bytes that matter to a JSON or UTF-8 parser; never LF.
      constexpr std::string_view kPalette =
          "{}[]\":,\\\\\"\"u0019eE.+-tnfaZ \t\r\x00\x01\x1F\x7F\x80\xBF\xC0\xC3\xA9\xE2\x82\xAC"
          "\xED\xA0\xF0\xF4\xF5\xFF"sv;
      reference::mutate(out, rng_, kPalette, uniform(1, 4));
    }
    if (one_in(6)) splice(out);
    return out;
  }

 protected:
  int uniform(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }
  bool one_in(int n) { return uniform(1, n) == 1; }
  template <typename T>
  const T& pick(const std::vector<T>& items) {
    return items[static_cast<size_t>(uniform(0, static_cast<int>(items.size()) - 1))];
  }

  // Inserts, at a random place, a snippet that is one step from valid or
  // invalid: structural slips, bad escapes and numbers, tricky UTF-8.
  void splice(std::string& out) {
    static const std::vector<std::string> kSnippets = {",",
                                                       ",]",
                                                       ",}",
                                                       "[,",
                                                       "{,",
                                                       "]",
                                                       "}",
                                                       "[",
                                                       "{",
                                                       ":",
                                                       "\"",
                                                       "\\",
                                                       "\\u",
                                                       "\\ud800",
                                                       "\\udc00",
                                                       "\\ud800\\udc00",
                                                       "\\u12",
                                                       "\\uD83D\\uDE00",
                                                       "\\x41",
                                                       "01",
                                                       "1.",
                                                       "-",
                                                       "1e",
                                                       ".5",
                                                       "-0",
                                                       "1e999",
                                                       "tru",
                                                       "nul",
                                                       "true",
                                                       "null",
                                                       "\xED\xA0\x80",
                                                       "\xED\x9F\xBF",
                                                       "\xC0\xAF",
                                                       "\xC2\x80",
                                                       "\xE0\x9F\xBF",
                                                       "\xE0\xA0\x80",
                                                       "\xF0\x8F\xBF\xBF",
                                                       "\xF0\x90\x80\x80",
                                                       "\xF4\x8F\xBF\xBF",
                                                       "\xF4\x90\x80\x80",
                                                       "\xE2\x82",
                                                       "\xEF\xBB\xBF",
                                                       "\x01",
                                                       "\t",
                                                       "\r",
                                                       "\f",
                                                       "\v",
                                                       "\xC2\xA0"};
    // Half the time just inside a string, where escapes and UTF-8 matter.
    size_t at = static_cast<size_t>(uniform(0, static_cast<int>(out.size())));
    if (one_in(2)) {
      const size_t quote = out.find('"', at);
      at = quote == std::string::npos ? at : quote + 1;
    }
    out.insert(at, pick(kSnippets));
  }

  std::string blank() {
    std::string out;
    for (int n = uniform(0, 6); n > 0; --n) out += " \t\r"[uniform(0, 2)];
    return out;
  }

  // JSON whitespace between tokens, usually none.
  std::string ws() { return one_in(4) ? blank() : ""; }

  // A JSON string literal of `text`, each character written plainly or as an
  // escape at random (controls, quotes and backslashes always escaped).
  std::string encode(std::u32string_view text) {
    std::string out = "\"";
    for (const char32_t cp : text) {
      const bool must_escape = cp < 0x20 || cp == U'"' || cp == U'\\';
      if (!must_escape && !one_in(6)) {
        out += reference::utf8(std::u32string_view(&cp, 1));
      } else if (const size_t at = std::u32string_view(U"\"\\/\b\f\n\r\t").find(cp);
                 at != std::u32string_view::npos && one_in(2)) {
        out += '\\';
        out += "\"\\/bfnrt"[at];
      } else {
        out += unicode_escape(cp);
      }
    }
    return out + "\"";
  }

  // "\uXXXX", or a surrogate pair above the BMP, in random hex case.
  std::string unicode_escape(char32_t cp) {
    const char* format = one_in(2) ? "\\u%04x" : "\\u%04X";
    char buf[16];
    if (cp < 0x10000) {
      std::snprintf(buf, sizeof buf, format, static_cast<unsigned>(cp));
      return buf;
    }
    const unsigned v = static_cast<unsigned>(cp) - 0x10000;
    std::string out;
    std::snprintf(buf, sizeof buf, format, 0xD800 + (v >> 10));
    out += buf;
    std::snprintf(buf, sizeof buf, format, 0xDC00 + (v & 0x3FF));
    return out + buf;
  }

  // Random text, mostly ASCII, with some characters that need care.
  std::u32string text() {
    static const std::vector<char32_t> kSpecial = {
        U'"',   U'\\',  U'/',   U'\0',   U'\b',    U'\t', U'\n', U'\x1F', U'\x7F', 0xE9,
        0x20AC, 0xFEFF, 0xFFFF, 0x1F600, 0x10FFFF, U'{',  U'}',  U':',    U','};
    std::u32string out;
    for (int n = uniform(0, 12); n > 0; --n) {
      out += one_in(5) ? pick(kSpecial) : static_cast<char32_t>(uniform(0x20, 0x7E));
    }
    return out;
  }

  std::u32string app_id() {
    static const std::vector<std::u32string> kBad = {U"",    U"web-1", U"Caf\u00e9", U"a b",
                                                     U"\0"s, U"x_y",   U"\u0660"};
    return one_in(10) ? pick(kBad) : valid_app_id();
  }

  std::u32string valid_app_id() {
    if (shape_ != nullptr && shape_->app->ids != AppIds::kDefault) return shaped_app_id();
    static constexpr std::string_view kAlnum =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    std::u32string out;
    for (int n = uniform(1, 10); n > 0; --n) out += static_cast<char32_t>(kAlnum[uniform(0, 61)]);
    return out;
  }

  // An id its shape's pattern takes, and one time in four one edit away
  // (a character of another class inserted, or one dropped).
  std::u32string shaped_app_id() {
    static constexpr std::u32string_view kLower = U"abcdefghijklmnopqrstuvwxyz";
    auto word = [&] {
      std::u32string out;
      for (int n = uniform(1, 6); n > 0; --n) out += kLower[static_cast<size_t>(uniform(0, 25))];
      return out;
    };
    std::u32string id;
    switch (shape_->app->ids) {
      case AppIds::kHostnames: {
        static constexpr std::u32string_view kHost = U"abcdefghijklmnopqrstuvwxyz0123456789.-";
        for (int n = uniform(1, 16); n > 0; --n) id += kHost[static_cast<size_t>(uniform(0, 37))];
        break;
      }
      case AppIds::kServiceAtProvider:
        id = word();
        for (int n = uniform(0, 2); n > 0; --n) id += U"-" + word();
        id += U"@" + word();
        break;
      default:  // kAnything
        id = text();
        if (id.empty()) id = U"x";
        break;
    }
    if (one_in(4)) {
      static constexpr std::u32string_view kOthers = U"-@.A_ \n\u00e9\U0001F600";
      const size_t at = static_cast<size_t>(uniform(0, static_cast<int>(id.size())));
      if (one_in(2) && at < id.size()) {
        id.erase(at, 1);
      } else {
        id.insert(at, 1, kOthers[static_cast<size_t>(uniform(0, static_cast<int>(kOthers.size()) - 1))]);
      }
    }
    return id;
  }

  // A time in the shape's format (not rfc3339): random (epoch numbers next to
  // second boundaries, clf at any local time, patterns near their zone's
  // transitions) or (narrow) in a second of the narrow range; one in six
  // edited.
  std::string shaped_time() {
    const TimeShape& t = *shape_->time;
    std::optional<int64_t> second;
    if (narrow_ && !one_in(4)) second = kNarrowStart + uniform(0, 9);
    std::string text;
    if (t.epoch_digits >= 0) {
      text = second ? reference::epoch_near(rng_, t.epoch_digits, *second, /*negative=*/false).text
                    : reference::near_boundary(rng_, t.epoch_digits).text;
    } else if (zone_ == nullptr) {  // clf
      const int offset = uniform(-1439, 1439);
      const date::local_seconds local =
          second ? date::local_seconds{std::chrono::seconds{*second + offset * 60}} : reference::random_local(rng_);
      text = reference::write_time(rng_, time_pieces_, local, offset, /*clf=*/true);
      if (one_in(2)) text = "[" + text + "]";
    } else {
      const date::local_seconds local = second ? zone_->to_local(date::sys_seconds{std::chrono::seconds{*second}})
                                               : reference::near_transition(rng_, transitions_);
      text = reference::write_time(rng_, time_pieces_, local, 0, /*clf=*/false);
    }
    if (one_in(6)) {
      const std::string palette = t.epoch_digits >= 0 ? "0123456789.eE+- " : "0123456789 :/.,+-[]ZJanFebNov";
      reference::mutate(text, rng_, palette, uniform(1, 2));
    }
    return text;
  }

  // The time field's value: with a unix* shape, half the time the number
  // itself rather than a string holding it.
  std::string time_value() {
    if (shape_ == nullptr || shape_->time->epoch_digits < 0 || !one_in(2)) return field_value(timestamp());
    return reference::utf8(timestamp());
  }

  // Random, near-valid, or (narrow) about a second of the narrow range.
  std::u32string timestamp() {
    if (shape_ != nullptr && shape_->time->format != "rfc3339") return ascii(shaped_time());
    std::optional<int64_t> second;
    if (narrow_ && !one_in(4)) second = kNarrowStart + uniform(0, 9);
    std::string text = one_in(4) ? reference::near_valid_timestamp(rng_, second).text()
                       : second  ? reference::timestamp_at(*second, rng_).text()
                                 : reference::random_timestamp(rng_).text();
    if (one_in(6)) reference::mutate(text, rng_, "0123456789-:Tt Zz+.,", uniform(1, 2));
    return ascii(text);
  }

  // A timestamp spelled one step off the grammar (or on its valid side).
  std::u32string misspelt_timestamp() {
    std::string text = reference::timestamp_at(narrow_ ? kNarrowStart + uniform(0, 9) : 1600000000, rng_).text();
    const size_t zone = text.find_last_of("Zz+-");
    switch (uniform(0, 9)) {
      case 0:  // no zone
        text.erase(zone);
        break;
      case 1:  // "+hhmm"
        text = text.substr(0, 19) + "+0100";
        break;
      case 2:  // a comma before the fraction
        text = text.substr(0, 19) + ",5Z";
        break;
      case 3:  // a point without digits
        text = text.substr(0, 19) + ".Z";
        break;
      case 4:
        text = " " + text;
        break;
      case 5:
        text += " ";
        break;
      case 6:  // another separator
        text[10] = "_Ttx"[uniform(0, 3)];
        break;
      case 7:  // a one-digit field
        text.erase(static_cast<size_t>(std::array<int, 5>{5, 8, 11, 14, 17}[uniform(0, 4)]), 1);
        break;
      case 8:  // "+hh"
        text = text.substr(0, 19) + "+01";
        break;
      default:  // lower case zone and separator: valid
        text[10] = 't';
        if (text.back() == 'Z') text.back() = 'z';
        break;
    }
    return ascii(text);
  }

  // An access-log line that keeps every clause of the counting rules but one,
  // which is one step off (or just on the valid side of its edge).
  std::string near_valid_line() {
    const std::string app_key = encode(fields_.app), time_key = encode(fields_.time);
    const std::string app = encode(valid_app_id()), time = encode(timestamp());
    auto pair = [](const std::string& key, const std::string& value) { return key + ":" + value; };
    auto fields = [&](const std::string& app_member, const std::string& time_member) {  // in either order
      return one_in(2) ? braced({app_member, time_member}) : braced({time_member, app_member});
    };
    const std::string valid = fields(pair(app_key, app), pair(time_key, time));
    switch (uniform(0, 11)) {
      case 0: {  // blank, but for one byte that is not a space, tab or CR
        static const std::vector<std::string> kNotBlank = {"\f", "\v", "\xC2\xA0", std::string(1, '\0'), "\x1F"};
        return blank() + pick(kNotBlank) + blank();
      }
      case 1: {  // something after the object (or only whitespace: valid)
        static const std::vector<std::string> kAfter = {" x", "{}", ",", "}", "]", "\"\"", "0", " \t\r", "\t"};
        return valid + pick(kAfter);
      }
      case 2:  // a valid JSON value that is not an object
        return one_in(2) ? "[" + valid + "]" : encode(ascii(valid));
      case 3: {  // a field name with one character escaped: the same field, alone (valid) or twice
        const bool is_app = one_in(2);
        const std::u32string& name = is_app ? fields_.app : fields_.time;
        const std::string escaped = "\"" + unicode_escape(name[0]) + reference::utf8(name.substr(1)) + "\"";
        const std::string app_member = pair(is_app ? escaped : app_key, app);
        const std::string time_member = pair(is_app ? time_key : escaped, time);
        if (one_in(2)) return fields(app_member, time_member);
        return braced({pair(app_key, app), pair(time_key, time), is_app ? app_member : time_member});
      }
      case 4: {  // a field only inside a nested object
        const std::string nested = encode(U"x") + ":";
        return one_in(2) ? fields(nested + braced({pair(app_key, app)}), pair(time_key, time))
                         : fields(pair(app_key, app), nested + braced({pair(time_key, time)}));
      }
      case 5: {  // a field holding another type
        static const std::vector<std::string> kOthers = {"1", "null", "true", "[]", "{}", "1700000000"};
        return one_in(2) ? fields(pair(app_key, pick(kOthers)), pair(time_key, time))
                         : fields(pair(app_key, app), pair(time_key, pick(kOthers)));
      }
      case 6: {  // an app id with one character just outside [A-Za-z0-9], or empty
        static const std::vector<std::string> kNeighbours = {"/", ":", "@",     "[", "`", "{",
                                                             "\x7F", "\\u00e9", "_", "-", " ", ""};
        std::string id = reference::utf8(valid_app_id());
        const std::string odd = pick(kNeighbours);
        id = odd.empty() ? "" : id.insert(static_cast<size_t>(uniform(0, static_cast<int>(id.size()))), odd);
        return fields(pair(app_key, "\"" + id + "\""), pair(time_key, time));
      }
      case 7:  // a timestamp spelled one step off
        return fields(pair(app_key, app), pair(time_key, encode(misspelt_timestamp())));
      case 8:  // a field twice
        return braced({pair(app_key, app), pair(time_key, time), one_in(2) ? pair(app_key, app) : pair(time_key, time)});
      case 9:  // a field missing
        return braced({one_in(2) ? pair(app_key, app) : pair(time_key, time)});
      case 10: {  // the line limit (when small): one byte under it, at it, or over it
        std::string line = valid;
        const size_t want = fields_.max_line_bytes - 1 + static_cast<size_t>(uniform(0, 2));
        if (fields_.max_line_bytes > 1000 || want <= line.size()) return line;
        return line.insert(line.size() - 1, want - line.size(), ' ');
      }
      default: {  // valid but for a near-valid timestamp
        const std::optional<int64_t> second = narrow_ ? std::optional<int64_t>(kNarrowStart) : std::nullopt;
        return fields(pair(app_key, app),
                      pair(time_key, encode(ascii(reference::near_valid_timestamp(rng_, second).text()))));
      }
    }
  }

  std::string number() {
    std::string out = one_in(3) ? "-" : "";
    const int magnitude = one_in(20) ? 400 : 25;
    if (one_in(4)) {
      out += '0';
    } else {
      out += static_cast<char>('1' + uniform(0, 8));
      for (int n = uniform(0, magnitude); n > 0; --n) out += static_cast<char>('0' + uniform(0, 9));
    }
    if (one_in(3)) {
      out += '.';
      for (int n = uniform(1, magnitude); n > 0; --n) out += static_cast<char>('0' + uniform(0, 9));
    }
    if (one_in(3)) {
      out += one_in(2) ? 'e' : 'E';
      if (!one_in(3)) out += one_in(2) ? '+' : '-';
      for (int n = uniform(1, 4); n > 0; --n) out += static_cast<char>('0' + uniform(0, 9));
    }
    return out;
  }

  std::string value(int depth) {
    switch (uniform(0, depth < 3 ? 6 : 4)) {
      case 0:
      case 1:
        return encode(text());
      case 2:
        return number();
      case 3: {
        static const std::vector<std::string> kLiterals = {"true", "false", "null"};
        return pick(kLiterals);
      }
      case 4:
        return encode(timestamp());
      case 5: {
        std::string out = "[" + ws();
        for (int n = uniform(0, 3); n > 0; --n) out += value(depth + 1) + ws() + (n > 1 ? "," : "");
        return out + "]";
      }
      default: {
        std::vector<std::string> members;
        for (int n = uniform(0, 3); n > 0; --n) members.push_back(member(text(), value(depth + 1)));
        return braced(members);
      }
    }
  }

  std::string member(std::u32string_view key, const std::string& value) {
    return ws() + encode(key) + ws() + ":" + ws() + value + ws();
  }

  static std::string braced(const std::vector<std::string>& members) {
    std::string out = "{";
    for (size_t i = 0; i < members.size(); ++i) out += (i ? "," : "") + members[i];
    return out + "}";
  }

  // A value for one of the two fields: usually a string, sometimes not.
  std::string field_value(std::u32string_view text) { return one_in(15) ? value(0) : encode(text); }

  // An access-log object: the two fields (sometimes missing, repeated or not
  // strings), extra fields, in shuffled order more often than not.
  std::string object() {
    std::vector<std::string> members;
    if (!one_in(20)) members.push_back(member(fields_.app, field_value(app_id())));
    if (!one_in(20)) members.push_back(member(fields_.time, time_value()));
    static const std::vector<std::u32string> kKeys = {
        U"status", U"path", U"bytes", U"", U"app", U"time", U"APP_ID", U"app_id ", U"timestamp\0"s};
    for (int n = uniform(0, 4); n > 0; --n) {
      members.push_back(member(one_in(2) ? pick(kKeys) : text(), value(0)));
    }
    if (one_in(12)) members.push_back(member(fields_.app, field_value(app_id())));
    if (one_in(12)) members.push_back(member(fields_.time, time_value()));
    if (!one_in(3)) std::shuffle(members.begin(), members.end(), rng_);
    return braced(members);
  }

  // An access-log object with one field nested very deep.
  std::string deep_object() {
    const int depth = uniform(50, 3000);
    std::string open, close;
    for (int i = 0; i < depth; ++i) {
      const bool array = one_in(2);
      open += array ? "[" : "{\"k\":";
      close.insert(close.begin(), array ? ']' : '}');
    }
    return braced({member(fields_.app, encode(app_id())), member(fields_.time, encode(timestamp())),
                   member(U"deep", open + value(3) + close)});
  }

  std::mt19937_64 rng_;
  Fields fields_;
  bool narrow_;
  const Shape* shape_;
  std::vector<reference::Piece> time_pieces_;       // clf and patterns
  const date::time_zone* zone_ = nullptr;           // patterns
  std::vector<reference::Transition> transitions_;  // of zone_
};

// A field option and the keys and indexes it names, spelt out here rather
// than derived, so that the engine's and the reference's readings of the
// pointer are both held to them.
struct FieldName {
  std::u32string option;
  std::vector<std::u32string> steps;
};

struct PathFields {
  FieldName app, time;

  Fields options() const { return {app.option, time.option, size_t{1} << 30}; }
};

const PathFields kPathFieldSets[] = {
    {{U"/request/host", {U"request", U"host"}}, {U"/ts", {U"ts"}}},
    // One object on both paths; "~01" is "~1", not "/" (~1 is read before ~0).
    {{U"/a~1b/~0x", {U"a/b", U"~x"}}, {U"/a~1b/t~01", {U"a/b", U"t~1"}}},
    {{U"/logs/1/app", {U"logs", U"1", U"app"}}, {U"/logs/0", {U"logs", U"0"}}},
    // A plain name keeps its dot, beside a pointer through "svc" to index 10.
    {{U"svc.name", {U"svc.name"}}, {U"/svc/name/10", {U"svc", U"name", U"10"}}},
    // An index at the top, which is an object, is a key; keys that must be
    // escaped in JSON (quote, backslash) and the empty key.
    {{U"/0/A", {U"0", U"A"}}, {U"/\u00e9\"\\/", {U"\u00e9\"\\", U""}}},
    {{U"/k/k/k/A", {U"k", U"k", U"k", U"A"}}, {U"/k/k/T", {U"k", U"k", U"T"}}},
    // "01" is no index: only a key; in an array, element 1 is a decoy for it.
    {{U"/a/2/id", {U"a", U"2", U"id"}}, {U"/a/01", {U"a", U"01"}}},
};

// The number a step of digits spells, leading zeros and all; nullopt for
// other steps. Only "0" and digits without a leading zero name an element of
// an array, but the generator puts a field whose step is any number at that
// element, so that a step such as "01" is tried there too.
std::optional<size_t> number_of(std::u32string_view step) {
  const bool digits =
      !step.empty() && std::all_of(step.begin(), step.end(), [](char32_t c) { return c >= U'0' && c <= U'9'; });
  if (!digits) return std::nullopt;
  return std::stoul(std::string(step.begin(), step.end()));
}

// Lines whose two fields sit at the ends of JSON Pointer paths: nested objects
// and arrays, the paths' keys written with random escapes ("\u0041" for "A"),
// decoys next to each step (keys a slip would take for it: the pointer's own
// spelling, the pointer decoded in the wrong order, another case, a trailing
// space, a leading zero; the elements beside an index), and in half the lines
// faults along the way: a step missing, a scalar or the wrong kind of
// container in its place, a step's key twice in one object (the second copy
// holding the rest of the path, a scalar or an empty container), a field
// moved one element along. Some lines are byte-mutated, and some come from
// LineGenerator, which writes the options' names as top-level keys.
class NestedLineGenerator : public LineGenerator {
 public:
  NestedLineGenerator(uint64_t seed, const PathFields& paths, bool narrow = false, const Shape* shape = nullptr)
      : LineGenerator(seed, paths.options(), narrow, shape), paths_(paths) {}

  std::string line() override {
    if (one_in(16)) return LineGenerator::line();
    faults_ = one_in(2);
    std::string out = ws() + object({{paths_.app.steps, true}, {paths_.time.steps, false}}) + ws();
    if (one_in(5)) {
      // Bytes that matter to JSON and to pointer steps; never LF.
      constexpr std::string_view kPalette = "{}[]\":,\\u0041~/ kAT"sv;
      reference::mutate(out, rng_, kPalette, uniform(1, 3));
    }
    if (one_in(12)) splice(out);
    return out;
  }

 private:
  // A field still to be placed: the steps left of its path, and which field.
  struct Placement {
    std::span<const std::u32string> steps;  // at least one
    bool is_app;
  };
  using Group = std::vector<Placement>;  // fields whose next step is the same

  // A fault, in the lines that have them.
  bool fault(int one_in_n) { return faults_ && one_in(one_in_n); }

  static std::vector<Group> groups(const std::vector<Placement>& fields) {
    std::vector<Group> out;
    for (const Placement& f : fields) {
      const auto same = std::find_if(out.begin(), out.end(),
                                     [&](const Group& g) { return g.front().steps.front() == f.steps.front(); });
      if (same == out.end()) {
        out.push_back({f});
      } else {
        same->push_back(f);
      }
    }
    return out;
  }

  // The value a group's next step leads to: the field itself if the step is
  // its last (paths do not overlap, so then the group is that one field),
  // else a container holding the rest of the paths. Each call draws new
  // values, so decoys differ from the field.
  std::string subtree(const Group& group) {
    if (group.front().steps.size() == 1) {
      return group.front().is_app ? field_value(app_id()) : time_value();
    }
    std::vector<Placement> rest;
    for (const Placement& f : group) rest.push_back({f.steps.subspan(1), f.is_app});
    const bool numbers = std::all_of(rest.begin(), rest.end(),
                                     [](const Placement& f) { return number_of(f.steps.front()).has_value(); });
    return (numbers ? one_in(2) : fault(12)) ? array(rest) : object(rest);
  }

  // A scalar where a container or a field belongs.
  std::string scalar() { return value(3); }

  // `key` as a JSON string: usually encode(), sometimes every character
  // escaped.
  std::string key_text(std::u32string_view key) {
    if (!one_in(4)) return encode(key);
    std::string out = "\"";
    for (const char32_t c : key) out += unicode_escape(c);
    return out + "\"";
  }

  std::string keyed(std::u32string_view key, const std::string& value) {
    return ws() + key_text(key) + ws() + ":" + ws() + value + ws();
  }

  // Keys a slip in reading the pointer or comparing keys would take for `step`.
  static std::vector<std::u32string> decoys(const std::u32string& step) {
    auto replace_all = [](std::u32string text, std::u32string_view from, std::u32string_view to) {
      for (size_t at = text.find(from); at != std::u32string::npos; at = text.find(from, at + to.size())) {
        text.replace(at, from.size(), to);
      }
      return text;
    };
    const std::u32string spelt = replace_all(replace_all(step, U"~", U"~0"), U"/", U"~1");
    std::vector<std::u32string> out = {spelt, replace_all(replace_all(spelt, U"~0", U"~"), U"~1", U"/"), step + U" "};
    if (!step.empty() && ((step[0] >= U'a' && step[0] <= U'z') || (step[0] >= U'A' && step[0] <= U'Z'))) {
      std::u32string other_case = step;
      other_case[0] ^= 0x20;
      out.push_back(other_case);
    }
    if (number_of(step)) out.push_back(U"0" + step);
    return out;
  }

  // An object holding `fields` below their next steps, among decoys and
  // other members.
  std::string object(const std::vector<Placement>& fields) {
    const std::vector<Group> level = groups(fields);
    std::vector<std::u32string> steps;  // this level's keys: no decoy may be one
    for (const Group& g : level) steps.push_back(g.front().steps.front());
    std::vector<std::string> members;
    for (const Group& g : level) {
      const std::u32string& step = g.front().steps.front();
      if (!fault(15)) members.push_back(keyed(step, fault(15) ? scalar() : subtree(g)));
      if (fault(10)) {  // the step's key twice
        static const std::vector<std::string> kEmpty = {"{}", "[]"};
        members.push_back(keyed(step, one_in(2) ? subtree(g) : one_in(2) ? scalar() : pick(kEmpty)));
      }
      for (const std::u32string& decoy : decoys(step)) {
        if (std::find(steps.begin(), steps.end(), decoy) == steps.end() && one_in(4)) {
          members.push_back(keyed(decoy, subtree(g)));
        }
      }
    }
    for (int n = uniform(0, 2); n > 0; --n) members.push_back(member(text(), value(1)));
    if (!one_in(4)) std::shuffle(members.begin(), members.end(), rng_);
    return braced(members);
  }

  // An array holding `fields` at the elements their next steps number (a step
  // that is no number goes anywhere: it cannot be found in an array), the
  // other elements decoys or other values.
  std::string array(const std::vector<Placement>& fields) {
    const std::vector<Group> level = groups(fields);
    std::map<size_t, const Group*> placed;  // element index -> the group there
    size_t size = 0;
    for (const Group& g : level) {
      size_t at = number_of(g.front().steps.front()).value_or(static_cast<size_t>(uniform(0, 3)));
      if (fault(15)) at = at == 0 || one_in(2) ? at + 1 : at - 1;  // one element along
      placed[at] = &g;
      size = std::max(size, at + 1);
    }
    size += static_cast<size_t>(uniform(0, 2));
    std::string out = "[" + ws();
    for (size_t i = 0; i < size; ++i) {
      const auto here = placed.find(i);
      std::string element;
      if (here != placed.end()) {
        element = fault(15) ? scalar() : subtree(*here->second);
      } else {
        element =
            one_in(2) ? subtree(level[static_cast<size_t>(uniform(0, static_cast<int>(level.size()) - 1))]) : value(2);
      }
      out += element + ws() + (i + 1 < size ? "," + ws() : "");
    }
    return out + "]";
  }

  PathFields paths_;
  bool faults_ = false;  // whether the current line has faults
};

// A random log file: lines ended by LF or CRLF, blank lines, sometimes a BOM
// and sometimes no final newline.
std::string random_buffer(LineGenerator& lines, std::mt19937_64& rng) {
  auto one_in = [&rng](int n) { return rng() % static_cast<uint64_t>(n) == 0; };
  // A BOM, two, a BOM cut short, or none.
  static const std::string kStarts[] = {"\xEF\xBB\xBF", "\xEF\xBB\xBF", "\xEF\xBB\xBF\xEF\xBB\xBF", "\xEF\xBB", "", "", ""};
  std::string out = kStarts[rng() % std::size(kStarts)];
  for (auto n = rng() % 150; n > 0; --n) {
    out += lines.line();
    out += one_in(3) ? "\r\n" : one_in(10) ? "\r\r\n" : "\n";
    if (one_in(10)) out += one_in(2) ? "\n" : "\r\n";
  }
  if (one_in(2) && !out.empty() && out.back() == '\n') {
    out.pop_back();
    if (one_in(2)) out += lines.line();
  }
  return out;
}

// The verdicts of the engine, in place and copied, and the reference.
struct Verdicts {
  logagg::LineVerdict in_place, copied, oracle;
  std::string in_place_app, copied_app, oracle_app;  // of counted lines

  bool agree() const {
    return reference::same_verdict(in_place, oracle) && reference::same_verdict(copied, oracle) &&
           in_place_app == oracle_app && copied_app == oracle_app;
  }
};

// The options a test runs with, for its messages.
std::string options_text(const logagg::Options& o) {
  std::string out = "fields " + reference::quoted(o.app_field) + ", " + reference::quoted(o.time_field) +
                    ", max_line_bytes " + std::to_string(o.max_line_bytes);
  const logagg::Options defaults;
  if (o.time_format != defaults.time_format) out += ", time format " + reference::quoted(o.time_format);
  if (!o.input_tz.empty()) out += " in " + o.input_tz;
  if (o.app_pattern != defaults.app_pattern) out += ", app pattern " + reference::quoted(o.app_pattern);
  return out;
}

class Classifier {
 public:
  explicit Classifier(const logagg::Options& options)
      : options_(options), rules_(options), parser_(logagg::Query(options).rules(), options.max_line_bytes) {}

  // `line` must be followed by `readable - line.size()` readable bytes.
  Verdicts classify(std::string_view line, size_t readable) {
    const std::string copy(line);
    Verdicts v;
    v.in_place = parser_.classify(line, readable);
    v.in_place_app = v.in_place.app;  // valid until the parser's next line
    v.copied = parser_.classify(copy, copy.size());
    v.copied_app = v.copied.app;
    v.oracle = reference::classify(line, rules_, &v.oracle_app);
    if (v.oracle.status != logagg::LineStatus::kCounted) v.oracle_app.clear();
    return v;
  }

  // Classifies a lone line the way the in-place path sees the end of a file.
  Verdicts classify(std::string_view line) {
    const std::string padded = std::string(line) + std::string(logagg::kLinePadding, '}');
    return classify(std::string_view(padded).substr(0, line.size()), padded.size());
  }

  // The verdicts of BlockParser with blocks of `block_bytes` for every line of
  // `file`, with the app ids of counted lines; `padded`: padding follows the
  // file, so blocks are read in place, else the last blocks are copied.
  std::vector<std::pair<logagg::LineVerdict, std::string>> classify_blocks(const std::string& file,
                                                                          size_t block_bytes, bool padded) {
    logagg::BlockParser blocks(logagg::Query(options_).rules(), options_.max_line_bytes, block_bytes);
    const std::string text = padded ? file + std::string(logagg::kLinePadding, '"') : file;
    std::vector<std::pair<logagg::LineVerdict, std::string>> out;
    blocks.classify_lines(std::string_view(text).substr(0, file.size()), text.size(),
                          [&](const logagg::LineVerdict& v) {
                            out.emplace_back(v, v.status == logagg::LineStatus::kCounted ? std::string(v.app) : "");
                          });
    return out;
  }

  const logagg::Options& options() const { return options_; }

 private:
  logagg::Options options_;
  reference::Rules rules_;
  logagg::LineParser parser_;
};

// BlockParser over the whole of the lines, as a file, must give each line the
// reference's verdict (`oracle`), in order, for blocks of one
// line, of a few lines, and of many, read in place and copied: block
// boundaries fall anywhere, and a bad line makes stage 1 restart around it.
void expect_same_block_verdicts(Classifier& classifier, const std::vector<std::string>& all_lines,
                                const std::vector<Verdicts>& oracle, uint64_t seed) {
  // The lines without a raw LF in them (some time formats' texts have one),
  // as a file. A CR before a LF is not part of the line: the reference judges
  // the line without it, as the engine sees it.
  std::vector<std::string> lines;
  std::vector<Verdicts> want;
  std::string file;
  for (size_t i = 0; i < all_lines.size(); ++i) {
    const std::string& line = all_lines[i];
    if (line.find('\n') != std::string::npos) continue;
    lines.push_back(line);
    file += line + "\n";
    want.push_back(!line.empty() && line.back() == '\r'
                       ? classifier.classify(std::string_view(line).substr(0, line.size() - 1))
                       : oracle[i]);
  }
  std::mt19937_64 rng(seed);
  const size_t random_size = std::uniform_int_distribution<size_t>(1, 20000)(rng);
  for (const size_t block_bytes : {size_t{1}, size_t{700}, random_size, size_t{1} << 16}) {
    for (const bool padded : {false, true}) {
      const auto got = classifier.classify_blocks(file, block_bytes, padded);
      ASSERT_EQ(got.size(), lines.size()) << "block_bytes " << block_bytes;
      for (size_t i = 0; i < lines.size(); ++i) {
        if (!reference::same_verdict(got[i].first, want[i].oracle) || got[i].second != want[i].oracle_app) {
          ADD_FAILURE() << "block_bytes " << block_bytes << (padded ? ", in place" : ", copied") << ", line "
                        << i << " " << reference::quoted(lines[i]) << ": blocks "
                        << reference::describe(got[i].first) << " app " << reference::quoted(got[i].second)
                        << ", reference " << reference::describe(want[i].oracle) << " app "
                        << reference::quoted(want[i].oracle_app) << " ("
                        << options_text(classifier.options()) << ")";
          return;
        }
      }
    }
  }
}

std::string report(Classifier& classifier, const std::string& line) {
  const std::string small = reference::shrink(
      line, [&](const std::string& candidate) { return !classifier.classify(candidate).agree(); });
  const Verdicts v = classifier.classify(small);
  return "line " + reference::quoted(small) + ": engine in place " +
         reference::describe(v.in_place) + " app " + reference::quoted(v.in_place_app) + ", engine copied " +
         reference::describe(v.copied) + " app " + reference::quoted(v.copied_app) + ", reference " +
         reference::describe(v.oracle) + " app " + reference::quoted(v.oracle_app) + " (" +
         options_text(classifier.options()) + "; shrunk from " + reference::quoted(line) + ")";
}

class differential : public testing::TestWithParam<uint64_t> {
 protected:
  const Fields& fields() const { return kFieldSets[GetParam() % std::size(kFieldSets)]; }
};

// Classifies 2000 lines of `generator` one at a time, each read from a buffer
// that holds the rest of the file after it, as the engine reads a mapped
// file; fails on the first disagreement, shrunk.
void expect_same_verdicts(LineGenerator& generator, Classifier& classifier) {
  std::vector<std::string> lines;
  std::string file;
  for (int i = 0; i < 2000; ++i) {
    lines.push_back(generator.line());
    file += lines.back() + "\n";
  }
  size_t at = 0;
  uint64_t counted = 0;
  std::vector<Verdicts> verdicts;
  for (const std::string& line : lines) {
    const Verdicts v =
        classifier.classify(std::string_view(file).substr(at, line.size()), file.size() - at);
    at += line.size() + 1;
    counted += v.oracle.status == logagg::LineStatus::kCounted;
    if (!v.agree()) {
      ADD_FAILURE() << report(classifier, line);
      return;
    }
    verdicts.push_back(v);
  }
  // A generator that stopped producing countable lines would prove little.
  EXPECT_GT(counted, 100u);
  expect_same_block_verdicts(classifier, lines, verdicts, counted);
}

TEST_P(differential, ClassifyMatchesReference) {
  LineGenerator generator(GetParam(), fields());
  Classifier classifier(options_of(fields()));
  expect_same_verdicts(generator, classifier);
}

std::vector<logagg::SecondCount> as_counts(const std::map<int64_t, uint64_t>& counts) {
  std::vector<logagg::SecondCount> out;
  for (const auto& [second, count] : counts) out.push_back({second, count});
  return out;
}

// Whether the engine's result for a buffer is the reference's.
testing::AssertionResult same_result(const logagg::Result& got, const reference::Aggregate& want,
                                     size_t bytes, bool by_app) {
  std::ostringstream diff;
  const logagg::Summary& s = got.summary;
  if (got.counts != as_counts(want.counts)) diff << " counts differ;";
  if (by_app) {
    std::map<std::pair<int64_t, std::string>, uint64_t> apps;
    for (const logagg::AppCount& c : got.app_counts) apps[{c.second, got.apps.at(c.app)}] += c.count;
    if (apps != want.app_counts) diff << " counts per app differ;";
    if (!std::is_sorted(got.apps.begin(), got.apps.end())) diff << " apps not in name order;";
  } else if (!got.apps.empty() || !got.app_counts.empty()) {
    diff << " counts per app without by_app;";
  }
  if (s.lines != want.lines) diff << " lines " << s.lines << " != " << want.lines << ";";
  if (s.counted != want.counted) diff << " counted " << s.counted << " != " << want.counted << ";";
  if (s.blank != want.blank) diff << " blank " << s.blank << " != " << want.blank << ";";
  for (size_t r = 0; r < logagg::kReasonCount; ++r) {
    if (s.rejected[r] != want.rejected[r]) {
      diff << " "
           << reference::describe(logagg::LineVerdict::rejected(static_cast<logagg::Reason>(r)))
           << " " << s.rejected[r] << " != " << want.rejected[r] << ";";
    }
  }
  if (s.files != 1) diff << " files " << s.files << " != 1;";
  if (s.bytes != bytes) diff << " bytes " << s.bytes << " != " << bytes << ";";
  if (!got.errors.empty()) diff << " errors: " << got.errors.front().message << ";";
  if (diff.str().empty()) return testing::AssertionSuccess();
  return testing::AssertionFailure() << "engine vs reference:" << diff.str();
}

struct Run {
  unsigned threads;
  size_t segment_bytes;
  bool by_app;
};

std::vector<Run> all_runs() {
  std::vector<Run> runs;
  for (unsigned threads : {1u, 2u, 3u, 8u}) {
    for (size_t segment_bytes : {size_t{1}, size_t{7}, size_t{64}, size_t{4096}}) {
      runs.push_back({threads, segment_bytes, segment_bytes % 2 == 1});  // by app in half of them
    }
  }
  return runs;
}

// Checks aggregate_buffer against the reference for every thread count and
// segment size, with the fields, limit, time format and pattern of `base`; on
// a mismatch, reports the smallest buffer that still differs.
void expect_same_aggregate(const std::string& data, const logagg::Options& base) {
  const reference::Rules rules(base);
  const reference::Aggregate want = reference::aggregate_buffer(data, rules);
  for (const Run& run : all_runs()) {
    logagg::Options options = base;
    options.threads = run.threads;
    options.segment_bytes = run.segment_bytes;
    options.by_app = run.by_app;
    auto check = [&](const std::string& buffer) {
      return same_result(logagg::aggregate_buffer(buffer, options), reference::aggregate_buffer(buffer, rules),
                         buffer.size(), run.by_app);
    };
    const testing::AssertionResult same =
        same_result(logagg::aggregate_buffer(data, options), want, data.size(), run.by_app);
    if (!same) {
      const std::string small =
          reference::shrink(data, [&](const std::string& b) { return !check(b); });
      ADD_FAILURE() << "threads " << run.threads << ", segment_bytes " << run.segment_bytes
                    << ", by_app " << run.by_app << ", " << options_text(base) << ": " << same.message()
                    << "\n  smallest differing buffer " << reference::quoted(small) << ": "
                    << check(small).message();
      return;
    }
  }
}

// Four random buffers, from the wide and the narrow generator in turn,
// through aggregate_buffer and the reference (expect_same_aggregate); under a
// sanitizer the first two, one of each (as testing::seeds, for the same
// reason: it looks for memory and thread errors, on every run of all_runs()).
void expect_same_aggregates(LineGenerator& wide, LineGenerator& narrow, uint64_t seed,
                            const logagg::Options& options) {
  std::mt19937_64 rng(seed);
  const int buffers = logagg::testing::kSanitized ? 2 : 4;
  for (int i = 0; i < buffers && !testing::Test::HasFailure(); ++i) {
    expect_same_aggregate(random_buffer(i % 2 == 0 ? wide : narrow, rng), options);
  }
}

TEST_P(differential, AggregateBufferMatchesReference) {
  LineGenerator wide(GetParam(), fields()), narrow(GetParam(), fields(), /*narrow=*/true);
  expect_same_aggregates(wide, narrow, GetParam(), options_of(fields()));
}

INSTANTIATE_TEST_SUITE_P(Seeds, differential,
                         testing::Range<uint64_t>(0, logagg::testing::seeds(60, 4 * std::size(kFieldSets))));

// The same with the fields at JSON Pointer paths (NestedLineGenerator), a
// field set per seed.
class differential_pointers : public testing::TestWithParam<uint64_t> {
 protected:
  const PathFields& paths() const { return kPathFieldSets[GetParam() % std::size(kPathFieldSets)]; }
};

TEST_P(differential_pointers, ClassifyMatchesReference) {
  NestedLineGenerator generator(GetParam(), paths());
  Classifier classifier(options_of(paths().options()));
  expect_same_verdicts(generator, classifier);
}

TEST_P(differential_pointers, AggregateBufferMatchesReference) {
  NestedLineGenerator wide(GetParam(), paths()), narrow(GetParam(), paths(), /*narrow=*/true);
  expect_same_aggregates(wide, narrow, GetParam(), options_of(paths().options()));
}

INSTANTIATE_TEST_SUITE_P(Seeds, differential_pointers,
                         testing::Range<uint64_t>(0, logagg::testing::seeds(42, std::size(kPathFieldSets))));

// Every time format with every app pattern, with top-level fields (even seeds,
// kFieldSets) and with pointers (odd seeds, kPathFieldSets): seed s is format
// s % 9 and pattern (s / 9) % 4, so every 36 seeds run each of the 36 pairs
// once.
class differential_shapes : public testing::TestWithParam<uint64_t> {
 protected:
  differential_shapes()
      : shape_{&kTimeShapes[GetParam() % std::size(kTimeShapes)],
               &kAppShapes[(GetParam() / std::size(kTimeShapes)) % std::size(kAppShapes)]} {}

  bool pointers() const { return GetParam() % 2 == 1; }
  const Fields& fields() const { return kFieldSets[GetParam() / 2 % std::size(kFieldSets)]; }
  const PathFields& paths() const { return kPathFieldSets[GetParam() / 2 % std::size(kPathFieldSets)]; }
  logagg::Options options() const { return shape_.applied(options_of(pointers() ? paths().options() : fields())); }

  std::unique_ptr<LineGenerator> generator(bool narrow) const {
    if (pointers()) return std::make_unique<NestedLineGenerator>(GetParam(), paths(), narrow, &shape_);
    return std::make_unique<LineGenerator>(GetParam(), fields(), narrow, &shape_);
  }

  Shape shape_;
};

TEST_P(differential_shapes, ClassifyMatchesReference) {
  Classifier classifier(options());
  expect_same_verdicts(*generator(false), classifier);
}

TEST_P(differential_shapes, AggregateBufferMatchesReference) {
  expect_same_aggregates(*generator(false), *generator(true), GetParam(), options());
}

INSTANTIATE_TEST_SUITE_P(Seeds, differential_shapes,
                         testing::Range<uint64_t>(0, logagg::testing::seeds(54, std::size(kTimeShapes) *
                                                                                    std::size(kAppShapes))));

// Buffer edges, pinned and compared: BOMs, line ends, the last line.
TEST(differential_buffers, EdgesOfTheFile) {
  const std::string line = R"({"app_id":"web1","timestamp":"2021-06-15T12:34:56Z"})";
  const std::string bom = "\xEF\xBB\xBF";
  const struct {
    std::string data;
    uint64_t lines, counted, blank;
  } kCases[] = {
      {"", 0, 0, 0},
      {bom, 0, 0, 0},
      {bom + "\n", 1, 0, 1},
      {"\n", 1, 0, 1},
      {"\r\n", 1, 0, 1},
      {"\r", 1, 0, 1},
      {"\n\n\r\n", 3, 0, 3},
      {line, 1, 1, 0},
      {bom + line, 1, 1, 0},
      {line + "\r\n" + line + "\n", 2, 2, 0},
      {line + "\r\r\n" + line + "\r", 2, 2, 0},
      {line + "\n\n" + line, 3, 2, 1},
      {"\n" + bom + line, 2, 0, 1},  // a BOM is only skipped at the start
      {bom + bom + line, 1, 0, 0},
      {"\xEF\xBB" + line, 1, 0, 0},
      {line + "\n" + line.substr(0, 20), 2, 1, 0},
  };
  for (const auto& c : kCases) {
    SCOPED_TRACE(reference::quoted(c.data));
    const reference::Aggregate want =
        reference::aggregate_buffer(c.data, "app_id", "timestamp", size_t{1} << 20);
    EXPECT_EQ(want.lines, c.lines);
    EXPECT_EQ(want.counted, c.counted);
    EXPECT_EQ(want.blank, c.blank);
    expect_same_aggregate(c.data, options_of({U"app_id", U"timestamp", size_t{1} << 20}));
  }
}

// The line length limit counts the bytes before LF, without the one dropped CR.
TEST(differential_buffers, LineLengthLimitExcludesTheLineEnd) {
  const std::string line = R"({"app_id":"web1","timestamp":"2021-06-15T12:34:56Z"})";
  const std::string data = line + "\n" + line + "\r\n" + line + " \n" + line + "\r\r\n" + line;
  const reference::Aggregate want =
      reference::aggregate_buffer(data, "app_id", "timestamp", line.size());
  EXPECT_EQ(want.counted, 3u);
  EXPECT_EQ(want.rejected[static_cast<size_t>(logagg::Reason::kLineTooLong)], 2u);
  expect_same_aggregate(data, options_of({U"app_id", U"timestamp", line.size()}));

  // Without a LF after it, a final CR is part of the line.
  const std::string last_cr = line + "\r";
  EXPECT_EQ(reference::aggregate_buffer(last_cr, "app_id", "timestamp", line.size())
                .rejected[static_cast<size_t>(logagg::Reason::kLineTooLong)],
            1u);
  expect_same_aggregate(last_cr, options_of({U"app_id", U"timestamp", line.size()}));
}

}  // namespace
