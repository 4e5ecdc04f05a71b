// Tests for incremental runs (engine/src/state/, logagg/state.h):
// - fingerprints: the hash is pinned (state files outlive builds), a plain
//   file's last line end and tail hash, a compressed file's content scan;
// - the engine reads spans: a plain file's [begin, end), a compressed file's
//   content from `begin` to `end`, rejects numbered from the span's first
//   line, a file shorter than planned or replaced not read wholly;
// - the state file: written and read back, damaged or foreign files refused,
//   one run at a time;
// - the tracker: files past the open limit read by name (a replaced one not
//   read), bytes rewritten after the plan seen, a damaged compressed file
//   passed over until it changes;
// - aggregate_incremental: appends counted once, a held partial line, a
//   rename and a compression not counted again, a replacement counted anew,
//   nothing saved (and the state locked) until save(), other counting
//   options refused before anything is read.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "logagg/aggregate.h"
#include "logagg/report.h"
#include "logagg/state.h"
#include "run/spans.h"
#include "state/file_tracker.h"
#include "state/state_file.h"
#include "support/compress.h"
#include "support/log_folder.h"

namespace logagg {
namespace {

namespace fs = std::filesystem;

class StateTest : public LogFolderTest {
 protected:
  IncrementalRun run(const Options& options = {}) const {  // and saved
    IncrementalRun r = aggregate_incremental({path("logs")}, options, path("state.json"));
    r.save();
    return r;
  }
  // The files in logs/ named `names`, stat'ed, as a plan takes them.
  std::vector<TrackedFile> found(const std::vector<std::string>& names) const {
    std::vector<TrackedFile> files;
    for (const std::string& name : names)
      files.push_back(TrackedFile{path("logs/" + name), -1, stat_of("logs/" + name)});
    return files;
  }
};

uint64_t counted(const Result& r) { return r.summary.counted; }

TEST(Fingerprint, HashIsFnv1a64) {
  EXPECT_EQ(fingerprint_hash(""), 0xcbf29ce484222325u);
  EXPECT_EQ(fingerprint_hash("a"), 0xaf63dc4c8601ec8cu);
  EXPECT_EQ(fingerprint_hash("foobar"), 0x85944171f73967e8u);
}

TEST_F(StateTest, LastLineEndAndTailHash) {
  write("f", "ab\ncd\nef");
  const int fd = open_file("f");
  EXPECT_EQ(last_line_end(fd, 8, 0), 6u);
  EXPECT_EQ(last_line_end(fd, 8, 6), 6u);  // nothing complete after 6
  EXPECT_EQ(last_line_end(fd, 5, 0), 3u);
  EXPECT_EQ(last_line_end(fd, 2, 0), 0u);
  EXPECT_EQ(tail_hash_before(fd, 6), fingerprint_hash("ab\ncd\n"));
  EXPECT_EQ(tail_hash_before(fd, 9), std::nullopt);  // past the end
  ::close(fd);
  const std::string big = lines(0, 400);  // more than kFingerprintBytes
  write("g", big + "partial");
  const int gd = open_file("g");
  EXPECT_EQ(last_line_end(gd, big.size() + 7, 0), big.size());
  EXPECT_EQ(tail_hash_before(gd, big.size()), fingerprint_hash(big.substr(big.size() - kFingerprintBytes)));
  ::close(gd);
}

TEST_F(StateTest, CompressedContentScannedOnce) {
  const std::string text = lines(0, 500);
  write("f.gz", gzip(text));
  const int fd = open_file("f.gz");
  const FileHead head = read_head(fd);
  EXPECT_TRUE(head.compressed);
  EXPECT_EQ(head.bytes, text.substr(0, kFingerprintBytes));
  const uint64_t mark = text.size() / 2;
  const ContentScan scan = scan_content(fd, mark);
  EXPECT_EQ(scan.length, text.size());
  EXPECT_EQ(scan.tail_hash, fingerprint_hash(text.substr(text.size() - kFingerprintBytes)));
  EXPECT_EQ(scan.tail_hash_at_mark, fingerprint_hash(text.substr(mark - kFingerprintBytes, kFingerprintBytes)));
  EXPECT_EQ(scan_content(fd, text.size() + 1).tail_hash_at_mark, std::nullopt);
  EXPECT_TRUE(scan.error.empty());
  ::close(fd);
  write("cut.gz", gzip(text).substr(0, 200));
  const int cut = open_file("cut.gz");
  EXPECT_FALSE(scan_content(cut, 0).error.empty());
  ::close(cut);
}

TEST_F(StateTest, SpansReadFromTheirStart) {
  const std::string first = lines(0, 10), second = "not json\n" + lines(10, 5), third = lines(15, 3);
  write("p.log", first + second + "{\"partial");
  write("c.gz", gzip(first + second + third));
  Options options;
  options.max_reject_samples = 5;
  std::vector<SpanRead> reads;
  const uint64_t end = first.size() + second.size();
  const Result r =
      aggregate_spans({{path("p.log"), "p", first.size(), end, 10}, {path("c.gz"), "c", first.size(), end, 10}},
                      Query(options), options, reads);
  ASSERT_EQ(reads.size(), 2u);
  EXPECT_EQ(reads[0].lines, 6u);
  EXPECT_EQ(reads[1].lines, 6u);  // a compressed span ends where it was planned: `third` is not read
  EXPECT_TRUE(reads[0].complete && reads[1].complete);
  EXPECT_EQ(counted(r), 10u);
  ASSERT_EQ(r.rejects.size(), 2u);
  EXPECT_EQ(r.rejects[0].path, "p");
  EXPECT_EQ(r.rejects[0].line, 11u);  // numbered after the lines before the span
  EXPECT_EQ(r.rejects[1].path, "c");
  // A plain file shorter than its planned span was truncated meanwhile: not complete.
  const Result cut =
      aggregate_spans({{path("p.log"), "p", first.size(), end + 100, 10}}, Query(options), options, reads);
  EXPECT_FALSE(reads[0].complete);
  EXPECT_EQ(counted(cut), 0u);
  // A compressed one whose content ends before the span's end: read, but not wholly.
  const uint64_t whole = end + third.size();
  const Result short_gz = aggregate_spans({{path("c.gz"), "c", end, whole + 50, 15}}, Query(options), options, reads);
  EXPECT_FALSE(reads[0].complete);
  EXPECT_EQ(reads[0].lines, 3u);
  ASSERT_EQ(short_gz.errors.size(), 1u);
  EXPECT_EQ(short_gz.errors[0].message, "shorter than when it was planned");
  const Result past =
      aggregate_spans({{path("c.gz"), "c", 1u << 20, (1u << 20) + 1, 0}}, Query(options), options, reads);
  EXPECT_FALSE(reads[0].complete);  // shorter than the bytes to skip
  ASSERT_EQ(past.errors.size(), 1u);
  EXPECT_EQ(past.errors[0].message, "shorter than when it was planned");
  // A span read by name whose name now is another file is not read.
  struct stat st {};
  ASSERT_EQ(::stat(path("c.gz").c_str(), &st), 0);
  InputSpan other{path("p.log"), "p", 0, end, 0};
  other.file = FileId{static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino)};
  const Result replaced = aggregate_spans({other}, Query(options), options, reads);
  EXPECT_FALSE(reads[0].complete);
  EXPECT_EQ(reads[0].lines, 0u);
  ASSERT_EQ(replaced.errors.size(), 1u);
  EXPECT_EQ(replaced.errors[0].message, "replaced by another file since it was planned");
  other.path = path("c.gz");  // the file planned: read
  aggregate_spans({other}, Query(options), options, reads);
  EXPECT_TRUE(reads[0].complete);
  EXPECT_EQ(reads[0].lines, 16u);
}

TEST_F(StateTest, StateFileRoundTripAndRefusals) {
  FileRecord r;
  r.path = "logs/a\nb.log";
  r.device = 1, r.inode = 2, r.size = 3, r.mtime_ns = -4, r.compressed = true;
  r.offset = 10, r.lines = 2, r.head_bytes = 10, r.head_hash = 0xfedcba9876543210u, r.tail_hash = 1, r.seen = 7;
  Options options;
  ReportOptions json;
  json.format = Format::kJson;
  const std::string result = format_report(Result{}, json);
  ASSERT_EQ(write_state(path("s.json"), 12, "/deltas", {r}, result), "");
  const State back = read_state(path("s.json"));
  EXPECT_EQ(back.generation, 12u);
  EXPECT_EQ(back.delta_dir, "/deltas");
  ASSERT_EQ(back.files.size(), 1u);
  const FileRecord& b = back.files[0];
  EXPECT_EQ(b.path, r.path);
  EXPECT_EQ(std::tie(b.device, b.inode, b.size, b.mtime_ns, b.compressed, b.offset, b.lines, b.head_bytes, b.head_hash,
                     b.tail_hash, b.seen),
            std::tie(r.device, r.inode, r.size, r.mtime_ns, r.compressed, r.offset, r.lines, r.head_bytes, r.head_hash,
                     r.tail_hash, r.seen));
  EXPECT_TRUE(back.result.has_value());
  EXPECT_FALSE(fs::exists(path("s.json.tmp")));
  EXPECT_FALSE(read_state(path("missing.json")).result.has_value());

  const auto refused = [&](const std::string& bytes, const std::string& why) {
    write("bad.json", bytes);
    try {
      read_state(path("bad.json"));
      ADD_FAILURE() << "accepted: " << bytes;
    } catch (const StateError& e) {
      EXPECT_EQ(e.path(), path("bad.json"));
      EXPECT_NE(std::string(e.what()).find(why), std::string::npos) << e.what();
    }
  };
  refused("", "not a logagg state file");
  refused("[1]", "not a logagg state file");
  refused(R"({"logagg_state": 2, "files": [], "result": {}})", "another version of logagg (format 2");
  refused(R"({"logagg_state": 1, "files": []})", "damaged");
  refused(R"({"logagg_state": 1, "files": [{"path": "x"}], "result": )" + result + "}", "file record");
  refused(R"({"logagg_state": 1, "files": [], "result": {"logagg": 1}})", "its result");
  refused(R"({"logagg_state": 1, "generation": "7", "files": [], "result": )" + result + "}", "\"generation\"");
  // A state file of a logagg before generations: generation 0, no delta folder.
  write("old.json", R"({"logagg_state": 1, "files": [], "result": )" + result + "}");
  EXPECT_EQ(read_state(path("old.json")).generation, 0u);
  EXPECT_EQ(read_state(path("old.json")).delta_dir, "");
}

TEST_F(StateTest, OneRunAtATime) {
  const StateLock held(path("s.json"));
  try {
    const StateLock second(path("s.json"), std::chrono::milliseconds(50));
    ADD_FAILURE() << "two locks";
  } catch (const StateError& e) {
    EXPECT_NE(std::string(e.what()).find("in use by another logagg run"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("still after 50 ms"), std::string::npos) << e.what();
  }
}

TEST_F(StateTest, ARunThatIsEndingIsWaitedFor) {
  // A killed run's descriptors are closed as it ends, a moment after the
  // kill: the next run started at once waits for its lock, not refuses.
  std::optional<StateLock> ending(std::in_place, path("s.json"));
  std::thread end([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    ending.reset();
  });
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_NO_THROW(StateLock next(path("s.json")));
  EXPECT_GE(std::chrono::steady_clock::now() - t0, std::chrono::milliseconds(150));
  end.join();
}

TEST_F(StateTest, AppendsCountedOnceAndPartialLinesHeld) {
  write("logs/access.log", lines(0, 20) + "{\"app_id\":\"a1\",");
  IncrementalRun first = run();
  EXPECT_EQ(counted(first.added), 20u);
  EXPECT_EQ(counted(first.total), 20u);
  EXPECT_TRUE(first.not_saved.empty());
  EXPECT_EQ(counted(run().added), 0u);  // unchanged
  write("logs/access.log", "\"timestamp\":\"2024-01-02T03:04:05Z\"}\n" + lines(20, 5), /*append=*/true);
  const IncrementalRun second = run();
  EXPECT_EQ(counted(second.added), 6u);  // the held line, completed, and five more
  EXPECT_EQ(counted(second.total), 26u);
  EXPECT_EQ(second.total.summary.files, 1u);
  EXPECT_EQ(second.total.summary.lines, 26u);
}

TEST_F(StateTest, RotationAndCompressionNotCountedAgain) {
  write("logs/access.log", lines(0, 300));
  EXPECT_EQ(counted(run().added), 300u);
  write("logs/access.log", lines(300, 7), /*append=*/true);  // written before the rotation
  fs::rename(path("logs/access.log"), path("logs/access.log.1"));
  write("logs/access.log", lines(1000, 4));
  EXPECT_EQ(counted(run().added), 11u);
  // Compressed beside the original, then alone.
  std::ifstream in(path("logs/access.log.1"), std::ios::binary);
  const std::string rotated((std::istreambuf_iterator<char>(in)), {});
  write("logs/access.log.1.gz", gzip(rotated));
  EXPECT_EQ(counted(run().added), 0u);
  fs::remove(path("logs/access.log.1"));
  const IncrementalRun after = run();
  EXPECT_EQ(counted(after.added), 0u);
  EXPECT_EQ(counted(after.total), 311u);
  EXPECT_EQ(after.total.summary.files, 2u);
}

TEST_F(StateTest, TwinsTheStateNeverSawAreCountedOnce) {
  write("logs/access.log.1", lines(0, 40));
  write("logs/access.log.1.gz", gzip(lines(0, 40)));
  const IncrementalRun first = run();
  EXPECT_EQ(counted(first.added), 40u);
  EXPECT_EQ(first.total.summary.files, 1u);
}

TEST_F(StateTest, NewLinesInACopyAndItsFileCountOnce) {
  write("logs/access.log", lines(0, 300));
  EXPECT_EQ(counted(run().added), 300u);
  write("logs/access.log", lines(300, 7), /*append=*/true);
  fs::rename(path("logs/access.log"), path("logs/access.log.1"));
  write("logs/access.log.1.gz", gzip(lines(0, 307)));  // gzip -k: both there, neither read since
  const IncrementalRun both = run();
  EXPECT_EQ(counted(both.added), 7u);
  EXPECT_EQ(both.total.summary.files, 1u);
}

TEST_F(StateTest, CopiesBeingWrittenWait) {
  const std::string text = lines(0, 600);
  write("logs/access.log", text);
  EXPECT_EQ(counted(run().added), 600u);
  fs::rename(path("logs/access.log"), path("logs/access.log.1"));
  // gzip still writing its output: damaged, not counted, nothing recorded.
  const std::string gz = gzip(text);
  write("logs/access.log.1.gz", gz.substr(0, gz.size() / 2));
  const IncrementalRun during = run();
  EXPECT_EQ(counted(during.added), 0u);
  ASSERT_EQ(during.added.errors.size(), 1u);
  EXPECT_NE(during.added.errors[0].message.find("not counted until it can be read whole"), std::string::npos);
  write("logs/access.log.1.gz", gz);
  fs::remove(path("logs/access.log.1"));
  EXPECT_EQ(counted(run().added), 0u);
  // copytruncate's copy half made: shorter than where its file stopped.
  const std::string next = lines(1000, 600);
  write("logs/access.log", next);
  EXPECT_EQ(counted(run().added), 600u);
  write("logs/access.log.2", next.substr(0, next.size() / 2));
  EXPECT_EQ(counted(run().added), 0u);
}

TEST_F(StateTest, ReplacedOrTruncatedFilesStartOver) {
  write("logs/access.log", lines(0, 50));
  EXPECT_EQ(counted(run().added), 50u);
  write("logs/access.log", lines(500, 60));  // other content, longer: not a continuation
  EXPECT_EQ(counted(run().added), 60u);
  write("logs/access.log", lines(500, 10));  // truncated below the stop
  EXPECT_EQ(counted(run().added), 10u);
  // The same first 4 KiB, other bytes before the stop: another file.
  write("logs/access.log", lines(2000, 300));
  EXPECT_EQ(counted(run().added), 300u);
  write("logs/access.log", lines(2000, 200) + lines(900, 150));
  EXPECT_EQ(counted(run().added), 350u);
}

TEST_F(StateTest, SavedOnlyWhenAskedAndLockedUntilThen) {
  write("logs/access.log", lines(0, 20));
  {
    IncrementalRun unsaved = aggregate_incremental({path("logs")}, {}, path("state.json"));
    EXPECT_EQ(counted(unsaved.added), 20u);
    EXPECT_THROW(run(), StateError);  // still locked by the run not saved
  }                                   // let go without saving: the report was lost
  EXPECT_FALSE(fs::exists(path("state.json")));
  IncrementalRun again = aggregate_incremental({path("logs")}, {}, path("state.json"));
  EXPECT_EQ(counted(again.added), 20u);
  EXPECT_EQ(again.save(), "");
  EXPECT_EQ(counted(run().added), 0u);  // saved, and unlocked by save()
}

TEST_F(StateTest, FilesPastTheOpenLimitAreReadByName) {
  write("logs/a.log", lines(0, 30));  // three contents: no file is a copy of another
  write("logs/b.log", lines(200, 35));
  write("logs/c.log", lines(300, 36));
  write("logs/other.log", lines(400, 36));
  std::vector<TrackedFile> files = found({"a.log", "b.log", "c.log"});
  FileTracker tracker;
  std::vector<InputError> errors;
  std::vector<SpanPlan> plans = tracker.plan(files, 0, errors, /*keep_open=*/1);
  ASSERT_EQ(plans.size(), 3u);
  EXPECT_GE(files[0].fd, 0);  // kept open, read through it
  EXPECT_TRUE(plans[0].span.path.starts_with("/proc/self/fd/"));
  EXPECT_FALSE(plans[0].span.file);
  for (size_t k = 1; k < 3; ++k) {  // closed after the plan, read by name
    EXPECT_EQ(files[k].fd, -1);
    EXPECT_EQ(plans[k].span.path, files[k].name);
    ASSERT_TRUE(plans[k].span.file);
    EXPECT_EQ(plans[k].span.file->inode, static_cast<uint64_t>(files[k].st.st_ino));
  }
  // c.log replaced before the read: not read, not as planned.
  fs::rename(path("logs/other.log"), path("logs/c.log"));
  std::vector<InputSpan> spans;
  for (const SpanPlan& p : plans) spans.push_back(p.span);
  std::vector<SpanRead> reads;
  const Result r = aggregate_spans(spans, Query(), {}, reads);
  EXPECT_EQ(counted(r), 65u);
  EXPECT_TRUE(reads[0].complete && reads[1].complete);
  EXPECT_FALSE(reads[2].complete);
  EXPECT_TRUE(holds_planned_bytes(plans[0], files[0].fd));
  EXPECT_TRUE(holds_planned_bytes(plans[1], -1));
  EXPECT_FALSE(holds_planned_bytes(plans[2], -1));
  ::close(files[0].fd);
}

TEST_F(StateTest, BytesRewrittenAfterThePlanAreSeen) {
  const std::string text = lines(0, 100);  // ~7 KiB: the first 4 KiB and the last are fingerprinted apart
  write("logs/a.log", text);
  std::vector<TrackedFile> files = found({"a.log"});
  FileTracker tracker;
  std::vector<InputError> errors;
  std::vector<SpanPlan> plans = tracker.plan(files, 0, errors);
  ASSERT_EQ(plans.size(), 1u);
  EXPECT_TRUE(holds_planned_bytes(plans[0], files[0].fd));
  for (const size_t at : {size_t{0}, text.size() - 10}) {  // the head, then the tail, rewritten in place
    std::string other = text;
    other[at] = other[at] == '1' ? '2' : '1';
    write("logs/a.log", other);
    EXPECT_FALSE(holds_planned_bytes(plans[0], files[0].fd)) << at;
  }
  write("logs/a.log", text + lines(100, 1));  // grown: still the bytes planned
  EXPECT_TRUE(holds_planned_bytes(plans[0], files[0].fd));
  ::close(files[0].fd);
}

TEST_F(StateTest, CompressedFilesThatCannotBeReadWaitUntilTheyChange) {
  const std::string gz = gzip(lines(0, 50));
  write("logs/a.gz", gz.substr(0, gz.size() / 2));
  FileTracker tracker;
  for (const size_t expected_errors : {1u, 0u}) {  // the second plan passes over it: unchanged
    std::vector<TrackedFile> files = found({"a.gz"});
    std::vector<InputError> errors;
    EXPECT_TRUE(tracker.plan(files, 0, errors).empty());
    EXPECT_EQ(errors.size(), expected_errors);
    EXPECT_EQ(files[0].fd, -1);  // nothing to read: closed
  }
  write("logs/a.gz", gz);
  std::vector<TrackedFile> files = found({"a.gz"});
  std::vector<InputError> errors;
  const std::vector<SpanPlan> plans = tracker.plan(files, 0, errors);
  ASSERT_EQ(plans.size(), 1u);
  EXPECT_EQ(plans[0].span.end, lines(0, 50).size());  // a compressed span ends where its content did
  ::close(files[0].fd);
}

TEST_F(StateTest, OtherOptionsRefusedBeforeReading) {
  write("logs/access.log", lines(0, 5));
  run();
  std::ifstream in(path("state.json"), std::ios::binary);
  const std::string before((std::istreambuf_iterator<char>(in)), {});
  write("logs/access.log", lines(5, 5), /*append=*/true);
  Options by_app;
  by_app.by_app = true;
  EXPECT_THROW(run(by_app), StateError);
  Options other_pattern;
  other_pattern.app_pattern = "[a-z0-9]+";
  try {
    run(other_pattern);
    ADD_FAILURE() << "a state made with the default --app-pattern counted with another";
  } catch (const StateError& e) {  // the state's value first, then this run's
    EXPECT_NE(std::string(e.what()).find("made with a different --app-pattern ([A-Za-z0-9]+, not [a-z0-9]+)"),
              std::string::npos)
        << e.what();
  }
  std::ifstream again(path("state.json"), std::ios::binary);
  EXPECT_EQ(std::string((std::istreambuf_iterator<char>(again)), {}), before);
  EXPECT_EQ(counted(run().added), 5u);  // the refused run moved nothing
}

}  // namespace
}  // namespace logagg
