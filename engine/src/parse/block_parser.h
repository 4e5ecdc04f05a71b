// Classifies a run of whole lines a block at a time: simdjson's stage 1 runs
// once over a block of many lines (the structural index, UTF-8 validation,
// control characters and unclosed strings for all of them at once), then a
// validating state machine walks each line's structural indexes, checking the
// JSON grammar completely (objects, arrays, commas, colons, every number and
// literal, every escape) and picking out the two fields, without a tape or a
// DOM. The verdicts are LineParser's (line_parser.h), byte for byte: it stays
// the reference (tests/unit/block_parser_test.cc) and takes the
// lines the block path does not:
// - a line whose first non-blank byte is not '{' or whose last is not '}'
//   (blank lines, other JSON values, many broken lines), or that is longer
//   than max_line_bytes: stage 1 runs over the runs of lines between such
//   lines, so a line cut short inside a string does not make it refuse them;
// - a line stage 1 refuses (invalid UTF-8, a raw control character, a string
//   not closed on its line: a raw LF inside a string is a control character,
//   so no string can reach into the next line). Stage 1 refuses a whole
//   block for one such line, so the block is halved and stage 1 restarts on
//   each half until the lines it refuses are found, in runs of a few lines;
// - a line longer than a block (a block of its own).
// So a bad line costs its neighbours a few restarts of stage 1, never a
// verdict.
//
// One BlockParser per thread: it owns the stage-1 buffers and a LineParser,
// and does not allocate once they have grown to the block size.
#pragma once

#include <absl/functional/function_ref.h>

#include <cstddef>
#include <memory>
#include <string_view>

#include "parse/line_parser.h"
#include "parse/line_verdict.h"

namespace logagg {

class BlockParser {
 public:
  // How many bytes of lines a block holds at most, unless one line is longer.
  // micro_bench's BM_ClassifySampleInBlocks on a dirty corpus: 16 and 32 KiB
  // fastest, 256 KiB clearly slower (a bad line costs its block restarts of
  // stage 1, so smaller blocks lose less): docs/performance.md#micro-benchmarks.
  static constexpr size_t kDefaultBlockBytes = size_t{32} << 10;

  BlockParser(const LineRules& rules, size_t max_line_bytes, size_t block_bytes = kDefaultBlockBytes);
  ~BlockParser();
  BlockParser(BlockParser&&) noexcept;
  BlockParser& operator=(BlockParser&&) noexcept;

  // Calls emit(verdict) for every line of `text`, in order: whole lines, split
  // at LF, one CR before a LF dropped (as LineParser::classify takes them);
  // the last line may lack its LF. `readable` bytes from text.data() may be
  // read (>= text.size()). A verdict's app id is valid until emit returns.
  void classify_lines(std::string_view text, size_t readable, absl::FunctionRef<void(const LineVerdict&)> emit);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace logagg
