// The block parser (BlockParser of line_parser.h): stage 1 over a run of lines, then a walk
// of each line's structural indexes.
//
// What stage 1's success over a run of lines proves, and the walk relies on:
// every byte of it is valid UTF-8, no string holds a raw control character
// and every string is closed. A raw LF inside a string is a control
// character, so no string crosses a line, and every token of a line lies
// within it. Stage 1 indexes each '{' '}' '[' ']' ':' ',', each string's
// opening quote and the first byte of every other token, so between two
// indexes there is one token and then only whitespace: a string's closing
// quote is the last non-blank byte before the next index, and a number or
// literal runs up to it.
#include "parse/line_parser.h"

#include <simdjson.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "parse/dotted_names.h"
#include "parse/field_targets.h"
#include "parse/line_keys.h"
#include "text/json_tokens.h"
#include "text/ascii.h"
#include "text/lf_mask.h"
#include "text/lines.h"

namespace logagg {
namespace {

// A line of the block, by offsets from the block's start.
struct Line {
  size_t begin;
  size_t end;    // without its LF, and without one CR before it
  size_t next;   // where the next line starts (after the LF)
  size_t first;  // walk: where its first non-blank byte, a '{', is
  size_t close;  // walk: where its last non-blank byte, a '}', is
  bool walk;     // shaped like an object and not too long: the walk takes it, else LineParser
};

// A container the walk is in.
struct Level {
  bool object;
  unsigned mask;     // the targets whose paths go on inside this container
  unsigned matched;  // of those, the ones whose step (a key) it has had
  size_t depth;      // the step of their paths its keys or indexes are
  size_t index;      // an array's current element
};

// How far ahead of the line search the text is prefetched (Impl::find_lines).
constexpr size_t kPrefetchBytes = size_t{8} << 10;

// A run of lines stage 1 refuses that is this short goes to LineParser line
// by line instead of being halved again.
constexpr size_t kFewLines = 4;

// The text of a number or literal token, checked. Padding follows every token
// (8 bytes may be read from any byte of it). Numbers with at most 7 digits
// before and after a '.' and no exponent, the most of them in logs, are
// checked by leading_digits(), which tell a field's (`seen`) digits before
// and after its point (FieldSeen::short_number); the rest by is_json_number().
[[gnu::always_inline]] inline bool is_scalar(std::string_view text, FieldSeen* seen = nullptr) {
  static_assert(std::endian::native == std::endian::little, "leading_digits() counts from the low byte");
  switch (text[0]) {
    case 't':
      return text == "true";
    case 'f':
      return text == "false";
    case 'n':
      return text == "null";
    default:
      break;
  }
  const char* p = text.data();
  const size_t sign = p[0] == '-';
  const size_t digits = leading_digits(p + sign);
  if (digits < 8) {
    const size_t int_end = sign + digits;
    const bool int_ok = digits != 0 && (p[sign] != '0' || digits == 1);
    const auto measured = [&](size_t fraction) {
      seen->is_short = true;
      seen->int_digits = static_cast<uint8_t>(digits);
      seen->frac_digits = static_cast<uint8_t>(fraction);
    };
    if (int_end == text.size()) {
      if (seen != nullptr && int_ok) measured(0);
      return int_ok;
    }
    if (p[int_end] == '.') {
      const size_t fraction = leading_digits(p + int_end + 1);
      if (fraction < 8 && int_end + 1 + fraction == text.size()) {
        const bool ok = int_ok && fraction != 0;
        if (seen != nullptr && ok) measured(fraction);
        return ok;
      }
    }
  }
  return is_json_number(text);
}

// A field's name, kept with 8 zero bytes after it so that is_name() may
// compare 8 bytes at a time.
struct Name {
  explicit Name(const std::string& name) : size(name.size()), bytes(name + std::string(8, '\0')) {}
  Name() : size(SIZE_MAX), bytes(8, '\0') {}  // a name no key has (the app field of --app-field none)
  size_t size;
  std::string bytes;
};

inline uint64_t load8(const char* p) {
  uint64_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// Whether a key's text is `name`. The key may be read 8 bytes past its end
// (it is in a padded block or buffer). Most keys differ in length.
[[gnu::always_inline]] inline bool is_name(const Name& name, std::string_view key) {
  const size_t n = key.size();
  if (n != name.size) return false;
  const char* a = name.bytes.data();
  const char* b = key.data();
  if (n < 8) {
    const uint64_t mask = n == 0 ? 0 : ~uint64_t{0} >> (64 - 8 * n);
    return ((load8(a) ^ load8(b)) & mask) == 0;
  }
  if (n <= 16) return load8(a) == load8(b) && load8(a + n - 8) == load8(b + n - 8);
  return std::memcmp(a, b, n) == 0;
}

// A key's length and first byte folded into 0..63: two keys of another shape
// differ. An empty key's text ends at its closing quote, the byte read for
// it (a key is in a padded block or buffer).
inline unsigned shape_of(std::string_view key) {
  return static_cast<unsigned>(key.size() * 7 + static_cast<uint8_t>(*key.data())) & 63;
}

// The shape of the keys that are `name`: an empty name's is that of an empty
// key, whose byte read is the quote that closes it.
inline unsigned shape_of(const Name& name) {
  return shape_of(name.size == 0 ? std::string_view("\"", 0) : std::string_view(name.bytes.data(), name.size));
}

// The line that starts at src[p] and ends at src[end_at], which is its LF if
// `lf`, else the end of the text: without that LF and one CR before it.
[[gnu::always_inline]] inline Line line_at(const char* src, size_t p, size_t end_at, bool lf, size_t max_line_bytes) {
  const size_t next = lf ? end_at + 1 : end_at;
  size_t end = end_at;
  if (lf && end > p && src[end - 1] == '\r') --end;
  size_t first = p, last = end;
  while (first < last && is_json_space(src[first])) ++first;
  while (last > first && is_json_space(src[last - 1])) --last;
  const bool walk = first < last && src[first] == '{' && src[last - 1] == '}' && end - p <= max_line_bytes;
  return {p, end, next, first, last - 1, walk};
}

}  // namespace

struct BlockParser::Impl {
  LineParser reference;              // for the lines the block path does not take
  FieldTarget targets[kMaxTargets];  // kApp, kTime, then the fields of --by and --where
  size_t n_targets;
  AppPattern app_pattern;
  TimeFormat time_format;
  bool time_numbers;  // the time format reads JSON numbers too
  size_t max_line_bytes;
  size_t block_bytes;
  std::unique_ptr<simdjson::internal::dom_parser_implementation> stage1;
  std::vector<char> copy;  // a block without readable padding after it, padded
  std::vector<Line> lines;
  // Unescaped strings: the app id and the time of the current line, and the
  // keys and strings that are only checked. Each holds a block and padding.
  std::vector<char> app_text, time_text, scratch;
  std::vector<std::vector<char>> extra_text;  // the same for each field of --by and --where
  std::vector<Level> stack;                   // the containers walk_container() is in
  // The first step of each target's path (the key of the line's object it
  // starts at; the app's none with --app-field none), the targets whose first
  // step has each shape (most keys' shape has none: one test for all the
  // names, and then mostly one name to compare), and whether each path goes
  // deeper.
  Name names[kMaxTargets];
  unsigned shape_targets[64] = {};
  unsigned deeper = 0;
  bool has_app;                    // false with --app-field none
  std::optional<LineKeys> keys;    // --by, --where
  NestedRetry<BlockParser> retry;  // a line missing a dotted field, again with its nested path
  // Whether stage 1 indexes each line of a block as it would the line alone:
  // true of simdjson's SIMD kernels, whose string scan stops at every raw
  // control character; its fallback kernel (a CPU without one) skips the byte
  // after a backslash unchecked, so a string ending in a backslash reaches
  // into the next line. There every line goes to LineParser.
  bool block_path;

