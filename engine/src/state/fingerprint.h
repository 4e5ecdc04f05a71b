// How an incremental run knows a file again (logagg/state.h): a stable hash
// of its first bytes and of the bytes before where counting stopped, read
// from the file as it is, or decompressed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace logagg {

// How many bytes of content each fingerprint hashes, at most.
inline constexpr size_t kFingerprintBytes = 4096;

// A 64-bit hash that is the same on every machine and in every version
// (FNV-1a): fingerprints are kept in state files. It goes on from `from`:
// the hash of a + b is fingerprint_hash(b, fingerprint_hash(a)).
inline constexpr uint64_t kFingerprintBasis = 0xcbf29ce484222325u;
uint64_t fingerprint_hash(std::string_view bytes, uint64_t from = kFingerprintBasis) noexcept;

// The first kFingerprintBytes of an open file's content (fewer if it is
// shorter), decompressed if it is gzip or zstd; `fd` is read from its start.
struct FileHead {
  std::string bytes;
  bool compressed = false;
  std::string error;  // why it could not be read, or empty
};
FileHead read_head(int fd);

// A plain file, read with pread: the hash of the kFingerprintBytes (or fewer)
// before `end`, or nothing if the file has fewer than `end` bytes.
std::optional<uint64_t> tail_hash_before(int fd, uint64_t end);

// A plain file of `size` bytes: where its last complete line ends (just past
// its last LF), looking back no further than `from` (returned if there is no
// LF after it).
uint64_t last_line_end(int fd, uint64_t size, uint64_t from);

// A compressed file decompressed once, from its start: its content's length
// and the hash of the kFingerprintBytes before its end, and before `mark` if
// the content reaches that far.
struct ContentScan {
  uint64_t length = 0;
  uint64_t tail_hash = 0;
  std::optional<uint64_t> tail_hash_at_mark;
  std::string error;  // the data is corrupt or truncated: length is what came before
};
ContentScan scan_content(int fd, uint64_t mark);

}  // namespace logagg
