// read_ahead_in_thread (input.h): a byte source read by a thread of its own
// into a ring of reused buffers, ahead of the thread that reads it, so that
// decompressing a file overlaps with parsing what came out of it. The reader
// copies out of the buffers (they stay in the cache: a few hundred KiB each);
// the end of the data, or its error and message, come in the last buffer.
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "input/input.h"

namespace logagg {
namespace {

class ReadAheadSource final : public ByteSource {
 public:
  ReadAheadSource(std::unique_ptr<ByteSource> inner, size_t buffers, size_t buffer_bytes)
      : inner_(std::move(inner)), ring_(buffers) {
    for (Buffer& b : ring_) b.bytes.resize(buffer_bytes);
    thread_ = std::thread([this] { fill(); });
  }

  ~ReadAheadSource() override {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }

  ptrdiff_t read(char* buf, size_t cap) override {
    if (!current_ready_) take_next();
    const Buffer& b = ring_[taken_ % ring_.size()];
    if (b.result <= 0) {  // the last buffer, kept: the end of the data (0) or its error (-1)
      bytes_in_ = b.bytes_in;
      error_ = b.error;
      return b.result;
    }
    const size_t n = std::min(cap, static_cast<size_t>(b.result) - offset_);
    std::memcpy(buf, b.bytes.data() + offset_, n);
    offset_ += n;
    bytes_in_ = b.bytes_in;
    if (offset_ == static_cast<size_t>(b.result)) release();
    return static_cast<ptrdiff_t>(n);
  }

 private:
  struct Buffer {
    std::vector<char> bytes;
    ptrdiff_t result = 0;  // what the inner read returned into it
    uint64_t bytes_in = 0;
    std::string error;     // when result < 0
  };

  // The reading thread: fills the free buffers in turn, up to the end of the
  // data or its error, or until the reader is gone.
  void fill() {
    for (size_t filled = 0;; ++filled) {
      {
        std::unique_lock lock(mutex_);
        changed_.wait(lock, [&] { return stopping_ || filled - released_ < ring_.size(); });
        if (stopping_) return;
      }
      Buffer& b = ring_[filled % ring_.size()];
      b.result = inner_->read(b.bytes.data(), b.bytes.size());
      b.bytes_in = inner_->bytes_in();
      if (b.result < 0) b.error = inner_->error();
      {
        std::lock_guard lock(mutex_);
        filled_ = filled + 1;
      }
      changed_.notify_all();
      if (b.result <= 0) return;
    }
  }

  // Waits for the next buffer to be filled.
  void take_next() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [&] { return filled_ > taken_; });
    current_ready_ = true;
    offset_ = 0;
  }

  // The buffer has been copied out: the reading thread may fill it again.
  void release() {
    current_ready_ = false;
    {
      std::lock_guard lock(mutex_);
      released_ = ++taken_;
    }
    changed_.notify_all();
  }

  std::unique_ptr<ByteSource> inner_;
  std::vector<Buffer> ring_;
  std::mutex mutex_;
  std::condition_variable changed_;
  size_t filled_ = 0, released_ = 0;  // buffers filled and given back, under mutex_
  bool stopping_ = false;             // under mutex_
  size_t taken_ = 0;                  // the reader's: buffers it finished with
  size_t offset_ = 0;                 // in the current buffer
  bool current_ready_ = false;           // the current buffer is taken and not all copied out
  std::thread thread_;
};

}  // namespace

std::unique_ptr<ByteSource> read_ahead_in_thread(std::unique_ptr<ByteSource> source, size_t buffers,
                                                 size_t buffer_bytes) {
  return std::make_unique<ReadAheadSource>(std::move(source), buffers, buffer_bytes);
}

}  // namespace logagg