  // The text being classified, and where in it the current block starts.
  std::string_view text;
  size_t readable = 0;
  size_t block_begin = 0;

  // find_lines with the LF masks of lf_mask.h: AVX2's where the CPU has it.
  void find_lines(const char* src, size_t len);
  LOGAGG_TARGET_AVX2 void find_lines_avx2(const char* src, size_t len);
  template <uint64_t (*kLfMask)(const char*) noexcept>
  [[gnu::always_inline]] void find_lines_with(const char* src, size_t len);
  bool avx2 = cpu_has_avx2();

  Impl(const LineRules& rules, size_t max_bytes, size_t block)
      : reference(rules, max_bytes),
        n_targets(2 + rules.keys.fields.size()),
        app_pattern(rules.app_pattern),
        time_format(rules.time_format),
        time_numbers(rules.time_format.numeric()),
        max_line_bytes(max_bytes),
        block_bytes(block),
        has_app(rules.has_app),
        retry(rules, max_bytes),
        block_path(std::string_view(simdjson::get_active_implementation()->name()) != "fallback") {
    targets[kApp] = FieldTarget(rules.app);
    targets[kTime] = FieldTarget(rules.time);
    for (size_t t = 2; t < n_targets; ++t) targets[t] = FieldTarget(rules.keys.fields[t - 2]);
    for (size_t t = 0; t < n_targets; ++t) {
      if (t == kApp && !has_app) continue;  // names[kApp] stays none
      names[t] = Name(targets[t].path.steps.front());
      shape_targets[shape_of(names[t])] |= 1u << t;
    }
    for (size_t t = 0; t < n_targets; ++t) deeper |= targets[t].path.steps.size() > 1 ? 1u << t : 0u;
    if (!has_app) deeper &= ~(1u << kApp);
    if (rules.keys.active()) keys.emplace(rules.keys);
    if (simdjson::get_active_implementation()->create_dom_parser_implementation(
            block_bytes, simdjson::DEFAULT_MAX_DEPTH, stage1) != simdjson::SUCCESS) {
      throw std::bad_alloc();
    }
    const size_t padded = block_bytes + 2 * simdjson::SIMDJSON_PADDING;
    copy.resize(padded);
    app_text.resize(padded);
    time_text.resize(padded);
    scratch.resize(padded);
    extra_text.assign(n_targets - 2, std::vector<char>(padded));
  }

