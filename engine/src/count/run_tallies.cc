// What the workers of one run count into, and the result's rows taken from
// it (RunTallies and end_counting, count.h).
#include <cstdint>
#include <memory>
#include <vector>

#include "count/count.h"
#include "count/counter.h"

namespace logagg {
namespace {

// Fills the --by-app part of `result` and, from it, the per-second counts:
// the apps numbered in name order, "(other)" last.
void take_app_counts(SharedCounts& shared, const AppTable& apps, Result& result) {
  result.apps = apps.names();
  const std::vector<uint32_t> order = name_order(result.apps);  // table number -> number in name order
  const auto other = static_cast<uint32_t>(order.size());
  result.app_counts = shared.take_app_sorted(order, other);
  result.apps_capped = apps.capped();
  for (const AppCount& c : result.app_counts) {
    if (c.app == other && result.apps.size() == other) result.apps.emplace_back(kOtherApp);
  }
  sum_app_counts_per_second(result);
}

// Fills `result` from measured cells: the key tuples numbered in name order
// ("(other)" last) when keyed, the rows and their cells, and from them the
// per-second counts.
void take_cells(SharedMeasures& shared, const AppTable* apps, Result& result) {
  std::vector<uint32_t> order;  // table number -> number in name order
  auto other = uint32_t{0};
  if (apps != nullptr) {
    result.apps = apps->names();
    order = name_order(result.apps);
    other = static_cast<uint32_t>(order.size());
    result.apps_capped = apps->capped();
  }
  const std::vector<CellKey> keys = shared.take_sorted(order, other, result.cells);
  if (apps != nullptr) {
    result.app_counts.reserve(keys.size());
  } else {
    result.counts.reserve(keys.size());
  }
  for (size_t row = 0; row < keys.size(); ++row) {
    const CellKey& key = keys[row];
    const uint64_t count = result.cells.count(row);
    if (apps != nullptr) {
      result.app_counts.push_back({key.second, key.app, count});
      if (key.app == other && result.apps.size() == other) result.apps.emplace_back(kOtherApp);
    } else {
      result.counts.push_back({key.second, count});
    }
  }
  if (apps != nullptr) sum_app_counts_per_second(result);
}

}  // namespace

struct RunTallies::Shared {
  explicit Shared(const Query& query)
      : apps(query.question().max_apps),
        keys(query.keyed() ? &apps : nullptr),
        spec(query.measures()),
        measures(spec) {}
  SharedCounts counts;
  AppTable apps;
  AppTable* keys;           // &apps when the query has keys (--by-app, --by), else none
  const MeasureSpec& spec;  // the query's
  SharedMeasures measures;
  std::vector<Counter> counters;  // one a worker, reserved at once: none moves
};

RunTallies::RunTallies(const Query& query, unsigned workers) : shared_(std::make_unique<Shared>(query)) {
  const Question& q = query.question();
  const bool measured = !shared_->spec.empty();
  shared_->counters.reserve(workers);
  for (unsigned t = 0; t < workers; ++t) {
    shared_->counters.emplace_back(shared_->counts, q.since.value_or(INT64_MIN), q.until.value_or(INT64_MAX),
                                   shared_->keys, Counter::kDefaultMaxSeconds, measured ? &shared_->measures : nullptr,
                                   &shared_->spec, query.counts_time_forms(), query.fields().size());
  }
}

RunTallies::~RunTallies() = default;

Counter& RunTallies::counter(unsigned worker) { return shared_->counters[worker]; }

void RunTallies::add_tallies(Summary& summary) const {
  for (const Counter& c : shared_->counters) summary.add(c.tally());
}

void RunTallies::take_rows(Result& result) {
  Shared& s = *shared_;
  if (!s.spec.empty()) {
    take_cells(s.measures, s.keys, result);
  } else if (s.keys != nullptr) {
    take_app_counts(s.counts, *s.keys, result);
  } else {
    result.counts = s.counts.take_sorted();
  }
}

void end_counting(Counter& counter) { counter.spill(); }

}  // namespace logagg
