// Inflater (inflater.h) on ISA-L's isal_inflate: about three times zlib's
// speed on x86-64 and arm64. It reads the gzip header and checks the trailer
// itself (ISAL_GZIP). Verdicts and messages must not depend on the build, so
// a member's first four bytes are checked here as zlib checks them, when zlib
// would (ISA-L waits for the whole header, and lets reserved flags pass), a
// wrong trailer is told a wrong CRC or a wrong length as zlib tells it, and
// ISA-L's other error codes are told in zlib's words.
#include <isa-l/igzip_lib.h>

#include <algorithm>
#include <cstring>

#include "input/inflater.h"

namespace logagg {
namespace {

// What zlib says of the same fault.
const char* zlib_words(int rc) {
  switch (rc) {
    case ISAL_INVALID_WRAPPER: return "incorrect header check";
    case ISAL_UNSUPPORTED_METHOD: return "unknown compression method";
    case ISAL_INCORRECT_CHECKSUM: return "incorrect data check";
    case ISAL_INVALID_LOOKBACK: return "invalid distance too far back";
    case ISAL_INVALID_SYMBOL: return "invalid code";
    default: return "invalid block type";
  }
}

}  // namespace

struct Inflater::State {
  inflate_state isal{};
  uint64_t member_in = 0;        // bytes of the member ISA-L has taken
  unsigned char head[4] = {};    // the member's first bytes, as far as seen
  size_t head_seen = 0;
  unsigned char last[8] = {};    // the last bytes ISA-L took: the trailer, when it is checked

  // Keeps the last 8 of the `n` bytes just taken from `in`.
  void keep_last(const char* in, size_t n) {
    const size_t k = std::min(n, sizeof last);
    std::memmove(last, last + k, sizeof last - k);
    std::memcpy(last + sizeof last - k, in + n - k, k);
  }

  // zlib's verdict on the member's first bytes, once it has enough of them
  // to give one: the magic (two bytes), then the method and the flags.
  const char* check_head(const char* in, size_t in_len) {
    while (head_seen < sizeof head && head_seen >= member_in && head_seen - member_in < in_len) {
      head[head_seen] = static_cast<unsigned char>(in[head_seen - member_in]);
      ++head_seen;
    }
    if (head_seen >= 2 && (head[0] != 0x1F || head[1] != 0x8B)) return "incorrect header check";
    if (head_seen == 4 && head[2] != 8) return "unknown compression method";
    if (head_seen == 4 && (head[3] & 0xE0) != 0) return "unknown header flags set";
    return nullptr;
  }
};

Inflater::Inflater() : state_(std::make_unique<State>()) { start_member(); }

Inflater::~Inflater() = default;

void Inflater::start_member() {
  isal_inflate_init(&state_->isal);
  state_->isal.crc_flag = ISAL_GZIP;
  state_->member_in = 0;
  state_->head_seen = 0;
}

Inflater::Status Inflater::inflate(const char*& in, size_t& in_len, char*& out, size_t& out_len) {
  inflate_state& s = state_->isal;
  if (const char* words = state_->check_head(in, in_len)) {
    error_ = words;
    return Status::kCorrupt;
  }
  s.next_in = reinterpret_cast<uint8_t*>(const_cast<char*>(in));
  s.avail_in = static_cast<uint32_t>(std::min<size_t>(in_len, 1u << 30));
  s.next_out = reinterpret_cast<uint8_t*>(out);
  s.avail_out = static_cast<uint32_t>(std::min<size_t>(out_len, 1u << 30));
  const int rc = isal_inflate(&s);
  const auto used = static_cast<size_t>(reinterpret_cast<const char*>(s.next_in) - in);
  state_->member_in += used;
  in_len -= used;
  in = reinterpret_cast<const char*>(s.next_in);
  out_len -= reinterpret_cast<char*>(s.next_out) - out;
  out = reinterpret_cast<char*>(s.next_out);
  state_->keep_last(in - used, used);
  if (rc < 0) {
    uint32_t trailer_crc = 0;  // little-endian, as the platforms ISA-L is built for
    std::memcpy(&trailer_crc, state_->last, sizeof trailer_crc);
    const bool crc_right = rc == ISAL_INCORRECT_CHECKSUM && trailer_crc == s.crc;
    error_ = crc_right ? "incorrect length check" : zlib_words(rc);
    return Status::kCorrupt;
  }
  return s.block_state == ISAL_BLOCK_FINISH ? Status::kMemberEnd : Status::kMore;
}

}  // namespace logagg
