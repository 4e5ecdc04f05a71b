// The five stages (see stages.h). Stages 0-3 are the shared line loop with
// three pieces each; from one stage to the next exactly one piece changes.
#include "stages.h"

#include "line_loop.h"
#include "logagg/rfc3339.h"
#include "parse/app_id.h"
#include "pieces.h"

namespace logagg::walkthrough {
namespace {

Result naive_stage(const std::string& path, const Options& o) {
  return count_lines(path, o, {nlohmann_reader(o), date_parse_second, regex_app_id});
}

Result simdjson_stage(const std::string& path, const Options& o) {
  return count_lines(path, o, {simdjson_reader(o), date_parse_second, regex_app_id});
}

Result rfc3339_stage(const std::string& path, const Options& o) {
  return count_lines(path, o, {simdjson_reader(o), parse_rfc3339, regex_app_id});
}

Result app_id_stage(const std::string& path, const Options& o) {
  return count_lines(path, o, {simdjson_reader(o), parse_rfc3339, is_valid_app_id});
}

Result engine_stage(const std::string& path, const Options& o) { return aggregate({path}, o); }

}  // namespace

const std::array<Stage, 5> kStages = {{
    {"naive", "std::getline, nlohmann/json, date::parse, std::regex, std::map: the Java aggregator's C++ twin",
     naive_stage},
    {"simdjson", "JSON through simdjson's DOM instead of nlohmann/json", simdjson_stage},
    {"rfc3339", "timestamps through logagg::parse_rfc3339 instead of date::parse", rfc3339_stage},
    {"app-id", "app ids checked by logagg::is_valid_app_id instead of std::regex", app_id_stage},
    {"engine",
     "logagg::aggregate: mmap, line-aligned segments, threads, per-thread flat hash maps, simdjson On-Demand",
     engine_stage},
}};

}  // namespace logagg::walkthrough
