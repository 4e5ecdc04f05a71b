// --delta-dir DIR: each run's delta (what it added, a `--format json`
// document) as a file of DIR, committed together with the state, so that a
// consumer who adds up the files of DIR counts every line once, whenever a
// run fails or is killed (docs/architecture.md, "Deltas committed with the
// state").
//
// The delta of the run that saves the state's generation N is the file
// NNNNNNNNNNNN.json (N in 12 digits: name order is generation order). Under
// the state's lock, a run:
//   1. writes its delta to .NNNNNNNNNNNN.json.pending in DIR, synced;
//   2. saves the state, generation N, naming DIR (atomic: the commit);
//   3. renames the pending file to NNNNNNNNNNNN.json (published).
// A run killed before 2 leaves a pending file of a generation past the
// state's: the next run deletes it (the state did not move, so it counts
// those lines again). A run killed between 2 and 3 leaves the pending file
// of the state's own generation: the next run publishes it first. So every
// NNNNNNNNNNNN.json is the delta of a saved state, published once, and no
// line is in two of them. A state names its DIR, and every later run must
// give it (a run that saved the state without publishing its delta would
// lose its lines for the consumer).
#pragma once

#include <cstdint>
#include <string>

#include "state/state_file.h"

namespace logagg {

// NNNNNNNNNNNN.json, the published delta of generation N.
std::string delta_file_name(uint64_t generation);

// `dir` as a state records it: absolute, normal, symbolic links resolved.
std::string delta_dir_path(const std::string& dir);

// Readies `dir` (made if missing) for the delta of the run after `state`,
// read from `state_path`: publishes the pending delta of a run that saved
// the state but was stopped before publishing, deletes those of runs that
// did not save it, and checks that the name of the next generation is free.
// Throws StateError if `dir` cannot be used, or is the state's own folder (a
// consumer of its *.json files would take a state named so).
void settle_deltas(const std::string& dir, const State& state, const std::string& state_path);

// Step 1: the delta of `generation`, synced to its pending file in `dir`.
// Returns an error message, or empty; a pending file not written is removed.
std::string write_pending_delta(const std::string& dir, uint64_t generation, const std::string& json);

// After a failed commit: the pending file is removed (the next run would).
void drop_pending_delta(const std::string& dir, uint64_t generation);

// Step 3: the pending delta of `generation` renamed to its published name.
// Returns an error message, or empty.
std::string publish_delta(const std::string& dir, uint64_t generation);

}  // namespace logagg
