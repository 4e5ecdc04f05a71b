// The gzip decoder of the byte sources (byte_source.cc): one deflate member at
// a time, ISA-L's isal_inflate (inflate_isal.cc) or zlib's inflate
// (inflate_zlib.cc), whichever the build was configured with
// (LOGAGG_WITH_ISAL); both give the same verdicts in the same words.
#pragma once

#include <cstddef>
#include <memory>
#include <string>

namespace logagg {

class Inflater {
 public:
  Inflater();
  ~Inflater();
  Inflater(const Inflater&) = delete;
  Inflater& operator=(const Inflater&) = delete;

  // Why the decoder could not be set up; empty if it was.
  const std::string& init_error() const { return init_error_; }

  // The next bytes start a member: a gzip header is expected.
  void start_member();

  enum class Status { kMore, kMemberEnd, kCorrupt };
  // Decodes from [in, in + in_len) into [out, out + out_len), moving both
  // forward past what was used and made. kMemberEnd: the member's trailer
  // was checked and `in` is just past it; kCorrupt: error() says why, in
  // zlib's words ("incorrect header check", "invalid block type", ...).
  Status inflate(const char*& in, size_t& in_len, char*& out, size_t& out_len);
  const std::string& error() const { return error_; }

 private:
  struct State;
  std::unique_ptr<State> state_;
  std::string init_error_, error_;
};

}  // namespace logagg
