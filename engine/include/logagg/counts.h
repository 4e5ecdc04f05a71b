// One row of counts: a UTC second (or the start of a bucket, see buckets.h)
// and how many lines fell in it; with --by-app, also which app. Plain values.
#pragma once

#include <cstdint>

namespace logagg {

struct SecondCount {
  int64_t second;  // UTC seconds since 1970-01-01T00:00:00Z; a bucket's start after rebucketing
  uint64_t count;
  friend bool operator==(const SecondCount&, const SecondCount&) = default;
};

struct AppCount {
  int64_t second;  // as SecondCount::second
  uint32_t app;    // index into Result::apps
  uint64_t count;
  friend bool operator==(const AppCount&, const AppCount&) = default;
};

}  // namespace logagg
