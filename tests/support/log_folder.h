// A temporary folder with a logs/ folder in it, for the tests of incremental
// runs and their parts (state_test, plan_phases_test), and the unique log
// lines they write there.
#pragma once

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace logagg {

// Line `n` of a test log: unique, over a minute and three apps.
inline std::string line(int n) {
  const int second = n % 60;
  return "{\"app_id\":\"a" + std::to_string(n % 3) + "\",\"timestamp\":\"2024-01-02T03:04:" + (second < 10 ? "0" : "") +
         std::to_string(second) + "Z\",\"n\":" + std::to_string(n) + "}\n";
}

inline std::string lines(int first, int count) {
  std::string out;
  for (int i = first; i < first + count; ++i) out += line(i);
  return out;
}

// The folder of one test, named after it, made empty before and removed after.
class LogFolderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("logagg-state-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ / "logs");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }
  void write(const std::string& name, const std::string& bytes, bool append = false) const {
    std::ofstream(path(name), std::ios::binary | (append ? std::ios::app : std::ios::trunc)) << bytes;
  }
  int open_file(const std::string& name) const { return ::open(path(name).c_str(), O_RDONLY | O_CLOEXEC); }
  struct stat stat_of(const std::string& name) const {
    struct stat st {};
    EXPECT_EQ(::stat(path(name).c_str(), &st), 0) << name;
    return st;
  }

  std::filesystem::path dir_;
};

}  // namespace logagg
