// Stages 1-3's JSON reader: simdjson's DOM API, the walkthrough's "faster JSON
// library" step. Like nlohmann/json it validates the whole line and builds a
// document, but in two SIMD passes over the bytes instead of one per character.
//
// Where simdjson's DOM differs from the engine's rules, cheaply fixed: it
// refuses numbers it cannot store in 64 bits (integers beyond uint64_t, such as
// 98765432109876543210, and doubles beyond 1.8e308) and nesting deeper than
// 1024 levels, all valid JSON. A line it refuses for one of these is read again
// with nlohmann/json (json_nlohmann.cc), which takes them; such lines are rare.
#include <simdjson.h>

#include "pieces.h"

namespace logagg::walkthrough {
namespace {

class SimdjsonReader final : public JsonReader {
 public:
  explicit SimdjsonReader(const Options& options)
      : app_field_(options.app_field), time_field_(options.time_field), fallback_(nlohmann_reader(options)) {}

  JsonFields read(const std::string& line) override {
    JsonFields out;
    simdjson::dom::element doc;
    const simdjson::error_code error = parser_.parse(line).get(doc);
    if (error == simdjson::NUMBER_ERROR || error == simdjson::DEPTH_ERROR) {
      return fallback_->read(line);
    }
    if (error) return out;
    simdjson::dom::object object;
    if (doc.get_object().get(object)) {
      out.shape = JsonFields::Shape::kNotObject;
      return out;
    }
    out.shape = JsonFields::Shape::kObject;
    for (const simdjson::dom::key_value_pair field : object) {
      FieldSeen* seen = field.key == app_field_ ? &out.app : field.key == time_field_ ? &out.time : nullptr;
      if (seen != nullptr && ++seen->count == 1) seen->is_string = !field.value.get_string().get(seen->text);
    }
    return out;
  }

 private:
  std::string app_field_, time_field_;
  simdjson::dom::parser parser_;
  std::unique_ptr<JsonReader> fallback_;
};

}  // namespace

std::unique_ptr<JsonReader> simdjson_reader(const Options& options) {
  return std::make_unique<SimdjsonReader>(options);
}

}  // namespace logagg::walkthrough
