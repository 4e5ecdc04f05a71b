// How far apart two names are: the fewest single-byte insertions, deletions,
// substitutions and swaps of two neighbours that turn one into the other
// (the optimal string alignment distance). For "did you mean" suggestions:
// a mistyped option, a field the log has under a near name.
#pragma once

#include <cstddef>
#include <string_view>

namespace logagg {

size_t edit_distance(std::string_view a, std::string_view b);

}  // namespace logagg
