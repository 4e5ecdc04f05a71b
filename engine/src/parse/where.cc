// Reading and testing --where filters (see where.h).
#include "parse/where.h"

#include <simdjson.h>

#include <array>
#include <limits>
#include <stdexcept>
#include <utility>

#include "parse/field_targets.h"
#include "parse/short_number.h"
#include "text/ascii.h"

namespace logagg {
namespace {

// The operators, longest first where one starts another.
struct OpSpelling {
  std::string_view text;
  Filter::Op op;
};
constexpr std::array<OpSpelling, 8> kOps{{{"==", Filter::Op::kEq},
                                          {"!=", Filter::Op::kNe},
                                          {"!~", Filter::Op::kNoMatch},
                                          {"<=", Filter::Op::kLe},
                                          {">=", Filter::Op::kGe},
                                          {"<", Filter::Op::kLt},
                                          {">", Filter::Op::kGt},
                                          {"~", Filter::Op::kMatch}}};

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_json_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_json_space(s.back())) s.remove_suffix(1);
  return s;
}

// The decoded text of the JSON string that `s` starts with, and how many
// bytes it took; nullopt if `s` does not start with a valid JSON string.
std::optional<std::pair<std::string, size_t>> json_string_at(std::string_view s) {
  if (s.empty() || s[0] != '"') return std::nullopt;
  size_t end = 1;
  while (end < s.size() && s[end] != '"') end += s[end] == '\\' ? 2 : 1;
  if (end >= s.size()) return std::nullopt;
  simdjson::ondemand::parser parser;
  const simdjson::padded_string padded(s.substr(0, end + 1));
  simdjson::ondemand::document doc;
  std::string_view text;
  // The bytes are one string token (its closing quote found above): decode it.
  if (parser.iterate(padded).get(doc) != simdjson::SUCCESS || doc.get_string().get(text) != simdjson::SUCCESS) {
    return std::nullopt;
  }
  return std::pair{std::string(text), end + 1};
}

constexpr std::string_view kOperatorBytes = "=!<>~";
constexpr std::string_view kExpected = "one of == != < <= > >= ~ !~";

// A usage error about `expression`, shown again with a caret under byte
// `at` (its column: one a code point):
//   --where 'status>>500': unknown operator >>; expected one of == != ...
//     status>>500
//           ^
[[noreturn]] void fail(std::string_view expression, size_t at, std::string_view why) {
  size_t column = 0;
  for (size_t i = 0; i < at && i < expression.size(); ++i)
    column += (static_cast<unsigned char>(expression[i]) & 0xC0) != 0x80;
  throw std::invalid_argument("--where '" + std::string(expression) + "': " + std::string(why) + "\n  " +
                              std::string(expression) + "\n  " + std::string(column, ' ') + "^");
}

// Whether unquoted `text` reads as a number was meant: a digit first, or a
// sign or point and then a digit ("5oo", "1.2.3", "+5", "05", "-.5"). Such
// text that is not a JSON number is refused, not compared as text.
bool looks_numeric(std::string_view text) {
  size_t i = 0;
  if (i < text.size() && (text[i] == '-' || text[i] == '+')) ++i;
  if (i < text.size() && text[i] == '.') ++i;
  return i < text.size() && is_digit(text[i]);
}

// FIELD, the start of `e` (trimmed `expression`, from its byte `base`): a
// JSON string, or the text up to the first operator byte. Returns where the
// operator starts.
size_t read_field(std::string_view expression, std::string_view e, size_t base, std::string& field) {
  size_t at = 0;
  if (const auto quoted = json_string_at(e)) {
    field = quoted->first;
    at = quoted->second;
    while (at < e.size() && is_json_space(e[at])) ++at;
  } else {
    at = e.find_first_of(kOperatorBytes);
    if (at == std::string_view::npos) {
      fail(expression, base + e.size(), "no operator; expected " + std::string(kExpected) + ", or exists FIELD");
    }
    field = std::string(trim(e.substr(0, at)));
  }
  if (field.empty()) fail(expression, base, "no field before the operator");
  return at;
}

