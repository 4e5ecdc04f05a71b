// The per-line loop shared by mapped segments and streamed chunks: classifies
// each line of a run of whole lines (BlockParser: split at LF, one CR before
// each LF dropped) and records the verdict. Keeps the first rejected lines'
// positions for --show-rejects.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <vector>

#include "count/counter.h"
#include "parse/block_parser.h"

namespace logagg {

// A rejected line, by index from the start of its segment or stream (0-based).
struct LocalReject {
  uint64_t line;
  Reason reason;
};

// What scanning one segment (or one whole stream) produced besides counts.
struct ScanLog {
  explicit ScanLog(size_t reject_limit = 0) : limit(reject_limit) {}

  uint64_t lines = 0;
  std::vector<LocalReject> rejects;  // at most `limit`
  size_t limit = 0;
};

// Classifies every line of `text` (whole lines; the last may lack its LF).
// `readable` bytes from text.data() may be read (>= text.size()).
void scan_lines(std::string_view text, size_t readable, BlockParser& parser, Counter& counter,
                ScanLog& log);

// Records one line that was too long to be buffered (streams only): blank if
// it held only blanks, else rejected as too long.
void record_skipped_line(bool blank, Counter& counter, ScanLog& log);

}  // namespace logagg
