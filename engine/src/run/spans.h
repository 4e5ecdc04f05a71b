// The run stage's face (the one header of run/ that state and follow
// include). Counting inputs from a known point on: the incremental runs of
// --state (state/) read each file only past where the last run stopped.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "logagg/options.h"
#include "logagg/query.h"
#include "logagg/result.h"

namespace logagg {

// A file as stat() names it.
struct FileId {
  uint64_t device = 0, inode = 0;
};

// One file, or the part of it still to count.
struct InputSpan {
  std::string path;
  std::string name;  // for messages and reject samples (`path` may be /proc/self/fd/N)
  // The bytes planned: of a plain file, the lines that start in [begin, end)
  // (as Options::range; both line starts), which the file must still hold;
  // of a compressed file, its content (decompressed) from byte `begin` (a
  // line start) to byte `end`, where it ended when planned: bytes appended
  // since are left to the next plan, and a file that no longer reaches
  // `end` is not read wholly.
  uint64_t begin = 0;
  uint64_t end = 0;
  uint64_t first_line = 0;  // lines before `begin`: reject samples are numbered after them
  // With `path` empty: the span's bytes, whole lines, read by the caller
  // from byte `begin` of the file; they must outlive the call.
  std::string_view text;
  // The file `path` must still be (it was planned on it, then closed): else
  // it was replaced, and the span is not read.
  std::optional<FileId> file;
};

// How one span was read.
struct SpanRead {
  uint64_t lines = 0;     // lines read (counted, blank or rejected)
  bool complete = false;  // read to its end: no error, not changed while mapped, not replaced
};

// Aggregates the spans as aggregate() does its inputs, answering `query`
// (RunSettings::range is not used);
// `reads` gets one entry per span, in order.
Result aggregate_spans(const std::vector<InputSpan>& spans, const Query& query, const RunSettings& options,
                       std::vector<SpanRead>& reads);

}  // namespace logagg
