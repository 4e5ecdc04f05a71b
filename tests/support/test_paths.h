// Where the tests find the binaries they run (logagg, loggen) and the source
// tree: read at run time from test_paths.txt beside the test binary, which
// tests/CMakeLists.txt writes at configure time. Not compiled in: a test's
// object does not depend on where the tree and its build are, so the mutation
// check's scratch copies take the release build's objects from the compiler
// cache. A missing file or name ends the test binary with a message saying so.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

namespace logagg::testing {

// The path written as NAME=PATH in test_paths.txt.
inline const std::string& test_path(const std::string& name) {
  static const std::filesystem::path file =
      std::filesystem::read_symlink("/proc/self/exe").parent_path() / "test_paths.txt";
  static const std::map<std::string, std::string> paths = [] {
    std::map<std::string, std::string> read;
    std::ifstream in(file);
    if (!in) {
      std::fprintf(stderr, "cannot read %s (tests/CMakeLists.txt writes it beside the test binaries)\n", file.c_str());
      std::exit(1);
    }
    for (std::string line; std::getline(in, line);) {
      const size_t eq = line.find('=');
      if (eq != std::string::npos) read[line.substr(0, eq)] = line.substr(eq + 1);
    }
    return read;
  }();
  const auto found = paths.find(name);
  if (found == paths.end()) {
    std::fprintf(stderr, "%s: no path named %s (configure the build again)\n", file.c_str(), name.c_str());
    std::exit(1);
  }
  return found->second;
}

inline const std::string& logagg_bin() { return test_path("logagg"); }
inline const std::string& loggen_bin() { return test_path("loggen"); }
inline const std::string& source_dir() { return test_path("source"); }

}  // namespace logagg::testing
