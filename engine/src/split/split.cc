// Line-aligned splitting: cut planning, chunk names, in-kernel copies (see split.h).
#include "logagg/split.h"

#include <fcntl.h>
#include <sys/sendfile.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <functional>
#include <thread>

#include "input/input.h"
#include "text/lines.h"

namespace logagg {
namespace fs = std::filesystem;
namespace {

// The 1-based number of the line starting at `offset`. Only for the error
// message about a long line, so counting every LF before it is fine.
uint64_t line_number(std::string_view data, size_t offset) {
  return 1 + static_cast<uint64_t>(std::count(data.begin(), data.begin() + static_cast<ptrdiff_t>(offset), '\n'));
}

// Called with each chunk once it is planned.
using ChunkPlanned = std::function<void(const ByteSpan&)>;

SplitPlan plan_by_bytes(std::string_view data, size_t max, bool allow_long_lines, const ChunkPlanned& planned) {
  SplitPlan plan;
  size_t begin = 0;
  while (begin < data.size()) {
    size_t end = data.size();
    if (data.size() - begin > max) {
      // The tentative cut is at begin + max; the chunk ends just past the last
      // LF before it. None there: the line starting at `begin` is too long.
      const void* lf = memrchr(data.data() + begin, '\n', max);
      if (lf != nullptr) {
        end = static_cast<size_t>(static_cast<const char*>(lf) - data.data()) + 1;
      } else {
        end = past_next_lf(data, begin + max);
        if (!allow_long_lines) {
          plan.chunks.clear();
          plan.too_long = LongLine{line_number(data, begin), begin, end - begin};
          return plan;
        }
      }
    }
    plan.chunks.push_back({begin, end});
    if (planned) planned(plan.chunks.back());
    begin = end;
  }
  return plan;
}

SplitPlan plan_by_lines(std::string_view data, uint64_t max, const ChunkPlanned& planned) {
  SplitPlan plan;
  size_t begin = 0;
  while (begin < data.size()) {
    size_t end = begin;
    for (uint64_t n = 0; n < max && end < data.size(); ++n) end = past_next_lf(data, end);
    plan.chunks.push_back({begin, end});
    if (planned) planned(plan.chunks.back());
    begin = end;
  }
  return plan;
}

SplitPlan plan(std::string_view data, const SplitLimit& limit, const ChunkPlanned& planned) {
  const uint64_t max = std::max<uint64_t>(limit.max, 1);
  if (limit.kind == SplitLimit::Kind::kLines) return plan_by_lines(data, max, planned);
  return plan_by_bytes(data, static_cast<size_t>(max), limit.allow_long_lines, planned);
}

}  // namespace

SplitPlan plan_split(std::string_view data, const SplitLimit& limit) { return plan(data, limit, nullptr); }

std::optional<SplitPlan> plan_split_file(int fd, uint64_t size, const SplitLimit& limit, std::string& error) {
  if (size == 0) return SplitPlan{};
  const MappedFile map = MappedFile::map(fd, static_cast<size_t>(size));
  if (!map.ok()) {
    error = std::strerror(errno);
    return std::nullopt;
  }
  // Pages behind each cut are released as planning goes (by lines it reads
  // them all), so resident memory does not grow with the file.
  SplitPlan result;
  const auto release = [&](const ByteSpan& chunk) { map.release(chunk.begin, chunk.end); };
  if (!run_guarded([&] { result = plan(map.view(), limit, release); })) {
    error = "file changed while being read (truncated?)";
    return std::nullopt;
  }
  return result;
}

std::string check_chunk_pattern(std::string_view pattern) {
  if (pattern.find('/') != std::string_view::npos) return "must be a file name, without '/'";
  size_t indexes = 0;
  for (size_t i = pattern.find('{'); i != std::string_view::npos; i = pattern.find('{', i + 1)) {
    const std::string_view rest = pattern.substr(i);
    if (rest.starts_with("{index}")) {
      ++indexes;
    } else if (!rest.starts_with("{name}")) {
      return "only {name} and {index} may appear in braces";
    }
  }
  return indexes == 1 ? "" : "must hold {index} exactly once";
}

size_t chunk_index_width(size_t chunks) {
  size_t width = 1;
  for (size_t highest = chunks > 0 ? chunks - 1 : 0; highest >= 10; highest /= 10) ++width;
  return std::max<size_t>(width, 5);
}

std::string chunk_name(std::string_view pattern, std::string_view name, size_t index, size_t width) {
  std::string digits = std::to_string(index);
  if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
  std::string out;
  for (size_t i = 0; i < pattern.size();) {
    if (pattern.substr(i).starts_with("{index}")) {
      out += digits;
      i += 7;
    } else if (pattern.substr(i).starts_with("{name}")) {
      out += name;
      i += 6;
    } else {
      out += pattern[i++];
    }
  }
  return out;
}

namespace {

// Why chunk_targets() must leave `path` alone, if it must.
std::optional<ChunkFileConflict> conflict_at(const std::string& path, const struct stat& input, bool overwrite) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0 && st.st_dev == input.st_dev && st.st_ino == input.st_ino) {
    return ChunkFileConflict{path, true};
  }
  if (!overwrite && ::lstat(path.c_str(), &st) == 0) return ChunkFileConflict{path, false};
  return std::nullopt;
}

}  // namespace

