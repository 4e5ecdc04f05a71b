// The "key": number pairs of a flat-keyed JSON document, such as the summary
// in logagg's --format json report or loggen's --expected-summary file, for
// end-to-end tests to compare (the keys they use are unique in both).
#pragma once

#include <cstdint>
#include <map>
#include <regex>
#include <string>

namespace logagg::testing {

inline std::map<std::string, uint64_t> json_numbers(const std::string& json) {
  std::map<std::string, uint64_t> out;
  const std::regex pair("\"([a-z_]+)\"\\s*:\\s*([0-9]+)");
  for (std::sregex_iterator it(json.begin(), json.end(), pair), end; it != end; ++it) {
    out[(*it)[1]] = std::stoull((*it)[2]);
  }
  return out;
}

}  // namespace logagg::testing
