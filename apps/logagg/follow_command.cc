// Following logs from the command line (see follow_command.h). SIGINT,
// SIGTERM and SIGHUP (a closed terminal, a dropped ssh session) are blocked
// and read from a signalfd, which the engine polls as its stop descriptor: a
// signal ends the loop between rounds, never in a write.
#include "follow_command.h"

#include <signal.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "logagg/follow.h"
#include "logagg/serve.h"
#include "logagg/terminal_text.h"
#include "print_result.h"

namespace logagg::cli {
namespace {

// Writes to stdout and flushes, so each round's rows reach the reader at once.
bool write_out(const std::string& text, int& error) {
  if (text.empty()) return true;
  if (std::fwrite(text.data(), 1, text.size(), stdout) != text.size() || std::fflush(stdout) != 0) {
    error = errno;
    return false;
  }
  return true;
}

void write_err(const std::string& text) { std::fwrite(text.data(), 1, text.size(), stderr); }

// --plot: the chart of every bucket so far, drawn again in place (the
// terminal's screen cleared) after each round that printed rows; with
// measures, their lines under it from the latest cell of each bucket and app.
class LivePlot {
 public:
  explicit LivePlot(const Config& config)
      : bucketing_(config.report.bucketing), spec_(config.query.measures()), units_(config.report.units) {}
  std::string redraw(const std::vector<FollowRow>& rows) {
    for (const FollowRow& r : rows) latest_[{r.start, r.app}] = {r.count, r.measures};
    std::vector<SecondCount> buckets;
    MeasureTable cells(spec_);
    PlotMeasures measures{spec_, units_, &cells, {}};
    for (const auto& [key, row] : latest_) {
      if (buckets.empty() || buckets.back().second != key.first) buckets.push_back({key.first, 0});
      buckets.back().count += row.first;
      if (spec_.empty()) continue;
      cells.push_back(row.second);
      measures.seconds.push_back(key.first);
    }
    return "\x1b[H\x1b[2J" + format_plot(buckets, bucketing_, plot_size(), spec_.empty() ? nullptr : &measures);
  }

 private:
  Bucketing bucketing_;
  MeasureSpec spec_;
  std::vector<std::pair<std::string, DurationUnit>> units_;
  // The last row of each bucket and app: its count and measures.
  std::map<std::pair<int64_t, std::string>, std::pair<uint64_t, MeasureCell>> latest_;
};

// --serve: the server, listening (its address on stderr, with a warning
// when it is not a loopback one); nullptr without --serve, or when it
// cannot listen (said on stderr).
std::unique_ptr<LiveServer> start_server(const Config& config, ServeOptions& serve, bool& failed) {
  if (!config.serve) return nullptr;
  serve = *config.serve;
  if (rlimit files{}; ::getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur != RLIM_INFINITY &&
                      serve.fit_to_descriptors(files.rlim_cur)) {
    std::fprintf(stderr, "logagg: the descriptor limit (%llu) leaves room for %zu event streams at once, not %zu "
                         "(raise it: ulimit -n)\n",
                 static_cast<unsigned long long>(files.rlim_cur), serve.max_streams, config.serve->max_streams);
  }
  try {
    auto server = std::make_unique<LiveServer>(config.query, config.report, serve);
    const std::string& host = config.serve->host;
    const std::string shown = host.find(':') != std::string::npos ? "[" + host + "]" : host;
    std::fprintf(stderr, "logagg: serving the dashboard, /metrics and /events on http://%s:%d/\n", terminal_text(shown).c_str(),
                 server->port());
    if (!is_loopback_host(host)) {
      std::fprintf(stderr, "logagg: warning: %s is not a loopback address: whoever can reach it can read the counts "
                           "and keys (there is no authentication)\n",
                   terminal_text(host).c_str());
    }
    return server;
  } catch (const std::runtime_error& e) {
    std::fprintf(stderr, "logagg: %s\n", terminal_text(e.what()).c_str());
    failed = true;
    return nullptr;
  }
}

}  // namespace

int run_follow(const Config& config) {
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);  // before any thread starts: all inherit it
  const int stop_fd = ::signalfd(-1, &stop_signals, SFD_CLOEXEC);
  if (stop_fd < 0) {
    std::fprintf(stderr, "logagg: --follow cannot watch for signals: %s\n", std::strerror(errno));
    return 1;
  }

  bool serve_failed = false;
  ServeOptions serve;
  std::unique_ptr<LiveServer> server = start_server(config, serve, serve_failed);
  if (serve_failed) return 1;
  const FollowWriter writer(config.query, config.report);
  LivePlot plot(config);
  int write_error = 0;
  bool writing = config.plot || write_out(writer.header(), write_error);
  FollowOptions fo;
  fo.bucketing = config.report.bucketing;
  fo.late = config.late;
  fo.top = config.report.top;
  fo.stop_fd = stop_fd;
  fo.on_error = [](const InputError& e) { print_error(e.path, e.message); };
  if (server) {
    fo.on_round = [&](const Result& round) { server->add_round(round); };
    fo.reserved_descriptors = serve.descriptors();
  }
  FollowResult followed;
  try {
    followed = follow(config.paths, config.query, config.options, fo, [&](const std::vector<FollowRow>& rows) {
      if (server) server->add_rows(rows);
      return writing = write_out(config.plot ? plot.redraw(rows) : writer.rows(rows), write_error);
    });
  } catch (const std::invalid_argument& e) {
    print_usage_error(e.what(), "");
    return 2;
  }
  ::close(stop_fd);
  server.reset();  // every client closed before the summary
  if (writing && !config.plot) write_out(writer.footer(followed.result.summary.counted), write_error);

  Result& r = followed.result;
  add_field_warnings(r, config.paths);
  print_cap_warning(r);
  write_err(format_rejects(r));
  if (!config.quiet) {
    std::vector<SummaryRow> more = {{"late (corrected rows)", followed.late}};
    if (followed.lost_bytes != 0) more.push_back({"lost bytes (truncated before read)", followed.lost_bytes});
    if (followed.truncations_without_copy != 0) {
      more.push_back({"truncations without a copy", followed.truncations_without_copy});
    }
    if (followed.lost_files != 0) more.push_back({"lost files (never opened)", followed.lost_files});
    if (followed.most_open != 0) more.push_back({"files held open at most", followed.most_open});
    write_err(format_summary(r.summary, r.query, more));
  }
  for (const FollowResult::Unfinished& u : followed.unfinished) {
    print_error(u.path, "the last " + std::to_string(u.bytes) +
                            (u.unread ? " bytes were not read yet (stopped while reading the file): not counted"
                                      : " bytes are not a whole line yet (no LF): not counted"));
  }
  if (!followed.stopped_short.empty()) {
    std::fprintf(stderr,
                 "logagg: %s, and no file is held that could be closed: following cannot go on, lines are left "
                 "unread (raise the limit: ulimit -n)\n",
                 terminal_text(followed.stopped_short).c_str());
  }
  if (config.stats && config.report.format != Format::kJson) write_err(format_stats(r, config.report));
  print_warnings(r);
  if (write_error != 0 && write_error != EPIPE) {
    std::fprintf(stderr, "logagg: cannot write the rows: %s\n", std::strerror(write_error));
    return 1;
  }
  if (!r.errors.empty() || !followed.stopped_short.empty()) return 1;
  return config.strict && !r.warnings.empty() ? kWarned : 0;
}

}  // namespace logagg::cli
