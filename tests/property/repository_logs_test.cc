// Differential test on every log file in the repository (data/ and the fuzz
// seed corpus): the engine, with several thread counts and segment sizes, and
// the slow reference must agree exactly on counts and on the accounting.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "logagg/aggregate.h"
#include "reference/reference.h"
#include "support/test_paths.h"

namespace logagg {
namespace {
namespace fs = std::filesystem;

std::vector<fs::path> repository_logs() {
  std::vector<fs::path> files;
  for (const char* dir : {"data", "fuzz/corpus/engine"}) {
    const fs::path root = fs::path(testing::source_dir()) / dir;
    if (!fs::exists(root)) continue;
    for (const auto& e : fs::recursive_directory_iterator(root)) {
      if (e.is_regular_file() && (e.path().extension() == ".log" || e.path().parent_path().filename() == "engine")) {
        files.push_back(e.path());
      }
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

TEST(RepositoryLogs, EngineAgreesWithTheReferenceOnEveryFile) {
  const std::vector<fs::path> files = repository_logs();
  ASSERT_FALSE(files.empty());
  const Options defaults;
  for (const fs::path& file : files) {
    std::ifstream in(file, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string data = ss.str();
    const reference::Aggregate want =
        reference::aggregate_buffer(data, defaults.app_field, defaults.time_field, defaults.max_line_bytes);
    const std::vector<SecondCount> want_counts = [&] {
      std::vector<SecondCount> v;
      for (const auto& [second, count] : want.counts) v.push_back({second, count});
      return v;
    }();
    for (unsigned threads : {1u, 2u}) {
      for (size_t segment : {size_t{0}, size_t{100}}) {
        Options o;
        o.threads = threads;
        o.segment_bytes = segment;
        const Result got = aggregate_buffer(data, o);
        const std::string where = file.string() + " threads " + std::to_string(threads);
        EXPECT_EQ(got.counts, want_counts) << where;
        EXPECT_EQ(got.summary.lines, want.lines) << where;
        EXPECT_EQ(got.summary.counted, want.counted) << where;
        EXPECT_EQ(got.summary.blank, want.blank) << where;
        EXPECT_EQ(got.summary.rejected, want.rejected) << where;
        EXPECT_EQ(got.summary.lines, got.summary.counted + got.summary.blank + got.summary.rejected_total());
      }
    }
  }
}

}  // namespace
}  // namespace logagg
