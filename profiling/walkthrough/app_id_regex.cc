// Stages 0-2's app id check: std::regex, as the Java aggregator checked app ids
// with Pattern "^[a-zA-Z0-9]+$". The walkthrough asked whether replacing it was
// premature optimization; stage 3 replaces it with the engine's byte check and
// the report says what that was worth here.
#include <regex>

#include "pieces.h"

namespace logagg::walkthrough {

bool regex_app_id(std::string_view id) {
  static const std::regex kAppId("^[a-zA-Z0-9]+$");
  return std::regex_match(id.begin(), id.end(), kAppId);
}

}  // namespace logagg::walkthrough
