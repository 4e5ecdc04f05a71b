// Replays the fuzzers' inputs in the normal builds: every file in
// fuzz/corpus/<target>/ (the seed corpus) and fuzz/regressions/<target>/
// (findings, kept forever) goes through the same check the libFuzzer target
// runs (fuzz/checks.h), so a fixed finding stays fixed without clang.
//
// fuzz/checks.cc is compiled into this test by the #include below instead of
// as a second source file: the test is declared by one logagg_add_test() line
// in tests/CMakeLists.txt, which builds exactly <name>.cc, and this keeps that
// line the only build change outside fuzz/. Linking logagg_reference provides
// the reference oracle, its include path and date::date.
#include "fuzz/checks.cc"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Target {
  const char* name;  // the folder under fuzz/corpus/ and fuzz/regressions/
  logagg_fuzz::Check check;
};

void PrintTo(const Target& target, std::ostream* os) { *os << target.name; }

const Target kTargets[] = {
    {"rfc3339", &logagg_fuzz::check_rfc3339},
    {"engine", &logagg_fuzz::check_engine},
};

// The regular files in `dir`, sorted; none if it does not exist.
std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> files;
  if (!fs::is_directory(dir)) return files;
  for (const fs::directory_entry& entry : fs::directory_iterator(dir)) {
    if (entry.is_regular_file()) files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

// Runs `check` on the bytes of `path`, held in a heap block of exactly their
// size as libFuzzer holds an input, so a sanitizer build catches over-reads.
std::string check_file(logagg_fuzz::Check check, const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto exact = std::make_unique<char[]>(bytes.size());
  std::copy(bytes.begin(), bytes.end(), exact.get());
  return check(std::string_view(exact.get(), bytes.size()));
}

class fuzz_regression : public testing::TestWithParam<Target> {
 protected:
  fs::path folder(const char* kind) const {
    return fs::path(LOGAGG_SOURCE_DIR) / "fuzz" / kind / GetParam().name;
  }

  void expect_all_pass(const std::vector<fs::path>& files) const {
    for (const fs::path& file : files) {
      const std::string problem = check_file(GetParam().check, file);
      EXPECT_TRUE(problem.empty()) << file.string() << ": " << problem;
    }
  }
};

TEST_P(fuzz_regression, SeedCorpusPassesTheCheck) {
  const std::vector<fs::path> files = files_in(folder("corpus"));
  // A missing or empty corpus would make this test pass vacuously.
  ASSERT_GE(files.size(), 10u) << folder("corpus");
  expect_all_pass(files);
}

TEST_P(fuzz_regression, EveryRegressionPassesTheCheck) {
  expect_all_pass(files_in(folder("regressions")));  // no folder: no findings yet
}

INSTANTIATE_TEST_SUITE_P(Targets, fuzz_regression, testing::ValuesIn(kTargets),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace
