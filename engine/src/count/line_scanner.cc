// The per-line loop (scan_lines of count.h).
#include "count/count.h"

#include "count/counter.h"  // Counter::record, inline per line
#include "parse/line_parser.h"  // BlockParser

namespace logagg {
namespace {

inline void record(const LineVerdict& v, Counter& counter, ScanLog& log) {
  counter.record(v);
  if (v.status == LineStatus::kRejected &&
      (log.rejects.size() < log.limit || (log.too_long && v.reason == Reason::kLineTooLong))) {
    log.rejects.push_back({log.lines, v.reason});
  }
  ++log.lines;
}

}  // namespace

void scan_lines(std::string_view text, size_t readable, BlockParser& parser, Counter& counter, ScanLog& log) {
  parser.classify_lines(text, readable, [&](const LineVerdict& v) { record(v, counter, log); });
}

void record_skipped_line(bool blank, Counter& counter, ScanLog& log) {
  record(blank ? LineVerdict::blank() : LineVerdict::rejected(Reason::kLineTooLong), counter, log);
}

}  // namespace logagg
