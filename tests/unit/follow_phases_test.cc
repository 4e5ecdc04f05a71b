// Tests for the phases of a --follow round (engine/src/follow/), each alone
// and in rounds driven one by one, so that the rotation rules are checked in
// milliseconds:
// - is_rotation_name: the names logrotate gives (numbers, dates, the
//   extension kept, .gz and .zst), and names that are not rotations;
// - discover: a followed file, its rotations (flagged) and not the folder's
//   other files; a followed folder; a name not there yet is no error;
// - HeldFiles: found again by device and inode, history rotations (a
//   compressed one never read), descriptors under a limit: idle files closed
//   for the ones waiting, each file counted once;
// - CreatedNames: a followed name created, written and removed while no
//   one takes the events is held by the names' own thread (its bytes read
//   after the removal); a name not followed, or with no room in the
//   budget, comes without a descriptor; those not taken are given back;
// - reading_order and next_wait;
// - StreamInput: whole lines only, the last one at EOF, a line past the
//   limit kept short, a compressed stream refused;
// - TruncationLosses: taken over by a copy (read before or after the
//   truncation is seen), partly, or lost after the grace;
// - Follower rounds: one-file follow through copytruncate with bytes not
//   read yet, a file created and renamed within one round, the folder's
//   other files and its rotations from before not counted (nor their
//   compressed copies later), a truncation before a read told with its
//   range (an unfinished line's too), content written again after a
//   copytruncate before a plan took it no loss, 12 files read with 3 descriptors, each counted once, a closed
//   file renamed away between the discovery and the plan no error; and a
//   writer rotating on another thread while rounds run, each line counted
//   once and a loss told in at most 3 of the schedules.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "follow/created_names.h"
#include "follow/descriptor_budget.h"
#include "follow/discovery.h"
#include "follow/follower.h"
#include "follow/held_files.h"
#include "follow/next_wait.h"
#include "follow/rotation_names.h"
#include "follow/stream_input.h"
#include "follow/truncation_losses.h"
#include "support/compress.h"
#include "support/sanitizers.h"

