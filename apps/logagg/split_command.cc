// `logagg split` (see split_command.h): flags with CLI11, then the engine's
// steps (split.h: plan the cuts, name the chunks and decide about the files in
// the way, write, remove stale chunks), each failure said on stderr, and a
// summary.
#include "split_command.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "choices.h"
#include "did_you_mean.h"
#include "logagg/split.h"
#include "logagg/terminal_text.h"
#include "print_result.h"
#include "size_flag.h"

namespace logagg::cli {
namespace {
namespace fs = std::filesystem;

struct SplitConfig {
  std::string input;
  std::string outdir;
  SplitLimit limit;
  std::string pattern{kDefaultChunkPattern};
  bool force = false;
  bool quiet = false;
  unsigned threads = 0;  // 0: the machine's hardware threads
  CopyMethod first_method = CopyMethod::kCopyFileRange;
};

// The limit flags, checked together once argv is parsed.
struct LimitFlags {
  std::string max_size;  // --max-size's text, for parse_size() (size_flag.h)
  CLI::Option* size = nullptr;
  CLI::Option* lines = nullptr;
  CLI::Option* allow_long_lines = nullptr;
};

// Declares the arguments and flags, in --help's order, bound to `config` and `limit`.
void add_options(CLI::App& app, SplitConfig& config, LimitFlags& limit) {
  app.add_option("INPUT", config.input, "The log file to split (a regular file)")->required()->type_name("");
  app.add_option("OUTDIR", config.outdir, "Folder for the chunk files")->required()->type_name("");
  limit.size = app.add_option("--max-size", limit.max_size, "Bytes per chunk at most; K, M, G: powers of 1024")
                   ->type_name("SIZE");
  limit.lines = app.add_option("--lines", config.limit.max, "Lines per chunk at most (instead of --max-size)")
                    ->check(CLI::PositiveNumber.description(""))
                    ->type_name("N");
  limit.allow_long_lines = app.add_flag("--allow-long-lines", config.limit.allow_long_lines,
                                        "A line longer than --max-size gets a chunk of its own (else: error)");
  app.add_option("--pattern", config.pattern, "Chunk file names (default {name}.part-{index})")->type_name("PATTERN");
  app.add_flag("--force", config.force, "Replace existing chunk files");
  app.add_option("--threads", config.threads, "Chunks written at once, 1..1024 (default: hardware threads)")
      ->check(CLI::Range(1u, 1024u).description(""))
      ->type_name("N");
  app.add_flag("-q,--quiet", config.quiet, "No summary on stderr");
  app.set_help_flag("-h,--help", "Print this help and exit");
  const std::vector<std::pair<std::string, CopyMethod>> methods{{"copy_file_range", CopyMethod::kCopyFileRange},
                                                                {"sendfile", CopyMethod::kSendfile},
                                                                {"read_write", CopyMethod::kReadWrite}};
  app.add_option("--copy-method", config.first_method, "First copy method to try (for tests)")
      ->transform(one_of(methods))
      ->group("");
}

// After parsing: INPUT is not standard input (open_input checks that it is a
// regular file), one limit is given (and set in `config`), the pattern is
// valid. Throws CLI::ValidationError otherwise.
void check_flags(const LimitFlags& limit, SplitConfig& config) {
  if (config.input == "-") throw CLI::ValidationError("INPUT: standard input cannot be split, only a file");
  if (limit.size->count() > 0 && limit.lines->count() > 0) {
    throw CLI::ValidationError("--max-size and --lines exclude each other");
  } else if (limit.lines->count() > 0) {
    if (limit.allow_long_lines->count() > 0) throw CLI::ValidationError("--allow-long-lines needs --max-size");
    config.limit.kind = SplitLimit::Kind::kLines;
  } else if (limit.size->count() > 0) {
    config.limit.max = parse_size("--max-size", limit.max_size);
  } else {
    throw CLI::ValidationError("--max-size or --lines is required");
  }
  if (const std::string why = check_chunk_pattern(config.pattern); !why.empty()) {
    throw CLI::ValidationError("--pattern " + config.pattern + ": " + why);
  }
}

// Parses argv. Returns the exit code to stop with, or -1 to run.
int parse(int argc, char** argv, SplitConfig& config) {
  // One screen, like `logagg --help`; docs/split.md has the whole story.
  CLI::App app{
      "logagg split: cut INPUT into chunk files in OUTDIR (created if missing) of at most\n"
      "--max-size bytes or --lines lines, never inside a line, copied inside the kernel.\n"
      "Concatenated in name order, the chunks are INPUT byte for byte.",
      "logagg split"};
  app.get_formatter()->column_width(24);
  app.footer(
      "PATTERN: {name} is INPUT's file name, {index} the chunk's number (00000, 00001, ...).\n\n"
      "Example: logagg split --max-size 1M access.log parts/\n"
      "         -> parts/access.log.part-00000, parts/access.log.part-00001, ...");
  LimitFlags limit;
  add_options(app, config, limit);
  try {
    app.parse(argc, argv);
    check_flags(limit, config);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    print_usage_error(with_suggestion(app, e), "split ");
    return 2;
  }
  return -1;
}

void report(const std::string& path, const std::string& message) {
  print_error(path, message);
}

// Interruptions (Ctrl-C, kill) stop the copy between two copy calls, so the
// chunk being written is removed like after any other failure.
std::atomic<bool> stop_requested = false;
volatile std::sig_atomic_t stop_signal = 0;

extern "C" void on_stop_signal(int sig) {
  stop_signal = sig;
  stop_requested = true;
}

void catch_stop_signals() {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;  // no SA_RESTART: a blocked copy returns EINTR
  sigemptyset(&action.sa_mask);
  for (const int sig : {SIGINT, SIGTERM, SIGHUP}) ::sigaction(sig, &action, nullptr);
  ::signal(SIGXFSZ, SIG_IGN);  // a file size limit fails the write with EFBIG instead of killing us
}

// "3 of 10 chunks complete: A to B" for the chunks written before a failure.
std::string describe_complete(const std::vector<ChunkFile>& chunks, const std::vector<bool>& complete) {
  std::vector<std::string> runs;
  size_t count = 0;
  for (size_t i = 0; i < chunks.size();) {
    if (!complete[i]) {
      ++i;
      continue;
    }
    size_t j = i;
    while (j + 1 < chunks.size() && complete[j + 1]) ++j;
    runs.push_back(i == j ? chunks[i].path : chunks[i].path + " to " + chunks[j].path);
    count += j - i + 1;
    i = j + 1;
  }
  std::string text = std::to_string(count) + " of " + std::to_string(chunks.size()) + " chunks complete";
  for (size_t r = 0; r < runs.size(); ++r) text += (r == 0 ? ": " : ", ") + runs[r];
  return text;
}

// "N bytes in K chunks, FIRST to LAST", and how many hold a long line.
std::string describe_success(const std::vector<ChunkFile>& chunks, const SplitLimit& limit) {
  if (chunks.empty()) return "empty, no chunks written";
  size_t oversized = 0;
  for (const ChunkFile& c : chunks) {
    oversized += limit.kind == SplitLimit::Kind::kBytes && c.range.end - c.range.begin > limit.max;
  }
  std::string text = std::to_string(chunks.back().range.end) + " bytes in " + std::to_string(chunks.size()) +
                     (chunks.size() == 1 ? " chunk, " + chunks.front().path
                                         : " chunks, " + chunks.front().path + " to " + chunks.back().path);
  if (oversized > 0) text += "; " + std::to_string(oversized) + " holding a line longer than --max-size";
  return text;
}

// Opens INPUT, which must be a regular file, and stats it; -1 (said why) if
// it cannot be opened or is not a regular file.
int open_input(const std::string& path, struct stat& st) {
  const int in = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0 || ::fstat(in, &st) != 0) {
    report(path, std::strerror(errno));
    return -1;
  }
  if (!S_ISREG(st.st_mode)) {
    report(path, "not a regular file (logagg split reads files, not streams)");
    return -1;
  }
  return in;
}

// The cuts of the open input; nullopt (said why) if it cannot be read or,
// without --allow-long-lines, holds a line longer than --max-size.
std::optional<SplitPlan> plan_cuts(int in, const struct stat& st, const SplitConfig& config) {
  std::string error;
  std::optional<SplitPlan> plan = plan_split_file(in, static_cast<uint64_t>(st.st_size), config.limit, error);
  if (!plan) {
    report(config.input, error);
  } else if (plan->too_long) {
    const LongLine& l = *plan->too_long;
    report(config.input, "line " + std::to_string(l.number) + " is " + std::to_string(l.bytes) +
                             " bytes long, more than --max-size (" + std::to_string(config.limit.max) +
                             " bytes); nothing written (--allow-long-lines puts such a line in a chunk of its own)");
    plan.reset();
  }
  return plan;
}

// The chunk files and the stale ones to remove; nullopt (said why) if a
// path is in the way or OUTDIR cannot be created.
std::optional<ChunkTargets> prepare_outdir(const struct stat& st, const SplitPlan& plan, const SplitConfig& config) {
  const std::string name = fs::path(config.input).filename().string();
  ChunkTargets targets = chunk_targets(plan.chunks, config.outdir, config.pattern, name, st, config.force);
  if (const std::optional<ChunkFileConflict>& c = targets.conflict) {
    report(c->path, c->is_input ? "is the input file" : "chunk file exists (--force replaces it)");
    return std::nullopt;
  }
  std::error_code ec;
  fs::create_directories(config.outdir, ec);
  if (ec) {
    report(config.outdir, ec.message());
    return std::nullopt;
  }
  return targets;
}

// Writes the chunks; on a failure says what failed and which chunks are
// complete and, if a signal stopped the copy, dies of that signal, as the
// caller expects. Returns the copy method used, or nullopt after a failure.
std::optional<CopyMethod> write_all(int in, const std::vector<ChunkFile>& chunks, const SplitConfig& config) {
  WriteOptions options;
  options.overwrite = config.force;
  options.threads = config.threads != 0 ? config.threads : std::max(1u, std::thread::hardware_concurrency());
  options.first_method = config.first_method;
  options.stop = &stop_requested;
  const WriteResult written = write_chunks(in, chunks, options);
  if (written.errors.empty()) return written.method;
  for (const SplitError& e : written.errors) report(e.path, e.message);
  std::fprintf(stderr, "logagg: %s\n", terminal_text(describe_complete(chunks, written.complete)).c_str());
  if (stop_signal != 0) {
    ::signal(stop_signal, SIG_DFL);
    ::raise(stop_signal);
  }
  return std::nullopt;
}

// "logagg: INPUT: N bytes in K chunks, ... (METHOD, 0.012 s)" on stderr.
void say_done(const SplitConfig& config, const std::vector<ChunkFile>& chunks, CopyMethod method,
              std::chrono::steady_clock::time_point start) {
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const std::string method_text = chunks.empty() ? "" : std::string(copy_method_name(method)) + ", ";
  std::fprintf(stderr, "logagg: %s: %s (%s%.3f s)\n", terminal_text(config.input).c_str(),
               describe_success(chunks, config.limit).c_str(), method_text.c_str(), seconds);
}

}  // namespace

int run_split(int argc, char** argv) {
  SplitConfig config;
  if (const int code = parse(argc, argv, config); code >= 0) return code;
  const auto start = std::chrono::steady_clock::now();
  catch_stop_signals();
  struct stat st {};
  const int in = open_input(config.input, st);
  if (in < 0) return 1;
  const std::optional<SplitPlan> plan = plan_cuts(in, st, config);
  if (!plan) return 1;
  const std::optional<ChunkTargets> targets = prepare_outdir(st, *plan, config);
  if (!targets) return 1;
  const std::optional<CopyMethod> method = write_all(in, targets->chunks, config);
  ::close(in);
  if (!method) return 1;
  if (const std::optional<SplitError> e = remove_stale_chunks(targets->stale)) {
    report(e->path, e->message);
    return 1;
  }
  if (!config.quiet) say_done(config, targets->chunks, *method, start);
  return 0;
}

}  // namespace logagg::cli