// OP at e[at]: the operator bytes there, which must spell exactly one
// operator (a pattern may start with an operator's byte: "path~=x").
const OpSpelling& read_operator(std::string_view expression, std::string_view e, size_t base, size_t at) {
  size_t end = at;
  while (end < e.size() && kOperatorBytes.find(e[end]) != std::string_view::npos) ++end;
  const std::string_view written = e.substr(at, end - at);
  if (written.empty()) fail(expression, base + at, "no operator after the field; expected " + std::string(kExpected));
  if (written == "=") fail(expression, base + at, "= is written ==");
  for (const OpSpelling& o : kOps) {
    if (e.substr(at, o.text.size()) != o.text) continue;
    const bool pattern = o.op == Filter::Op::kMatch || o.op == Filter::Op::kNoMatch;
    if (pattern || written.size() == o.text.size()) return o;
    break;
  }
  fail(expression, base + at, "unknown operator " + std::string(written) + "; expected " + std::string(kExpected));
}

// "exists FIELD" / "missing FIELD": the field, if `e` is one of them: the
// keyword, a space, and a field without an operator's bytes unless quoted
// (so "missing == 1" compares a field named missing).
std::optional<std::string_view> after_keyword(std::string_view e, std::string_view keyword) {
  if (e.size() <= keyword.size() || e.substr(0, keyword.size()) != keyword || !is_json_space(e[keyword.size()])) {
    return std::nullopt;
  }
  const std::string_view field = trim(e.substr(keyword.size()));
  if (field.empty() || (field[0] != '"' && field.find_first_of("=!<>~") != std::string_view::npos)) return std::nullopt;
  return field;
}

// The integers `op` against `value` holds for, into the filter's range (where.h).
void set_range(Filter::Op op, int64_t value, uint64_t& low, uint64_t& span, bool& inside) {
  constexpr int64_t kMin = std::numeric_limits<int64_t>::min(), kMax = std::numeric_limits<int64_t>::max();
  int64_t lo = value, hi = value;  // == and !=
  if (op == Filter::Op::kLe || op == Filter::Op::kGt) lo = kMin;
  if (op == Filter::Op::kGe || op == Filter::Op::kLt) hi = kMax;
  low = static_cast<uint64_t>(lo);
  span = static_cast<uint64_t>(hi) - low;
  inside = op == Filter::Op::kEq || op == Filter::Op::kLe || op == Filter::Op::kGe;
}

}  // namespace

