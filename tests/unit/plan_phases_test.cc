// Tests for the phases of planning one changed file (engine/src/state/
// plan_phases.h) and the record look-ups they use (record_index.h), each
// alone, on files in a temporary folder:
// - read: a plain file's first bytes and size, a compressed file's content
//   scanned, a damaged one passed over, one that cannot be read an error;
// - recognise: the records whose first bytes a file starts with, its own
//   record first, then the one counted furthest; by inode;
// - classify: continues a record, new (no record, or other bytes before the
//   stop, or its own file truncated), a copy of a file claimed already, a
//   partial copy (shorter than where its record stopped, also when known
//   only by the first bytes this process read), a compressed file checked at
//   each candidate's stop;
// - decide: a new file's span to its last complete line (or its end), a
//   continued one from its stop, a compressed one to its content's end, the
//   record after the span, nothing new;
// - files that change while planned: a plain one truncated before the
//   decision (also written again past its stop), a compressed one still
//   being written: no plan.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>
#include <vector>

#include "state/plan_phases.h"
#include "support/compress.h"
#include "support/log_folder.h"

namespace logagg {

void PrintTo(const Classification& c, std::ostream* os) {
  *os << "{kind " << static_cast<int>(c.kind) << ", record " << c.record << "}";
}

namespace {

class PlanPhases : public LogFolderTest {
 protected:
  void TearDown() override {
    for (const int fd : fds_) ::close(fd);
    LogFolderTest::TearDown();
  }
  // logs/NAME, open (closed after the test) and stat'ed.
  TrackedFile file(const std::string& name) {
    TrackedFile f{path("logs/" + name), open_file("logs/" + name), stat_of("logs/" + name)};
    EXPECT_GE(f.fd, 0) << name;
    fds_.push_back(f.fd);
    return f;
  }
  // The record of logs/NAME once read to its last complete line, as a plan
  // of it alone leaves it.
  FileRecord record_of(const std::string& name) {
    const TrackedFile f = file(name);
    return decide(f, 0, read_content(f.fd, f.st), nullptr, 0)->next;
  }
  Classification classify_file(const std::string& name, const std::vector<FileRecord>& records,
                               const std::vector<bool>& claimed) {
    const TrackedFile f = file(name);
    FileContent content = read_content(f.fd, f.st);
    RecordIndex index;
    index.build(records);
    return classify(f.fd, f.st, content, records, claimed, recognise(index, records, content.head.bytes, f.st));
  }

