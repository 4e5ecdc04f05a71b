// The counters of /metrics (LiveServer): every round of a followed run added
// up since logagg started (FollowOptions::on_round), and their exposition in
// Prometheus's text format (0.0.4):
// - logagg_lines_total{KEYS}: lines counted, per key (the --by-app / --by
//   columns as labels);
// - logagg_lines_read_total, _blank_total, _outside_range_total (with
//   --since/--until), _rejected_total{reason} (every reason, 0 included) and
//   _filtered_total{filter} (each --where);
// - logagg_lines_matching_total{count_if, KEYS}: each --count-if's lines;
// - logagg_FIELD_total{KEYS} for each --sum field, exact; a field with a
//   unit (field_unit: its --unit, or the one its name ends in) in seconds,
//   as logagg_FIELD_seconds_total (field_metric_name);
// - logagg_FIELD{KEYS} histograms of the --quantiles fields with bounds
//   (Question::histograms): _bucket{le} cumulative counts, exact (each value
//   against each bound), _sum (exact) and _count, in seconds for a unit.
// Keys past Question::max_apps count as "(other)", so memory stays bounded.
// Counters only grow: rotations and truncations of the logs change nothing;
// a restart of logagg starts them from zero (Prometheus's rate() reads that
// as a counter reset). Not thread-safe: LiveServer holds it under its lock.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "logagg/measures.h"
#include "logagg/query.h"
#include "logagg/report.h"
#include "logagg/result.h"

namespace logagg {

class LiveTotals {
 public:
  // `units`: the --unit of each field (ReportOptions::units); `le`: the
  // bound of each histogram as its `le` label says it (in seconds for a
  // field with a unit), by field (ServeOptions::histograms).
  LiveTotals(const Query& query, const std::vector<std::pair<std::string, DurationUnit>>& units,
             const std::vector<std::pair<std::string, std::vector<std::string>>>& le = {});

  // Adds a round's counted lines and its summary.
  void add(const Result& round);
  // The counters in Prometheus's text exposition format.
  std::string exposition() const;
  // Every round's summary added: the lines read since logagg started.
  const Summary& summary() const { return summary_; }

 private:
  // A --sum field, or a histogram: where its values are in a cell, and how
  // its metric is named and written.
  struct Measured {
    size_t field;                      // in MeasureSpec::fields
    std::string metric;                // logagg_FIELD (without _total)
    std::optional<DurationUnit> unit;  // written in seconds
    std::vector<std::string> le;       // a histogram's bounds as written
  };
  struct FieldTotals {
    uint64_t n = 0;
    FixedSum sum;
    uint8_t digits = 0;
    std::vector<uint64_t> histogram;
  };
  struct KeyTotals {
    uint64_t lines = 0;
    std::vector<uint64_t> matching;   // per --count-if
    std::vector<FieldTotals> fields;  // per sums_, then per histograms_
  };
  KeyTotals& totals_of(const std::string& key);
  void append_key_labels(std::string& out, bool& first, const std::string& key) const;
  template <class Value>
  void samples(std::string& out, std::string_view name, std::string_view own, std::string_view own_value,
               const Value& value_of) const;
  void append_histogram(std::string& out, size_t h) const;
  std::string seconds_text(const FieldTotals& t, const Measured& m) const;

  Query query_;
  std::vector<Measured> sums_, histograms_;
  std::vector<std::string> label_names_;  // of the key columns
  Summary summary_;
  std::map<std::string, KeyTotals> keys_;  // by key tuple ("" without keys)
  size_t max_keys_;
};

}  // namespace logagg