Filter Filter::parse(std::string_view expression) {
  const std::string_view e = trim(expression);
  const size_t base = static_cast<size_t>(e.data() - expression.data());  // e's first byte in `expression`
  Filter f;
  for (const auto& [keyword, op] :
       {std::pair{std::string_view("exists"), Op::kExists}, std::pair{std::string_view("missing"), Op::kMissing}}) {
    if (const auto field = after_keyword(e, keyword)) {
      const auto quoted = json_string_at(*field);
      if (quoted && quoted->second == field->size()) {
        f.field_ = quoted->first;
      } else {
        f.field_ = std::string(*field);
      }
      f.op_ = op;
      return f;
    }
  }
  const size_t at = read_field(expression, e, base, f.field_);
  const OpSpelling& spelling = read_operator(expression, e, base, at);
  const bool pattern = spelling.op == Op::kMatch || spelling.op == Op::kNoMatch;
  f.op_ = spelling.op;
  const std::string_view rest = trim(e.substr(at + spelling.text.size()));
  const size_t value_at = base + static_cast<size_t>(rest.data() - e.data());

  std::string value(rest);
  bool quoted = false;
  if (const auto s = json_string_at(rest)) {
    if (s->second != rest.size()) {
      size_t extra = s->second;  // the caret under the text, past the spaces before it
      while (is_json_space(rest[extra])) ++extra;
      fail(expression, value_at + extra, "text after the quoted value");
    }
    value = s->first;
    quoted = true;
  } else if (!rest.empty() && rest[0] == '"') {
    fail(expression, value_at, "the quoted value is not a JSON string (no closing quote, or a bad escape)");
  } else if (rest.empty()) {
    fail(expression, base + e.size(),
         pattern ? "no pattern after " + std::string(spelling.text)
                 : std::string("no value after the operator; expected a number, \"text\", true, false or null"));
  }
  f.value_ = std::make_shared<const std::string>(std::move(value));
  const bool ordering = f.op_ == Op::kLt || f.op_ == Op::kLe || f.op_ == Op::kGt || f.op_ == Op::kGe;
  if (pattern) {
    f.kind_ = Kind::kPattern;
    try {
      f.pattern_ = AppPattern::compile(*f.value_);
    } catch (const std::invalid_argument& err) {
      fail(expression, value_at, std::string("pattern does not compile: ") + err.what());
    }
  } else if (!quoted && (rest == "true" || rest == "false" || rest == "null")) {
    if (ordering) fail(expression, base + at, "true, false and null can only be compared with == or !=");
    f.kind_ = Kind::kLiteral;
  } else if (!quoted && (f.number_ = Decimal::parse(*f.value_))) {
    f.kind_ = Kind::kNumber;
    const std::string padded = *f.value_ + std::string(8, ' ');  // read_short_integer reads 8 bytes at a time
    int64_t integer;
    f.ranged_ = read_short_integer(std::string_view(padded).substr(0, f.value_->size()), integer);
    if (f.ranged_) set_range(f.op_, integer, f.low_, f.span_, f.inside_);
  } else if (!quoted && looks_numeric(rest)) {
    fail(expression, value_at,
         std::string(rest) + " is not a number; write a JSON number (500, 0.25, 1e3), or quote text: \"" +
             std::string(rest) + "\"");
  } else if (!quoted && kOperatorBytes.find(rest[0]) != std::string_view::npos) {
    fail(expression, value_at,
         "the value starts with an operator's byte; quote text that does: \"" + std::string(rest) + "\"");
  } else {
    f.kind_ = Kind::kText;
  }
  return f;
}

Filter::Meets Filter::meets() const {
  if (op_ == Op::kExists || op_ == Op::kMissing) return {true, true, true};
  switch (kind_) {
    case Kind::kNumber:
      return {true, true, false};
    case Kind::kText:
      return {false, true, false};
    case Kind::kLiteral:
      return {false, false, true};
    case Kind::kPattern:
      return {true, true, false};
  }
  return {true, true, true};
}

std::string Filter::unquoted() const {
  if (kind_ != Kind::kText || !Decimal::parse(*value_)) return {};
  for (const OpSpelling& o : kOps) {
    if (o.op == op_) return field_ + std::string(o.text) + *value_;
  }
  return {};
}

bool Filter::compares(int order) const {
  switch (op_) {
    case Op::kEq:
      return order == 0;
    case Op::kNe:
      return order != 0;
    case Op::kLt:
      return order < 0;
    case Op::kLe:
      return order <= 0;
    case Op::kGt:
      return order > 0;
    case Op::kGe:
      return order >= 0;
    default:
      return false;
  }
}

// Every case holds() does not take inline: the same answer, by the rules in where.h.
bool Filter::holds_otherwise(const FieldSeen& seen) const {
  if (op_ == Op::kExists) return seen.count > 0 || seen.step_twice;
  if (op_ == Op::kMissing) return seen.count == 0 && !seen.step_twice;
  const std::optional<std::string_view> text = seen.value();
  if (!text) return false;
  const bool literal = seen.is_scalar && !text->empty() && !is_digit((*text)[0]) && (*text)[0] != '-';
  switch (kind_) {
    case Kind::kNumber: {
      if (literal) return false;
      const std::optional<Decimal> n = Decimal::parse(*text);
      return n && compares(compare(*n, *number_));
    }
    case Kind::kText:
      return seen.is_string && compares(text->compare(*value_));
    case Kind::kLiteral:
      return literal && compares(text->compare(*value_));
    case Kind::kPattern:
      return !literal && pattern_->matches(*text) == (op_ == Op::kMatch);
  }
  return false;
}

}  // namespace logagg