ChunkTargets chunk_targets(const std::vector<ByteSpan>& chunks, const std::string& outdir, std::string_view pattern,
                           std::string_view name, const struct stat& input, bool overwrite) {
  const size_t width = chunk_index_width(chunks.size());
  const auto path_of = [&](size_t i) { return (fs::path(outdir) / chunk_name(pattern, name, i, width)).string(); };
  ChunkTargets targets;
  for (size_t i = 0; i < chunks.size(); ++i) targets.chunks.push_back({path_of(i), chunks[i]});
  struct stat ignored {};
  for (size_t i = chunks.size(); ::lstat(path_of(i).c_str(), &ignored) == 0; ++i) targets.stale.push_back(path_of(i));
  for (const ChunkFile& chunk : targets.chunks) {
    if ((targets.conflict = conflict_at(chunk.path, input, overwrite))) return targets;
  }
  for (const std::string& path : targets.stale) {
    if ((targets.conflict = conflict_at(path, input, overwrite))) return targets;
  }
  return targets;
}

std::optional<SplitError> remove_stale_chunks(const std::vector<std::string>& stale) {
  for (const std::string& path : stale) {
    if (::unlink(path.c_str()) != 0) {
      return SplitError{path, std::string("cannot remove this chunk of an earlier split: ") + std::strerror(errno)};
    }
  }
  return std::nullopt;
}

std::string_view copy_method_name(CopyMethod method) {
  switch (method) {
    case CopyMethod::kCopyFileRange: return "copy_file_range";
    case CopyMethod::kSendfile: return "sendfile";
    case CopyMethod::kReadWrite: return "read/write";
  }
  return "";
}

