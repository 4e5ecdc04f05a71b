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
#include <string>
#include <vector>

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
  std::string kept;  // the lines stage 1 passes, LF-terminated
  kept.reserve(file.size());
  for (size_t pos = 0; pos < file.size();) {
    const void* lf = std::memchr(file.data() + pos, '\n', file.size() - pos);
    const size_t end = lf == nullptr ? file.size() : static_cast<size_t>(static_cast<const char*>(lf) - file.data());
    if (run_stage1(file.data() + pos, end - pos)) kept.append(file.data() + pos, end - pos).push_back('\n');
    pos = end + 1;
  }
  const simdjson::padded_string text(kept);
  const char* bytes = text.data();
  const size_t size = text.size();
  std::vector<double> seconds;
  for (int run = 0; run <= runs; ++run) {  // run 0 warms up
    const auto start = std::chrono::steady_clock::now();
    for (size_t pos = 0; pos < size;) {
      size_t end = std::min(size, pos + block);
      if (end < size) {  // end the block after its last LF, or after the first one past it
        const void* lf = memrchr(bytes + pos, '\n', end - pos);
        if (lf == nullptr) lf = std::memchr(bytes + end, '\n', size - end);
        end = lf == nullptr ? size : static_cast<size_t>(static_cast<const char*>(lf) - bytes) + 1;
      }
      if (!run_stage1(bytes + pos, end - pos)) {
        std::fprintf(stderr, "stage1_floor: stage 1 refused a block of lines it passed one by one\n");
        return 1;
      }
      pos = end;
    }
    if (run > 0) seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  // The parse runs over the lines simdjson parses on their own (valid JSON):
  // parse_many stops at the first line it refuses.
  simdjson::dom::parser parser;
#if SIMDJSON_THREADS_ENABLED
  parser.threaded = false;  // one core, as stage 1 alone
#endif
  std::string valid_lines;
  valid_lines.reserve(size);
  size_t batch = block;  // parse_many's batches must hold the longest line
  for (size_t pos = 0; pos < size;) {
    const size_t end = static_cast<size_t>(static_cast<const char*>(std::memchr(bytes + pos, '\n', size - pos)) - bytes);
    if (parser.parse(bytes + pos, end - pos, true).error() == simdjson::SUCCESS) {
      valid_lines.append(bytes + pos, end - pos).push_back('\n');
      batch = std::max(batch, end - pos + 1);
    }
    pos = end + 1;
  }
  const simdjson::padded_string valid(valid_lines);
  std::vector<double> parse_seconds;
  for (int run = 0; run <= runs; ++run) {
    const auto start = std::chrono::steady_clock::now();
    simdjson::dom::document_stream stream;
    if (parser.parse_many(valid, batch).get(stream) != simdjson::SUCCESS) {
      std::fprintf(stderr, "stage1_floor: parse_many refused the lines\n");
      return 1;
    }
    for (auto doc : stream) {
      if (doc.error() != simdjson::SUCCESS) {
        std::fprintf(stderr, "stage1_floor: parse_many refused a line parsed alone: %s\n",
                     simdjson::error_message(doc.error()));
        return 1;
      }
    }
    if (run > 0) {
      parse_seconds.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
  }
  std::sort(seconds.begin(), seconds.end());
  std::sort(parse_seconds.begin(), parse_seconds.end());
  std::printf("%.6f %zu %.6f %zu\n", seconds[seconds.size() / 2], size, parse_seconds[parse_seconds.size() / 2],
              valid.size());
  return 0;
}
