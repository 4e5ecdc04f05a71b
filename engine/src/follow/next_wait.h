// The wait phase of --follow (follow.cc): how long to wait for a change
// before the next round when nothing else wakes it.
#pragma once

#include <algorithm>
#include <chrono>
#include <optional>

namespace logagg {

// The next rescan (`rescan` from now), or sooner: when the open buckets fall
// due (no line since `last_line` for `late`, if `open_buckets`), or at
// `due` (a rotated file's quiet second, a truncation's grace time). Never
// negative.
inline std::chrono::milliseconds next_wait(std::chrono::steady_clock::time_point now,
                                           std::chrono::milliseconds rescan, std::chrono::milliseconds late,
                                           bool open_buckets, std::chrono::steady_clock::time_point last_line,
                                           std::optional<std::chrono::steady_clock::time_point> due) {
  using std::chrono::milliseconds;
  const auto until = [&](std::chrono::steady_clock::time_point t) {
    return std::max(milliseconds(0), std::chrono::ceil<milliseconds>(t - now));
  };
  milliseconds timeout = rescan;
  if (open_buckets) timeout = std::min(timeout, until(last_line + late));
  if (due) timeout = std::min(timeout, until(*due));
  return timeout;
}

}  // namespace logagg