  std::vector<int> fds_;
};

TEST_F(PlanPhases, ReadPlainCompressedDamagedAndUnreadable) {
  const std::string text = lines(0, 200);
  write("logs/a.log", text + "{\"partial");
  const TrackedFile plain = file("a.log");
  const FileContent a = read_content(plain.fd, plain.st);
  EXPECT_EQ(a.head.bytes, text.substr(0, kFingerprintBytes));
  EXPECT_EQ(a.length, text.size() + 9);
  EXPECT_FALSE(a.scan);
  EXPECT_EQ(a.error, "");

  write("logs/a.gz", gzip(text));
  const TrackedFile gz = file("a.gz");
  const FileContent b = read_content(gz.fd, gz.st);
  EXPECT_TRUE(b.head.compressed);
  EXPECT_EQ(b.length, text.size());
  ASSERT_TRUE(b.scan);
  EXPECT_EQ(b.scan->tail_hash, fingerprint_hash(text.substr(text.size() - kFingerprintBytes)));

  const std::string whole = gzip(text);
  write("logs/cut.gz", whole.substr(0, whole.size() / 2));
  const TrackedFile cut = file("cut.gz");
  const FileContent c = read_content(cut.fd, cut.st);
  EXPECT_NE(c.error.find("; not counted until it can be read whole"), std::string::npos) << c.error;
  EXPECT_TRUE(c.pass_over);

  const int folder = ::open(path("logs").c_str(), O_RDONLY | O_CLOEXEC);  // read() fails: EISDIR
  fds_.push_back(folder);
  const FileContent d = read_content(folder, stat_of("logs"));
  EXPECT_NE(d.error, "");
  EXPECT_FALSE(d.pass_over);
}

TEST_F(PlanPhases, RecogniseOwnRecordFirstThenTheFurthest) {
  write("logs/a.log", lines(0, 100));  // over 4 KiB: its record hashes 4 KiB of first bytes
  write("logs/short.log", lines(0, 10));  // a.log's first lines: a shorter head
  write("logs/other.log", lines(500, 10));
  std::vector<FileRecord> records = {record_of("short.log"), record_of("other.log"), record_of("a.log")};
  write("logs/b.log", lines(0, 100) + lines(100, 5));  // starts like a.log and short.log
  records.push_back(record_of("b.log"));               // b.log's own record, stopped before a.log's
  const TrackedFile b = file("b.log");
  RecordIndex index;
  index.build(records);
  const FileContent content = read_content(b.fd, b.st);
  EXPECT_EQ(index.same_head(records, content.head.bytes), (std::vector<size_t>{0, 2, 3}));  // by head length
  records[3].offset = 1;  // its own record comes first even when it has counted the least
  EXPECT_EQ(recognise(index, records, content.head.bytes, b.st), (std::vector<size_t>{3, 2, 0}));
  EXPECT_EQ(index.same_inode(records, b.st), (std::vector<size_t>{3}));
  EXPECT_TRUE(recognise(index, records, "nothing alike", b.st).empty());
  index.add(records, records.size() - 1);  // a record added again is found twice
  EXPECT_EQ(index.same_inode(records, b.st), (std::vector<size_t>{3, 3}));
}

TEST_F(PlanPhases, ClassifyPlainFiles) {
  const std::string text = lines(0, 100);
  write("logs/access.log", text);
  const std::vector<FileRecord> records = {record_of("access.log")};
  write("logs/access.log", lines(100, 3), /*append=*/true);
  EXPECT_EQ(classify_file("access.log", records, {false}), (Classification{FileKind::kContinues, 0}));
  EXPECT_EQ(classify_file("access.log", records, {true}), (Classification{FileKind::kCopyOfClaimed, 0}));
  EXPECT_EQ(classify_file("access.log", {}, {}), Classification{});
  // A copy of it elsewhere: continues it too; half the copy: a partial copy.
  write("logs/copy", text);
  EXPECT_EQ(classify_file("copy", records, {false}), (Classification{FileKind::kContinues, 0}));
  write("logs/half", text.substr(0, text.size() / 2));
  EXPECT_EQ(classify_file("half", records, {false}), (Classification{FileKind::kPartialCopy, 0}));
  // The same first bytes, other bytes before the stop: new.
  write("logs/other", text.substr(0, text.size() - 20) + std::string(19, 'x') + "\n");
  EXPECT_EQ(classify_file("other", records, {false}), Classification{});
  // Its own file truncated below the stop: new, not a copy.
  write("logs/access.log", text.substr(0, text.size() / 2));
  EXPECT_EQ(classify_file("access.log", records, {false}), Classification{});
}

TEST_F(PlanPhases, ClassifyACopyShorterThanTheFirstBytes) {
  write("logs/access.log", lines(0, 10));  // under 4 KiB: its record keeps the bytes read
  const std::vector<FileRecord> records = {record_of("access.log")};
  ASSERT_EQ(records[0].head, lines(0, 10));
  write("logs/begun", lines(0, 4));  // a copy just begun: known only by those bytes
  EXPECT_EQ(classify_file("begun", records, {true}), (Classification{FileKind::kPartialCopy, 0}));
  FileRecord from_a_state_file = records[0];
  from_a_state_file.head.clear();  // a state file keeps only their hash: the copy is new
  EXPECT_EQ(classify_file("begun", {from_a_state_file}, {true}), Classification{});
}

TEST_F(PlanPhases, ClassifyCompressedFilesAtEachStop) {
  const std::string text = lines(0, 300);
  write("logs/early", text.substr(0, text.size() / 3));  // two records of one log, stopped at two places
  write("logs/late", text.substr(0, 2 * text.size() / 3));
  std::vector<FileRecord> records = {record_of("early"), record_of("late")};
  write("logs/access.log.gz", gzip(text));
  EXPECT_EQ(classify_file("access.log.gz", records, {false, false}), (Classification{FileKind::kContinues, 1}));
  EXPECT_EQ(classify_file("access.log.gz", records, {false, true}), (Classification{FileKind::kCopyOfClaimed, 1}));
  records[1].tail_hash ^= 1;  // the later stop does not match: the earlier one, scanned again
  EXPECT_EQ(classify_file("access.log.gz", records, {false, false}), (Classification{FileKind::kContinues, 0}));
}

TEST_F(PlanPhases, DecideNewContinuedCompressedAndNothingNew) {
  const std::string text = lines(0, 100);
  write("logs/a.log", text + "{\"partial");
  TrackedFile a = file("a.log");
  const SpanPlan fresh = *decide(a, 4, read_content(a.fd, a.st), nullptr, 77);
  EXPECT_EQ(fresh.file, 4u);
  EXPECT_EQ(fresh.span.path, "/proc/self/fd/" + std::to_string(a.fd));
  EXPECT_EQ(fresh.span.name, a.name);
  EXPECT_EQ(fresh.span.begin, 0u);
  EXPECT_EQ(fresh.span.end, text.size());  // the partial line waits
  EXPECT_EQ(fresh.previous.tail_hash, fingerprint_hash(""));
  EXPECT_EQ(fresh.next.offset, text.size());
  EXPECT_EQ(fresh.next.lines, 0u);  // those before the span
  EXPECT_EQ(fresh.next.head_bytes, kFingerprintBytes);
  EXPECT_EQ(fresh.next.head_hash, fingerprint_hash(text.substr(0, kFingerprintBytes)));
  EXPECT_EQ(fresh.next.tail_hash, fingerprint_hash(text.substr(text.size() - kFingerprintBytes)));
  EXPECT_EQ(fresh.next.inode, static_cast<uint64_t>(a.st.st_ino));
  EXPECT_EQ(fresh.next.seen, 77);
  a.to_end = true;  // rotated away and quiet: the last line counts without its LF
  EXPECT_EQ(decide(a, 0, read_content(a.fd, a.st), nullptr, 0)->span.end, text.size() + 9);
  a.to_end = false;

  FileRecord old = fresh.next;
  old.lines = 100;
  write("logs/a.log", "\"}\n" + lines(100, 2), /*append=*/true);
  a.st = stat_of("logs/a.log");
  const SpanPlan more = *decide(a, 0, read_content(a.fd, a.st), &old, 0);
  EXPECT_EQ(more.span.begin, text.size());
  EXPECT_EQ(more.span.first_line, 100u);
  EXPECT_EQ(more.span.end, static_cast<uint64_t>(a.st.st_size));
  EXPECT_EQ(more.previous.offset, old.offset);
  EXPECT_EQ(more.next.lines, 100u);

  const SpanPlan none = *decide(a, 0, read_content(a.fd, a.st), &more.next, 0);
  EXPECT_EQ(none.span.begin, none.span.end);

  const std::string content = text + "{\"no LF\"}";
  write("logs/a.gz", gzip(content));
  const TrackedFile gz = file("a.gz");
  const SpanPlan compressed = *decide(gz, 0, read_content(gz.fd, gz.st), &fresh.next, 0);
  EXPECT_EQ(compressed.span.begin, text.size());
  EXPECT_EQ(compressed.span.end, content.size());  // a compressed file to its end
  EXPECT_TRUE(compressed.next.compressed);
  EXPECT_EQ(compressed.next.tail_hash, fingerprint_hash(content.substr(content.size() - kFingerprintBytes)));
}

// Files that change while they are planned (--follow: logrotate runs
// meanwhile). A plain file truncated after it was read (copytruncate) has
// no plan, so that its record stays as it was for the copy; a compressed
// file that changes between its stat and its reads (gzip still writing)
// is not planned now, and nothing is told of it.
TEST_F(PlanPhases, FilesChangedWhilePlannedAreNotPlanned) {
  const std::string text = lines(0, 10);
  write("logs/a.log", text);
  TrackedFile a = file("a.log");
  FileRecord old = record_of("a.log");
  old.offset = old.head_bytes = 200;  // counted to there before
  write("logs/a.log", text + lines(10, 2));
  a.st = stat_of("logs/a.log");
  const FileContent content = read_content(a.fd, a.st);
  ASSERT_EQ(::truncate(a.name.c_str(), 0), 0);  // copytruncate, between the read and the decision
  EXPECT_FALSE(decide(a, 0, content, &old, 0));
  // ...and written again past the stop, with no line end after it: the
  // record would move to the same offset with the new bytes' hash, and the
  // copy would no longer be known as its continuation.
  write("logs/a.log", text + lines(10, 2));
  a.st = stat_of("logs/a.log");
  const FileRecord at_end = record_of("a.log");
  const FileContent before = read_content(a.fd, a.st);
  EXPECT_EQ(decide(a, 0, before, &at_end, 0)->span.end, at_end.offset);  // nothing new
  ASSERT_EQ(::truncate(a.name.c_str(), 0), 0);
  write("logs/a.log", std::string(at_end.offset + 10, 'x'));
  EXPECT_FALSE(decide(a, 0, before, &at_end, 0));

  write("logs/b.gz", gzip(text).substr(0, 40));  // gzip has written its first bytes
  const TrackedFile gz = file("b.gz");
  write("logs/b.gz", gzip(text));  // ...and the rest, before the plan reads it
  const FileContent changing = read_content(gz.fd, gz.st);
  EXPECT_TRUE(changing.changing);
  EXPECT_TRUE(changing.error.empty());
  const TrackedFile done = file("b.gz");
  const FileContent whole = read_content(done.fd, done.st);
  EXPECT_FALSE(whole.changing);
  EXPECT_EQ(whole.length, text.size());
}

}  // namespace
}  // namespace logagg
