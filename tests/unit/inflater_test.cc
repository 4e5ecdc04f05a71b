// Tests of the gzip decoder (input/inflater.h), in whichever build it is
// (ISA-L in release, zlib in asan, docs/testing.md): members decoded whole
// whatever the sizes of the input and output pieces it is handed, a member's
// end found exactly where the next begins, and every fault told in zlib's
// words at the point where zlib tells it (the verdicts of logagg with zlib
// before ISA-L came, pinned).
#include "input/inflater.h"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "support/compress.h"

namespace logagg {
namespace {

// What decoding `gz` gives, members one after another, in pieces of input
// and output drawn from `rng` up to `max_in` and `max_out` bytes.
struct Decoded {
  std::string text;
  std::vector<size_t> member_ends;  // input offsets just past each member
  std::string error;                // "" if it ended cleanly
  bool inside_member = false;       // the input ended inside a member
};

Decoded decode(std::string_view gz, std::mt19937_64& rng, size_t max_in, size_t max_out) {
  Decoded d;
  Inflater inflater;
  EXPECT_EQ(inflater.init_error(), "");
  std::vector<char> out(max_out);
  size_t pos = 0;
  while (pos < gz.size()) {
    if (!d.inside_member) inflater.start_member();
    d.inside_member = true;
    const char* in = gz.data() + pos;
    size_t in_len = std::min(gz.size() - pos, 1 + rng() % max_in);
    char* o = out.data();
    size_t out_len = 1 + rng() % max_out;
    const Inflater::Status status = inflater.inflate(in, in_len, o, out_len);
    d.text.append(out.data(), o);
    pos = static_cast<size_t>(in - gz.data());
    if (status == Inflater::Status::kCorrupt) {
      d.error = inflater.error();
      return d;
    }
    if (status == Inflater::Status::kMemberEnd) {
      d.inside_member = false;
      d.member_ends.push_back(pos);
    }
  }
  return d;
}

std::string text_of(size_t bytes, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::string s;
  while (s.size() < bytes) s += "{\"app_id\":\"A" + std::to_string(rng() % 1000) + "\",\"n\":" + std::to_string(rng()) + "}\n";
  s.resize(bytes);
  return s;
}

TEST(Inflater, MembersDecodeWholeInAnyPiecesAndEndExactlyWhereTheNextBegins) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 40; ++round) {
    SCOPED_TRACE(round);
    std::string gz, want;
    std::vector<size_t> ends;
    const int members = 1 + static_cast<int>(rng() % 4);
    for (int m = 0; m < members; ++m) {
      const std::string text = text_of(rng() % 3 == 0 ? 0 : rng() % 200000, rng());  // empty members too
      want += text;
      gz += gzip(text);
      ends.push_back(gz.size());
    }
    const size_t max_in = round % 4 == 0 ? 1 : 1 + rng() % 70000;
    const size_t max_out = round % 5 == 0 ? 1 : 1 + rng() % 300000;
    const Decoded d = decode(gz, rng, max_in, max_out);
    EXPECT_EQ(d.error, "");
    EXPECT_FALSE(d.inside_member);
    EXPECT_TRUE(d.text == want) << "decoded " << d.text.size() << " bytes of " << want.size();
    EXPECT_EQ(d.member_ends, ends);
  }
}

// A member and what follows it, and what logagg with zlib made of it.
struct Fault {
  const char* name;
  std::string bytes;
  std::string error;  // "" with inside_member: the data ends inside a member (truncated)
  bool inside_member;
};

std::vector<Fault> faults() {
  const std::string text = text_of(150000, 3);
  const std::string gz = gzip(text);
  auto flip = [&](size_t at, unsigned char mask) {
    std::string g = gz;
    g[at] = static_cast<char>(g[at] ^ mask);
    return g;
  };
  std::string flags = gz, method = gz;
  flags[3] = static_cast<char>(0xE0);
  method[2] = 7;
  return {
      {"zero-padded by one byte", gz + std::string(1, '\0'), "", true},
      {"zero-padded by two bytes", gz + std::string(2, '\0'), "incorrect header check", false},
      {"zero-padded by 512 bytes", gz + std::string(512, '\0'), "incorrect header check", false},
      {"text after the member", gz + "hello", "incorrect header check", false},
      {"a magic alone after the member", gz + "\x1F\x8B", "", true},
      {"a magic alone", "\x1F\x8B", "", true},
      {"a header alone", gz.substr(0, 10), "", true},
      {"the trailer cut", gz.substr(0, gz.size() - 3), "", true},
      {"a wrong CRC", flip(gz.size() - 8, 1), "incorrect data check", false},
      {"a wrong length", flip(gz.size() - 4, 1), "incorrect length check", false},
      {"reserved flags set", flags, "unknown header flags set", false},
      {"a method that is not deflate", method, "unknown compression method", false},
  };
}

TEST(Inflater, FaultsAreToldInZlibsWordsWhereZlibTellsThemInAnyPieces) {
  std::mt19937_64 rng(11);
  for (const Fault& f : faults()) {
    for (const size_t max_in : {size_t{1}, size_t{3}, size_t{1000}, size_t{1} << 20}) {
      SCOPED_TRACE(std::string(f.name) + ", input pieces up to " + std::to_string(max_in));
      const Decoded d = decode(f.bytes, rng, max_in, 70000);
      EXPECT_EQ(d.error, f.error);
      if (f.error.empty()) EXPECT_EQ(d.inside_member, f.inside_member);
    }
  }
}

TEST(Inflater, CorruptDeflateDataIsAnError) {
  std::string gz = gzip(text_of(400000, 5));
  for (size_t i = gz.size() / 2; i < gz.size() / 2 + 64; ++i) gz[i] = static_cast<char>(gz[i] ^ 0x5A);
  std::mt19937_64 rng(13);
  const Decoded d = decode(gz, rng, 65536, 65536);
  EXPECT_NE(d.error, "");
}

}  // namespace
}  // namespace logagg
