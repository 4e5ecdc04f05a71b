// Pieces of Prometheus's text exposition format (0.0.4) for /metrics
// (live_totals.cc): metric and label names made valid from any text, label
// values and HELP text escaped as the format asks, and exact decimals moved
// to a base unit. Pure functions.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "logagg/report.h"

namespace logagg {

// `text` as a metric name: [a-z_][a-z0-9_]* (no colon: those are for
// recording rules), each other byte as '_', a leading digit after a '_',
// camelCase as snake_case ("respTime": "resp_time").
std::string metric_name(std::string_view text);
// `text` as a label name: as metric_name, and never starting with "__"
// (reserved): such a name loses its leading underscores ("_" if nothing is left).
std::string label_name(std::string_view text);
// Appends `value` as a label value between its quotes: valid UTF-8 (a byte
// that starts no valid sequence as U+FFFD, since one invalid byte makes
// Prometheus refuse the whole scrape), with \ as \\, " as \" and a line
// feed as \n.
void append_label_value(std::string& out, std::string_view value);
// Appends `text` as the text of a HELP line: \ as \\ and a line feed as \n.
void append_help_text(std::string& out, std::string_view text);
// A plain decimal ("1234.5", "-7", "0.25") divided by 10^digits, exactly
// (multiplied for negative digits): ("1234.5", 3) is "1.2345", ("7", 3)
// "0.007", ("-1500", 3) "-1.5", ("0.005", -3) "5".
std::string shift_decimal(std::string_view decimal, int digits);

// The unit of a field's values for /metrics: its --unit in `units` (the
// last given), else the one its name ends in as a last token (_s, _sec,
// _seconds, _ms, _millis, _milliseconds, _us, _micros, _microseconds, _ns,
// _nanos, _nanoseconds: "latency_ms" is in ms), else none.
std::optional<DurationUnit> field_unit(std::string_view field,
                                       const std::vector<std::pair<std::string, DurationUnit>>& units);
// A field's name in a metric's: metric_name(field), and with a unit, that
// unit's suffix dropped and "_seconds" appended ("latency_ms": "latency_seconds").
std::string field_metric_name(std::string_view field, std::optional<DurationUnit> unit);
// The places a decimal in `unit` moves to be in seconds (ms: 3).
int digits_to_seconds(DurationUnit unit);

}  // namespace logagg