namespace logagg {
namespace {

namespace fs = std::filesystem;
using std::chrono::milliseconds;

std::string line(int second, int n = 0) {
  return "{\"app_id\":\"a\",\"timestamp\":\"2024-01-02T03:04:" + std::string(second < 10 ? "0" : "") +
         std::to_string(second) + "Z\",\"n\":" + std::to_string(n) + "}\n";
}

std::string lines(int second, int count) {
  std::string out;
  for (int i = 0; i < count; ++i) out += line(second, i);
  return out;
}

// A fresh folder for one test, removed after it.
class Folder : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("logagg-phases-" + std::to_string(::getpid()) + "-" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  void write(const std::string& name, const std::string& bytes, bool append = false) const {
    std::ofstream(path(name), std::ios::binary | (append ? std::ios::app : std::ios::trunc)) << bytes;
  }
  fs::path dir_;
};

TEST(RotationNames, LogrotatesNamesAndNoOthers) {
  for (const char* name : {"access.log.1", "access.log.12", "access.log.2.gz", "access.log.3.zst",
                           "access.log-20261202", "access.log-20261202.gz", "access.log-2026-12-02",
                           "access.log_2026_12_02_1700", "access.1.log", "access-20261202.log", "access.2.log.gz",
                           "access.log.gz"}) {
    EXPECT_TRUE(is_rotation_name(name, "access.log")) << name;
  }
  for (const char* name : {"access.log", "access.log.old", "access.log.1.bz2", "access.log.1.xz", "access.log.",
                           "access.log.1.", "access.log..1", "access.log.1a", "error.log", "access.log2",
                           "xaccess.log.1", "access.log.gz.gz", "access.log-", "access.log.bak.1"}) {
    EXPECT_FALSE(is_rotation_name(name, "access.log")) << name;
  }
  EXPECT_TRUE(is_rotation_name("app.1", "app"));
  EXPECT_FALSE(is_rotation_name("app.1", ""));
  EXPECT_FALSE(is_rotation_name(".log.1.x", ".log"));
}

TEST_F(Folder, DiscoverAFileWithItsRotationsAndNothingElse) {
  for (const char* name : {"access.log", "access.log.1", "access.log-20261202.gz", "other.log", "access.log.old"}) {
    write(name, line(1));
  }
  fs::create_directories(dir_ / "access.log.2");  // not a file
  const Found found = FollowedPaths({path("access.log"), path("later.log")}, {}, {}).discover();
  EXPECT_TRUE(found.errors.empty());  // later.log is not there yet
  std::vector<std::pair<std::string, bool>> got;
  for (const FoundFile& f : found.files) got.emplace_back(fs::path(f.path).filename().string(), f.rotation);
  EXPECT_EQ(got, (std::vector<std::pair<std::string, bool>>{
                     {"access.log", false}, {"access.log-20261202.gz", true}, {"access.log.1", true}}));
  EXPECT_EQ(found.folders, std::vector<std::string>{dir_.string()});
  // A folder: every file in it, none a rotation.
  const Found all = FollowedPaths({dir_.string()}, {}, {}).discover();
  EXPECT_EQ(all.files.size(), 5u);
  for (const FoundFile& f : all.files) EXPECT_FALSE(f.rotation) << f.path;
}

TEST_F(Folder, HeldFilesFoundAgainHistoryAndDescriptors) {
  write("access.log", line(1));
  write("access.log.1", line(2));
  write("access.log.2.gz", gzip(line(3)));
  FollowedPaths paths({path("access.log")}, {}, {});
  HeldFiles held(3);
  std::vector<InputError> errors;
  held.take(paths.discover(), /*first=*/true, errors);
  held.open_new(errors);
  EXPECT_TRUE(errors.empty());
  ASSERT_EQ(held.files().size(), 2u);  // the compressed rotation of before is never read
  EXPECT_FALSE(held.files()[0].history);
  EXPECT_TRUE(held.files()[1].history);
  EXPECT_EQ(held.files_read(), 1u);
  EXPECT_EQ(held.open_count(), 2u);
  // Renamed: found again under its new name; the gzip renamed too stays history.
  fs::rename(path("access.log.2.gz"), path("access.log.3.gz"));
  fs::rename(path("access.log.1"), path("access.log.2"));
  fs::rename(path("access.log"), path("access.log.1"));
  write("access.log", line(4));
  held.take(paths.discover(), /*first=*/false, errors);
  held.open_new(errors);
  ASSERT_EQ(held.files().size(), 3u);
  EXPECT_EQ(held.files()[0].file.name, path("access.log.1"));
  EXPECT_TRUE(held.files()[0].rotated());
  EXPECT_EQ(held.files()[1].file.name, path("access.log.2"));
  EXPECT_EQ(held.open_count(), 3u);
  // No descriptor free and none idle (each is still to be read): a new rotation waits...
  write("access.log-20261203", line(5));
  held.take(paths.discover(), /*first=*/false, errors);
  held.open_new(errors);
  ASSERT_EQ(held.files().size(), 4u);
  EXPECT_EQ(held.waiting(), 1u);
  EXPECT_EQ(held.files()[3].file.fd, -1);
  EXPECT_FALSE(held.files()[3].history);  // not there at the start
  // ...until one is idle (read by a round): the least recently grown is closed.
  for (Held& h : held.files()) h.fresh = false;
  held.files()[1].grew = FollowClock::now() - std::chrono::seconds(5);
  held.files()[0].grew = held.files()[2].grew = FollowClock::now();
  held.open_new(errors);
  EXPECT_EQ(held.waiting(), 0u);
  EXPECT_EQ(held.files()[1].file.fd, -1);
  EXPECT_GE(held.files()[3].file.fd, 0);
  EXPECT_EQ(held.open_count(), 3u);
  EXPECT_EQ(held.files_read(), 3u);  // access.log, the new one and the new rotation, each once
  // A closed file that changes wants a descriptor again.
  write("access.log.2", line(6), /*append=*/true);
  held.take(paths.discover(), /*first=*/false, errors);
  EXPECT_EQ(held.waiting(), 1u);
}

TEST_F(Folder, AFileGoneBeforeItCouldBeOpenedIsToldLost) {
  write("a.log", line(1));
  write("b.log", line(2));
  FollowedPaths paths({dir_.string()}, {}, {});
  HeldFiles held(1);
  std::vector<InputError> errors;
  held.take(paths.discover(), /*first=*/false, errors);
  held.open_new(errors);
  EXPECT_EQ(held.waiting(), 1u);  // b.log: no descriptor for it (a.log is still to be read)
  EXPECT_EQ(held.most_open(), 1u);
  // Renamed while it waits: found again under its new name, no loss.
  fs::rename(path("b.log"), path("c.log"));
  held.take(paths.discover(), /*first=*/false, errors);
  EXPECT_TRUE(errors.empty());
  ASSERT_EQ(held.files().size(), 2u);
  EXPECT_EQ(held.files()[1].file.name, path("c.log"));
  // Removed while it waits: told, with its size when last found.
  fs::remove(path("c.log"));
  held.take(paths.discover(), /*first=*/false, errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].path, path("c.log"));
  EXPECT_NE(errors[0].message.find("before it could be opened: its lines are lost, not counted ("), std::string::npos)
      << errors[0].message;
  EXPECT_NE(errors[0].message.find(std::to_string(line(2).size()) + " bytes when last found"), std::string::npos);
  EXPECT_EQ(held.files_lost(), 1u);
  EXPECT_EQ(held.files().size(), 1u);
}

TEST_F(Folder, AClosedFilesInodeUnderAnotherNameIsANewFile) {
  write("a.log", line(1));
  write("b.log", line(2));
  FollowedPaths paths({dir_.string()}, {}, {});
  HeldFiles held(1);
  std::vector<InputError> errors;
  held.take(paths.discover(), /*first=*/false, errors);
  held.open_new(errors);
  held.files()[0].fresh = false;  // a.log read by a round: idle
  held.open_new(errors);          // closed for b.log
  ASSERT_EQ(held.files()[0].file.fd, -1);
  ASSERT_GE(held.files()[1].file.fd, 0);
  // a.log removed, and its inode, free, given to a new c.log (as a file
  // system may at once): not a.log renamed.
  Found found;
  found.files.push_back({path("b.log"), held.files()[1].found, false});
  found.files.push_back({path("c.log"), held.files()[0].found, false});
  held.take(found, /*first=*/false, errors);
  ASSERT_EQ(held.files().size(), 3u);
  EXPECT_EQ(held.files()[0].file.name, path("a.log"));
  EXPECT_FALSE(held.files()[0].at_path);
  EXPECT_EQ(held.files()[2].file.name, path("c.log"));
  EXPECT_FALSE(held.files()[2].opened);
  EXPECT_TRUE(errors.empty());
}

TEST_F(Folder, AFileNotThereWhenOpenedIsFoundAgainOrToldLost) {
  FollowedPaths paths({dir_.string()}, {}, {});
  HeldFiles held(5);
  std::vector<InputError> errors;
  write("d.log", line(1));
  write("e.log", line(2));
  const Found before = paths.discover();
  fs::rename(path("d.log"), path("f.log"));  // between the discovery and the open
  fs::remove(path("e.log"));
  held.take(before, /*first=*/false, errors);
  held.open_new(errors);
  EXPECT_TRUE(errors.empty());  // neither told yet: the next discovery says which is which
  EXPECT_EQ(held.open_count(), 0u);
  held.take(paths.discover(), /*first=*/false, errors);
  held.open_new(errors);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].path, path("e.log"));
  ASSERT_EQ(held.files().size(), 1u);
  EXPECT_EQ(held.files()[0].file.name, path("f.log"));
  EXPECT_GE(held.files()[0].file.fd, 0);
  EXPECT_EQ(held.files_read(), 1u);
  EXPECT_EQ(held.files_lost(), 1u);
}

