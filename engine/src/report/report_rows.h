// The rows of a report: the per-second counts summed into the buckets of
// ReportOptions::bucketing, and with --by-app per bucket and app, the apps
// cut to the --top N busiest (the rest summed as "(other)"). Walking them
// yields the empty buckets between as zero rows when gaps are filled; those
// are generated while walking, never stored, so filling a gap of years costs
// no memory. With one bucket for the whole input (--overall) the rows are
// the keys', busiest first (ties in key order), "(other)" last.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "logagg/report.h"
#include "logagg/result.h"

namespace logagg {

class ReportRows {
 public:
  // `key_columns`: the names of the key columns the result was counted by
  // (Query::key_columns(); none: counted per second only).
  ReportRows(const Result& result, std::vector<std::string> key_columns, const ReportOptions& report);

  const Bucketing& bucketing() const { return bucketing_; }
  // Totals per bucket (all apps): ascending by start, non-empty buckets only.
  const std::vector<SecondCount>& buckets() const { return *buckets_; }

  // Whether the rows have keys (--by-app, --by), and the keys' column names.
  bool by_app() const { return !key_columns_.empty(); }
  const std::vector<std::string>& key_columns() const { return key_columns_; }
  // With --by-app: the apps shown, in name order, then "(other)"
  // (kOtherAppName) if it has lines; and the rows per (bucket start, index
  // into apps()), ascending.
  const std::vector<std::string>& apps() const { return apps_; }
  // Whether the app numbered `app` (an index into apps()) is that "(other)"
  // and not an app whose id is spelt so.
  bool is_other(uint32_t app) const { return other_shown_ && app + size_t{1} == apps_.size(); }
  // The key of apps()[app] for a row writer (row_writer.h): the id, or
  // kOtherApp for the "(other)" of ids not told apart.
  std::string_view key(uint32_t app) const { return is_other(app) ? kOtherApp : std::string_view(apps_[app]); }
  const std::vector<AppCount>& app_buckets() const { return *app_buckets_; }

  // Whether the rows go by count, busiest first (--overall with keys), not
  // by start then key.
  bool by_count() const { return !order_.empty(); }

  // Calls emit(bucket_start, app, count, cell) for every row, ascending by
  // start then app (by_count(): busiest first); `app` is an index into
  // apps(), 0 without --by-app;
  // `cell` the row's measures (nullptr without measures, and for the empty
  // rows of filled gaps). With gaps filled, every bucket from the first to
  // the last has a row (with --by-app: a row per app shown).
  template <typename Emit>
  void for_each(Emit&& emit) const {
    by_app() ? for_each_app(emit) : for_each_total(emit);
  }

 private:
  template <typename Emit>
  void for_each_total(Emit& emit) const {
    const std::vector<SecondCount>& b = *buckets_;
    for (size_t i = 0; i < b.size(); ++i) {
      if (fill_gaps_ && i > 0) {
        for (int64_t start = bucketing_.next(b[i - 1].second); start < b[i].second; start = bucketing_.next(start)) {
          emit(start, uint32_t{0}, uint64_t{0}, kNoCell);
        }
      }
      emit(b[i].second, uint32_t{0}, b[i].count, cell(i));
    }
  }

  template <typename Emit>
  void for_each_app(Emit& emit) const {
    if (by_count()) {
      for (const uint32_t r : order_) {
        const AppCount& c = (*app_buckets_)[r];
        emit(c.second, c.app, c.count, cell(r));
      }
      return;
    }
    if (!fill_gaps_) {
      for (size_t r = 0; r < app_buckets_->size(); ++r) {
        const AppCount& c = (*app_buckets_)[r];
        emit(c.second, c.app, c.count, cell(r));
      }
      return;
    }
    const std::vector<SecondCount>& b = *buckets_;
    const std::vector<AppCount>& rows = *app_buckets_;
    size_t row = 0;
    for (size_t i = 0; i < b.size(); ++i) {
      const int64_t from = i == 0 ? b[i].second : bucketing_.next(b[i - 1].second);
      for (int64_t start = from; start <= b[i].second; start = bucketing_.next(start)) {
        for (uint32_t app = 0; app < apps_.size(); ++app) {
          const bool has = row < rows.size() && rows[row].second == start && rows[row].app == app;
          if (has) {
            emit(start, app, rows[row].count, cell(row));
            ++row;
          } else {
            emit(start, app, uint64_t{0}, kNoCell);
          }
        }
      }
    }
  }

  // Sets order_: the rows of one whole-run bucket, busiest first.
  void order_by_count();

  static constexpr const MeasureCell* kNoCell = nullptr;
  // Row `row`'s cell, read into scratch_: good until the next call.
  const MeasureCell* cell(size_t row) const {
    if (cells_ == nullptr) return kNoCell;
    cells_->get(row, scratch_);
    return &scratch_;
  }

  Bucketing bucketing_;
  bool fill_gaps_;
  std::vector<std::string> key_columns_;
  const std::vector<SecondCount>* buckets_;  // result.counts itself for one-second buckets
  std::vector<SecondCount> owned_;
  std::vector<std::string> apps_;
  bool other_shown_ = false;  // apps_.back() is kOtherApp's row
  const std::vector<AppCount>* app_buckets_ = nullptr;  // result.app_counts itself when nothing is summed
  std::vector<AppCount> owned_app_buckets_;
  std::vector<uint32_t> order_;  // by_count(): the rows of app_buckets_, busiest first
  // With measures: the cells of the rows (of buckets_ without keys, of
  // app_buckets_ with them); result.cells itself when nothing is summed.
  const MeasureTable* cells_ = nullptr;
  MeasureTable owned_cells_;
  mutable MeasureCell scratch_;
};

}  // namespace logagg
