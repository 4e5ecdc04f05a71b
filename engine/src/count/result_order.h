// The order of a Result's rows and apps, and the per-second totals derived
// from per-app rows: one definition for the counting core (run/gather.cc), for
// result documents read back (report/result_document.cc) and for results added up
// (merge/merge.cc), so all three build the same Result.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "logagg/result.h"

namespace logagg {

// Apps (key tuples) in a result: by name (bytewise), a tuple part by part
// (kKeySeparator below every byte), kOtherApp last.
inline bool app_before(std::string_view a, std::string_view b) {
  const bool a_other = a == kOtherApp, b_other = b == kOtherApp;
  if (a_other != b_other) return b_other;
  const size_t n = std::min(a.size(), b.size());
  for (size_t i = 0; i < n; ++i) {
    if (a[i] == b[i]) continue;
    if (a[i] == kKeySeparator || b[i] == kKeySeparator) return a[i] == kKeySeparator;
    return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[i]);
  }
  return a.size() < b.size();
}

// Puts `names` (key tuples by table number) in name order, and returns
// each table number's new number.
inline std::vector<uint32_t> name_order(std::vector<std::string>& names) {
  std::vector<uint32_t> by_name(names.size());
  for (uint32_t i = 0; i < by_name.size(); ++i) by_name[i] = i;
  std::sort(by_name.begin(), by_name.end(), [&](uint32_t a, uint32_t b) { return app_before(names[a], names[b]); });
  std::vector<uint32_t> order(names.size());
  std::vector<std::string> sorted(names.size());
  for (uint32_t i = 0; i < by_name.size(); ++i) {
    order[by_name[i]] = i;
    sorted[i] = std::move(names[by_name[i]]);
  }
  names = std::move(sorted);
  return order;
}

// Rows in one order: by second, then app (rows without an app have app 0).
// A function object, so that the sorts of a million rows inline it.
inline uint32_t app_of(const SecondCount&) { return 0; }
inline uint32_t app_of(const AppCount& c) { return c.app; }
struct RowBefore {
  template <typename Row>
  bool operator()(const Row& x, const Row& y) const {
    return x.second != y.second ? x.second < y.second : app_of(x) < app_of(y);
  }
};
inline constexpr RowBefore row_before;

// Sets result.counts to the totals per second of result.app_counts, which
// must be ascending by second.
inline void sum_app_counts_per_second(Result& result) {
  result.counts.clear();
  for (const AppCount& c : result.app_counts) {
    if (result.counts.empty() || result.counts.back().second != c.second) result.counts.push_back({c.second, 0});
    result.counts.back().count += c.count;
  }
}

// Sorts (second, app) rows by second then app and adds up equal ones into
// result.app_counts, and the totals per second into result.counts: for rows
// read back (merge) or renumbered (the html's first key).
inline void add_up_app_rows(std::vector<AppCount>& rows, Result& result) {
  std::sort(rows.begin(), rows.end(), row_before);
  result.app_counts.clear();
  for (const AppCount& r : rows) {
    if (!result.app_counts.empty() && result.app_counts.back().second == r.second &&
        result.app_counts.back().app == r.app) {
      result.app_counts.back().count += r.count;
    } else {
      result.app_counts.push_back(r);
    }
  }
  sum_app_counts_per_second(result);
}

}  // namespace logagg
