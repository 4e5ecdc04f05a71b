// stage1_floor: simdjson's stage 1 alone over a file, in line-aligned blocks
// of about BLOCK bytes (default 1 MiB), through its implementation interface:
// the structural index, UTF-8 validation and the string and control-character
// checks that full validation needs anyway. The floor bench.sh puts beside
// logagg: whatever logagg does per line beyond it is grammar and two fields.
// Beside it, simdjson's own full parse of the same bytes (parse_many, one
// thread, BLOCK-byte batches: stage 1, then stage 2 validates each line and
// writes its tape): what full validation costs simdjson itself.
//   stage1_floor RUNS FILE [BLOCK]
//     -> "<median seconds> <bytes passed> <median parse seconds> <bytes parsed>"
// The lines stage 1 refuses on their own (a dirty corpus's broken lines) are
// left out first: stage 1 gives up early on a block that holds one, which
// would make the floor look faster than it is. So the floor is the time of
// stage 1 over the rest, all of it, and bench.sh divides those bytes by it.
// Reading the file and leaving lines out are not timed.
#include <simdjson.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace {

// The lines of text[0, size) that `keep` takes, each LF-terminated (a last
// line without its LF too).
template <typename Keep>
std::string kept_lines(const char* text, size_t size, Keep keep) {
  std::string kept;
  kept.reserve(size);
  for (size_t pos = 0; pos < size;) {
    const void* lf = std::memchr(text + pos, '\n', size - pos);
    const size_t end = lf == nullptr ? size : static_cast<size_t>(static_cast<const char*>(lf) - text);
    if (keep(text + pos, end - pos)) kept.append(text + pos, end - pos).push_back('\n');
    pos = end + 1;
  }
  return kept;
}

// The median time of `runs` runs of `run` after one to warm up; nullopt as
// soon as a run fails (returns false).
template <typename Run>
std::optional<double> median_seconds(int runs, Run run) {
  std::vector<double> seconds;
  for (int k = 0; k <= runs; ++k) {  // run 0 warms up
    const auto start = std::chrono::steady_clock::now();
    if (!run()) return std::nullopt;
    if (k > 0) seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::sort(seconds.begin(), seconds.end());
  return seconds[seconds.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || argc > 4) {
    std::fprintf(stderr, "usage: stage1_floor RUNS FILE [BLOCK]\n");
    return 2;
  }
  const int runs = std::max(1, std::atoi(argv[1]));
  const size_t block = argc == 4 ? std::strtoull(argv[3], nullptr, 10) : size_t{1} << 20;
  simdjson::padded_string file;
  if (simdjson::padded_string::load(argv[2]).get(file)) {
    std::fprintf(stderr, "stage1_floor: cannot read %s\n", argv[2]);
    return 1;
  }
  std::unique_ptr<simdjson::internal::dom_parser_implementation> stage1;
  if (simdjson::get_active_implementation()->create_dom_parser_implementation(block, simdjson::DEFAULT_MAX_DEPTH,
                                                                              stage1)) {
    std::fprintf(stderr, "stage1_floor: cannot allocate the parser\n");
    return 1;
  }
  size_t capacity = block;
  auto run_stage1 = [&](const char* bytes, size_t len) {
    if (len > capacity && stage1->set_capacity(capacity = len)) std::abort();
    return stage1->stage1(reinterpret_cast<const uint8_t*>(bytes), len, simdjson::stage1_mode::regular) ==
           simdjson::SUCCESS;
  };
  const simdjson::padded_string text(kept_lines(file.data(), file.size(), run_stage1));
  const char* bytes = text.data();
  const size_t size = text.size();
  const std::optional<double> stage1_seconds = median_seconds(runs, [&] {
    for (size_t pos = 0; pos < size;) {
      size_t end = std::min(size, pos + block);
      if (end < size) {  // end the block after its last LF, or after the first one past it
        const void* lf = memrchr(bytes + pos, '\n', end - pos);
        if (lf == nullptr) lf = std::memchr(bytes + end, '\n', size - end);
        end = lf == nullptr ? size : static_cast<size_t>(static_cast<const char*>(lf) - bytes) + 1;
      }
      if (!run_stage1(bytes + pos, end - pos)) return false;
      pos = end;
    }
    return true;
  });
  if (!stage1_seconds) {
    std::fprintf(stderr, "stage1_floor: stage 1 refused a block of lines it passed one by one\n");
    return 1;
  }
  // The parse runs over the lines simdjson parses on their own (valid JSON):
  // parse_many stops at the first line it refuses.
  simdjson::dom::parser parser;
#if SIMDJSON_THREADS_ENABLED
  parser.threaded = false;  // one core, as stage 1 alone
#endif
  size_t batch = block;  // parse_many's batches must hold the longest line
  const simdjson::padded_string valid(kept_lines(bytes, size, [&](const char* line, size_t len) {
    if (parser.parse(line, len, true).error() != simdjson::SUCCESS) return false;
    batch = std::max(batch, len + 1);
    return true;
  }));
  const std::optional<double> parse_seconds = median_seconds(runs, [&] {
    simdjson::dom::document_stream stream;
    if (parser.parse_many(valid, batch).get(stream) != simdjson::SUCCESS) return false;
    for (auto doc : stream) {
      if (doc.error() != simdjson::SUCCESS) return false;
    }
    return true;
  });
  if (!parse_seconds) {
    std::fprintf(stderr, "stage1_floor: parse_many refused a line simdjson parsed alone\n");
    return 1;
  }
  std::printf("%.6f %zu %.6f %zu\n", *stage1_seconds, size, *parse_seconds, valid.size());
  return 0;
}
