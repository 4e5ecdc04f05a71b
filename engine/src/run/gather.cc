// Gathering a run's result (see gather.h).
#include "run/gather.h"

#include <string>
#include <utility>

#include "count/count.h"

namespace logagg {
namespace {

// Turns per-segment reject positions into the first N absolute line numbers
// (and those of every line too long past them, where the logs kept those).
std::vector<RejectSample> collect_rejects(const std::vector<std::unique_ptr<Source>>& sources, size_t limit) {
  std::vector<RejectSample> out;
  for (const auto& src : sources) {
    uint64_t base = src->first_line;
    for (const ScanLog& log : src->logs) {
      for (const LocalReject& r : log.rejects) {
        if (out.size() < limit || (log.too_long && r.reason == Reason::kLineTooLong)) {
          out.push_back({src->name, base + r.line + 1, r.reason});
        }
      }
      base += log.lines;
    }
  }
  return out;
}

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

// The summary of how the sources were read, their errors after `errors`,
// and with `reads` how each was read.
void account_sources(const std::vector<std::unique_ptr<Source>>& sources, std::vector<InputError>& errors,
                     Summary& summary, std::vector<SpanRead>* reads) {
  for (const auto& src : sources) {
    if (!src->error.empty()) errors.push_back({src->name, src->error});
    if (src->changed) {
      errors.push_back({src->name,
                        "file changed while being read (truncated?); "
                        "only the lines read before the change are counted"});
    }
    summary.unreadable += src->unreadable;
    summary.files += !src->unreadable && src->counts_as_file;
    summary.bytes += src->bytes;
    if (reads != nullptr) {
      SpanRead& read = reads->emplace_back();
      for (const ScanLog& log : src->logs) read.lines += log.lines;
      read.complete = src->error.empty() && !src->changed;
    }
  }
}

}  // namespace

Result gather(const std::vector<std::unique_ptr<Source>>& sources, const std::vector<Worker>& workers,
              SharedTallies& tallies, const Query& query, size_t max_reject_samples, std::vector<InputError> errors,
              std::vector<SpanRead>* reads) {
  Result result;
  result.query = query;
  account_sources(sources, errors, result.summary, reads);
  for (const Worker& w : workers) result.summary.add(w.counter.tally());
  result.summary.filtered_by.resize(query.question().where.size());
  result.summary.no_value.resize(query.question().by.size());
  result.summary.no_measure.resize(tallies.spec.fields.size());
  if (query.counts_time_forms()) result.summary.time_forms.resize(kTimeFormCount);
  result.summary.fields.resize(query.fields().size());
  if (!tallies.spec.empty()) {
    take_cells(tallies.measures, query.keyed() ? &tallies.apps : nullptr, result);
  } else if (query.keyed()) {
    take_app_counts(tallies.counts, tallies.apps, result);
  } else {
    result.counts = tallies.counts.take_sorted();
  }
  result.rejects = collect_rejects(sources, max_reject_samples);
  result.errors = std::move(errors);
  return result;
}

}  // namespace logagg
