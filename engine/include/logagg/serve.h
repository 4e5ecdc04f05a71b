// Serving a followed run over HTTP (logagg --follow --serve ADDR):
// - GET /metrics: Prometheus's text exposition of the counters since logagg
//   started (lines counted per key, read, blank, rejected per reason,
//   filtered per --where, each --count-if and --sum per key, and a histogram
//   of each --quantiles field: exact counts at each bound);
// - GET /events: server-sent events, each bucket's rows as follow hands them
//   out (completed, or corrected by a late line), the rows of the last
//   ServeOptions::history buckets first;
// - GET /: the dashboard (the --format html page) of the last
//   ServeOptions::history buckets, live: it follows GET /page-events, whose
//   events each carry the page's data for the buckets a round changed.
// Read-only (no request changes anything; no path touches the file system),
// and bounded: at most max_streams event streams at once (more get 503),
// request lines of at most 8 KiB (414), any method but GET and HEAD
// answered 405 before its body is read, 5 s to send each part of a request,
// 2 s for a client to take what is written to it, keep-alive connections
// closed after 5 s idle. A bad request gets a 4xx; the counting
// never waits on a client. Fed by follow: FollowOptions::on_round with
// add_round, the sink's rows with add_rows.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "logagg/follow.h"
#include "logagg/follow_rows.h"
#include "logagg/options.h"
#include "logagg/query.h"
#include "logagg/report.h"
#include "logagg/result.h"

namespace logagg {

struct ServeOptions {
  std::string host = "127.0.0.1";  // loopback by default
  int port = 0;                    // 0: any free port (LiveServer::port() says which)
  size_t history = 3600;           // buckets whose rows /events keeps for clients that connect (--serve-history)
  size_t max_streams = 256;        // event streams at once (/events and /page-events together)
  // The server's threads: one per event stream, and kOtherWorkers for the
  // other requests (cpp-httplib gives each connection a thread while it is
  // open, a keep-alive one too).
  static constexpr size_t kOtherWorkers = 16;
  size_t workers() const { return max_streams + kOtherWorkers; }
  // The descriptors the server counts on holding at once (the listening
  // socket, a connection per thread and as many waiting for one), which
  // --follow keeps back from its files (FollowOptions::reserved_descriptors).
  size_t descriptors() const { return 1 + 2 * workers(); }
  // Fewer streams when the descriptor limit is low: the server's
  // descriptors() at most a quarter of `limit`, the rest for the files
  // followed (at least one stream). Returns whether it lowered max_streams.
  bool fit_to_descriptors(size_t limit);
  // The histograms' bounds as their `le` labels say them, by field
  // (plan_histograms fills them with the Question's).
  std::vector<std::pair<std::string, std::vector<std::string>>> histograms;
};

// The bounds of a histogram a --quantiles field has in /metrics, by default:
// for a field with a unit (a --unit, or one its name ends in: latency_ms),
// Prometheus's client default in seconds (0.005 ... 10); else powers of ten
// from 1 to 10^9 in the field's own unit.
std::vector<std::string> default_histogram_bounds(bool duration);
// Gives each --quantiles field of `question` a histogram for /metrics
// (Question::histograms, its bounds in the field's unit, and
// ServeOptions::histograms, their `le` texts): the bounds of `given`
// ("FIELD=B1,B2,...", --serve-buckets: in seconds for a field with a unit,
// else in the field's own), else default_histogram_bounds. Throws
// std::invalid_argument, naming --serve-buckets, for a field --quantiles
// does not name, a bound that is not a decimal, or bounds not ascending.
void plan_histograms(Question& question, const std::vector<std::pair<std::string, DurationUnit>>& units,
                     const std::vector<std::string>& given, ServeOptions& serve);

// "HOST:PORT", "[IPV6]:PORT" or "PORT" (on 127.0.0.1) as host and port;
// throws std::invalid_argument naming what is wrong.
ServeOptions parse_listen_address(std::string_view text);
// Whether `host` is a loopback address: 127.0.0.0/8, ::1 or "localhost".
bool is_loopback_host(std::string_view host);

class LiveServer {
 public:
  // Binds host:port and serves on threads of its own from then on. Throws
  // std::runtime_error naming the address when it cannot bind (in use, not
  // this host's). `query` and `report`: the question followed and its
  // buckets, units and format of rows (as for FollowWriter).
  LiveServer(const Query& query, const ReportOptions& report, const ServeOptions& options);
  ~LiveServer();  // stop()
  LiveServer(const LiveServer&) = delete;
  LiveServer& operator=(const LiveServer&) = delete;

  int port() const;
  // A round's counted lines and summary, into the counters (FollowOptions::on_round).
  void add_round(const Result& round);
  // Rows handed out by follow, to every event stream.
  void add_rows(const std::vector<FollowRow>& rows);
  // Closes every client and stops serving; the counters stay. Idempotent.
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace logagg
