// The walkthrough's own pieces, the ones the engine does not provide: the two
// JSON readers, the date::parse timestamp parser and the std::regex app id
// check. The engine's pieces (logagg::parse_rfc3339, logagg::is_valid_app_id)
// fit the same slots in line_loop.h.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string_view>

#include "line_loop.h"
#include "logagg/options.h"

namespace logagg::walkthrough {

// nlohmann/json: a whole DOM per line (json_nlohmann.cc).
std::unique_ptr<JsonReader> nlohmann_reader(const Options& options);

// simdjson's DOM API (json_simdjson.cc).
std::unique_ptr<JsonReader> simdjson_reader(const Options& options);

// Howard Hinnant's date::parse("%FT%T%Ez") (time_date_parse.cc).
std::optional<int64_t> date_parse_second(std::string_view text);

// std::regex_match against ^[a-zA-Z0-9]+$ (app_id_regex.cc).
bool regex_app_id(std::string_view id);

}  // namespace logagg::walkthrough