namespace {

constexpr size_t kCallBytes = size_t{64} << 20;  // per copy call, so a stop request is seen soon
constexpr size_t kBufferBytes = size_t{1} << 20;  // read/write only
constexpr int kInputEnded = -1;                   // pseudo-errno: the input is shorter than planned

// A kernel-side copy that says "not here" (file systems, kernels or file
// types that do not support it), after which the next method is tried.
bool refused(int err) { return err == ENOSYS || err == EXDEV || err == EINVAL || err == EOPNOTSUPP; }

// Copies up to `want` bytes at *offset of `in` to `out` with pread and write.
ssize_t read_write(int in, off_t* offset, int out, size_t want, std::vector<char>& buffer) {
  buffer.resize(kBufferBytes);
  const ssize_t got = ::pread(in, buffer.data(), std::min(want, buffer.size()), *offset);
  if (got <= 0) return got;
  for (ssize_t done = 0; done < got;) {
    const ssize_t n = ::write(out, buffer.data() + done, static_cast<size_t>(got - done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return -1;
    done += n;
  }
  *offset += got;
  return got;
}

// Copies the range of `in` to the current position of `out`. `method` is
// shared by all chunks: once a method is refused it is not tried again.
// Returns 0, an errno, or kInputEnded.
int copy_range(int in, int out, ByteSpan range, std::atomic<CopyMethod>& method, const std::atomic<bool>* stop) {
  off_t offset = static_cast<off_t>(range.begin);
  const off_t end = static_cast<off_t>(range.end);
  std::vector<char> buffer;
  while (offset < end) {
    if (stop != nullptr && stop->load(std::memory_order_relaxed)) return EINTR;
    const size_t want = std::min(static_cast<size_t>(end - offset), kCallBytes);
    const CopyMethod m = method.load(std::memory_order_relaxed);
    ssize_t n = 0;
    switch (m) {
      case CopyMethod::kCopyFileRange: n = ::copy_file_range(in, &offset, out, nullptr, want, 0); break;
      case CopyMethod::kSendfile: n = ::sendfile(out, in, &offset, want); break;
      case CopyMethod::kReadWrite: n = read_write(in, &offset, out, want, buffer); break;
    }
    if (n > 0) continue;
    if (n < 0 && errno == EINTR) continue;
    // Nothing copied: refused, or (kernel-side copies of files such as those
    // in /proc report 0 bytes) unsupported. read/write has the last word.
    if (m != CopyMethod::kReadWrite && (n == 0 || refused(errno))) {
      CopyMethod expected = m;
      method.compare_exchange_strong(expected, static_cast<CopyMethod>(static_cast<int>(m) + 1));
      continue;
    }
    return n == 0 ? kInputEnded : errno;
  }
  return 0;
}

// Writes one chunk file; on failure removes it and says why.
std::optional<SplitError> write_chunk(int in, const ChunkFile& chunk, const WriteOptions& options,
                                      std::atomic<CopyMethod>& method) {
  const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (options.overwrite ? O_TRUNC : O_EXCL);
  const int out = ::open(chunk.path.c_str(), flags, 0666);
  if (out < 0) return SplitError{chunk.path, std::strerror(errno)};
  int err = copy_range(in, out, chunk.range, method, options.stop);
  if (::close(out) != 0 && err == 0) err = errno;
  if (err == 0) return std::nullopt;
  SplitError error{chunk.path, err == kInputEnded ? "input file changed while being read (truncated?)"
                               : err == EINTR     ? "interrupted"
                                                  : std::strerror(err)};
  if (::unlink(chunk.path.c_str()) != 0) {
    error.message += std::string("; cannot remove the partial chunk: ") + std::strerror(errno);
  } else {
    error.message += " (partial chunk removed)";
  }
  return error;
}

}  // namespace

WriteResult write_chunks(int in_fd, const std::vector<ChunkFile>& chunks, const WriteOptions& options) {
  std::atomic<CopyMethod> method = options.first_method;
  std::atomic<size_t> next = 0;
  std::atomic<bool> failed = false;
  struct Outcome {  // written only by the thread that took the chunk
    bool taken = false;
    std::optional<SplitError> error;
  };
  std::vector<Outcome> outcomes(chunks.size());
  auto work = [&] {
    while (!failed.load(std::memory_order_relaxed)) {
      const size_t i = next.fetch_add(1);
      if (i >= chunks.size()) return;
      outcomes[i] = {true, write_chunk(in_fd, chunks[i], options, method)};
      if (outcomes[i].error) failed = true;
    }
  };
  std::vector<std::thread> workers;
  const size_t threads = std::clamp<size_t>(options.threads, 1, std::max<size_t>(chunks.size(), 1));
  for (size_t t = 1; t < threads; ++t) workers.emplace_back(work);
  work();
  for (std::thread& w : workers) w.join();

  WriteResult result;
  for (const Outcome& o : outcomes) {
    result.complete.push_back(o.taken && !o.error);
    if (o.error) result.errors.push_back(*o.error);
  }
  result.method = method;
  return result;
}

}  // namespace logagg