TEST(ReadingOrder, LeastRecentlyModifiedFirst) {
  std::vector<TrackedFile> files(3);
  files[0].st.st_mtim = {30, 0};
  files[1].st.st_mtim = {10, 5};
  files[2].st.st_mtim = {10, 1};
  std::vector<SpanPlan> plans(3);
  for (size_t k = 0; k < 3; ++k) plans[k].file = k;
  EXPECT_EQ(reading_order(plans, files), (std::vector<size_t>{2, 1, 0}));
}

TEST(NextWait, TheRescanOrWhatFallsDueSooner) {
  const auto now = std::chrono::steady_clock::now();
  EXPECT_EQ(next_wait(now, milliseconds(1000), milliseconds(5000), false, now, std::nullopt), milliseconds(1000));
  EXPECT_EQ(next_wait(now, milliseconds(1000), milliseconds(500), true, now - milliseconds(200), std::nullopt),
            milliseconds(300));
  EXPECT_EQ(next_wait(now, milliseconds(1000), milliseconds(500), true, now - milliseconds(900), std::nullopt),
            milliseconds(0));
  EXPECT_EQ(next_wait(now, milliseconds(1000), milliseconds(5000), true, now, now + milliseconds(250)),
            milliseconds(250));
}

// A pipe whose read end a StreamInput follows.
class Pipe : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(::pipe2(fds_, O_CLOEXEC), 0); }
  void TearDown() override {
    if (fds_[1] >= 0) ::close(fds_[1]);
  }
  void put(const std::string& bytes) { ASSERT_EQ(::write(fds_[1], bytes.data(), bytes.size()), ssize_t(bytes.size())); }
  void close_writer() {
    ::close(fds_[1]);
    fds_[1] = -1;
  }
  int fds_[2] = {-1, -1};
};

TEST_F(Pipe, StreamHandsOutWholeLinesThenTheLastAtItsEnd) {
  StreamInput s("<stdin>", fds_[0], true, 64);
  s.read_available();  // nothing there: no wait
  EXPECT_TRUE(s.span().text.empty());
  put(line(1) + line(2) + "{\"app_id\":");
  s.read_available();
  InputSpan span = s.span();
  EXPECT_EQ(span.text, line(1) + line(2));
  EXPECT_EQ(span.begin, 0u);
  s.counted(2);
  put("\"a\"}");
  close_writer();
  s.read_available();
  span = s.span();
  EXPECT_EQ(span.text, "{\"app_id\":\"a\"}");  // at EOF, without its LF
  EXPECT_EQ(span.begin, line(1).size() + line(2).size());
  EXPECT_EQ(span.first_line, 2u);
  EXPECT_FALSE(s.ended());
  s.counted(1);
  EXPECT_TRUE(s.ended());
}

TEST_F(Pipe, StreamKeepsALineLongerThanTheLimitShort) {
  StreamInput s("<stdin>", fds_[0], true, 64);
  put(std::string(50, 'x'));
  put(std::string(5000, 'y'));
  s.read_available();
  put(std::string(100, 'z') + "\n" + line(3));
  s.read_available();
  const InputSpan span = s.span();
  ASSERT_EQ(span.text.size(), 65 + 1 + line(3).size());  // the limit + 1 byte, its LF, the next line
  EXPECT_EQ(span.text.substr(65), "\n" + line(3));
}

TEST_F(Pipe, ACompressedStreamIsRefused) {
  StreamInput s("<stdin>", fds_[0], true, 1 << 20);
  put(gzip(lines(1, 20)));
  s.read_available();
  EXPECT_NE(s.error().find("gzip stream cannot be followed"), std::string::npos) << s.error();
  EXPECT_TRUE(s.span().text.empty());
  EXPECT_TRUE(s.ended());
}

TEST(TruncationLosses, ACopyTakesThemOverOrTheyAreLost) {
  TruncationLosses losses(milliseconds(100));
  const auto t0 = TruncationLosses::Clock::now();
  struct stat st {};
  st.st_dev = 1;
  st.st_ino = 7;
  const auto copy = [](uint64_t offset, uint64_t bytes) { return FileTracker::Copy{1, 7, offset, bytes}; };
  // Everything seen was counted, and no copy: told all the same (what came
  // after the last look is lost), with an empty range.
  losses.truncated("a.log", st, 100, 100, t0);
  EXPECT_TRUE(losses.next_due());
  std::vector<TruncationLoss> lost = losses.due(t0 + milliseconds(100), false);
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0].begin, lost[0].end);
  EXPECT_FALSE(lost[0].copied);
  // A copy of what was counted, with nothing new, found after or before: nothing lost.
  losses.truncated("a.log", st, 100, 100, t0);
  losses.continued(copy(100, 100), t0);
  losses.continued(copy(100, 120), t0);
  losses.truncated("a.log", st, 100, 100, t0);
  EXPECT_TRUE(losses.due(t0 + milliseconds(500), true).empty());
  // A copy that does not hold what was counted, or found when counting stood
  // elsewhere (an earlier rotation's), is not one.
  losses.truncated("a.log", st, 100, 100, t0);
  losses.continued(copy(100, 60), t0);
  losses.continued(copy(40, 300), t0);
  EXPECT_EQ(losses.due(t0 + milliseconds(500), true).size(), 1u);
  losses.truncated("a.log", st, 100, 300, t0);
  EXPECT_TRUE(losses.due(t0 + milliseconds(50), false).empty());  // within the grace time
  losses.continued(copy(100, 400), t0);  // the copy holds them all
  EXPECT_TRUE(losses.due(t0 + milliseconds(500), true).empty());
  losses.truncated("a.log", st, 100, 300, t0);
  losses.continued(copy(100, 250), t0);  // a copy made before the last 50 bytes came
  lost = losses.due(t0, false);
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0].begin, 250u);
  EXPECT_EQ(lost[0].end, 300u);
  EXPECT_TRUE(lost[0].copied);
  // The copy read first, the truncation seen a round later: nothing lost,
  // within the grace time; after it, a truncation from there is a loss.
  const auto t1 = t0 + milliseconds(1000);
  losses.continued(copy(100, 400), t1);
  losses.truncated("a.log", st, 100, 300, t1 + milliseconds(50));
  EXPECT_TRUE(losses.due(t1 + milliseconds(60), true).empty());
  losses.truncated("a.log", st, 100, 300, t1 + milliseconds(200));
  EXPECT_EQ(losses.due(t1 + milliseconds(400), true).size(), 1u);
  // Two copytruncates within the grace time, counting at the same offset
  // both times: each copy takes over its own truncation, the first one's
  // used up by the first.
  const auto t2 = t1 + milliseconds(1000);
  losses.continued(copy(100, 224), t2);
  losses.truncated("a.log", st, 100, 217, t2);
  losses.truncated("a.log", st, 100, 452, t2 + milliseconds(10));
  losses.continued(copy(100, 452), t2 + milliseconds(20));
  EXPECT_TRUE(losses.due(t2 + milliseconds(30), true).empty());
  losses.truncated("b.log", st, 0, 80, t0);
  EXPECT_TRUE(losses.due(t0 + milliseconds(50), false).empty());
  lost = losses.due(t0 + milliseconds(100), false);
  ASSERT_EQ(lost.size(), 1u);
  EXPECT_EQ(lost[0].path, "b.log");
}

