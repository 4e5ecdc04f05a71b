// Counting inputs from a known point on: the incremental runs of --state
// (state/) read each file only past where the last run stopped.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "logagg/options.h"
#include "logagg/result.h"

namespace logagg {

// One file, or the part of it still to count.
struct InputSpan {
  std::string path;
  std::string name;  // for messages and reject samples (`path` may be /proc/self/fd/N)
  // With `end`, the file must be plain: only the lines that start in
  // [begin, end) are read (as Options::range; `end` a line start). Without,
  // the content (decompressed, if compressed) is read from byte `begin` to
  // its end; `begin` must be a line start.
  uint64_t begin = 0;
  std::optional<uint64_t> end;
  uint64_t first_line = 0;  // lines before `begin`: reject samples are numbered after them
  // With `path` empty: the span's bytes, whole lines, read by the caller
  // from byte `begin` of the file; they must outlive the call.
  std::string_view text;
};

// How one span was read.
struct SpanRead {
  uint64_t lines = 0;     // lines read (counted, blank or rejected)
  bool complete = false;  // read to its end: no error, not changed while mapped
};

// Aggregates the spans as aggregate() does its inputs (Options::range is not
// used); `reads` gets one entry per span, in order.
Result aggregate_spans(const std::vector<InputSpan>& spans, const Options& options, std::vector<SpanRead>& reads);

}  // namespace logagg