  // The buffer a field's unescaped string goes to.
  char* text_buffer(const FieldSeen* seen) {
    if (seen == &targets[kApp].seen) return app_text.data();
    if (seen == &targets[kTime].seen) return time_text.data();
    size_t t = 2;
    while (&targets[t].seen != seen) ++t;
    return extra_text[t - 2].data();
  }

  // The verdict of a line whose walk passed, from what it found. Each path
  // makes its verdict in the one it returns: a verdict made in a variable
  // of its own and then copied was read back in 16-byte halves that the
  // stores of its smaller members could not forward, a stall on every line
  // with --by, --where or measures (docs/bench-notes/2026-12-06-fields-and-cells.md).
  // An app id lies in the block (padded past its run), the copy of it or
  // app_text (padded as the copy), so field_verdict may read past it.
  static_assert(AppPattern::kMatchPadding <= simdjson::SIMDJSON_PADDING);
  LineVerdict verdict() {
    if (!keys && has_app) [[likely]] {
      return field_verdict<true>(&targets[kApp].seen, targets[kTime].seen, app_pattern, time_format);
    }
    return keyed_verdict();
  }
  LineVerdict keyed_verdict() {
    LineVerdict v =
        field_verdict<true>(has_app ? &targets[kApp].seen : nullptr, targets[kTime].seen, app_pattern, time_format);
    if (keys && v.status == LineStatus::kCounted) keys->apply(v, targets);
    return v;
  }

