// The files --follow reads, from round to round (follower.h): found again by
// device and inode at each discovery, so that a file renamed away is still
// read through the descriptor held; opened as soon as they are found; and,
// where descriptors run short (a low `ulimit -n`), closed while idle and
// opened again when they change, so that every file is read in turn and
// none is dropped. A file that goes before it could be opened is told as a
// loss, never dropped in silence.
#pragma once

#include <sys/stat.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "follow/descriptor_budget.h"
#include "follow/discovery.h"
#include "logagg/result.h"
#include "state/file_tracker.h"

namespace logagg {

using FollowClock = std::chrono::steady_clock;

struct Held {
  TrackedFile file;        // file.name: where it is now, or was last found; file.fd: -1 while closed
  std::string first_name;  // where it was first found
  struct stat found {};    // at the last discovery (file.st: when last planned or fstat'd)
  bool at_path = false;    // found by the last discovery
  bool history = false;    // a rotation there before following began: what it held then is not counted
  bool opened = false;     // opened at least once
  bool unread = false;     // the last round left bytes of it to read, or could not read it
  bool fresh = false;      // opened since the last round: not idle before a round has read it
  bool missed = false;     // not there when it was to be opened: found again under another name, or lost
  int64_t size = -1;             // at the last round
  FollowClock::time_point grew;  // when its size last changed
  uint64_t counted_to = 0;       // where the record of its own bytes stood after the last round
  uint64_t seen = 0;             // its size when a round last knew its bytes for its own (follower.cc)
  bool rotated() const { return !at_path || file.name != first_name; }
  // Closable: read to its end by the last round, and not empty (an empty
  // file has just been created: its writer is about to write it, and should
  // it then go before it is opened again, its lines would go unseen).
  bool idle() const { return at_path && !unread && !fresh && file.st.st_size > 0; }
  // Closed, and changed (at the last discovery) since it was.
  bool changed_while_closed() const;
};

class HeldFiles {
 public:
  // At most `max_open` descriptors are held at once (with those of the
  // names opened at their creation, not yet held: budget()).
  explicit HeldFiles(size_t max_open) : budget_(max_open) {}
  ~HeldFiles();
  HeldFiles(const HeldFiles&) = delete;
  HeldFiles& operator=(const HeldFiles&) = delete;

  // Takes a discovery: the files found are found again among those held (a
  // renamed file under its new name) or held from now on. A file never
  // opened that is not found any more (removed, or renamed out of the
  // followed paths, while it waited for a descriptor) is dropped and goes
  // to `errors` as a loss (history, not counted anyway, goes in silence).
  // With `first` (the start), the rotations found are history: their
  // content is not counted, and a compressed one is never read.
  void take(const Found& found, bool first, std::vector<InputError>& errors);
  // Opens the files never opened yet, in the order found, while descriptors
  // allow (closing idle files to make room); a file that cannot be opened
  // for another reason goes to `errors` and is dropped (found again, tried
  // again); one gone from its name waits for the next discovery (take).
  void open_new(std::vector<InputError>& errors);
  // Holds a file at `path` as soon as it was created (Follower::note: before
  // a discovery finds it, and before it can go): `fd`, opened at the name's
  // event (counted in the budget already), as fstat gave `st`; or, with -1,
  // opened now if a descriptor is to be had. True if it is held now (or was
  // already).
  bool hold_created(const std::string& path, int fd, const struct stat& st);
  // A file named `is_path` removed (its name's event): if it was found and
  // never opened, and is not at its name any more, it goes to `errors` as a
  // loss and is dropped at once, before its inode, free, can be a new
  // file's (ext4 gives it to the next file created) and be taken for it.
  // True if such a file was dropped (told lost, unless history).
  bool removed(const std::function<bool(const Held&)>& is_path, std::vector<InputError>& errors);
  // Closes idle files (found at a path, read to their end by the last
  // round), the least recently grown first, until `wanted` descriptors are
  // free or none is idle.
  void close_idle(size_t wanted);
  // Adopts descriptors the tracker opened for closed files (plan()).
  void adopt(size_t index, int fd);
  // Lets go of file `index` (closed, no longer held). One closed while
  // idle that changed since (as the last discovery found it) goes to
  // `errors` as a loss: the bytes it gained are not counted.
  void drop(size_t index, std::vector<InputError>& errors);

  std::vector<Held>& files() { return held_; }
  const std::vector<Held>& files() const { return held_; }
  size_t open_count() const { return open_; }
  size_t most_open() const { return most_open_; }  // the most held open at once
  size_t free_descriptors() const { return budget_.free(); }
  DescriptorBudget& budget() { return budget_; }
  // Files that want a descriptor: never opened, or closed and changed since.
  size_t waiting() const;
  // Descriptors are short: fewer free than files waiting for one, or less
  // than a quarter of the budget free (new names take theirs from it the
  // moment they are created). Files no name leads to any more are then
  // read to their end at once and let go (Follower::plan), not after their
  // quiet time.
  bool short_of_descriptors() const;
  // A round now would free descriptors: files wait with none free and one
  // is idle (closable), or descriptors are short and a file held open is
  // gone from sight (read to its end and let go).
  bool round_frees() const;
  // Files opened to be read, each once (not history).
  uint64_t files_read() const { return files_read_; }
  // Files gone before they could be opened (their lines are lost; each
  // also told through take's errors).
  uint64_t files_lost() const { return files_lost_; }
  // Why the last file that wanted a descriptor got none while none was held
  // to close (EMFILE with nothing open): following cannot go on. Else empty.
  const std::string& out_of_descriptors() const { return out_of_descriptors_; }

 private:
  enum class Opening { kOpened, kNoDescriptor, kMissed, kDropped };
  Opening open_one(Held& h, std::vector<InputError>& errors);
  void lose(const Held& h, const std::string& why, std::vector<InputError>& errors);
  void lose_unopened(const Held& h, std::vector<InputError>& errors);  // gone before it was opened
  void hold_open(Held& h, int fd, const struct stat& st);  // h opened: holds fd (in the budget) from now on
  Held* holding(const struct stat& st, const std::string& path);  // the held file found at `path` as `st`, if any
  bool close_oldest_idle();  // false: none is idle

  DescriptorBudget budget_;
  size_t open_ = 0;  // held open (budget_ counts these and the names' not yet held)
  size_t most_open_ = 0;
  uint64_t files_read_ = 0;
  uint64_t files_lost_ = 0;
  std::vector<Held> held_;
  // The compressed rotations there at the start, by device, inode, size and
  // mtime (an inode freed when one is removed may be a new file's soon).
  std::set<std::tuple<uint64_t, uint64_t, int64_t, int64_t, int64_t>> history_;
  std::string out_of_descriptors_;
};

}  // namespace logagg
