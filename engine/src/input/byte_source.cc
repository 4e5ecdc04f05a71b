// Byte sources for the stream reader (see input.h): a file descriptor read as
// is, or decompressed on the fly with the gzip decoder (inflater.h: ISA-L or
// zlib) or libzstd, chosen by the magic numbers at the start of the data; and
// the first bytes of another source (limit_bytes). Each keeps one input and
// one output buffer, so memory is bounded whatever the size of the data.
#include <unistd.h>
#include <zstd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string>
#include <vector>

#include "input/inflater.h"
#include "input/input.h"

namespace logagg {
namespace {

constexpr std::string_view kGzipMagic = "\x1F\x8B";
constexpr std::string_view kZstdMagic = "\x28\xB5\x2F\xFD";
// Compressed input is read in blocks of this size: below glibc's threshold
// for serving an allocation with its own mapping, so that thousands of small
// compressed files do not each map and unmap a buffer.
constexpr size_t kInputBytes = size_t{64} << 10;

// Reads a file descriptor, first replaying the bytes read to sniff it (and
// then the error that stopped the sniffing, if one did).
class FdSource final : public ByteSource {
 public:
  FdSource(int fd, std::string head, int head_errno)
      : fd_(fd), head_(std::move(head)), head_errno_(head_errno) {
    bytes_in_ = head_.size();
  }

  ptrdiff_t read(char* buf, size_t cap) override {
    if (offset_ < head_.size()) {
      const size_t n = std::min(cap, head_.size() - offset_);
      std::memcpy(buf, head_.data() + offset_, n);
      offset_ += n;
      return static_cast<ptrdiff_t>(n);
    }
    if (head_errno_ != 0) {
      error_ = std::strerror(head_errno_);
      return -1;
    }
    for (;;) {
      const ssize_t n = ::read(fd_, buf, cap);
      if (n >= 0) {
        bytes_in_ += static_cast<uint64_t>(n);
        return n;
      }
      if (errno != EINTR) {
        error_ = std::strerror(errno);
        return -1;
      }
    }
  }

 private:
  int fd_;
  std::string head_;
  int head_errno_;
  size_t offset_ = 0;
};

// The shared part of the decompressors: compressed input is pulled from the
// raw source into one buffer and decoded unit by unit (gzip members, zstd
// frames); read() reports the raw source's errors and byte count as its own.
// Once the raw data has ended, the decoder is still asked for what it holds,
// and what it decoded before a fault is handed out before the error. The
// decoder writes in chunks of kDecodedChunkBytes (input.h), in place when
// the caller has room for the rest of the chunk, else into held_, and its
// input comes in the raw source's reads, which for a regular file are the
// same whatever the caller: so what comes out, also before a fault, never
// depends on the sizes of the reads.
class Decompressor : public ByteSource {
 public:
  ptrdiff_t read(char* buf, size_t cap) final {
    if (held_pos_ < held_end_) return hand_out_held(buf, cap);
    if (!error_.empty()) return -1;
    char* out = buf;
    size_t out_left = cap;
    // Until some output, then on while input is at hand (no wait for more
    // once there is output) and the rest of the chunk fits in place.
    while (out == buf || (in_pos_ < in_size_ && out_left >= kDecodedChunkBytes - chunk_made_)) {
      const bool more = refill();
      if (!more && !error_.empty()) return -1;
      if (!more && !in_unit_) return 0;  // the data ended between units
      if (!in_unit_) {  // a new unit starts: the next bytes must be its header
        start_unit();
        in_unit_ = true;
      }
      const size_t room = kDecodedChunkBytes - chunk_made_;
      const bool in_place = out_left >= room;
      if (!in_place) held_.resize(kDecodedChunkBytes);  // once: the vector keeps its size
      char* const to = in_place ? out : held_.data();
      char* to_end = to;
      size_t to_left = room;
      const char* in = in_.data() + in_pos_;
      size_t in_left = in_size_ - in_pos_;
      const Step step = decode(in, in_left, to_end, to_left);
      in_pos_ = in_size_ - in_left;
      const size_t made = room - to_left;
      chunk_made_ = (chunk_made_ + made) % kDecodedChunkBytes;
      if (in_place) {
        out += made;
        out_left -= made;
      } else {
        held_pos_ = 0;
        held_end_ = made;
        out += hand_out_held(out, out_left);
      }
      if (step == Step::kCorrupt) {  // what was decoded before the fault first, the error next
        error_ = "corrupt " + std::string(format_) + " data: " + words_;
        return out == buf ? -1 : out - buf;
      }
      if (step == Step::kUnitEnd) {
        in_unit_ = false;  // more units follow, or the end of the data
      } else if (!more && made == 0) {
        return end_of_input(true, format_);  // the decoder holds nothing more
      }
      if (held_pos_ < held_end_) break;  // what the read had no room for goes out first
    }
    return out - buf;
  }

 protected:
  Decompressor(std::unique_ptr<FdSource> raw, std::string_view format)
      : raw_(std::move(raw)), in_(kInputBytes), format_(format) {}

  enum class Step { kMore, kUnitEnd, kCorrupt };
  // The next bytes start a unit.
  virtual void start_unit() {}
  // Decodes from [in, in + in_len) into [out, out + out_len), moving both
  // forward; kCorrupt with words_ set to say why.
  virtual Step decode(const char*& in, size_t& in_len, char*& out, size_t& out_len) = 0;

  std::string words_;

