// The profiling walkthrough's five stages (profiling/walkthrough.sh): complete
// aggregators with the engine's counting rules and output, from the Java
// aggregator's C++ twin to the engine. Stages 1-3 each swap one piece of the
// stage before, as the Java walkthrough did step by step; stage 4 is the
// engine itself.
//
//   const Stage& s = kStages[2];
//   logagg::Result r = s.run("access.log", logagg::Options{});
//
// For the same file every stage returns the same counts and line accounting
// as logagg::aggregate, so logagg::write_report prints the same bytes. Stages
// 0-3 heed only Options::app_field, time_field and max_line_bytes: they count
// per second, every valid line.
#pragma once

#include <array>
#include <string>
#include <string_view>

#include "logagg/aggregate.h"
#include "logagg/options.h"

namespace logagg::walkthrough {

struct Stage {
  std::string_view name;    // one word, for tables and file names
  std::string_view change;  // what this stage does differently from the one before
  Result (*run)(const std::string& path, const Options& options);
};

// Stage N is kStages[N]. Stages 0-3 run on the calling thread; stage 4 uses
// Options::threads.
extern const std::array<Stage, 5> kStages;

}  // namespace logagg::walkthrough
