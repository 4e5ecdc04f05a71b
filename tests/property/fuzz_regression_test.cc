// Replays the fuzzers' inputs in the normal builds: every file in
// fuzz/corpus/<target>/ (the seed corpus) and fuzz/regressions/<target>/
// (findings, kept forever) goes through the same check the libFuzzer target
// runs (fuzz/checks.h), so a fixed finding stays fixed without clang. A
// folder the test names that is missing or empty is a failure, and so is a
// regression folder it does not name.
//
// fuzz/checks.cc and fuzz/detect_check.cc are compiled into this test by the
// #includes below instead of as more source files: the test is declared by
// one logagg_add_test() line in tests/CMakeLists.txt, which builds exactly
// <name>.cc, and this keeps that line the only build change outside fuzz/.
// Linking logagg_reference provides the reference oracle, its include path
// and date::date.
#include "fuzz/checks.cc"
#include "fuzz/detect_check.cc"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "support/test_paths.h"

namespace {

namespace fs = std::filesystem;

struct Target {
  const char* name;  // the folder under fuzz/corpus/ (and fuzz/regressions/, if it has findings)
  logagg_fuzz::Check check;
};

void PrintTo(const Target& target, std::ostream* os) { *os << target.name; }

const Target kTargets[] = {
    {"rfc3339", &logagg_fuzz::check_rfc3339},
    {"engine", &logagg_fuzz::check_engine},
    {"detect", &logagg_fuzz::check_detect},
};

// The targets with findings, kept in fuzz/regressions/<target>/. Each folder
// named here must exist and hold files, and every folder there must be named
// here, so no finding goes unreplayed and no case checks zero files. The
// rfc3339 target has had no finding yet: its first one adds the folder and
// its name here.
const Target kTargetsWithRegressions[] = {
    {"engine", &logagg_fuzz::check_engine},
    {"detect", &logagg_fuzz::check_detect},
};

const fs::path kFuzzDir = fs::path(logagg::testing::source_dir()) / "fuzz";

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

// Every file of `folder` (which must hold at least `at_least`) passes the check.
void expect_all_pass(const Target& target, const fs::path& folder, size_t at_least) {
  const std::vector<fs::path> files = files_in(folder);
  // A missing or empty folder would make the test pass vacuously.
  ASSERT_GE(files.size(), at_least) << folder << " is missing or holds too few files";
  for (const fs::path& file : files) {
    const std::string problem = check_file(target.check, file);
    EXPECT_TRUE(problem.empty()) << file.string() << ": " << problem;
  }
}

class fuzz_regression : public testing::TestWithParam<Target> {};

TEST_P(fuzz_regression, SeedCorpusPassesTheCheck) {
  expect_all_pass(GetParam(), kFuzzDir / "corpus" / GetParam().name, 10);
}

INSTANTIATE_TEST_SUITE_P(Targets, fuzz_regression, testing::ValuesIn(kTargets),
                         [](const auto& info) { return std::string(info.param.name); });

class fuzz_regressions : public testing::TestWithParam<Target> {};

TEST_P(fuzz_regressions, EveryRegressionPassesTheCheck) {
  expect_all_pass(GetParam(), kFuzzDir / "regressions" / GetParam().name, 1);
}

INSTANTIATE_TEST_SUITE_P(Targets, fuzz_regressions, testing::ValuesIn(kTargetsWithRegressions),
                         [](const auto& info) { return std::string(info.param.name); });

TEST(fuzz_regression_folders, EveryFolderIsReplayed) {
  size_t folders = 0;
  for (const fs::directory_entry& entry : fs::directory_iterator(kFuzzDir / "regressions")) {
    ++folders;
    const std::string name = entry.path().filename().string();
    EXPECT_TRUE(std::any_of(std::begin(kTargetsWithRegressions), std::end(kTargetsWithRegressions),
                            [&](const Target& t) { return name == t.name; }))
        << entry.path() << " is not replayed: name its target in kTargetsWithRegressions";
  }
  EXPECT_EQ(folders, std::size(kTargetsWithRegressions));
}

}  // namespace
