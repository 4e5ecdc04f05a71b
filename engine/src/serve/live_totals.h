// The counters of /metrics (LiveServer): every round of a followed run added
// up since logagg started (FollowOptions::on_round), and their exposition in
// Prometheus's text format (0.0.4):
// - logagg_lines_total{KEYS}: lines counted, per key (the --by-app / --by
//   columns as labels);
// - logagg_lines_read_total, _blank_total, _outside_range_total (with
//   --since/--until), _rejected_total{reason} (every reason, 0 included) and
//   _filtered_total{filter} (each --where);
// - logagg_lines_matching_total{count_if, KEYS}: each --count-if's lines;
// - logagg_FIELD_total{KEYS} for each --sum field, exact: a field with a
//   --unit, or whose name ends in one (_ms, _us, _ns, _s, _sec, _seconds,
//   ...), in seconds (logagg_FIELD_seconds_total, the unit's suffix dropped
//   from FIELD), others as summed.
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
  // `units`: the --unit of each field (ReportOptions::units).
  LiveTotals(const Query& query, const std::vector<std::pair<std::string, DurationUnit>>& units);

  // Adds a round's counted lines and its summary.
  void add(const Result& round);
  // The counters in Prometheus's text exposition format.
  std::string exposition() const;

 private:
  struct KeyTotals {
    uint64_t lines = 0;
    std::vector<uint64_t> matching;  // per --count-if
    std::vector<FixedSum> sums;      // per summed field (spec order)
    std::vector<uint8_t> digits;     // the most fraction digits of each summed field's values
  };
  KeyTotals& totals_of(const std::string& key);
  // The unit of a summed field's values: its --unit, else the one its name
  // ends in (latency_ms: ms), else none.
  std::optional<DurationUnit> unit_of(const std::string& field) const;
  void add_cell(KeyTotals& t, const MeasureCell& cell) const;
  void append_key_labels(std::string& out, bool& first, const std::string& key) const;

  Query query_;
  std::vector<std::pair<std::string, DurationUnit>> units_;
  std::vector<size_t> summed_;            // the summed fields' indexes in MeasureSpec::fields
  std::vector<std::string> label_names_;  // of the key columns
  Summary summary_;
  std::map<std::string, KeyTotals> keys_;  // by key tuple ("" without keys)
  size_t max_keys_;
};

}  // namespace logagg
