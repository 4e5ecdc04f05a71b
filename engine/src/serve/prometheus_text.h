// Pieces of Prometheus's text exposition format (0.0.4) for /metrics
// (live_totals.cc): metric and label names made valid from any text, label
// values and HELP text escaped as the format asks, and exact decimals moved
// to a base unit. Pure functions.
#pragma once

#include <string>
#include <string_view>

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
// A plain decimal ("1234.5", "-7", "0.25") divided by 10^digits, exactly:
// ("1234.5", 3) is "1.2345", ("7", 3) "0.007", ("-1500", 3) "-1.5".
std::string shift_decimal(std::string_view decimal, int digits);

}  // namespace logagg
