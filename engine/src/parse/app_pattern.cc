// The app-id rule (see app_pattern.h). RE2 decides whether a pattern compiles,
// and runs it unless table_class() recognises a byte-table class. The
// recogniser reads a pattern the way RE2's parser reads a character class
// (re2/parse.cc, ParseCharClass, with RE2's default flags), for the subset it
// accepts, and gives up, leaving the pattern to RE2, on anything else.
#include "parse/app_pattern.h"

#include <re2/re2.h>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include <bitset>
#include <optional>
#include <span>
#include <stdexcept>
#include <utility>

#include "logagg/result_parts.h"

namespace logagg {
namespace {

// A class a byte table can run: its ASCII members, and whether it holds every
// non-ASCII code point too (a table class holds all of them or none).
struct TableClass {
  std::bitset<128> ascii;
  bool non_ascii = false;

  void add(int lo, int hi) {
    for (int c = lo; c <= hi; ++c) ascii.set(static_cast<size_t>(c));
  }
  void add(const TableClass& other) {
    ascii |= other.ascii;
    non_ascii = non_ascii || other.non_ascii;
  }
  TableClass complement() const {
    TableClass c;
    c.ascii = ~ascii;
    c.non_ascii = !non_ascii;
    return c;
  }
};

bool is_ascii_alnum(unsigned char c) {
  return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z');
}

// The Perl class \<letter> (\d \s \w, and \D \S \W, their complements, which
// hold \n and every non-ASCII code point, as RE2 has them), or nullopt.
std::optional<TableClass> perl_class(char letter) {
  struct Range {
    char from, to;
  };
  static constexpr Range kDigit[] = {{'0', '9'}};
  static constexpr Range kSpace[] = {{'\t', '\n'}, {'\f', '\r'}, {' ', ' '}};
  static constexpr Range kWord[] = {{'0', '9'}, {'A', 'Z'}, {'_', '_'}, {'a', 'z'}};
  std::span<const Range> ranges;
  switch (letter) {
    case 'd': case 'D': ranges = kDigit; break;
    case 's': case 'S': ranges = kSpace; break;
    case 'w': case 'W': ranges = kWord; break;
    default: return std::nullopt;
  }
  TableClass c;
  for (const Range& r : ranges) c.add(r.from, r.to);
  return letter >= 'a' ? c : c.complement();
}

// One character of a bracket class at p[i]: a literal ASCII character, an
// escaped ASCII non-word character (itself) or a C escape. Advances i past it;
// nullopt (i unspecified) for anything else, octal and hex escapes included.
std::optional<int> class_char(std::string_view p, size_t& i) {
  const auto c = static_cast<unsigned char>(p[i]);
  if (c >= 0x80) return std::nullopt;
  if (c != '\\') {
    ++i;
    return c;
  }
  if (i + 1 == p.size()) return std::nullopt;
  const auto e = static_cast<unsigned char>(p[i + 1]);
  static constexpr std::string_view kCEscapes = "nrtafv", kCValues = "\n\r\t\a\f\v";
  int value = e;
  if (e >= 0x80 || is_ascii_alnum(e)) {
    const size_t k = kCEscapes.find(static_cast<char>(e));
    if (k == std::string_view::npos) return std::nullopt;
    value = kCValues[k];
  }
  i += 2;
  return value;
}

// The bracket class that starts at p[i] == '[', read as RE2 reads it: a `^`
// first negates, a `]` first (after any `^`) is literal, `x-y` is a range
// unless the `-` is followed by the closing `]`, and every other `-` is
// literal. Advances i past the closing `]`; nullopt for a class the table
// cannot run (POSIX classes like [:alpha:], \p groups, non-ASCII characters).
std::optional<TableClass> bracket_class(std::string_view p, size_t& i) {
  ++i;  // '['
  const bool negated = i < p.size() && p[i] == '^';
  if (negated) ++i;
  TableClass cls;
  for (bool first = true; i < p.size() && (p[i] != ']' || first); first = false) {
    if (p[i] == '[' && i + 1 < p.size() && p[i + 1] == ':') return std::nullopt;
    if (p[i] == '\\' && i + 1 < p.size()) {
      if (const auto group = perl_class(p[i + 1])) {
        cls.add(*group);
        i += 2;
        continue;
      }
    }
    const std::optional<int> lo = class_char(p, i);
    if (!lo) return std::nullopt;
    int hi = *lo;
    if (i + 1 < p.size() && p[i] == '-' && p[i + 1] != ']') {
      ++i;  // '-'
      const std::optional<int> h = class_char(p, i);
      if (!h || *h < *lo) return std::nullopt;
      hi = *h;
    }
    cls.add(*lo, hi);
  }
  if (i == p.size()) return std::nullopt;
  ++i;  // ']'
  return negated ? cls.complement() : cls;
}

// The class of a pattern that is one class followed by `+` and that a byte
// table can run (see app_pattern.h), or nullopt.
std::optional<TableClass> table_class(std::string_view p) {
  size_t i = 0;
  std::optional<TableClass> cls;
  if (p.starts_with('[')) {
    cls = bracket_class(p, i);
  } else if (p.starts_with('.')) {
    cls = TableClass{};
    cls->add(0, 127);
    cls->ascii.reset('\n');
    cls->non_ascii = true;
    i = 1;
  } else if (p.size() >= 2 && p[0] == '\\') {
    cls = perl_class(p[1]);
    i = 2;
  }
  if (!cls || p.substr(i) != "+") return std::nullopt;
  return cls;
}

std::shared_ptr<const re2::RE2> compile_re2(std::string_view regex) {
  re2::RE2::Options options;
  options.set_log_errors(false);  // the error goes to the caller, not to stderr
  auto re = std::make_shared<const re2::RE2>(re2::StringPiece(regex.data(), regex.size()), options);
  if (!re->ok()) throw std::invalid_argument(re->error());
  return re;
}

}  // namespace

AppPattern::AppPattern(std::string source, std::shared_ptr<const re2::RE2> re2)
    : source_(std::move(source)), re2_(std::move(re2)) {}

AppPattern AppPattern::compile(std::string_view regex) {
  std::shared_ptr<const re2::RE2> re = compile_re2(regex);  // on either path, RE2 says what compiles
  const std::optional<TableClass> cls = table_class(regex);
  if (!cls) return AppPattern(std::string(regex), std::move(re));
  AppPattern pattern(std::string(regex), nullptr);
  for (size_t b = 0; b < 256; ++b) pattern.table_[b] = b < 128 ? cls->ascii[b] : cls->non_ascii;
  for (size_t b = 0; b < 128; ++b) pattern.low_nibbles_[b & 15] |= static_cast<uint8_t>(pattern.table_[b] << (b >> 4));
#if defined(__x86_64__)
  pattern.by_nibbles_ = __builtin_cpu_supports("ssse3");
#endif
  return pattern;
}

AppPattern AppPattern::compile_with_re2(std::string_view regex) {
  return AppPattern(std::string(regex), compile_re2(regex));
}

#if defined(__x86_64__)
[[gnu::target("ssse3")]] bool AppPattern::matches_by_nibbles(std::string_view id) const noexcept {
  const __m128i low = _mm_loadu_si128(reinterpret_cast<const __m128i*>(low_nibbles_.data()));
  const __m128i high = _mm_setr_epi8(1, 2, 4, 8, 16, 32, 64, -128, 0, 0, 0, 0, 0, 0, 0, 0);  // bit h for h < 8
  const __m128i nibble = _mm_set1_epi8(0x0F);
  const char* const p = id.data();
  const size_t n = id.size();
  for (size_t i = 0; i < n; i += 16) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + i));
    const __m128i in_class = _mm_and_si128(_mm_shuffle_epi8(low, _mm_and_si128(v, nibble)),
                                           _mm_shuffle_epi8(high, _mm_and_si128(_mm_srli_epi16(v, 4), nibble)));
    auto outside = static_cast<uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(in_class, _mm_setzero_si128())));
    if (table_[0x80]) outside &= ~static_cast<uint32_t>(_mm_movemask_epi8(v));  // bytes >= 0x80, all alike
    if (n - i < 16) outside &= (uint32_t{1} << (n - i)) - 1;  // the bytes past the id
    if (outside != 0) return false;
  }
  return n != 0;
}
#else
bool AppPattern::matches_by_nibbles(std::string_view id) const noexcept { return matches(id); }
#endif

bool AppPattern::matches(std::string_view id) const noexcept {
  if (re2_ != nullptr) return re2::RE2::FullMatch(re2::StringPiece(id.data(), id.size()), *re2_);
  if (id.empty()) return false;
  for (const char c : id) {
    if (!table_[static_cast<unsigned char>(c)]) return false;
  }
  return true;
}

}  // namespace logagg
