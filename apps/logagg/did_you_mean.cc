// Suggesting the long option a mistyped one meant (see did_you_mean.h).
#include "did_you_mean.h"

#include <algorithm>
#include <string_view>

#include "logagg/edit_distance.h"

namespace logagg::cli {
namespace {

// The long option `typed` (without its dashes) most likely meant; "" if none.
std::string nearest(const CLI::App& app, std::string_view typed) {
  std::string best;
  // At most two edits, one for a name of up to five letters.
  size_t best_distance = std::clamp<size_t>(typed.size() / 3, 1, 2) + 1, starting_with = 0;
  std::string started;
  for (const CLI::Option* option : app.get_options()) {
    for (const std::string& name : option->get_lnames()) {
      const size_t distance = edit_distance(typed, name);
      if (distance < best_distance) {
        best_distance = distance;
        best = name;
      }
      if (name.size() > typed.size() && name.compare(0, typed.size(), typed) == 0) {
        ++starting_with;
        started = name;
      }
    }
  }
  if (best.empty() && starting_with == 1) return started;
  return best;
}

}  // namespace

std::string with_suggestion(const CLI::App& app, const CLI::ParseError& error) {
  std::string message = error.what();
  if (dynamic_cast<const CLI::ExtrasError*>(&error) == nullptr) return message;
  for (const std::string& argument : app.remaining()) {  // the arguments CLI11 did not expect
    if (argument.size() < 3 || argument.compare(0, 2, "--") != 0) continue;
    const std::string typed = argument.substr(2, argument.find('=') - 2);
    const std::string meant = nearest(app, typed);
    if (!meant.empty()) return message + "; did you mean --" + meant + "?";
  }
  return message;
}

}  // namespace logagg::cli
