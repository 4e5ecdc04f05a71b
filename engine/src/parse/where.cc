// Reading and testing --where filters (see where.h).
#include "parse/where.h"

#include <simdjson.h>

#include <array>
#include <stdexcept>
#include <utility>

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

[[noreturn]] void fail(std::string_view expression, std::string_view why) {
  throw std::invalid_argument("--where '" + std::string(expression) + "': " + std::string(why));
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

// The value of a JSON integer of at most 18 digits ("200", "-3"), which an
// int64 holds exactly; nullopt for any other text (it goes to Decimal).
std::optional<int64_t> small_integer(std::string_view text) {
  const size_t sign = !text.empty() && text[0] == '-';
  const size_t digits = text.size() - sign;
  if (digits == 0 || digits > 18 || (digits > 1 && text[sign] == '0')) return std::nullopt;
  int64_t v = 0;
  for (size_t i = sign; i < text.size(); ++i) {
    const auto d = static_cast<unsigned>(text[i] - '0');
    if (d > 9) return std::nullopt;
    v = v * 10 + static_cast<int64_t>(d);
  }
  return sign != 0 ? -v : v;
}

}  // namespace

Filter Filter::parse(std::string_view expression) {
  const std::string_view e = trim(expression);
  Filter f;
  std::string_view rest;
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
  // FIELD: a JSON string, or the text up to the first operator byte.
  size_t at = 0;
  if (const auto quoted = json_string_at(e)) {
    f.field_ = quoted->first;
    at = quoted->second;
    while (at < e.size() && is_json_space(e[at])) ++at;
  } else {
    at = e.find_first_of("=!<>~");
    if (at == std::string_view::npos) fail(expression, "no operator (== != < <= > >= ~ !~, or exists FIELD)");
    f.field_ = std::string(trim(e.substr(0, at)));
  }
  if (f.field_.empty()) fail(expression, "no field before the operator");
  const OpSpelling* spelling = nullptr;
  for (const OpSpelling& o : kOps) {
    if (e.substr(at, o.text.size()) == o.text) {
      spelling = &o;
      break;
    }
  }
  if (spelling == nullptr) fail(expression, "no operator after the field (== != < <= > >= ~ !~; = is written ==)");
  f.op_ = spelling->op;
  rest = trim(e.substr(at + spelling->text.size()));

  std::string value(rest);
  bool quoted = false;
  if (const auto s = json_string_at(rest)) {
    if (s->second != rest.size()) fail(expression, "text after the quoted value");
    value = s->first;
    quoted = true;
  } else if (!rest.empty() && rest[0] == '"') {
    fail(expression, "the quoted value is not a JSON string (no closing quote, or a bad escape)");
  }
  f.value_ = std::make_shared<const std::string>(std::move(value));
  const bool ordering = f.op_ == Op::kLt || f.op_ == Op::kLe || f.op_ == Op::kGt || f.op_ == Op::kGe;
  if (f.op_ == Op::kMatch || f.op_ == Op::kNoMatch) {
    f.kind_ = Kind::kPattern;
    try {
      f.pattern_ = AppPattern::compile(*f.value_);
    } catch (const std::invalid_argument& err) {
      fail(expression, std::string("pattern does not compile: ") + err.what());
    }
  } else if (!quoted && (rest == "true" || rest == "false" || rest == "null")) {
    if (ordering) fail(expression, "true, false and null can only be compared with == or !=");
    f.kind_ = Kind::kLiteral;
  } else if (!quoted && (f.number_ = Decimal::parse(*f.value_))) {
    f.kind_ = Kind::kNumber;
    f.integer_ = small_integer(*f.value_);
  } else {
    f.kind_ = Kind::kText;
  }
  return f;
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

bool Filter::holds(const FieldSeen& seen) const {
  if (op_ == Op::kExists) return seen.count > 0 || seen.step_twice;
  if (op_ == Op::kMissing) return seen.count == 0 && !seen.step_twice;
  const std::optional<std::string_view> text = seen.value();
  if (!text) return false;
  const bool literal = seen.is_scalar && !text->empty() && !is_digit((*text)[0]) && (*text)[0] != '-';
  switch (kind_) {
    case Kind::kNumber: {
      if (literal) return false;
      if (integer_) {  // both small integers, as most statuses and sizes are: compared as such
        if (const std::optional<int64_t> i = small_integer(*text))
          return compares(*i < *integer_ ? -1 : *i > *integer_);
      }
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
