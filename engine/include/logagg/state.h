// Incremental runs (`logagg --state FILE`): a state file remembers, for each
// input file, where counting stopped (at a line boundary) and how to know the
// file again, plus the result counted so far. A run with the same state
// counts only what is new and returns the cumulative result, so a job run
// from cron never counts a line twice, across rotations and compression.
//
// Recognition (docs/GUIDE.md, "Incremental runs"): a file whose device,
// inode, size and modification time are those recorded is unchanged and not
// opened. Any other file is known by its content: the first 4 KiB (or fewer,
// up to where counting stopped) and the 4 KiB before the stop must hash to
// the recorded values; then counting goes on from the stop, whatever the
// file is called now and whether it was compressed since. A file that is
// shorter than its stop or differs there is new and counted from its start.
// A plain file's last line is counted once its LF is written; a compressed
// file is read to its end.
//
// The state is written atomically (a temporary file, fsync, rename) and
// locked for the run (STATE.lock, flock): a second run with the same state
// is refused. Errors that leave the state untouched are thrown as StateError.
//
// Each save is the state's next generation. With a delta folder
// (--delta-dir DIR), a run's delta (what it added, as a `--format json`
// document) is committed together with the state: it appears in DIR as
// NNNNNNNNNNNN.json, N the generation it saved, if and only if the state was
// saved, so that the files of DIR, added up, count every line once however
// runs fail or are killed (docs/GUIDE.md, "Deltas a consumer adds up").
#pragma once

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "logagg/options.h"
#include "logagg/query.h"
#include "logagg/result.h"

namespace logagg {

// The state file cannot be used: in use by another run, not a state file,
// from another version of logagg, or made with other counting options. Thrown
// before anything is read or written; the message names the file.
class StateError : public std::runtime_error {
 public:
  StateError(std::string path, const std::string& why) : std::runtime_error(why), path_(std::move(path)) {}
  const std::string& path() const noexcept { return path_; }  // what() is why

 private:
  std::string path_;
};

struct StateUpdate;  // the new state of a run, not saved yet (incremental.cc)

struct IncrementalRun {
  // Everything counted under the state, this run included; its summary's
  // `files` are the files the state knows that this run found, `unreadable`
  // those this run could not read.
  Result total;
  Result added;  // what this run counted (its errors and reject samples are in both)
  // Why the state cannot be updated (a file changed while it was read: the
  // next run counts this run's lines again), or empty.
  std::string not_saved;
  // With a delta folder, after a save: why the delta, saved with the state,
  // is not in the folder under its name yet (the rename failed), or empty.
  // The next run puts it there before anything else.
  std::string unpublished;

  // Saves the new state (and with a delta folder, this run's delta with it)
  // and lets go of the lock: call it once the report is written, so that a
  // report that is lost (a full disk, a closed pipe) leaves the old state and
  // the next run reports these lines again. Returns why it was not saved
  // (not_saved, or the write's error; then no delta file appears), or empty.
  // A run never saved leaves the state as it was.
  std::string save();

  IncrementalRun();
  IncrementalRun(IncrementalRun&&) noexcept;
  IncrementalRun& operator=(IncrementalRun&&) noexcept;
  ~IncrementalRun();

 private:
  friend IncrementalRun aggregate_incremental(const std::vector<std::string>&, const Query&, const RunSettings&,
                                              const std::string&, const std::string&);
  std::unique_ptr<StateUpdate> update_;
};

// Counts `paths` (files and folders, as aggregate(); not standard input) from
// where the state at `state_path` left them; the state stays locked until
// the run is saved or destroyed. A missing state file starts an empty one.
// Options::range must be unset. `delta_dir`, if not empty, is the folder
// this run's delta is committed to (made if missing); a state saved with one
// must be given the same in every later run, else StateError. Before
// counting, the folder is settled: the delta of a run that saved the state
// but was stopped before publishing it is published, those of runs that did
// not save it are deleted.
IncrementalRun aggregate_incremental(const std::vector<std::string>& paths, const Query& query, const RunSettings& run,
                                     const std::string& state_path, const std::string& delta_dir = {});
// The same for the question of `options` (Query(options), built here).
IncrementalRun aggregate_incremental(const std::vector<std::string>& paths, const Options& options,
                                     const std::string& state_path, const std::string& delta_dir = {});

}  // namespace logagg
