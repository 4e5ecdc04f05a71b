// Counting: line verdicts into a tally, counted lines into a hash map keyed by
// UTC second, or with --by-app per (UTC second, app number) (app_table.h).
//
// Each worker owns a Counter, so the hot path shares nothing. Memory stays
// bounded by the number of distinct seconds, not threads x distinct seconds:
// a Counter whose map reaches its cap empties it into the one SharedCounts
// (under a mutex) and goes on with the same, already-sized map. With the
// default cap a worker holds at most ~1 M seconds (~12 days of traffic), so
// ordinary logs never spill before the end of the run. Per app the same cap
// bounds a worker's list of pairs (below), which ~800 apps fill in about 20
// minutes of traffic: those spill as they go.
//
// Per app, a hash map of (second, app) pairs would be large (a pair for every
// app in every second) and touched at random by every line. Logs come mostly
// in time order, so instead the counts of the two seconds read last are kept
// in small arrays by app number (two, so that a line from another second, a
// clock far off, does not close the second being read); when a third second
// comes, the nonzero counts of the one read least recently are appended to a
// list of (second, app, count), in order, which is spilled at the cap like
// the map. A spilled list is put in time order by the worker that listed it
// (each worker spills its last list itself too), before the lock, and kept
// as one run in time order; the one SharedCounts merges the runs, sorts each
// second's pairs by app and adds up equal pairs (a second read again later,
// or by another worker, just adds a pair) whenever its pairs have doubled
// (compaction, so it holds at most about twice the distinct pairs) and when
// they are taken.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <bit>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <vector>

#include "count/app_table.h"
#include "count/measure_counter.h"
#include "logagg/result.h"  // Summary, SecondCount, AppCount
#include "model/line_verdict.h"

namespace logagg {

using SecondMap = absl::flat_hash_map<int64_t, uint64_t>;

// Counts per (second, app), the apps numbered by the AppTable (kOther for
// the ids left out), in no particular order and maybe repeated.
using AppPairs = std::vector<AppCount>;

// The merged counts of all workers.
class SharedCounts {
 public:
  // `compact_at`: how many pairs it holds before it first compacts them.
  explicit SharedCounts(size_t compact_at = size_t{1} << 20) : compact_at_(compact_at) {}

  // Adds every entry of `counts`. Thread-safe.
  void add(const SecondMap& counts);
  // Takes the pairs (leaves `pairs` empty, its capacity kept if it was not
  // the first), put in time order first, before the lock: called by the
  // worker that listed them, so workers do that in parallel. Thread-safe.
  void add(AppPairs& pairs);
  // The counts ascending by second; leaves this empty, its memory released.
  std::vector<SecondCount> take_sorted();
  // The (second, app) counts, the apps renumbered by `order` (old number ->
  // new; kOther -> other_app), ascending by (second, new number); leaves them
  // empty, their memory released.
  std::vector<AppCount> take_app_sorted(const std::vector<uint32_t>& order, uint32_t other_app);

 private:
  std::mutex mu_;
  SecondMap counts_;
  AppPairs app_pairs_;            // runs in time order: the pairs compacted last, then one per list added since
  std::vector<size_t> app_runs_;  // where each run starts
  size_t compact_at_;             // compacted whenever it has grown past this
};

class Counter {
 public:
  static constexpr size_t kDefaultMaxSeconds = size_t{1} << 20;

  // Counted lines outside [since, until) are tallied as outside the range.
  // With `apps` (--by-app), lines are counted per (second, app) instead.
  // With `measures` (MeasureSpec not empty), lines are counted into the
  // cells of measure_counter.h instead, with their measures. With
  // `time_forms` (--time-format auto), counted lines are tallied by the form
  // of their time too (Summary::time_forms). With `fields` (the size of
  // Query::fields()), valid lines are tallied by how they held each
  // (Summary::fields).
  explicit Counter(SharedCounts& shared, int64_t since = INT64_MIN, int64_t until = INT64_MAX, AppTable* apps = nullptr,
                   size_t max_seconds = kDefaultMaxSeconds, SharedMeasures* measures = nullptr,
                   const MeasureSpec* spec = nullptr, bool time_forms = false, size_t fields = 0)
      : shared_(&shared), since_(since), until_(until), max_seconds_(max_seconds), time_forms_(time_forms) {
    if (time_forms) tally_.time_forms.resize(kTimeFormCount);
    tally_.fields.resize(fields);
    if (fields <= kFewFields) by_kinds_.resize(size_t{1} << (2 * fields));
    if (apps != nullptr) apps_.emplace(*apps);
    if (measures != nullptr) {
      measures_.emplace(*measures, *spec);
      tally_.no_measure.resize(spec->fields.size());
    }
  }

