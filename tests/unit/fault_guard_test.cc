// Tests for run_guarded (input/input.h): run_guarded(f) returns true when f completes
// and false when f touches a page of a mapping past the end of its truncated
// file, keeping what f did before the fault; the guard works again after a
// fault and in every thread; and a SIGBUS outside a guard is not swallowed: it
// gets the previous disposition (default: the process dies of it), checked in
// child processes.
#include "input/input.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <csignal>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "support/sanitizers.h"

namespace logagg {
namespace {

char touch(const char* p) { return *static_cast<const volatile char*>(p); }

// A file of two pages, mapped whole, then truncated to 100 bytes: the first
// page still reads (zeros past the end of the file), the second raises SIGBUS.
class FaultGuard : public ::testing::Test {
 protected:
  void SetUp() override {
    page_ = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    char path[] = "/tmp/logagg-fault-guard-XXXXXX";
    const int fd = mkstemp(path);
    ASSERT_GE(fd, 0);
    unlink(path);
    const std::string bytes(2 * page_, 'x');
    ASSERT_EQ(write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
    void* map = mmap(nullptr, 2 * page_, PROT_READ, MAP_SHARED, fd, 0);
    ASSERT_NE(map, MAP_FAILED);
    map_ = static_cast<const char*>(map);
    ASSERT_EQ(ftruncate(fd, 100), 0);
    close(fd);
  }
  void TearDown() override {
    if (map_ != nullptr) munmap(const_cast<char*>(map_), 2 * page_);
  }
  const char* kept() const { return map_; }              // in the file's last page
  const char* vanished() const { return map_ + page_; }  // past the file's end

  size_t page_ = 0;
  const char* map_ = nullptr;
};

TEST_F(FaultGuard, ReturnsTrueWhenFCompletes) {
  int steps = 0;
  EXPECT_TRUE(run_guarded([&] { ++steps; }));
  EXPECT_EQ(steps, 1);
  char first = 0, past_end = 1;
  EXPECT_TRUE(run_guarded([&] {
    first = touch(kept());
    past_end = touch(kept() + 100);  // the rest of the file's last page reads as zeros
  }));
  EXPECT_EQ(first, 'x');
  EXPECT_EQ(past_end, 0);
}

TEST_F(FaultGuard, ReturnsFalseWhenFTouchesAVanishedPageAndKeepsWhatWasDone) {
  int steps = 0;
  EXPECT_FALSE(run_guarded([&] {
    steps = 1;
    touch(vanished());
    steps = 2;
  }));
  EXPECT_EQ(steps, 1) << "what f did before the fault stays done, and f goes no further";
}

TEST_F(FaultGuard, WorksAgainAfterAFault) {
  for (int round = 0; round < 3; ++round) {
    EXPECT_FALSE(run_guarded([&] { touch(vanished()); })) << round;
    EXPECT_TRUE(run_guarded([&] { touch(kept()); })) << round;
  }
  sigset_t blocked;
  ASSERT_EQ(sigprocmask(SIG_BLOCK, nullptr, &blocked), 0);
  EXPECT_FALSE(sigismember(&blocked, SIGBUS)) << "the jump out of the handler must not leave SIGBUS blocked";
}

TEST_F(FaultGuard, GuardsEachThreadOnItsOwn) {
  std::vector<int> results(3, -1);
  std::vector<std::thread> threads;
  for (size_t t = 0; t < results.size(); ++t) {
    threads.emplace_back([&, t] {
      const bool faulted = !run_guarded([&] { touch(vanished()); });
      const bool clean = run_guarded([&] { touch(kept()); });
      results[t] = faulted && clean ? 1 : 0;
    });
  }
  for (std::thread& th : threads) th.join();
  for (size_t t = 0; t < results.size(); ++t) EXPECT_EQ(results[t], 1) << "thread " << t;
}

// A SIGBUS outside any guard, after one guard caught a fault and one
// completed. alarm(): a handler that swallowed the signal would re-run the
// faulting read forever.
void fault_outside_the_guard(const char* vanished) {
  const rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  alarm(10);
  if (run_guarded([&] { touch(vanished); })) std::_Exit(3);
  if (!run_guarded([] {})) std::_Exit(4);
  touch(vanished);
  std::_Exit(0);
}

extern "C" void exit_42(int) { std::_Exit(42); }

class FaultGuardOutside : public FaultGuard {
 protected:
  void SetUp() override {
    // Sanitizers install SIGBUS handlers of their own, which change how the
    // child ends; the release build checks this.
    if (testing::kSanitized) GTEST_SKIP() << "a sanitizer's own SIGBUS handler decides how the child ends";
    // Each child runs the test binary afresh, so the handler is installed in
    // it by the test itself, over the disposition the test chose.
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    FaultGuard::SetUp();
  }
};

TEST_F(FaultGuardOutside, KillsTheProcessByDefault) {
  EXPECT_EXIT(fault_outside_the_guard(vanished()), ::testing::KilledBySignal(SIGBUS), "");
}

TEST_F(FaultGuardOutside, GoesToTheHandlerInstalledBefore) {
  EXPECT_EXIT(
      {
        struct sigaction action {};
        action.sa_handler = exit_42;
        sigemptyset(&action.sa_mask);
        sigaction(SIGBUS, &action, nullptr);
        fault_outside_the_guard(vanished());
      },
      ::testing::ExitedWithCode(42), "");
}

}  // namespace
}  // namespace logagg
