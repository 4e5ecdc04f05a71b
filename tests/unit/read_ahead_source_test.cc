// Tests of read_ahead_in_thread (input/input.h): what a source gives is handed
// out unchanged however the reads and the buffers cut it, its end and its
// error (with the bytes before it and its count of bytes taken) come after
// all its data, the reading thread fills only its few buffers again and
// again, and a reader that stops early stops the thread.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <set>
#include <string>

#include "input/input.h"

namespace logagg {
namespace {

// A source of `data` in reads of at most `piece` bytes, failing at its end
// with `error` if not empty; it records the buffers it was asked to fill and
// counts its reads.
class ScriptedSource final : public ByteSource {
 public:
  ScriptedSource(std::string data, size_t piece, std::string error, std::set<const char*>* buffers,
                 size_t* reads = nullptr)
      : data_(std::move(data)), piece_(piece), fail_with_(std::move(error)), buffers_(buffers), reads_(reads) {}

  ptrdiff_t read(char* buf, size_t cap) override {
    if (buffers_ != nullptr) buffers_->insert(buf);
    if (reads_ != nullptr) ++*reads_;
    if (pos_ == data_.size()) {
      if (fail_with_.empty()) return 0;
      error_ = fail_with_;
      return -1;
    }
    const size_t n = std::min({cap, piece_, data_.size() - pos_});
    std::memcpy(buf, data_.data() + pos_, n);
    pos_ += n;
    bytes_in_ = pos_ * 3;  // as if compressed 3:1 the other way
    return static_cast<ptrdiff_t>(n);
  }

 private:
  std::string data_;
  size_t piece_, pos_ = 0;
  std::string fail_with_;
  std::set<const char*>* buffers_;
  size_t* reads_;  // read by the test only once the reading thread is joined
};

std::string bytes_of(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng());
  return s;
}

// Reads `source` to its end in reads of random sizes up to `max_cap`.
std::string read_all(ByteSource& source, size_t max_cap, std::mt19937_64& rng, ptrdiff_t& last) {
  std::string out;
  std::vector<char> buf(max_cap);
  for (;;) {
    last = source.read(buf.data(), 1 + rng() % max_cap);
    if (last <= 0) return out;
    out.append(buf.data(), static_cast<size_t>(last));
  }
}

TEST(ReadAheadSource, HandsOutTheSourceUnchangedWhateverTheCuts) {
  std::mt19937_64 rng(1);
  for (int round = 0; round < 30; ++round) {
    SCOPED_TRACE(round);
    const std::string data = bytes_of(rng() % 5000, rng());
    const size_t piece = 1 + rng() % 300, buffers = 1 + rng() % 4, buffer_bytes = 1 + rng() % 200;
    auto source = read_ahead_in_thread(std::make_unique<ScriptedSource>(data, piece, "", nullptr), buffers,
                                       buffer_bytes);
    ptrdiff_t last = 1;
    EXPECT_EQ(read_all(*source, 1 + rng() % 400, rng, last), data);
    EXPECT_EQ(last, 0);
    EXPECT_EQ(source->read(nullptr, 1), 0) << "the end stays the end";
    EXPECT_EQ(source->bytes_in(), data.size() * 3);
    EXPECT_EQ(source->error(), "");
  }
}

TEST(ReadAheadSource, AnErrorComesAfterAllTheDataBeforeIt) {
  std::mt19937_64 rng(2);
  const std::string data = bytes_of(10000, 3);
  auto source = read_ahead_in_thread(std::make_unique<ScriptedSource>(data, 777, "corrupt gzip data: x", nullptr),
                                     2, 512);
  ptrdiff_t last = 0;
  EXPECT_EQ(read_all(*source, 1000, rng, last), data);
  EXPECT_EQ(last, -1);
  EXPECT_EQ(source->error(), "corrupt gzip data: x");
  EXPECT_EQ(source->bytes_in(), data.size() * 3);
  char c;
  EXPECT_EQ(source->read(&c, 1), -1) << "the error stays";
}

TEST(ReadAheadSource, TheThreadFillsOnlyItsOwnFewBuffers) {
  std::set<const char*> buffers;
  const std::string data = bytes_of(100000, 4);
  auto source = read_ahead_in_thread(std::make_unique<ScriptedSource>(data, 1000, "", &buffers), 3, 1000);
  std::mt19937_64 rng(5);
  ptrdiff_t last = 1;
  EXPECT_EQ(read_all(*source, 300, rng, last), data);
  source.reset();  // joins the thread: `buffers` is all written
  EXPECT_EQ(buffers.size(), 3u) << "101 reads into 3 reused buffers";
}

TEST(ReadAheadSource, AReaderThatStopsEarlyStopsTheThread) {
  for (size_t read_first : {0, 1, 5000}) {
    size_t reads = 0;
    auto source = read_ahead_in_thread(std::make_unique<ScriptedSource>(bytes_of(1 << 20, 6), 100, "", nullptr, &reads),
                                       2, 100);
    std::vector<char> buf(read_first + 1);
    size_t got = 0;
    while (got < read_first) got += static_cast<size_t>(source->read(buf.data(), read_first - got));
    source.reset();  // returns: the thread, waiting for a free buffer, is told to stop
    EXPECT_LE(reads, read_first / 100 + 3) << "no more than the two buffers ahead of the reader, of 10486 reads";
  }
}

}  // namespace
}  // namespace logagg