 private:
  // Refills the input buffer when it is empty: false at the end of the raw
  // data or on an error (error_ set).
  bool refill() {
    if (in_pos_ < in_size_) return true;
    const ptrdiff_t n = raw_->read(in_.data(), in_.size());
    bytes_in_ = raw_->bytes_in();
    if (n < 0) error_ = raw_->error();
    in_pos_ = 0;
    in_size_ = n > 0 ? static_cast<size_t>(n) : 0;
    return n > 0;
  }

  // Copies what it can of held_ into [buf, buf + cap).
  ptrdiff_t hand_out_held(char* buf, size_t cap) {
    const size_t n = std::min(cap, held_end_ - held_pos_);
    std::memcpy(buf, held_.data() + held_pos_, n);
    held_pos_ += n;
    return static_cast<ptrdiff_t>(n);
  }

  std::unique_ptr<FdSource> raw_;
  std::vector<char> in_;
  size_t in_pos_ = 0, in_size_ = 0;
  std::string_view format_;
  bool in_unit_ = false;
  size_t chunk_made_ = 0;                 // bytes of the current chunk decoded
  std::vector<char> held_;                // a chunk decoded for a read with less room
  size_t held_pos_ = 0, held_end_ = 0;    // what of it is still to hand out
};

class GzipSource final : public Decompressor {
 public:
  explicit GzipSource(std::unique_ptr<FdSource> raw) : Decompressor(std::move(raw), "gzip") {
    if (!inflater_.init_error().empty()) error_ = "gzip: " + inflater_.init_error();
  }

 private:
  void start_unit() override { inflater_.start_member(); }
  Step decode(const char*& in, size_t& in_len, char*& out, size_t& out_len) override {
    switch (inflater_.inflate(in, in_len, out, out_len)) {
      case Inflater::Status::kMore: return Step::kMore;
      case Inflater::Status::kMemberEnd: return Step::kUnitEnd;
      case Inflater::Status::kCorrupt: break;
    }
    words_ = inflater_.error();
    return Step::kCorrupt;
  }

  Inflater inflater_;
};

class ZstdSource final : public Decompressor {
 public:
  explicit ZstdSource(std::unique_ptr<FdSource> raw) : Decompressor(std::move(raw), "zstd"), z_(ZSTD_createDStream()) {
    if (z_ == nullptr) error_ = "zstd: cannot create a decompression stream";
  }
  ~ZstdSource() override { ZSTD_freeDStream(z_); }

 private:
  Step decode(const char*& in, size_t& in_len, char*& out, size_t& out_len) override {
    ZSTD_inBuffer i{in, in_len, 0};
    ZSTD_outBuffer o{out, out_len, 0};
    const size_t rc = ZSTD_decompressStream(z_, &o, &i);
    in += i.pos;
    in_len -= i.pos;
    out += o.pos;
    out_len -= o.pos;
    if (ZSTD_isError(rc)) {
      words_ = ZSTD_getErrorName(rc);
      return Step::kCorrupt;
    }
    return rc == 0 ? Step::kUnitEnd : Step::kMore;  // 0: a frame just ended
  }

  ZSTD_DStream* z_;
};

// The first `end` bytes of another source, which must reach that far.
class LimitedSource final : public ByteSource {
 public:
  LimitedSource(std::unique_ptr<ByteSource> inner, uint64_t end) : inner_(std::move(inner)), left_(end) {}

  ptrdiff_t read(char* buf, size_t cap) override {
    if (left_ == 0) return 0;
    const ptrdiff_t n = inner_->read(buf, static_cast<size_t>(std::min<uint64_t>(cap, left_)));
    bytes_in_ = inner_->bytes_in();
    if (n < 0) error_ = inner_->error();
    if (n == 0) error_ = "shorter than when it was planned";
    if (n <= 0) return -1;
    left_ -= static_cast<uint64_t>(n);
    return n;
  }

 private:
  std::unique_ptr<ByteSource> inner_;
  uint64_t left_;
};

}  // namespace

Compression detect_compression(std::string_view head) noexcept {
  if (head.starts_with(kGzipMagic)) return Compression::kGzip;
  if (head.starts_with(kZstdMagic)) return Compression::kZstd;
  return Compression::kNone;
}

std::string_view compression_name(Compression c) noexcept {
  switch (c) {
    case Compression::kGzip: return "gzip";
    case Compression::kZstd: return "zstd";
    case Compression::kNone: break;
  }
  return "plain";
}

std::unique_ptr<ByteSource> open_byte_source(int fd, Decompression how) {
  // Sniff the magic number; on a pipe a read may return fewer bytes than asked.
  std::string head(kZstdMagic.size(), '\0');
  size_t got = 0;
  int error = 0;
  while (got < head.size()) {
    const ssize_t n = ::read(fd, head.data() + got, head.size() - got);
    if (n > 0) {
      got += static_cast<size_t>(n);
    } else if (n == 0 || errno != EINTR) {
      if (n < 0) error = errno;
      break;
    }
  }
  head.resize(got);
  auto raw = std::make_unique<FdSource>(fd, head, error);
  if (error != 0) return raw;
  std::unique_ptr<ByteSource> decompressed;
  switch (detect_compression(head)) {
    case Compression::kGzip: decompressed = std::make_unique<GzipSource>(std::move(raw)); break;
    case Compression::kZstd: decompressed = std::make_unique<ZstdSource>(std::move(raw)); break;
    case Compression::kNone: return raw;
  }
  if (how == Decompression::kAhead) return read_ahead_in_thread(std::move(decompressed));
  return decompressed;
}

std::unique_ptr<ByteSource> limit_bytes(std::unique_ptr<ByteSource> source, uint64_t end) {
  return std::make_unique<LimitedSource>(std::move(source), end);
}

}  // namespace logagg
