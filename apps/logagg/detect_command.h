// `logagg detect`: looks at a sample of the inputs and prints the commands
// that would count them, the best first, each with the share of the sampled
// lines it counts (logagg/detect.h).
#pragma once

namespace logagg::cli {

// Runs `logagg detect` with argv[0] == "detect". Returns the exit code: 0
// when it suggests a command, 1 when it has none (no input readable, not
// JSON lines, no time field found), 2 on a usage error.
int run_detect(int argc, char** argv);

}  // namespace logagg::cli
