// The parse stage's face: LineParser classifies one log line, BlockParser
// (below) a block of whole lines, by the LineRules a Query compiles; their
// verdicts are line_verdict.h's.
//
// A line is counted (and in which second), blank, or rejected.
//
// The rules, exactly:
// - The caller hands over the line without its LF and without one CR before it.
// - A line of only spaces, tabs and CRs is blank.
// - Otherwise it must be exactly one RFC 8259 JSON value (valid UTF-8, any
//   whitespace around it, nothing after it) that is an object. Validation is
//   complete: every number, literal, string escape and key in the line is
//   checked, also in fields that are not used. Numbers of any magnitude are
//   valid JSON. Nesting depth is not limited.
// - The object holds the app field and the time field each exactly once, where
//   their paths say (field_path.h: a top-level key, or a JSON Pointer whose
//   every step is there once: a key met twice on the way is a duplicate, a
//   step that is absent or into a scalar leaves the field missing), both
//   strings; the app id (unescaped) matches the app pattern whole
//   (app_pattern.h; by default letters and digits) and the time, a string
//   (unescaped) or, for the unix* formats, also a JSON number, is in the
//   time format (time_format.h; by default RFC 3339).
//
// Padding contract (simdjson reads up to kLinePadding bytes past a value):
// `readable` is how many bytes from line.data() the caller guarantees are
// readable (>= line.size()); their content past the line does not matter. When
// readable < line.size() + kLinePadding (the last lines of a mapped file), the
// parser copies the line into its own padded buffer first.
//
// One LineParser per thread: it owns a simdjson parser and scratch buffers that
// grow to the longest line seen and are then reused, so classify() does not
// allocate in the steady state. Not thread-safe; movable, not copyable.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <absl/functional/function_ref.h>

#include "model/line_verdict.h"
#include "parse/line_rules.h"
#include "parse/measure_value.h"  // read_measure: the measured values detect and the report read
#include "text/lines.h"  // kLinePadding

namespace logagg {

class LineParser {
 public:
  // `max_line_bytes`: longer lines are rejected as kLineTooLong without parsing.
  LineParser(const LineRules& rules, size_t max_line_bytes);
  // The rules of two field names (plain names or pointers, dotted names with
  // their nested forms), for tests and tools.
  LineParser(std::string_view app_field, std::string_view time_field, size_t max_line_bytes);
  ~LineParser();
  LineParser(LineParser&&) noexcept;
  LineParser& operator=(LineParser&&) noexcept;

  LineVerdict classify(std::string_view line, size_t readable);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

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
