// The shape of the sampled lines (see fields.h), read with simdjson's DOM.
#include "detect/fields.h"

#include <simdjson.h>

#include <unordered_map>

#include "input/ascii.h"

namespace logagg {
namespace {

constexpr size_t kMaxDepth = 3;

class ShapeReader {
 public:
  explicit ShapeReader(SampleShape& shape) : shape_(shape) {}

  void add(std::string_view line) {
    size_t first = 0;
    while (first < line.size() && is_json_space(line[first])) ++first;
    if (first == line.size()) return;
    ++shape_.lines;
    simdjson::dom::object object;
    if (parser_.parse(line.data(), line.size()).get(object) != simdjson::SUCCESS) {
      if (shape_.first_other.empty()) shape_.first_other = std::string(line.substr(0, 200));
      return;
    }
    ++shape_.objects;
    ++line_number_;
    steps_.clear();
    walk(object);
  }

 private:
  void walk(simdjson::dom::object object) {
    for (const simdjson::dom::key_value_pair field : object) {
      steps_.push_back(field.key);
      const simdjson::dom::element value = field.value;
      switch (value.type()) {
        case simdjson::dom::element_type::OBJECT:
          if (steps_.size() < kMaxDepth) walk(value.get_object().value_unsafe());
          break;
        case simdjson::dom::element_type::STRING:
          record(value.get_string().value_unsafe(), false);
          break;
        case simdjson::dom::element_type::INT64:
        case simdjson::dom::element_type::UINT64:
        case simdjson::dom::element_type::DOUBLE:
          record(simdjson::to_string(value), true);
          break;
        default:
          record({}, false, false);
          break;
      }
      steps_.pop_back();
    }
  }

  // One value of the field at steps_ (`kept`: a string or a number).
  void record(std::string_view text, bool number, bool kept = true) {
    const std::string name = field_name(steps_);
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
  simdjson::dom::parser parser_;
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
