// The lines `logagg detect` looks at: a bounded sample of its inputs, so
// that it answers at once on files of any size. Per file, the first 64 KiB
// and 15 windows of 16 KiB spread evenly through the rest (whole lines
// only); a compressed file, standard input or any other stream, its first
// 256 KiB of content. At most 64 files (spread through the list) and 4000
// lines in all, shared out between the files.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "logagg/result.h"  // InputError

namespace logagg {

struct SampleLimits {
  size_t head_bytes = size_t{64} << 10;
  size_t windows = 15;  // after the head
  size_t window_bytes = size_t{16} << 10;
  size_t stream_bytes = size_t{256} << 10;
  size_t max_files = 64;
  size_t max_lines = 4000;
};

struct Sample {
  std::vector<std::string> files;  // the inputs sampled, in order
  std::vector<std::string> lines;  // without LF and one CR before it
  std::vector<InputError> errors;  // inputs that could not be read
};

// Samples the inputs `paths` names (files, folders as logagg reads them, "-").
Sample sample_inputs(const std::vector<std::string>& paths, const SampleLimits& limits = {});

}  // namespace logagg