  // Classifies `line` again, with a dotted field's nested path, if its
  // verdict `v` says that field is missing (dotted_names.h); false if `v`
  // stands. Kept out of the walk's loop, which it would otherwise grow past
  // inlining the walk.
  [[gnu::noinline]] bool retried(const Line& line, const LineVerdict& v,
                                 absl::FunctionRef<void(const LineVerdict&)> emit) {
    BlockParser* nested = retry.parser_for(v);
    if (nested == nullptr) return false;
    const size_t at = block_begin + line.begin;
    nested->classify_lines(text.substr(at, line.end - line.begin), readable - at, emit);
    return true;
  }

  // LineParser's verdict of a line of the block.
  LineVerdict refer(const Line& line) {
    const size_t at = block_begin + line.begin;
    return reference.classify(text.substr(at, line.end - line.begin), readable - at);
  }

  // Unescapes the string whose opening quote is at `open` into `out`; false
  // for an invalid escape. Its length goes to `len`.
  bool unescape(const char* open, char* out, size_t& len) const {
    const uint8_t* end =
        stage1->parse_string(reinterpret_cast<const uint8_t*>(open + 1), reinterpret_cast<uint8_t*>(out));
    if (end == nullptr) return false;
    len = static_cast<size_t>(reinterpret_cast<const char*>(end) - out);
    return true;
  }

