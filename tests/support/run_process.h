// Runs a program as a child process for end-to-end tests: argv in, optional
// stdin (bytes from a file, written into a pipe as the child reads, or a
// file of the caller's opened as a shell's `<` would), and stdout, stderr,
// the exit status, peak memory and whether it had to be killed for running
// too long.
#pragma once

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

namespace logagg::testing {

struct ProcessResult {
  int exit_code = -1;  // -1 if it did not exit normally (e.g. killed by a signal)
  int signal = 0;      // the signal that ended it, if any
  bool timed_out = false;
  long max_rss_kb = 0;  // peak resident memory
  std::string out;
  std::string err;
};

struct RunOptions {
  const std::string* input = nullptr;  // stdin bytes; nullptr: /dev/null
  std::string input_path;              // else stdin is this file, opened as `< input_path` would
  // If set, stdin is a pipe and this writes into it (given the pipe's write
  // end) from a thread of the parent; the pipe is closed when it returns.
  std::function<void(int)> write_stdin;
  std::string stdout_path;             // write stdout here instead of capturing it
  bool stdout_to_closed_pipe = false;  // stdout is a pipe nobody reads
  int timeout_seconds = 120;
  std::function<void()> while_running;  // runs in the parent once the child started
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline ProcessResult run_process(const std::vector<std::string>& argv, const RunOptions& opt) {
  char dir_template[] = "/tmp/logagg-run-XXXXXX";
  const std::string dir = mkdtemp(dir_template);
  const std::string in_path = dir + "/in", out_path = dir + "/out", err_path = dir + "/err";
  if (opt.input != nullptr) std::ofstream(in_path, std::ios::binary) << *opt.input;
  int closed_pipe[2] = {-1, -1};
  if (opt.stdout_to_closed_pipe && pipe(closed_pipe) != 0) std::abort();
  int stdin_pipe[2] = {-1, -1};
  if (opt.write_stdin) {
    if (pipe(stdin_pipe) != 0) std::abort();
    std::signal(SIGPIPE, SIG_IGN);  // a child that stops reading fails the write instead
  }

  const pid_t pid = fork();
  if (pid == 0) {
    int in = stdin_pipe[0];
    if (opt.write_stdin) {
      close(stdin_pipe[1]);
    } else {
      in = open(!opt.input_path.empty() ? opt.input_path.c_str() : opt.input != nullptr ? in_path.c_str() : "/dev/null",
                O_RDONLY);
    }
    int out = -1;
    if (opt.stdout_to_closed_pipe) {
      close(closed_pipe[0]);
      out = closed_pipe[1];
    } else {
      out = open(opt.stdout_path.empty() ? out_path.c_str() : opt.stdout_path.c_str(),
                 O_WRONLY | O_CREAT | O_TRUNC, 0600);
    }
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(in, 0);
    dup2(out, 1);
    dup2(err, 2);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    std::signal(SIGPIPE, SIG_DFL);  // as a program started from a shell has it
    execv(args[0], args.data());
    _exit(127);
  }
  if (opt.stdout_to_closed_pipe) {
    close(closed_pipe[0]);
    close(closed_pipe[1]);
  }
  std::thread feeder;
  if (opt.write_stdin) {
    close(stdin_pipe[0]);
    feeder = std::thread([&opt, fd = stdin_pipe[1]] {
      opt.write_stdin(fd);
      close(fd);
    });
  }
  if (opt.while_running) opt.while_running();

  ProcessResult r;
  int status = 0;
  rusage usage{};
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(opt.timeout_seconds);
  while (wait4(pid, &status, WNOHANG, &usage) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      r.timed_out = true;
      kill(pid, SIGKILL);
      wait4(pid, &status, 0, &usage);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  if (feeder.joinable()) feeder.join();  // the child is gone: a blocked write fails with EPIPE
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  r.max_rss_kb = usage.ru_maxrss;
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  std::remove(in_path.c_str());
  std::remove(out_path.c_str());
  std::remove(err_path.c_str());
  rmdir(dir.c_str());
  return r;
}

inline ProcessResult run_process(const std::vector<std::string>& argv, const std::string* input = nullptr) {
  RunOptions opt;
  opt.input = input;
  return run_process(argv, opt);
}

}  // namespace logagg::testing
