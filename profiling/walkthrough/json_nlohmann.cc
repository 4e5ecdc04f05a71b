// Stage 0's JSON reader: nlohmann/json, the popular DOM library, parsing each
// line into a whole document, as the Java aggregator did with its JSON library.
//
// Where nlohmann/json's defaults differ from the engine's rules, cheaply fixed:
// - it refuses a number beyond double's range ("1e999": out_of_range 406),
//   which RFC 8259 allows: a line that nlohmann::json refuses is read again
//   as a document whose numbers are long double, so only numbers beyond
//   ~1e4932 are still refused (the one divergence left). Such lines are rare;
//   long double for every line would also do, but glibc's strtold needs so
//   much stack that perf's DWARF unwinding loses its callers;
// - it skips a UTF-8 BOM at the start of its input, where the engine skips
//   one only at the start of a file: a line starting with one is invalid;
// - its DOM keeps the last of duplicate keys: top-level keys are counted as
//   the parser reads them, through its callback.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "input/input.h"
#include "pieces.h"

namespace logagg::walkthrough {
namespace {

// One nlohmann/json document type's reading of a line.
template <class Json>
class DocumentReader {
 public:
  DocumentReader(const std::string& app_field, const std::string& time_field)
      : app_field_(app_field),
        time_field_(time_field),
        count_keys_([this](int depth, typename Json::parse_event_t event, Json& parsed) {
          if (depth == 1 && event == Json::parse_event_t::key) {
            const auto& key = parsed.template get_ref<const std::string&>();
            app_keys_ += key == app_field_;
            time_keys_ += key == time_field_;
          }
          return true;
        }) {}

  JsonFields read(const std::string& line) {
    JsonFields out;
    app_keys_ = time_keys_ = 0;
    doc_ = Json::parse(line, count_keys_, /*allow_exceptions=*/false);
    if (doc_.is_discarded()) return out;
    if (!doc_.is_object()) {
      out.shape = JsonFields::Shape::kNotObject;
      return out;
    }
    out.shape = JsonFields::Shape::kObject;
    out.app = field(app_field_, app_keys_);
    out.time = field(time_field_, time_keys_);
    return out;
  }

 private:
  FieldSeen field(const std::string& name, int count) const {
    FieldSeen seen;
    seen.count = count;
    if (count == 1) {
      const Json& value = *doc_.find(name);
      seen.is_string = value.is_string();
      if (seen.is_string) seen.text = value.template get_ref<const std::string&>();
    }
    return seen;
  }

  const std::string& app_field_;
  const std::string& time_field_;
  int app_keys_ = 0, time_keys_ = 0;
  typename Json::parser_callback_t count_keys_;
  Json doc_;
};

using WideJson = nlohmann::basic_json<std::map, std::vector, std::string, bool, std::int64_t, std::uint64_t,
                                      long double>;

class NlohmannReader final : public JsonReader {
 public:
  explicit NlohmannReader(const Options& options)
      : app_field_(options.app_field),
        time_field_(options.time_field),
        json_(app_field_, time_field_),
        wide_(app_field_, time_field_) {}

  JsonFields read(const std::string& line) override {
    if (line.starts_with(kUtf8Bom)) return {};
    const JsonFields fields = json_.read(line);
    return fields.shape == JsonFields::Shape::kInvalid ? wide_.read(line) : fields;
  }

 private:
  std::string app_field_, time_field_;
  DocumentReader<nlohmann::json> json_;
  DocumentReader<WideJson> wide_;
};

}  // namespace

std::unique_ptr<JsonReader> nlohmann_reader(const Options& options) {
  return std::make_unique<NlohmannReader>(options);
}

}  // namespace logagg::walkthrough
