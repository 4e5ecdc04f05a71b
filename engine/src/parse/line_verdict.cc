// Names of the reject reasons: reason_key and reason_text (declared in
// logagg/result.h, beside Reason).
#include "parse/line_verdict.h"

namespace logagg {
namespace {

struct ReasonName {
  std::string_view key;
  std::string_view text;
};

constexpr ReasonName kNames[kReasonCount] = {
    {"line_too_long", "line too long"},
    {"invalid_json", "invalid JSON"},
    {"not_object", "not a JSON object"},
    {"missing_app", "app field missing"},
    {"duplicate_app", "app field duplicated"},
    {"app_not_string", "app field not a string"},
    {"bad_app", "app id not alphanumeric"},
    {"missing_time", "time field missing"},
    {"duplicate_time", "time field duplicated"},
    {"time_not_string", "time field not a string"},
    {"bad_time", "timestamp not RFC 3339"},
};

}  // namespace

std::string_view reason_key(Reason r) noexcept { return kNames[static_cast<size_t>(r)].key; }
std::string_view reason_text(Reason r) noexcept { return kNames[static_cast<size_t>(r)].text; }

std::string reason_text(Reason r, const Options& counted_with) {
  const Options defaults;
  if (r == Reason::kBadApp && counted_with.app_pattern != defaults.app_pattern) {
    return "app id does not match " + counted_with.app_pattern;
  }
  if (r == Reason::kBadTime && counted_with.time_format != defaults.time_format) {
    return "time not in " + counted_with.time_format;
  }
  return std::string(reason_text(r));
}

}  // namespace logagg
