// What a run of the engine is asked to do. Plain data; the CLI fills it from
// flags, embedders fill it directly. A plain value: copy it, share it
// read-only between threads. The last fields shape the report only
// (report.h): aggregate() always counts per second and ignores them.
#pragma once

#include <cstddef>
#include <string>

#include "logagg/buckets.h"

namespace logagg {

struct Options {
  std::string app_field = "app_id";     // top-level field holding the application id
  std::string time_field = "timestamp"; // top-level field holding the RFC 3339 timestamp
  unsigned threads = 0;                 // worker threads; 0 = the machine's hardware threads
  size_t segment_bytes = 0;             // nominal segment size; 0 = chosen from input size and threads
  size_t max_reject_samples = 0;        // keep the locations of the first N rejected lines
  size_t max_line_bytes = size_t{64} << 20;  // longer lines are rejected as "line too long"
  Bucketing bucketing;                  // report rows per bucket; default one second
  bool fill_gaps = false;               // report zero rows for empty buckets between the first and last
};

}  // namespace logagg
