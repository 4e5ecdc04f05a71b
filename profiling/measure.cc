// measure: runs a command several times after a warm-up run and prints the
// median wall time, the median peak RSS and the median CPU time (user +
// system) of the runs, for bench.sh and the other benchmark scripts.
//   measure RUNS [--cold FILE] command [args...]
//     -> "<median seconds> <median peak RSS KiB> <median CPU seconds>"
// --cold FILE evicts FILE from the page cache before every run (and skips the
// warm-up), with posix_fadvise(POSIX_FADV_DONTNEED), which needs no root.
// The command's stdout goes to /dev/null; a failing run stops the measurement.
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <vector>

namespace {

struct Run {
  double seconds;
  long max_rss_kb;
  double cpu_seconds;
};

bool run_once(char** argv, Run& run) {
  const auto start = std::chrono::steady_clock::now();
  const pid_t pid = fork();
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    execvp(argv[0], argv);
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.max_rss_kb = usage.ru_maxrss;
  auto secs = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  run.cpu_seconds = secs(usage.ru_utime) + secs(usage.ru_stime);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

bool evict(const char* path) {
  const int fd = open(path, O_RDONLY);
  if (fd < 0) return false;
  fdatasync(fd);
  const bool ok = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) == 0;
  close(fd);
  return ok;
}

template <class T>
T median(std::vector<T> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || std::atoi(argv[1]) < 1) {
    std::fprintf(stderr, "usage: measure RUNS command [args...]\n");
    return 2;
  }
  const int runs = std::atoi(argv[1]);
  char** command = argv + 2;
  const char* cold = nullptr;
  if (std::string_view(command[0]) == "--cold" && command[1] != nullptr) {
    cold = command[1];
    command += 2;
  }
  Run run{};
  if (cold == nullptr && !run_once(command, run)) {  // warm-up, not counted
    std::fprintf(stderr, "measure: %s failed\n", command[0]);
    return 1;
  }
  std::vector<double> seconds;
  std::vector<long> rss;
  std::vector<double> cpu;
  for (int i = 0; i < runs; ++i) {
    if (cold != nullptr && !evict(cold)) {
      std::fprintf(stderr, "measure: cannot evict %s from the page cache\n", cold);
      return 1;
    }
    if (!run_once(command, run)) {
      std::fprintf(stderr, "measure: %s failed\n", command[0]);
      return 1;
    }
    seconds.push_back(run.seconds);
    rss.push_back(run.max_rss_kb);
    cpu.push_back(run.cpu_seconds);
  }
  std::printf("%.6f %ld %.6f\n", median(seconds), median(rss), median(cpu));
  return 0;
}
