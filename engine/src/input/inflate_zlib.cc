// Inflater (inflater.h) on zlib's inflate: the fallback where ISA-L is not
// built in (LOGAGG_WITH_ISAL off, or no libisal for the target).
#include <zlib.h>

#include <algorithm>

#include "input/inflater.h"

namespace logagg {

struct Inflater::State {
  z_stream z{};
};

Inflater::Inflater() : state_(std::make_unique<State>()) {
  if (inflateInit2(&state_->z, 15 + 16) != Z_OK) init_error_ = "cannot initialise zlib";  // 16: gzip wrapper
}

Inflater::~Inflater() { inflateEnd(&state_->z); }

void Inflater::start_member() { inflateReset(&state_->z); }

Inflater::Status Inflater::inflate(const char*& in, size_t& in_len, char*& out, size_t& out_len) {
  z_stream& z = state_->z;
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in));
  z.avail_in = static_cast<uInt>(std::min<size_t>(in_len, 1u << 30));
  z.next_out = reinterpret_cast<Bytef*>(out);
  z.avail_out = static_cast<uInt>(std::min<size_t>(out_len, 1u << 30));
  const int rc = ::inflate(&z, Z_NO_FLUSH);
  in_len -= reinterpret_cast<const char*>(z.next_in) - in;
  in = reinterpret_cast<const char*>(z.next_in);
  out_len -= reinterpret_cast<char*>(z.next_out) - out;
  out = reinterpret_cast<char*>(z.next_out);
  if (rc == Z_STREAM_END) return Status::kMemberEnd;
  if (rc == Z_OK || rc == Z_BUF_ERROR) return Status::kMore;
  error_ = z.msg != nullptr ? z.msg : zError(rc);
  return Status::kCorrupt;
}

}  // namespace logagg
