// The per-line loop (see line_scanner.h).
#include "count/line_scanner.h"

#include <cstring>

namespace logagg {
namespace {

inline void record(const LineVerdict& v, Counter& counter, ScanLog& log) {
  counter.record(v);
  if (v.status == LineStatus::kRejected && log.rejects.size() < log.limit) {
    log.rejects.push_back({log.lines, v.reason});
  }
  ++log.lines;
}

}  // namespace

void scan_lines(std::string_view text, size_t readable, LineParser& parser, Counter& counter,
                ScanLog& log) {
  const char* p = text.data();
  const char* const end = p + text.size();
  while (p < end) {
    const char* lf = static_cast<const char*>(std::memchr(p, '\n', static_cast<size_t>(end - p)));
    const char* line_end = lf != nullptr ? lf : end;
    size_t len = static_cast<size_t>(line_end - p);
    if (lf != nullptr && len > 0 && p[len - 1] == '\r') --len;  // only a CR before a LF
    const size_t offset = static_cast<size_t>(p - text.data());
    record(parser.classify(std::string_view(p, len), readable - offset), counter, log);
    p = lf != nullptr ? lf + 1 : end;
  }
}

void record_skipped_line(bool blank, Counter& counter, ScanLog& log) {
  record(blank ? LineVerdict::blank() : LineVerdict::rejected(Reason::kLineTooLong), counter, log);
}

}  // namespace logagg