// Waits (up to 10 s) until `done`, taking the events of `names` meanwhile.
template <typename Done>
std::vector<NameEvent> take_until(CreatedNames& names, Done done) {
  std::vector<NameEvent> taken;
  for (int i = 0; i < 1000 && !done(taken); ++i) {
    std::this_thread::sleep_for(milliseconds(10));
    for (NameEvent& e : names.take()) taken.push_back(std::move(e));
  }
  return taken;
}

TEST_F(Folder, CreatedNamesAreOpenedOnTheirOwnThread) {
  DescriptorBudget budget(1);
  const std::string text = line(1) + line(2);
  {
    CreatedNames names(FollowedPaths({dir_.string()}, {}, {}), budget);
    names.watch(dir_.string());
    write("a.log", text);
    // Opened by the thread with no one taking its event (told ready once
    // opened), then removed.
    pollfd ready{names.ready_fd(), POLLIN, 0};
    ASSERT_EQ(::poll(&ready, 1, 10'000), 1);
    ASSERT_EQ(budget.free(), 0u);
    fs::remove(path("a.log"));
    write("b.log", text);     // no room left in the budget
    write(".hidden", text);  // not followed
    std::vector<NameEvent> taken = take_until(names, [](const std::vector<NameEvent>& t) { return t.size() >= 4; });
    ASSERT_EQ(taken.size(), 4u);
    EXPECT_EQ(taken[0].path, path("a.log"));
    EXPECT_EQ(taken[0].kind, NameEvent::kCreated);
    ASSERT_GE(taken[0].fd, 0);
    std::string read(text.size() + 1, '\0');
    EXPECT_EQ(::pread(taken[0].fd, read.data(), read.size(), 0), static_cast<ssize_t>(text.size()));
    EXPECT_EQ(read.substr(0, text.size()), text);
    ::close(taken[0].fd);
    budget.give_back();
    EXPECT_EQ(taken[1].path, path("a.log"));
    EXPECT_EQ(taken[1].kind, NameEvent::kRemoved);
    for (size_t i = 1; i < taken.size(); ++i) EXPECT_EQ(taken[i].fd, -1) << taken[i].path;
    EXPECT_EQ(taken[2].path, path("b.log"));
    EXPECT_EQ(taken[3].path, path(".hidden"));
    // One opened and never taken: given back when the names end.
    write("c.log", text);
    for (int i = 0; i < 1000 && budget.free() != 0; ++i) std::this_thread::sleep_for(milliseconds(10));
    EXPECT_EQ(budget.free(), 0u);
  }
  EXPECT_EQ(budget.free(), 1u);
}

// Rounds of a Follower, one after another on a clock of the test's own.
class Rounds : public Folder {
 protected:
  Follower& follow(std::vector<std::string> paths, size_t max_open = 64) {
    follower_.emplace(paths, Query(), RunSettings(), max_open);
    return *follower_;
  }
  // A round's count; its errors in errors_.
  uint64_t round(bool stopping = false) {
    now_ += milliseconds(100);
    return follower_->round(now_, stopping, errors_).counted.summary.counted;
  }
  // A last round, stopping: nothing more to count, and nothing was lost.
  void end_without_loss() {
    EXPECT_EQ(round(/*stopping=*/true), 0u);
    EXPECT_TRUE(errors_.empty()) << errors_[0].path << ": " << errors_[0].message;
    EXPECT_EQ(follower_->lost_bytes(), 0u);
    EXPECT_EQ(follower_->truncations_without_copy(), 0u);
  }
  std::optional<Follower> follower_;
  FollowClock::time_point now_ = FollowClock::now();
  std::vector<InputError> errors_;
};

TEST_F(Rounds, OneFileThroughCopytruncateWithBytesNotReadYet) {
  write("access.log", lines(1, 3));
  write("other.log", lines(2, 5));  // the folder's other file
  follow({path("access.log")});
  EXPECT_EQ(round(), 3u);
  write("access.log", lines(3, 4), /*append=*/true);
  round();
  write("access.log", lines(4, 2), /*append=*/true);  // not read before the rotation
  fs::copy_file(path("access.log"), path("access.log.1"));
  fs::resize_file(path("access.log"), 0);
  write("access.log", lines(5, 1), /*append=*/true);
  EXPECT_EQ(round(), 2u + 1u);  // the copy from where counting stood, and the new content
  fs::rename(path("access.log.1"), path("access.log.2"));  // shifted, then compressed later (delaycompress)
  std::ifstream in(path("access.log.2"));
  const std::string copy((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  write("access.log.2.gz", gzip(copy));
  fs::remove(path("access.log.2"));
  EXPECT_EQ(round(), 0u);  // known by its content: nothing new
  end_without_loss();
}

TEST_F(Rounds, ContentWrittenAfterACopytruncateIsNotTakenForTheOldBytes) {
  // The file is copied and truncated, then written again past where counting
  // stood before a plan can take the new bytes (here: a first line not
  // finished yet; in a busy run, a second copytruncate during the plan).
  // Those bytes are the new content's, not the old content's unread rest.
  write("access.log", lines(1, 2));
  follow({path("access.log")});
  EXPECT_EQ(round(), 2u);
  fs::copy_file(path("access.log"), path("access.log.1"));
  fs::resize_file(path("access.log"), 0);
  const std::string next = "{\"app_id\":\"b\",\"pad\":\"" + std::string(200, 'x') + "\",";
  write("access.log", next, /*append=*/true);
  EXPECT_EQ(round(), 0u);
  write("access.log", "\"timestamp\":\"2024-01-02T03:04:09Z\"}\n", /*append=*/true);
  EXPECT_EQ(round(), 1u);
  end_without_loss();
}

TEST_F(Rounds, ACopySeenBeforeTheTruncationWhileTheFileGrewTakesItOver) {
  write("access.log", lines(1, 2));
  follow({dir_.string()});
  EXPECT_EQ(round(), 2u);
  write("access.log", lines(2, 1), /*append=*/true);
  fs::copy_file(path("access.log"), path("access.log.1"));  // the copy, found in the round that reads the new line
  EXPECT_EQ(round(), 1u);
  fs::resize_file(path("access.log"), 0);  // the truncation, seen a round later
  EXPECT_EQ(round(), 0u);
  end_without_loss();
}

TEST_F(Rounds, ATruncationByHandIsToldOnceAFile) {
  write("access.log", lines(1, 2));
  follow({path("access.log")});
  EXPECT_EQ(round(), 2u);
  for (int i = 0; i < 3; ++i) {
    fs::resize_file(path("access.log"), 0);  // every byte seen was counted: no copy, no range
    EXPECT_EQ(round(), 0u);
    write("access.log", lines(3 + i, 1), /*append=*/true);
    EXPECT_EQ(round(), 1u);
  }
  EXPECT_EQ(round(/*stopping=*/true), 0u);
  ASSERT_EQ(errors_.size(), 3u);
  EXPECT_NE(errors_[0].message.find("truncated with no copy holding its bytes"), std::string::npos)
      << errors_[0].message;
  EXPECT_EQ(follower_->truncations_without_copy(), 3u);
  EXPECT_EQ(follower_->lost_bytes(), 0u);
}

TEST_F(Rounds, AnUnfinishedLineTruncatedByHandIsTold) {
  write("access.log", lines(1, 2));
  follow({path("access.log")});
  EXPECT_EQ(round(), 2u);
  write("access.log", "{\"app_id\":\"b\",", /*append=*/true);  // seen, not a line yet
  EXPECT_EQ(round(), 0u);
  fs::resize_file(path("access.log"), 0);
  EXPECT_EQ(round(/*stopping=*/true), 0u);
  ASSERT_EQ(errors_.size(), 1u);
  EXPECT_NE(errors_[0].message.find("bytes " + std::to_string(lines(1, 2).size()) + " to "), std::string::npos)
      << errors_[0].message;
  EXPECT_EQ(follower_->lost_bytes(), 14u);
}

TEST_F(Rounds, NamesCreatedAreOpenedAtOnceAndThoseGoneFirstAreTold) {
  follow({dir_.string()});
  EXPECT_EQ(round(), 0u);
  using Name = NameEvent;
  // Created, written and removed between two rounds: opened by its event, read.
  write("a.log", lines(1, 3));
  follower_->note({{path("a.log"), Name::kCreated}}, errors_);
  fs::remove(path("a.log"));
  follower_->note({{path("a.log"), Name::kRemoved}}, errors_);
  EXPECT_EQ(round(), 3u);
  EXPECT_TRUE(errors_.empty());
  // Removed before its event was taken: told lost.
  write("b.log", lines(2, 2));
  fs::remove(path("b.log"));
  follower_->note({{path("b.log"), Name::kCreated}, {path("b.log"), Name::kRemoved}}, errors_);
  ASSERT_EQ(errors_.size(), 1u);
  EXPECT_EQ(errors_[0].path, path("b.log"));
  EXPECT_NE(errors_[0].message.find("created and removed before it could be opened"), std::string::npos);
  EXPECT_EQ(follower_->lost_files(), 1u);
  // Renamed before its event was taken: found under its new name, no loss;
  // a name the folder does not select, and one found meanwhile, neither.
  write("d.log", lines(3, 1));
  fs::remove(path("d.log"));
  follower_->note({{path("c.log"), Name::kCreated}, {path("c.log"), Name::kMovedOut}, {path("c.log"), Name::kRemoved},
                   {path(".hidden"), Name::kCreated}, {path(".hidden"), Name::kRemoved}},
                  errors_);
  EXPECT_EQ(errors_.size(), 1u);
  // Found by a discovery before its event was taken, then removed: held, read.
  write("e.log", lines(4, 2));
  follower_->discover(errors_);
  fs::remove(path("e.log"));
  follower_->note({{path("e.log"), Name::kCreated}, {path("e.log"), Name::kRemoved}}, errors_);
  EXPECT_EQ(errors_.size(), 1u);
  EXPECT_EQ(round(), 2u);
  // Opened at its event (by the names' thread), then removed: held, read;
  // told of again with another descriptor: that one is closed.
  write("f.log", lines(5, 4));
  Name f{path("f.log"), Name::kCreated}, again = f;
  for (Name* e : {&f, &again}) {
    e->fd = ::open(e->path.c_str(), O_RDONLY | O_CLOEXEC);
    ASSERT_TRUE(e->fd >= 0 && ::fstat(e->fd, &e->st) == 0 && follower_->held().budget().take());
  }
  const size_t free = follower_->held().budget().free();
  fs::remove(path("f.log"));
  follower_->note({f, {path("f.log"), Name::kRemoved}, again}, errors_);
  EXPECT_EQ(follower_->held().budget().free(), free + 1);
  EXPECT_EQ(errors_.size(), 1u);
  EXPECT_EQ(round(true), 4u);
  EXPECT_EQ(follower_->inputs(), 3u);
}

TEST_F(Rounds, AFileFoundNeverOpenedAndRemovedIsToldAtItsEventNotTakenForTheNextFile) {
  follow({dir_.string()});
  EXPECT_EQ(round(), 0u);
  DescriptorBudget& budget = follower_->held().budget();
  size_t taken = 0;
  while (budget.take()) ++taken;
  write("a.log", lines(1, 2));
  follower_->discover(errors_);  // found, no descriptor to open it with
  ASSERT_EQ(follower_->held().waiting(), 1u);
  fs::remove(path("a.log"));
  // Its creation's event too, which found no descriptor to open it with:
  // told once all the same.
  follower_->note({{path("a.log"), NameEvent::kCreated}, {path("a.log"), NameEvent::kRemoved}}, errors_);
  ASSERT_EQ(errors_.size(), 1u);  // told at its event, not at the next discovery
  EXPECT_EQ(errors_[0].path, path("a.log"));
  EXPECT_NE(errors_[0].message.find("before it could be opened: its lines are lost"), std::string::npos);
  EXPECT_EQ(follower_->lost_files(), 1u);
  // ext4 gives a freed inode to the next file created (a.log's, as the
  // test's file system may): b.log, opened at its event, is read as b.log,
  // never taken for a.log found again.
  for (; taken > 0; --taken) budget.give_back();
  write("b.log", lines(2, 3));
  NameEvent b{path("b.log"), NameEvent::kCreated};
  b.fd = ::open(b.path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_TRUE(b.fd >= 0 && ::fstat(b.fd, &b.st) == 0 && budget.take());
  follower_->note({b}, errors_);
  EXPECT_EQ(round(), 3u);
  EXPECT_EQ(errors_.size(), 1u);
  EXPECT_EQ(follower_->held().files_read(), 1u);
  // The event of a file removed, come when one created again under its name
  // was found: that one is not told lost, and is read.
  while (budget.take()) ++taken;
  write("c.log", lines(3, 1));
  follower_->discover(errors_);
  follower_->note({{path("c.log"), NameEvent::kRemoved}}, errors_);
  EXPECT_EQ(errors_.size(), 1u);
  for (; taken > 0; --taken) budget.give_back();
  EXPECT_EQ(round(/*stopping=*/true), 1u);
  EXPECT_EQ(errors_.size(), 1u);
}

TEST_F(Rounds, ACompressedRotationOfBeforeRenamedIsNotReadWhenItsNewNameIsOpenedAtItsEvent) {
  write("access.log", lines(1, 2));
  write("access.log.1.gz", gzip(lines(2, 3)));  // there before following began: never read
  follow({path("access.log")});
  EXPECT_EQ(round(), 2u);
  fs::rename(path("access.log.1.gz"), path("access.log.2.gz"));  // logrotate's next day
  NameEvent moved{path("access.log.2.gz"), NameEvent::kMovedIn};
  moved.fd = ::open(moved.path.c_str(), O_RDONLY | O_CLOEXEC);
  ASSERT_TRUE(moved.fd >= 0 && ::fstat(moved.fd, &moved.st) == 0 && follower_->held().budget().take());
  const size_t free = follower_->held().budget().free();
  follower_->note({moved}, errors_);
  EXPECT_EQ(follower_->held().budget().free(), free + 1);  // its descriptor closed
  EXPECT_EQ(round(), 0u);
  end_without_loss();
}

TEST_F(Rounds, FilesGoneAreReadToTheirEndAtOnceWhenDescriptorsAreShort) {
  // Files held, each ending in a line without its LF, then removed: with
  // less than a quarter of the descriptors free, the next round reads each
  // to its end and lets it go; with plenty free, each waits its quiet time.
  for (const size_t max_open : {8, 64}) {
    SCOPED_TRACE(max_open);
    for (int i = 0; i < 7; ++i) {
      std::string text = lines(i + 1, 2);
      text.pop_back();
      write("f" + std::to_string(i) + ".log", text);
    }
    follow({dir_.string()}, max_open);
    EXPECT_EQ(round(), 7u);  // the first line of each
    for (int i = 0; i < 7; ++i) fs::remove(path("f" + std::to_string(i) + ".log"));
    EXPECT_EQ(round(), max_open == 8 ? 7u : 0u);
    EXPECT_EQ(follower_->held().open_count(), max_open == 8 ? 0u : 7u);
    if (max_open == 64) EXPECT_EQ(round(/*stopping=*/true), 7u);
    end_without_loss();
  }
}

TEST_F(Rounds, AFileClosedForWantOfADescriptorThatChangesAndGoesIsTold) {
  write("a.log", lines(1, 2));
  write("empty.log", "");
  follow({dir_.string()}, /*max_open=*/2);
  EXPECT_EQ(round(), 2u);
  follower_->held().files()[1].grew -= std::chrono::seconds(10);  // empty.log: the least recently grown
  write("b.log", lines(2, 1));  // wants a descriptor: a.log, read to its end, is closed; empty.log is not
  EXPECT_EQ(round(), 1u);
  const std::vector<Held>& held = follower_->held().files();
  ASSERT_EQ(held.size(), 3u);
  EXPECT_EQ(held[0].file.fd, -1);
  EXPECT_GE(held[1].file.fd, 0) << "an empty file is about to be written: not closed";
  write("a.log", lines(3, 4), /*append=*/true);
  follower_->discover(errors_);  // sees it changed...
  fs::remove(path("a.log"));     // ...and gone before a round could open it again
  round();
  ASSERT_EQ(errors_.size(), 1u);
  EXPECT_EQ(errors_[0].path, path("a.log"));
  EXPECT_NE(errors_[0].message.find("changed while it was closed"), std::string::npos) << errors_[0].message;
  EXPECT_EQ(follower_->lost_files(), 1u);
}

TEST_F(Rounds, FilesGoneFromSightAreReadToTheirEndAtOnceWhenANewOneWaits) {
  write("a.log", lines(1, 2));
  follow({dir_.string()}, /*max_open=*/1);
  EXPECT_EQ(round(), 2u);
  write("a.log", lines(2, 1), /*append=*/true);
  fs::remove(path("a.log"));  // held open: still read, to its end
  write("b.log", lines(3, 4));
  EXPECT_EQ(round(), 1u);  // a.log let go at once (not after its quiet second), b.log opened
  EXPECT_EQ(round(), 4u);
  EXPECT_TRUE(errors_.empty());
  EXPECT_EQ(follower_->held().most_open(), 1u);
}

TEST_F(Rounds, AFileCreatedAndRenamedWithinOneRound) {
  write("app.log", lines(1, 2));
  follow({path("app.log")});
  EXPECT_EQ(round(), 2u);
  fs::rename(path("app.log"), path("app.log-20261202"));
  write("app.log", lines(2, 3));
  fs::rename(path("app.log"), path("app-20261203.log"));  // never seen under its name
  write("app.log", lines(3, 1));
  EXPECT_EQ(round(), 3u + 1u);
  EXPECT_EQ(round(true), 0u);
  EXPECT_EQ(follower_->inputs(), 3u);
}

TEST_F(Rounds, RotationsFromBeforeAreHistory) {
  write("access.log", lines(1, 2));
  write("access.log.1", lines(0, 7));
  write("access.log.2.gz", gzip(lines(0, 9)));
  write("other.log", lines(0, 4));
  follow({path("access.log")});
  EXPECT_EQ(round(), 2u);
  // logrotate: .1 -> .2 compressed (delaycompress), the file -> .1.
  fs::remove(path("access.log.2.gz"));
  std::ifstream in(path("access.log.1"));
  const std::string old((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  write("access.log.2.gz", gzip(old));
  fs::remove(path("access.log.1"));
  fs::rename(path("access.log"), path("access.log.1"));
  write("access.log", lines(2, 1));
  write("other.log", lines(3, 4), /*append=*/true);
  EXPECT_EQ(round(), 1u);
  EXPECT_EQ(round(true), 0u);
  EXPECT_TRUE(errors_.empty());
  EXPECT_EQ(follower_->inputs(), 3u);  // the file, the new one, and the new .gz, read to be known
}

TEST_F(Rounds, ANewRotationWhereOneFromBeforeWasIsRead) {
  write("access.log", lines(1, 2));
  write("access.log.2.gz", gzip(lines(0, 9)));
  follow({path("access.log")});
  EXPECT_EQ(round(), 2u);
  // The old one removed (its inode free for the next file), the file with
  // lines not read yet renamed and compressed in its place at once.
  write("access.log", lines(2, 3), /*append=*/true);
  fs::remove(path("access.log.2.gz"));
  std::ifstream in(path("access.log"));
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  write("access.log.2.gz", gzip(text));
  fs::remove(path("access.log"));
  EXPECT_EQ(round(), 3u);
}

TEST_F(Rounds, ATruncationBeforeTheReadIsToldWithItsRange) {
  // More than a round reads: the rest is truncated before the next round.
  const std::string block = lines(1, 1000);
  {
    std::ofstream out(path("big.log"), std::ios::binary);
    while (static_cast<uint64_t>(out.tellp()) < kRoundBytes + (uint64_t{8} << 20)) out << block;
  }
  const auto size = fs::file_size(path("big.log"));
  follow({path("big.log")});
  const uint64_t first = round();
  EXPECT_GT(first, 0u);
  fs::resize_file(path("big.log"), 0);
  EXPECT_EQ(round(), 0u);
  EXPECT_TRUE(errors_.empty());  // a copy may still take them over
  EXPECT_EQ(round(true), 0u);
  ASSERT_EQ(errors_.size(), 1u);
  EXPECT_EQ(errors_[0].path, path("big.log"));
  EXPECT_NE(errors_[0].message.find(" to " + std::to_string(size) + " were truncated before they were read"),
            std::string::npos)
      << errors_[0].message;
  EXPECT_GT(follower_->lost_bytes(), 0u);
  EXPECT_LT(follower_->lost_bytes(), size);
}

TEST_F(Rounds, AClosedFileRenamedAwayBeforeItsPlanIsNoError) {
  for (int i = 0; i < 4; ++i) write("f" + std::to_string(i) + ".log", lines(i, 2));
  follow({dir_.string()}, 2);
  uint64_t counted = 0;
  for (int r = 0; r < 3; ++r) counted += round();
  ASSERT_EQ(counted, 8u);
  for (int i = 0; i < 4; ++i) write("f" + std::to_string(i) + ".log", lines(30, 1), /*append=*/true);
  std::vector<InputError> errors;
  follower_->discover(errors);
  const std::vector<Held>& held = follower_->held().files();
  const auto closed = std::find_if(held.begin(), held.end(), [](const Held& h) { return h.file.fd < 0; });
  ASSERT_NE(closed, held.end());
  fs::rename(closed->file.name, path("elsewhere"));  // between the discovery and the plan
  follower_->plan(now_, false, errors);
  EXPECT_TRUE(errors.empty()) << errors[0].path << ": " << errors[0].message;
}

// A writer that rotates as logrotate does (rename or copytruncate, the
// rotations shifted, compressed later), one operation at a time.
class Rotator {
 public:
  Rotator(const fs::path& dir, uint32_t seed) : dir_(dir), rng_(seed) {
    add_lines(3);
    finish();
  }
  // One random operation (no rotation unless `may_rotate`); what it did, for
  // a failure's message.
  std::string step(bool may_rotate = true) {
    const int pick = std::uniform_int_distribution<int>(0, 9)(rng_);
    if (pick < 6 || rotated_.size() >= 4 || !may_rotate) {
      if (pick >= 8 && compress()) return "compress";
      add_lines(std::uniform_int_distribution<int>(1, 5)(rng_));
      // Written in part: a line may wait for its end.
      const size_t cut = std::uniform_int_distribution<size_t>(0, pending_.size())(rng_);
      write("access.log", pending_.substr(0, cut));
      pending_.erase(0, cut);
      return "append";
    }
    shift();
    if (pick < 8) {
      fs::rename(at("access.log"), at("access.log.1"));
      if (pick == 7) add_lines(2);  // the logger writes on before it reopens
      write("access.log.1", pending_);
      write("access.log", "");
    } else {
      write("access.log", pending_);  // copytruncate copies whole lines
      fs::copy_file(at("access.log"), at("access.log.1"));
      fs::resize_file(at("access.log"), 0);
    }
    pending_.clear();
    return pick < 8 ? "rename" : "copytruncate";
  }
  // The lines not written yet, written.
  void finish() {
    write("access.log", pending_);
    pending_.clear();
  }
  uint64_t written() const { return written_; }

 private:
  std::string at(const std::string& name) const { return (dir_ / name).string(); }
  void add_lines(int count) {
    for (int i = 0; i < count; ++i, ++n_) pending_ += line(static_cast<int>(n_ / 20 % 60), static_cast<int>(n_));
    written_ += static_cast<uint64_t>(count);
  }
  void write(const std::string& name, const std::string& bytes) const {
    std::ofstream(at(name), std::ios::binary | std::ios::app) << bytes;
  }
  void shift() {  // access.log.k -> access.log.k+1
    for (size_t k = rotated_.size(); k > 0; --k) {
      const std::string from = "access.log." + std::to_string(k) + rotated_[k - 1];
      fs::rename(at(from), at("access.log." + std::to_string(k + 1) + rotated_[k - 1]));
    }
    rotated_.insert(rotated_.begin(), "");
  }
  bool compress() {  // the oldest plain rotation but the newest (delaycompress)
    for (size_t k = rotated_.size(); k > 1; --k) {
      if (!rotated_[k - 1].empty()) continue;
      const std::string plain = at("access.log." + std::to_string(k));
      std::ifstream in(plain, std::ios::binary);
      const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
      std::ofstream(plain + ".gz", std::ios::binary) << gzip(text);
      fs::remove(plain);
      rotated_[k - 1] = ".gz";
      return true;
    }
    return false;
  }
  fs::path dir_;
  std::mt19937 rng_;
  std::vector<std::string> rotated_;  // "" or ".gz", for access.log.1, .2, ...
  std::string pending_;               // lines not written yet
  uint64_t written_ = 0;
  int64_t n_ = 0;
};

// The writer on a thread of its own, rounds run back to back on the real
// clock: its operations land anywhere in a round, inside a phase too (a
// copytruncate between a file's plan and its span, a .gz read while gzip
// writes it, a copy read before the truncation is seen): every line is
// counted once, and at most 3 schedules tell a loss. Random each run; a
// failure names its seed and steps. Rotations come a whole round apart at
// least: the file's bytes between two looks are the only ones the loss rule
// cannot tell.
TEST_F(Rounds, RotationsDuringRoundsCountEachLineOnce) {
  const uint32_t seeds = testing::kSanitized ? 30 : 300;
  uint32_t false_losses = 0;
  for (uint32_t seed = 0; seed < seeds; ++seed) {
    const fs::path dir = dir_ / std::to_string(seed);
    fs::create_directories(dir);
    Rotator writer(dir, seed);
    Follower follower({(dir / "access.log").string()}, Query(), RunSettings(), 64);
    uint64_t counted = 0;
    std::vector<InputError> errors;
    const auto round = [&](bool stopping) {  // on the real clock: the writer finishes its lines in time
      counted += follower.round(FollowClock::now(), stopping, errors).counted.summary.counted;
    };
    round(false);
    std::string steps;
    std::atomic<bool> done = false;
    std::atomic<uint64_t> rounds = 0;
    std::thread writing([&] {
      std::mt19937 rng(seed);
      uint64_t rotated_at = 0;  // rounds begun by the last rotation
      for (int k = 0; k < 40; ++k) {
        // A whole round between two rotations: what a file held between two
        // looks at it and was truncated away cannot be told from a loss
        // (docs/GUIDE.md), and logrotate rotates minutes apart.
        const uint64_t now = rounds;
        const std::string op = writer.step(now >= rotated_at + 2);
        if (op == "rename" || op == "copytruncate") rotated_at = now;
        steps += op + "@" + std::to_string(rounds.load()) + " ";
        std::this_thread::sleep_for(std::chrono::microseconds(std::uniform_int_distribution<int>(0, 300)(rng)));
      }
      writer.finish();
      done = true;
    });
    while (!done) {
      round(false);
      ++rounds;
    }
    writing.join();
    for (int r = 0; r < 3; ++r) round(false);
    round(true);
    ASSERT_EQ(counted, writer.written()) << "seed " << seed << ": " << steps;
    // A loss told of bytes that were counted: before the copy's takeover
    // was remembered and used up, one schedule in ten; a race not traced
    // yet still tells one in thousands on a loaded machine.
    if (!errors.empty() || follower.lost_bytes() != 0) {
      ++false_losses;
      ASSERT_LE(false_losses, 3u) << "seed " << seed << ": "
                                  << (errors.empty() ? "" : errors[0].path + ": " + errors[0].message) << "\n"
                                  << steps;
    }
  }
}

TEST_F(Rounds, TwelveFilesWithThreeDescriptors) {
  for (int i = 0; i < 12; ++i) write("f" + std::to_string(i) + ".log", lines(i, 2));
  follow({dir_.string()}, 3);
  uint64_t counted = 0;
  for (int r = 0; r < 4; ++r) counted += round();  // three new files a round
  EXPECT_EQ(counted, 24u);
  EXPECT_LE(follower_->held().open_count(), 3u);
  for (int i = 0; i < 12; i += 3) write("f" + std::to_string(i) + ".log", lines(30, 1), /*append=*/true);
  for (int r = 0; r < 6; ++r) counted += round();
  EXPECT_EQ(counted, 28u);
  EXPECT_EQ(follower_->inputs(), 12u);
  EXPECT_TRUE(errors_.empty()) << errors_[0].path << ": " << errors_[0].message;
  EXPECT_TRUE(follower_->held().out_of_descriptors().empty());
}

}  // namespace
}  // namespace logagg