  void classify_block(size_t end, absl::FunctionRef<void(const LineVerdict&)> emit);
  void classify_run(const char* block, size_t a, size_t b, absl::FunctionRef<void(const LineVerdict&)> emit);
  void walk_run(const char* run, size_t shift, size_t a, size_t b, absl::FunctionRef<void(const LineVerdict&)> emit);
  // Inline in walk_run: GCC's estimate of its size, which counts code its
  // instantiations compile away, left the plain walk a call of its own
  // (docs/bench-notes/2026-12-07-numbers-counted-once.md).
  template <bool kEscapes, bool kExtras>
  [[gnu::always_inline]] bool walk_line(const char* b, const uint32_t* idx, size_t& t, const Line& line, size_t shift);
  size_t walk_container(const char* b, const uint32_t* idx, size_t i, unsigned mask, size_t close, bool escapes);
  [[gnu::always_inline]] bool string_text(const char* b, const uint32_t* idx, size_t i, bool escapes, char* out,
                                          std::string_view& text) const;
  [[gnu::always_inline]] bool string_value(const char* b, const uint32_t* idx, size_t i, bool escapes, FieldSeen* seen);
  template <bool kRead>
  [[gnu::always_inline]] bool scalar_value(const char* b, const uint32_t* idx, size_t i, FieldSeen* seen);
};

// The text of the string token i, unescaped into `out` if it has escapes
// (`escapes`: the line has a backslash somewhere); false for an invalid
// escape. Its closing quote is the last non-blank byte before the next index.
inline bool BlockParser::Impl::string_text(const char* b, const uint32_t* idx, size_t i, bool escapes, char* out,
                                           std::string_view& text) const {
  const char* open = b + idx[i];
  const char* close = b + idx[i + 1] - 1;
  if (*close != '"' || close == open) [[unlikely]] {  // blanks before the next token
    while (close > open && *close != '"') --close;
    if (close == open) return false;  // not after stage 1 passed the line
  }
  text = std::string_view(open + 1, static_cast<size_t>(close - open - 1));
  if (!escapes || !has_backslash(text)) return true;
  size_t len;
  if (!unescape(open, out, len)) return false;
  text = std::string_view(out, len);
  return true;
}

// Checks the string value at token i. The field's own value (`seen`, met
// for the first time) keeps its text, unescaped into its own buffer.
inline bool BlockParser::Impl::string_value(const char* b, const uint32_t* idx, size_t i, bool escapes,
                                            FieldSeen* seen) {
  std::string_view text;
  if (seen == nullptr) return !escapes || string_text(b, idx, i, escapes, scratch.data(), text);
  seen->is_string = true;
  return string_text(b, idx, i, escapes, text_buffer(seen), seen->text);
}

// Checks the number or literal at token i (or whatever else starts there).
// The time field's number, where the time format reads numbers, gives its
// second in the same pass; another field's number, where kRead (a field of
// --by, --where or a measure may be one), is measured in that pass too.
template <bool kRead>
inline bool BlockParser::Impl::scalar_value(const char* b, const uint32_t* idx, size_t i, FieldSeen* seen) {
  const char c = b[idx[i]];
  const std::string_view token = trim_trailing_space(std::string_view(b + idx[i], idx[i + 1] - idx[i]));
  if (seen != nullptr) [[unlikely]] {
    if (seen == &targets[kTime].seen && time_numbers && (c == '-' || is_digit(c))) {
      bool is_number;
      seen->second = time_format.number_second(token, is_number, &seen->form);
      seen->is_number = true;
      seen->text = token;
      return is_number;
    }
    seen->is_scalar = true;  // kept as its token
    seen->text = token;
    return is_scalar(token, kRead ? seen : nullptr);
  }
  return is_scalar(token);
}

// Walks the tokens of one line that starts with '{' (in `b`, whose structural
// indexes are `idx`, ended by sentinels past every line), from token t on,
// checking its grammar and recording the fields in targets[].seen; true if
// it is valid, with t at the first token past it. The keys of the line's
// object are compared with the first steps of the fields' paths; a container
// is walked by walk_container(), with the targets whose paths go deeper into
// it. Stage 1 passed the line and its last non-blank byte is
// the '}' at line.close, so each token read is on the line until that '}' is
// read: the object must end there, and nothing else may. kEscapes: the line
// has a backslash somewhere (its strings may hold escapes). kExtras: fields
// of --by or --where are looked for besides the app and time fields.
template <bool kEscapes, bool kExtras>
inline bool BlockParser::Impl::walk_line(const char* b, const uint32_t* idx, size_t& t, const Line& line,
                                         size_t shift) {
  constexpr bool escapes = kEscapes;
  const size_t close = line.close - shift;
  for (size_t target = 0; target < (kExtras ? n_targets : 2); ++target) targets[target].seen.reset();
  FieldSeen& app = targets[kApp].seen;
  FieldSeen& time = targets[kTime].seen;
  unsigned matched = 0;  // the targets whose first step the object has had
  size_t i = t + 1;      // after the '{'
  if (b[idx[i]] != '}') {
    for (;;) {
      std::string_view key;
      if (b[idx[i]] != '"' || b[idx[i + 1]] != ':' || !string_text(b, idx, i, escapes, scratch.data(), key)) {
        return false;
      }
      unsigned hit = 0;
      if constexpr (kExtras) {
        for (unsigned c = shape_targets[shape_of(key)]; c != 0; c &= c - 1) {
          const int target = std::countr_zero(c);
          hit |= is_name(names[target], key) ? 1u << target : 0u;
        }
      } else {  // two names: their lengths tell most keys apart
        hit = (is_name(names[kApp], key) ? 1u << kApp : 0u) | (is_name(names[kTime], key) ? 1u << kTime : 0u);
      }
      FieldSeen* seen = nullptr;  // the field itself, met for the first time
      if (hit != 0) [[unlikely]] {
        for (unsigned twice = hit & matched; twice != 0; twice &= twice - 1) {
          targets[std::countr_zero(twice)].seen.step_twice = true;
        }
        matched |= hit;
        if ((hit & deeper) == 0) {  // paths do not overlap: one target, its last step
          if constexpr (kExtras) {
            seen = &targets[std::countr_zero(hit)].seen;
          } else {
            seen = hit == 1u << kApp ? &app : &time;
          }
          if (++seen->count > 1) seen = nullptr;  // a duplicate: only checked
        }
      }
      i += 2;
      switch (b[idx[i]]) {
        case '"':
          if (!string_value(b, idx, i, escapes, seen)) return false;
          ++i;
          break;
        case '{':
        case '[':
          i = walk_container(b, idx, i, (hit & deeper) != 0 ? hit : 0, close, escapes);
          if (i == 0) return false;
          break;
        default:
          if (!scalar_value<kExtras>(b, idx, i, seen)) return false;
          ++i;
          break;
      }
      if (b[idx[i]] != ',') break;
      ++i;
    }
  }
  if (b[idx[i]] != '}' || idx[i] != close) return false;
  t = i + 1;
  return true;
}

// Walks the container at token i ('{' or '['), a value of the line's object,
// checking it and all it holds completely: the walk of its tokens with a
// stack of containers and path steps. It is a value on the paths of the
// targets in `mask` (its keys or indexes their second steps), whose fields
// it records in targets[].seen; with no target (mask 0) it is the plain
// check of a container no field is inside. Returns the token after the
// container, or 0 if it is invalid or closes at `close`, the line's last
// '}': the line would be invalid then anyway (its object would have to end
// past its last byte), and stopping there keeps the walk on the line's
// tokens (every token before that '}' is on it).
size_t BlockParser::Impl::walk_container(const char* b, const uint32_t* idx, size_t i, unsigned mask, size_t close,
                                         bool escapes) {
  stack.clear();
  const bool is_object = b[idx[i]] == '{';
  stack.push_back({is_object, mask, 0, 1, 0});
  ++i;
  unsigned hit = 0;  // the targets whose step the current value is
  size_t depth = 0;  // which step
  std::string_view text;
  if (!is_object) goto array_first;

  // The states of the walk, as labels: after '{' or ',' in an object (a key),
  // after '[' or ',' in an array (an element), a value, after a value, and
  // at the token that closes the container on top of the stack.
object_first:
  if (b[idx[i]] == '}') goto close;
key:
  if (b[idx[i]] != '"' || b[idx[i + 1]] != ':' || !string_text(b, idx, i, escapes, scratch.data(), text)) {
    return 0;
  }
  {
    Level& level = stack.back();
    hit = 0;
    if (level.mask != 0) {
      for (unsigned m = level.mask; m != 0; m &= m - 1) {
        const int target = std::countr_zero(m);
        if (targets[target].path.steps[level.depth] == text) hit |= 1u << target;
      }
      for (unsigned twice = hit & level.matched; twice != 0; twice &= twice - 1) {
        targets[std::countr_zero(twice)].seen.step_twice = true;
      }
      level.matched |= hit;
    }
    depth = level.depth;
  }
  i += 2;
  goto value;

array_first:
  if (b[idx[i]] == ']') goto close;
element : {
  const Level& level = stack.back();
  hit = 0;
  for (unsigned m = level.mask; m != 0; m &= m - 1) {
    const int target = std::countr_zero(m);
    if (targets[target].indexes[level.depth] == level.index) hit |= 1u << target;
  }
  depth = level.depth;
}

value : {
  // The field itself (its path ends here) or a container on its way.
  FieldSeen* seen = nullptr;
  unsigned inside = 0;
  if (hit != 0) {
    const int first = std::countr_zero(hit);
    if (targets[first].last_step(depth)) {
      seen = &targets[first].seen;
      if (++seen->count > 1) seen = nullptr;  // a duplicate: only checked
    } else {
      inside = hit;
    }
  }
  const char c = b[idx[i]];
  switch (c) {
    case '{':
    case '[':
      stack.push_back({c == '{', inside, 0, depth + 1, 0});
      ++i;
      if (c == '{') goto object_first;
      goto array_first;
    case '"':
      if (!string_value(b, idx, i, escapes, seen)) return 0;
      break;
    default:
      if (!scalar_value<true>(b, idx, i, seen)) return 0;
      break;
  }
  ++i;
}

after : {  // a value ended, in the container on top of the stack
  Level& level = stack.back();
  const char c = b[idx[i]];
  if (c == ',') {
    ++i;
    if (level.object) goto key;
    ++level.index;
    goto element;
  }
  if (c != (level.object ? '}' : ']')) return 0;
}
close:
  if (idx[i] == close) return 0;
  ++i;
  stack.pop_back();
  if (!stack.empty()) goto after;
  return i;
}

// Walks lines [a, b) of the block, which stage 1 has just indexed as one run
// starting at `run` (the block's byte `shift`).
void BlockParser::Impl::walk_run(const char* run, size_t shift, size_t a, size_t b,
                                 absl::FunctionRef<void(const LineVerdict&)> emit) {
  const size_t run_len = lines[b - 1].next - shift;
  uint32_t* const idx = stage1->structural_indexes.get();
  // Two sentinels past every line (the index has room for them), so that the
  // walk may look one token ahead of any token of a line.
  idx[stage1->n_structural_indexes] = idx[stage1->n_structural_indexes + 1] = static_cast<uint32_t>(run_len);
  size_t t = 0;
  // Where the first backslash at or after `from` is (run_len: none).
  const auto backslash_from = [run, run_len](size_t from) {
    const void* found = std::memchr(run + from, '\\', run_len - from);
    return found == nullptr ? run_len : static_cast<size_t>(static_cast<const char*>(found) - run);
  };
  size_t backslash = backslash_from(0);  // the next one from the current line on
  for (size_t l = a; l < b; ++l) {
    const Line& line = lines[l];
    const size_t begin = line.begin - shift, end = line.end - shift, next = line.next - shift;
    // A line that stage 1 did not index as a line of its own (see block_path).
    if (idx[t] != line.first - shift) {
      while (idx[t] < next) ++t;
      emit(refer(line));
      continue;
    }
    if (backslash < begin) backslash = backslash_from(begin);
    // A line without a backslash takes the walk compiled without the checks
    // for escapes, which runs fewer instructions
    // (docs/bench-notes/2026-12-02-line-search-and-walk.md).
    const bool valid = n_targets > 2 ? (backslash < end ? walk_line<true, true>(run, idx, t, line, shift)
                                                        : walk_line<false, true>(run, idx, t, line, shift))
                                     : (backslash < end ? walk_line<true, false>(run, idx, t, line, shift)
                                                        : walk_line<false, false>(run, idx, t, line, shift));
    if (valid) {
      const LineVerdict v = verdict();
      if (v.status != LineStatus::kRejected || !retried(line, v, emit)) [[likely]]
        emit(v);
    } else {
      while (idx[t] < next) ++t;  // the rest of the line's tokens
      emit(LineVerdict::rejected(Reason::kInvalidJson));
    }
  }
}

// Runs stage 1 over lines [a, b) of the block, all shaped like objects, then
// walks them; a run stage 1 refuses is halved until the lines it refuses are
// found.
void BlockParser::Impl::classify_run(const char* block, size_t a, size_t b,
                                     absl::FunctionRef<void(const LineVerdict&)> emit) {
  const size_t from = lines[a].begin;
  if (block_path && stage1->stage1(reinterpret_cast<const uint8_t*>(block + from), lines[b - 1].next - from,
                                   simdjson::stage1_mode::regular) == simdjson::SUCCESS) {
    walk_run(block + from, from, a, b, emit);
    return;
  }
  if (!block_path || b - a <= kFewLines) {
    for (size_t l = a; l < b; ++l) emit(refer(lines[l]));
    return;
  }
  const size_t mid = a + (b - a) / 2;
  classify_run(block, a, mid, emit);
  classify_run(block, mid, b, emit);
}

// Splits the block src[0, len) (text[block_begin, ...)) into `lines`: its LFs
// found 64 bytes at a time, in one pass over the block that also asks the
// CPU for the cache lines kPrefetchBytes ahead. The text is mapped page
// cache, whose 4 KiB pages lie anywhere in memory, so the hardware's
// prefetcher, which stops at a page's end, starts cold on every page, and
// this first pass over the block waited for it (the profiles before and
// after, and the prefetch distances tried:
// docs/bench-notes/2026-12-02-line-search-and-walk.md).
void BlockParser::Impl::find_lines(const char* src, size_t len) {
  if (avx2) {
    find_lines_avx2(src, len);
  } else {
    find_lines_with<lf_mask64>(src, len);
  }
}

void BlockParser::Impl::find_lines_avx2(const char* src, size_t len) { find_lines_with<lf_mask64_avx2>(src, len); }

template <uint64_t (*kLfMask)(const char*) noexcept>
inline void BlockParser::Impl::find_lines_with(const char* src, size_t len) {
  lines.clear();
  size_t p = 0, i = 0;  // where the next line starts; how far the LFs are found
  const auto line_ends_at = [&](size_t lf) {
    lines.push_back(line_at(src, p, lf, true, max_line_bytes));
    p = lf + 1;
  };
  // The chunks before this one have readable bytes kPrefetchBytes ahead.
  const size_t prefetch_end = readable - block_begin > kPrefetchBytes ? readable - block_begin - kPrefetchBytes : 0;
  for (; i + 64 <= len; i += 64) {
    if (i < prefetch_end) __builtin_prefetch(src + i + kPrefetchBytes);
    for (uint64_t lfs = kLfMask(src + i); lfs != 0; lfs &= lfs - 1) {
      line_ends_at(i + static_cast<size_t>(std::countr_zero(lfs)));
    }
  }
  for (; i < len; ++i) {
    if (src[i] == '\n') line_ends_at(i);
  }
  if (p < len) lines.push_back(line_at(src, p, len, false, max_line_bytes));
}

// Classifies the block text[block_begin, end).
void BlockParser::Impl::classify_block(size_t end, absl::FunctionRef<void(const LineVerdict&)> emit) {
  const char* const src = text.data() + block_begin;
  const size_t len = end - block_begin;
  if (len > block_bytes) {  // one line longer than a block: the buffers do not grow for it
    const bool lf = src[len - 1] == '\n';
    emit(refer(line_at(src, 0, lf ? len - 1 : len, lf, max_line_bytes)));
    return;
  }
  find_lines(src, len);
  // Stage 1 reads the lines in place when padding follows them, else a copy.
  const char* block = src;
  if (readable - block_begin < len + simdjson::SIMDJSON_PADDING) {
    std::memcpy(copy.data(), src, len);
    std::memset(copy.data() + len, ' ', simdjson::SIMDJSON_PADDING);
    block = copy.data();
  }
  // Lines not shaped like objects go to LineParser, and stage 1 runs over the
  // runs of lines between them: a line cut short (its '}' lost) often ends
  // inside a string, which would make stage 1 refuse the block around it.
  for (size_t a = 0; a < lines.size();) {
    if (!lines[a].walk) {
      emit(refer(lines[a++]));
      continue;
    }
    size_t b = a + 1;
    while (b < lines.size() && lines[b].walk) ++b;
    classify_run(block, a, b, emit);
    a = b;
  }
}

BlockParser::BlockParser(const LineRules& rules, size_t max_line_bytes, size_t block_bytes)
    : impl_(std::make_unique<Impl>(rules, max_line_bytes, block_bytes)) {}
BlockParser::~BlockParser() = default;
BlockParser::BlockParser(BlockParser&&) noexcept = default;
BlockParser& BlockParser::operator=(BlockParser&&) noexcept = default;

void BlockParser::classify_lines(std::string_view text, size_t readable,
                                 absl::FunctionRef<void(const LineVerdict&)> emit) {
  Impl& m = *impl_;
  m.text = text;
  m.readable = readable;
  for (size_t begin = 0; begin < text.size();) {
    // The block ends after its last LF within block_bytes, or after the first
    // LF past them if there is none (then it is one line).
    size_t end = begin + m.block_bytes;
    if (end >= text.size()) {
      end = text.size();
    } else {
      const void* lf = memrchr(text.data() + begin, '\n', end - begin);
      end =
          lf != nullptr ? static_cast<size_t>(static_cast<const char*>(lf) - text.data()) + 1 : past_next_lf(text, end);
    }
    m.block_begin = begin;
    m.classify_block(end, emit);
    begin = end;
  }
}

}  // namespace logagg
