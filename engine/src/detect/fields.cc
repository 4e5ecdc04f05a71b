// The shape of the sampled lines (see fields.h), read with simdjson On-Demand
// (as LineParser reads lines; its DOM parser's layout depends on a definition
// that not every build of the engine shares).
#include "logagg/detect.h"

#include "detect/fields.h"

#include <simdjson.h>

#include <unordered_map>

#include "text/ascii.h"

namespace logagg {
namespace {

constexpr size_t kMaxDepth = 3;

namespace od = simdjson::ondemand;

class ShapeReader {
 public:
  explicit ShapeReader(SampleShape& shape) : shape_(shape) {}

  void add(std::string_view line) {
    size_t first = 0;
    while (first < line.size() && is_json_space(line[first])) ++first;
    if (first == line.size()) return;
    ++shape_.lines;
    buffer_.assign(line);
    buffer_.append(simdjson::SIMDJSON_PADDING, ' ');
    pending_.clear();
    steps_.clear();
    od::document doc;
    od::object object;
    if (parser_.iterate(buffer_.data(), line.size(), buffer_.size()).get(doc) || doc.get_object().get(object) ||
        !walk(object) || doc.current_location().error() != simdjson::OUT_OF_BOUNDS) {
      if (shape_.first_other.empty()) shape_.first_other = std::string(line.substr(0, 200));
      return;
    }
    ++shape_.objects;
    ++line_number_;
    for (const Value& v : pending_) record(v.name, v.text, v.number, v.kept);
  }

 private:
  // A value of the current line, kept until the line is known to be an object.
  struct Value {
    std::string name, text;
    bool number, kept;
  };

  // Walks an object of the line (On-Demand skips what is not read: arrays,
  // objects past kMaxDepth, literals); false if it is not valid.
  bool walk(od::object object) {
    for (auto result : object) {
      od::field field;
      std::string_view key;
      if (std::move(result).get(field) || field.unescaped_key().get(key)) return false;
      steps_.push_back(key);
      od::value value = field.value();
      od::json_type type;
      if (value.type().get(type)) return false;
      bool ok = true;
      if (type == od::json_type::object) {
        od::object inner;
        if (steps_.size() < kMaxDepth) ok = !value.get_object().get(inner) && walk(inner);
      } else if (type == od::json_type::string) {
        std::string_view text;
        ok = !value.get_string().get(text);
        pending_.push_back({field_name(steps_), std::string(text), false, true});
      } else if (type == od::json_type::number) {
        std::string_view token = value.raw_json_token();
        while (!token.empty() && is_json_space(token.back())) token.remove_suffix(1);
        pending_.push_back({field_name(steps_), std::string(token), true, true});
      } else {
        pending_.push_back({field_name(steps_), {}, false, false});
      }
      steps_.pop_back();
      if (!ok) return false;
    }
    return true;
  }

  // One value of the field `name` (`kept`: a string or a number).
  void record(const std::string& name, std::string_view text, bool number, bool kept) {
    auto [it, added] = index_.try_emplace(name, shape_.fields.size());
    if (added) shape_.fields.emplace_back().name = name;
    FieldValues& f = shape_.fields[it->second];
    if (last_line_.size() <= it->second) last_line_.resize(it->second + 1, 0);
    if (last_line_[it->second] == line_number_) return;  // a duplicate key: the first counts here
    last_line_[it->second] = line_number_;
    ++f.lines;
    if (!kept) return;
    (number ? f.numbers : f.strings) += 1;
    if (f.values.size() < FieldValues::kKeptValues) {
      f.values.emplace_back(text);
      f.value_is_number.push_back(number);
    }
    if (number) return;
    if (f.distinct.size() < FieldValues::kDistinctCap) f.distinct.emplace(text);
    std::array<bool, 256> seen{};
    for (const char c : text) seen[static_cast<unsigned char>(c)] = true;
    for (size_t b = 0; b < seen.size(); ++b) f.strings_with_byte[b] += seen[b];
    f.long_strings += text.size() > FieldValues::kLongString;
  }

  SampleShape& shape_;
  od::parser parser_;
  std::string buffer_;          // the line and simdjson's padding
  std::vector<Value> pending_;  // the line's values
  std::vector<std::string_view> steps_;
  std::unordered_map<std::string, size_t> index_;
  std::vector<size_t> last_line_;  // per field, the last line it was recorded in
  size_t line_number_ = 0;
};

}  // namespace

std::string field_name(const std::vector<std::string_view>& steps) {
  if (steps.size() == 1 && !steps.front().starts_with('/')) return std::string(steps.front());
  std::string name;
  for (const std::string_view step : steps) {
    name += '/';
    for (const char c : step) {
      if (c == '~') {
        name += "~0";
      } else if (c == '/') {
        name += "~1";
      } else {
        name += c;
      }
    }
  }
  return name;
}

SampleShape read_shape(const std::vector<std::string>& lines) {
  SampleShape shape;
  ShapeReader reader(shape);
  for (const std::string& line : lines) reader.add(line);
  return shape;
}

}  // namespace logagg
