// Sampling the inputs of `logagg detect` (logagg/detect.h).
#include "logagg/detect.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string_view>

#include "input/input.h"

namespace logagg {
namespace {

// Appends the whole lines of `text` to `out` (at most `budget` in all):
// without the part before the first LF unless `from_line_start`, and
// without the part after the last LF unless `to_end`.
void add_lines(std::string_view text, bool from_line_start, bool to_end, size_t budget,
               std::vector<std::string>& out) {
  if (!from_line_start) {
    const size_t lf = text.find('\n');
    text = lf == std::string_view::npos ? std::string_view{} : text.substr(lf + 1);
  }
  if (!to_end) {
    const size_t lf = text.rfind('\n');
    text = lf == std::string_view::npos ? std::string_view{} : text.substr(0, lf + 1);
  }
  while (!text.empty() && out.size() < budget) {
    const size_t lf = std::min(text.find('\n'), text.size());
    std::string_view line = text.substr(0, lf);
    if (line.ends_with('\r')) line.remove_suffix(1);
    out.emplace_back(line);
    text.remove_prefix(std::min(lf + 1, text.size()));
  }
}

// The first bytes of a stream's content (decompressed), up to `cap`; false on an error.
bool read_stream(int fd, size_t cap, std::string& out, bool& at_end, std::string& error) {
  const std::unique_ptr<ByteSource> source = open_byte_source(fd);
  out.resize(cap);
  size_t got = 0;
  at_end = false;
  while (got < cap) {
    const ptrdiff_t n = source->read(out.data() + got, cap - got);
    if (n < 0) {
      error = source->error();
      return false;
    }
    if (n == 0) {
      at_end = true;
      break;
    }
    got += static_cast<size_t>(n);
  }
  out.resize(got);
  return true;
}

// Samples one input into `out`, at most `budget` lines in all; false with
// `error` if it cannot be read.
bool sample_file(const std::string& path, const SampleLimits& limits, size_t budget, std::vector<std::string>& out,
                 std::string& error) {
  const int fd = path == "-" ? STDIN_FILENO : ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    error = std::strerror(errno);
    return false;
  }
  struct stat st {};
  bool ok = ::fstat(fd, &st) == 0;
  const uint64_t size = ok ? static_cast<uint64_t>(st.st_size) : 0;
  std::string text;
  if (ok && S_ISREG(st.st_mode) && file_compression(fd, size) == Compression::kNone) {
    const uint64_t spread = limits.head_bytes + limits.windows * limits.window_bytes;
    const size_t head = static_cast<size_t>(std::min<uint64_t>(size, size <= spread ? spread : limits.head_bytes));
    text.resize(std::max(head, limits.window_bytes));
    // A large file's budget is shared out between the head and the windows.
    const size_t left = budget - std::min(budget, out.size());
    const size_t share = size > spread ? std::max<size_t>(left / (limits.windows + 1), 1) : left;
    ok = pread_all(fd, text.data(), head, 0) == static_cast<ssize_t>(head);
    if (ok) add_lines(std::string_view(text.data(), head), true, head == size, std::min(budget, out.size() + share), out);
    const uint64_t step = (size - head) / limits.windows;  // each window ends a step further, the last at the end
    for (size_t w = 1; ok && size > spread && w <= limits.windows; ++w) {
      const uint64_t at = head + step * w - std::min<uint64_t>(limits.window_bytes, step);
      const size_t n = static_cast<size_t>(std::min<uint64_t>(limits.window_bytes, size - at));
      ok = pread_all(fd, text.data(), n, at) == static_cast<ssize_t>(n);
      if (ok) add_lines(std::string_view(text.data(), n), false, at + n == size, std::min(budget, out.size() + share), out);
    }
    if (!ok) error = std::strerror(errno);
  } else if (ok) {
    bool at_end = false;
    ok = read_stream(fd, limits.stream_bytes, text, at_end, error);
    if (ok) add_lines(text, true, at_end, budget, out);
  } else {
    error = std::strerror(errno);
  }
  if (fd != STDIN_FILENO) ::close(fd);
  return ok;
}

}  // namespace

Sample sample_inputs(const std::vector<std::string>& paths, const SampleLimits& limits) {
  Sample sample;
  const std::vector<std::string> inputs = expand_paths(paths, sample.errors);
  const size_t n = std::min(inputs.size(), limits.max_files);
  for (size_t i = 0; i < n; ++i) {
    const std::string& path = inputs[i * inputs.size() / n];  // spread through the list
    const size_t budget = sample.lines.size() + std::max<size_t>(limits.max_lines / n, 1);
    std::string error;
    const size_t first = sample.lines.size();
    if (sample_file(path, limits, std::min(budget, limits.max_lines), sample.lines, error)) {
      sample.files.push_back(path);
      sample.first_line.push_back(first);
    } else {
      sample.errors.push_back({path == "-" ? std::string(kStdinName) : path, error});
    }
  }
  return sample;
}

}  // namespace logagg