  void record(const LineVerdict& v) {
    ++tally_.lines;
    switch (v.status) {
      case LineStatus::kCounted:
        if (!tally_.fields.empty()) tally_fields(v.field_kinds);
        if (v.second < since_ || v.second >= until_) [[unlikely]] {
          ++tally_.outside_range;
          break;
        }
        ++tally_.counted;
        if (time_forms_) [[unlikely]]
          ++tally_.time_forms[v.time_form];
        if (v.no_value != 0) [[unlikely]] tally_no_value(v.no_value);
        if (measures_) [[unlikely]] {
          measures_->add(v.second, apps_ ? apps_->id(v.app) : 0, *v.measures, tally_);
          break;
        }
        if (apps_) [[unlikely]] {
          count_app(v.second, apps_->id(v.app));
          break;
        }
        if (v.second == run_second_ && run_lines_ != 0) [[likely]] {
          ++run_lines_;
          break;
        }
        start_run(v.second);
        break;
      case LineStatus::kBlank:
        ++tally_.blank;
        break;
      case LineStatus::kRejected:
        ++tally_.rejected[static_cast<size_t>(v.reason)];
        break;
      case LineStatus::kFiltered:
        if (!tally_.fields.empty()) tally_fields(v.field_kinds);
        if (v.filter >= tally_.filtered_by.size()) tally_.filtered_by.resize(v.filter + size_t{1});
        ++tally_.filtered_by[v.filter];
        break;
    }
  }

  // Moves the remaining counts (per second, or per second and app) into the
  // shared counts (at the end).
  void spill();

  // lines, counted, outside_range, blank, rejected, filtered_by and no_value
  // (as long as the last filter or key met needs), no_measure, time_forms
  // and fields; the other fields stay zero.
  Summary tally() const;

 private:
  void spill_full_map();
  void tally_fields(uint32_t kinds) {
    if (!by_kinds_.empty()) [[likely]] {
      ++by_kinds_[kinds];
      return;
    }
    add_kinds(tally_.fields, kinds, 1);
  }
  // Adds `lines` lines that held the fields as `kinds` says.
  static void add_kinds(std::vector<FieldTally>& fields, uint32_t kinds, uint64_t lines) {
    static constexpr uint64_t FieldTally::*kByKind[] = {&FieldTally::absent, &FieldTally::numbers, &FieldTally::strings,
                                                        &FieldTally::others};
    for (FieldTally& field : fields) {
      field.*kByKind[kinds & 3u] += lines;
      kinds >>= 2;
    }
  }
  void tally_no_value(unsigned keys) {
    for (; keys != 0; keys &= keys - 1) {
      const auto key = static_cast<size_t>(std::countr_zero(keys));
      if (key >= tally_.no_value.size()) tally_.no_value.resize(key + 1);
      ++tally_.no_value[key];
    }
  }
  // A line of another second than the run's: the run's lines go into the map
  // and a run of `second` starts, its first line counted in the map at once
  // (so, with a cap of two seconds or more, the map reaches it and spills on
  // the same line as it would without runs).
  void start_run(int64_t second) {
    end_run();
    run_second_ = second;
    run_lines_ = 1;
    ++per_second_[second];
    if (per_second_.size() >= max_seconds_) spill_full_map();
  }
  void end_run() {
    if (run_lines_ > 1) per_second_[run_second_] += run_lines_ - 1;  // its first line is in already
    run_lines_ = 0;
  }
  // --by-app: a second being counted, its counts by app number, the apps it
  // has counts for (in the order met) and its count of kOther.
  struct OpenSecond {
    bool open = false;
    int64_t second = 0;
    std::vector<uint64_t> counts;
    std::vector<uint32_t> apps;
    uint64_t other = 0;
  };

  void count_app(int64_t second, uint32_t app) {
    OpenSecond* s = &open_[0];
    if (second != s->second || !s->open) [[unlikely]] s = &switch_to(second);
    if (app == AppTable::kOther) [[unlikely]] {
      ++s->other;
      return;
    }
    if (app >= s->counts.size()) [[unlikely]] s->counts.resize(app + 1);
    if (s->counts[app]++ == 0) s->apps.push_back(app);
  }
  // Makes `second` the most recent open second: the other one if it is that,
  // else a new one, after the counts of the least recent are appended to
  // app_pairs_ (spilled at the cap).
  OpenSecond& switch_to(int64_t second);
  void close(OpenSecond& s);

  SharedCounts* shared_;
  int64_t since_, until_;
  size_t max_seconds_;
  bool time_forms_;  // tally_.time_forms is counted
  SecondMap per_second_;
  // The run of lines of one second counted last (none if run_lines_ is 0):
  // logs come in time order, a second's lines mostly together, so most lines
  // are counted without a lookup in the map, which has only the run's first.
  int64_t run_second_ = 0;
  uint64_t run_lines_ = 0;
  std::optional<AppCache> apps_;  // with --by-app
  std::optional<MeasureCounter> measures_;  // with measures
  OpenSecond open_[2];  // --by-app: the most recent first
  AppPairs app_pairs_;
  Summary tally_;  // but for its fields with at most kFewFields of them
  // With at most kFewFields fields, the lines by how they held them all, by
  // field_kinds: one increment a line rather than one a field; tally() adds
  // them into Summary::fields.
  static constexpr size_t kFewFields = 3;
  std::vector<uint64_t> by_kinds_;
};

}  // namespace logagg
