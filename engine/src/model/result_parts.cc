// The names in a result (logagg/result_parts.h): the reject reasons' keys and
// texts, the time forms' keys, and a key tuple's parts.
#include "logagg/result_parts.h"

#include <string>

namespace logagg {
namespace {

struct ReasonName {
  std::string_view key;
  std::string_view text;
};

constexpr ReasonName kNames[kReasonCount] = {
    {"line_too_long", "line too long"},          {"invalid_json", "invalid JSON"},
    {"not_object", "not a JSON object"},         {"missing_app", "app field missing"},
    {"duplicate_app", "app field duplicated"},   {"app_not_string", "app field not a string"},
    {"bad_app", "app id not alphanumeric"},      {"missing_time", "time field missing"},
    {"duplicate_time", "time field duplicated"}, {"time_not_string", "time field not a string"},
    {"bad_time", "timestamp not RFC 3339"},
};

}  // namespace

std::string_view reason_key(Reason r) noexcept { return kNames[static_cast<size_t>(r)].key; }
std::string_view reason_text(Reason r) noexcept { return kNames[static_cast<size_t>(r)].text; }

std::string reason_text(Reason r, const Question& counted_with) {
  const Question defaults;
  if (r == Reason::kBadApp && counted_with.app_pattern != defaults.app_pattern) {
    return "app id does not match " + counted_with.app_pattern;
  }
  if (r == Reason::kBadTime && counted_with.time_format != defaults.time_format) {
    return "time not in " + counted_with.time_format;
  }
  return std::string(reason_text(r));
}

std::string_view time_form_key(TimeForm f) noexcept {
  constexpr std::string_view kKeys[kTimeFormCount] = {"rfc3339", "clf",     "date-time", "unix",
                                                      "unix-ms", "unix-us", "unix-ns"};
  return kKeys[static_cast<size_t>(f)];
}

std::vector<std::string_view> key_parts(std::string_view tuple, size_t parts) {
  if (tuple == kOtherApp) return std::vector<std::string_view>(parts, kOtherApp);
  std::vector<std::string_view> out;
  for (size_t i = 0; i + 1 < parts; ++i) {
    const size_t sep = tuple.find(kKeySeparator);
    out.push_back(tuple.substr(0, sep));
    tuple = sep == std::string_view::npos ? std::string_view{} : tuple.substr(sep + 1);
  }
  out.push_back(tuple);
  return out;
}

}  // namespace logagg
