// Progress on a terminal: the line's text, and that the binary draws it only
// when stderr is a terminal (run under a pseudo-terminal with `script`) and
// --quiet is not given, and erases it before the summary.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "progress_line.h"
#include "support/run_process.h"
#include "support/test_paths.h"

namespace logagg {
namespace {

const std::string kSample = testing::source_dir() + "/data/sample.log";

TEST(FormatProgress, SaysBytesFilesRateAndTimeLeft) {
  EXPECT_EQ(cli::format_progress(1ull << 30, 4ull << 30, 3, 10, 2.0),
            "logagg: 1.0 GiB of 4.0 GiB (25%), 3 of 10 files, 512.0 MiB/s, 0:06 left");
  EXPECT_EQ(cli::format_progress(100 << 20, 100 << 20, 1, 1, 1.0),
            "logagg: 100.0 MiB of 100.0 MiB (100%), 1 of 1 file, 100.0 MiB/s");
  // Standard input has no total.
  EXPECT_EQ(cli::format_progress(2048, 0, 0, 1, 1.0), "logagg: 2.0 KiB, 0 of 1 file, 2.0 KiB/s");
  EXPECT_EQ(cli::format_progress(0, 600ull << 20, 0, 2, 0.0), "logagg: 0 B of 600.0 MiB (0%), 0 of 2 files, 0 B/s");
}

// Runs logagg under a pseudo-terminal, reading `input` ("-" for the standard
// input `before` pipes in); returns what the terminal showed.
std::string on_terminal(const std::string& args, const std::string& input = kSample, const std::string& before = "") {
  const testing::ProcessResult r = testing::run_process(
      {"/usr/bin/script", "-qfec",
       before + testing::logagg_bin() + " --format csv " + args + " " + input + " > /dev/null", "/dev/null"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

TEST(ProgressLine, DrawnOnATerminalThenErasedBeforeTheSummary) {
  // Standard input held open for a second first, so the job outlasts the
  // 0 ms delay by far and the line is drawn however the threads are scheduled.
  const std::string shown = on_terminal("--progress-delay-ms 0", "-", "(sleep 1; cat " + kSample + ") | ");
  const size_t line = shown.find("\rlogagg: ");
  ASSERT_NE(line, std::string::npos) << shown;
  const size_t erased = shown.rfind("\r\033[K");
  ASSERT_NE(erased, std::string::npos) << shown;
  EXPECT_LT(line, erased);
  EXPECT_NE(shown.find("counted", erased), std::string::npos) << "the summary comes after the erased line";
}

TEST(ProgressLine, NeverWithQuietOrBeforeTheDelayOrOffATerminal) {
  EXPECT_EQ(on_terminal("-q --progress-delay-ms 0").find("\033[K"), std::string::npos);
  // A delay no run of the sample reaches, however loaded or instrumented the
  // build: nothing is drawn before it (the default delay is 1 s).
  EXPECT_EQ(on_terminal("--progress-delay-ms 600000").find("\033[K"), std::string::npos)
      << "a job shorter than the delay shows no progress";
  const testing::ProcessResult piped =
      testing::run_process({testing::logagg_bin(), "--format", "csv", "--progress-delay-ms", "0", kSample});
  EXPECT_EQ(piped.err.find("\033[K"), std::string::npos) << "stderr is a pipe here";
}

}  // namespace
}  // namespace logagg
