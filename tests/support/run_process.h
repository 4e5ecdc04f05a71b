// Runs a program as a child process for end-to-end tests: argv in, optional
// stdin bytes, and stdout, stderr and the exit status captured.
#pragma once

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace logagg::testing {

struct ProcessResult {
  int exit_code = -1;  // -1 if it did not exit normally (e.g. killed by a signal)
  std::string out;
  std::string err;
};

inline std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// Runs argv[0] with argv; `input` is written to its stdin through a file
// (nullptr: stdin is /dev/null). Output goes through temporary files, so
// large outputs cannot deadlock.
inline ProcessResult run_process(const std::vector<std::string>& argv, const std::string* input = nullptr) {
  char dir_template[] = "/tmp/logagg-run-XXXXXX";
  const std::string dir = mkdtemp(dir_template);
  const std::string in_path = dir + "/in", out_path = dir + "/out", err_path = dir + "/err";
  if (input != nullptr) std::ofstream(in_path, std::ios::binary) << *input;

  const pid_t pid = fork();
  if (pid == 0) {
    const int in = open(input != nullptr ? in_path.c_str() : "/dev/null", O_RDONLY);
    const int out = open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int err = open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(in, 0);
    dup2(out, 1);
    dup2(err, 2);
    std::vector<char*> args;
    for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  ProcessResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  std::remove(in_path.c_str());
  std::remove(out_path.c_str());
  std::remove(err_path.c_str());
  rmdir(dir.c_str());
  return r;
}

}  // namespace logagg::testing
