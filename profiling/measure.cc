// measure: runs a command several times after a warm-up run and prints the
// median wall time, the median peak RSS and the median CPU time (user +
// system) of the runs, for bench.sh and the other benchmark scripts.
//   measure RUNS [--cold FILE] command [args...]
//     -> "<median seconds> <median peak RSS KiB> <median CPU seconds>"
// --cold FILE evicts FILE from the page cache before every run (and skips the
// warm-up), with posix_fadvise(POSIX_FADV_DONTNEED), which needs no root.
//   measure RUNS --turns [--cold FILE] command1 [args...] --next [--cold FILE] command2 [args...] ...
//     -> one line per round: "<seconds 1> <CPU seconds 1> <seconds 2> <CPU seconds 2> ..."
// runs the commands in turns, RUNS rounds after one warm-up round (of the
// commands that are not cold), in order in even rounds and in reverse in odd
// ones (1 2 3, 3 2 1, ...: no command always follows the same one), so that a
// ratio of two of them is taken within each round: on a shared machine whose
// speed drifts, the median of those ratios is steadier than the ratio of two
// medians. The columns are always in the commands' order.
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

// One command of a measurement: its argv, and the file to evict before each run.
struct Command {
  char** argv;
  const char* cold = nullptr;
};

// Takes "[--cold FILE] command [args...]" from argv (null-terminated).
Command take_command(char** argv) {
  Command c{argv};
  if (argv[0] != nullptr && std::string_view(argv[0]) == "--cold" && argv[1] != nullptr) {
    c.cold = argv[1];
    c.argv = argv + 2;
  }
  return c;
}

// Runs `c` once (evicting its file first if it is cold); false, with a
// message, if that fails.
bool measure_once(const Command& c, Run& run) {
  if (c.cold != nullptr && !evict(c.cold)) {
    std::fprintf(stderr, "measure: cannot evict %s from the page cache\n", c.cold);
    return false;
  }
  if (!run_once(c.argv, run)) {
    std::fprintf(stderr, "measure: %s failed\n", c.argv[0]);
    return false;
  }
  return true;
}

int measure_turns(int runs, char** argv) {
  std::vector<Command> commands;
  char** begin = argv;
  for (char** p = argv;; ++p) {  // split at each --next
    const bool end = *p == nullptr;
    if (end || std::string_view(*p) == "--next") {
      *p = nullptr;
      commands.push_back(take_command(begin));
      if (commands.back().argv[0] == nullptr) {
        std::fprintf(stderr, "measure: --turns: an empty command\n");
        return 2;
      }
      if (end) break;
      begin = p + 1;
    }
  }
  Run run{};
  for (const Command& c : commands) {  // warm-up round, not counted
    if (c.cold == nullptr && !measure_once(c, run)) return 1;
  }
  std::vector<Run> round(commands.size());
  for (int i = 0; i < runs; ++i) {
    for (size_t n = 0; n < commands.size(); ++n) {
      const size_t k = i % 2 == 0 ? n : commands.size() - 1 - n;
      if (!measure_once(commands[k], round[k])) return 1;
    }
    for (size_t k = 0; k < round.size(); ++k) {
      std::printf("%s%.6f %.6f", k == 0 ? "" : " ", round[k].seconds, round[k].cpu_seconds);
    }
    std::printf("\n");
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3 || std::atoi(argv[1]) < 1) {
    std::fprintf(stderr, "usage: measure RUNS [--cold FILE] command [args...]\n"
                         "       measure RUNS --turns [--cold FILE] command [args...] --next ...\n");
    return 2;
  }
  const int runs = std::atoi(argv[1]);
  if (std::string_view(argv[2]) == "--turns") return measure_turns(runs, argv + 3);
  const Command command = take_command(argv + 2);
  if (command.argv[0] == nullptr) {
    std::fprintf(stderr, "measure: no command\n");
    return 2;
  }
  Run run{};
  if (command.cold == nullptr && !measure_once(command, run)) return 1;  // warm-up, not counted
  std::vector<double> seconds;
  std::vector<long> rss;
  std::vector<double> cpu;
  for (int i = 0; i < runs; ++i) {
    if (!measure_once(command, run)) return 1;
    seconds.push_back(run.seconds);
    rss.push_back(run.max_rss_kb);
    cpu.push_back(run.cpu_seconds);
  }
  std::printf("%.6f %ld %.6f\n", median(seconds), median(rss), median(cpu));
  return 0;
}
