// The HTTP server of a followed run (logagg/serve.h), on cpp-httplib: its
// routes, limits and the order it stops in. The counters are LiveTotals',
// the dashboard LivePage's and the event streams EventHub's; this file only
// serves them.
// cpp-httplib 0.11 notes that shape it: a response streamed from a provider
// holds a worker thread for as long as the client stays, so event streams
// are capped below the pool's size and each waits at most a second between
// writes (a heartbeat comment when no row came), which is also how a
// departed client is found; stop() is lost if it comes before the accept
// loop runs, so stopping waits for it.
#include "logagg/serve.h"

#include <arpa/inet.h>
#include <httplib.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>

#include <atomic>
#include <charconv>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "serve/event_hub.h"
#include "serve/live_page.h"
#include "serve/live_totals.h"

namespace logagg {
namespace {

using namespace std::chrono_literals;

constexpr size_t kMaxRequestBody = 0;  // no request carries a body
constexpr auto kStreamWait = 1000ms;   // between two writes to an event stream, at most
constexpr auto kStreamsWait = 2000ms;  // for the streams to send their last events when the server stops
constexpr auto kStopWait = 3000ms;     // then for the workers to end

// The server's threads are named "logagg-serve" (top -H, perf, /proc), so
// that what serving costs can be told from the counting's cost; cpp-httplib
// makes its workers itself, so each is named as it takes a request.
void name_this_thread() { ::pthread_setname_np(::pthread_self(), "logagg-serve"); }

// The body of an error response cpp-httplib makes itself.
std::string error_text(int status) {
  switch (status) {
    case 400:
      return "400 bad request\n";
    case 404:
      return "404 not found: / (the dashboard), /metrics, /events or /page-events\n";
    case 413:
      return "413 a request carries no body here\n";
    case 414:
      return "414 request line too long\n";
    default:
      return std::to_string(status) + "\n";
  }
}

}  // namespace

struct LiveServer::Impl {
  Impl(const Query& query, const ReportOptions& report, const ServeOptions& options)
      : options(options),
        totals(query, report.units, options.histograms),
        json(query, as_json(report)),
        rows(options.history),
        page(query, report, options.history),
        page_events(options.history) {}

  static ReportOptions as_json(ReportOptions report) {
    report.format = Format::kJson;
    return report;
  }
  void route();
  void serve_page(httplib::Response& response);
  void serve_events(EventHub& hub, const httplib::Request& request, httplib::Response& response);

  const ServeOptions options;
  std::mutex totals_mutex;
  LiveTotals totals;
  const FollowWriter json;  // the rows of /events
  EventHub rows;
  std::mutex page_mutex;  // the page's window, and what page_events has of it
  LivePage page;
  EventHub page_events;
  std::string page_failed;  // why the dashboard stopped (an exception on follow's thread), or ""
  std::atomic<size_t> streams{0};
  httplib::Server server;
  std::thread listener;
  std::atomic<bool> listen_returned{false};
  int port = 0;
};

void LiveServer::Impl::route() {
  // SO_REUSEADDR, not cpp-httplib's SO_REUSEPORT (with which a second
  // server on the same port would bind, and share the connections).
  server.set_socket_options([](socket_t socket) {
    const int yes = 1;
    ::setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  server.new_task_queue = [workers = options.workers()] { return new httplib::ThreadPool(workers); };
  server.set_read_timeout(5, 0);
  server.set_write_timeout(2, 0);
  server.set_keep_alive_timeout(5);
  server.set_keep_alive_max_count(100);
  server.set_payload_max_length(kMaxRequestBody);
  server.Get("/", [this](const httplib::Request&, httplib::Response& response) { serve_page(response); });
  server.Get("/metrics", [this](const httplib::Request&, httplib::Response& response) {
    std::string text;
    {
      std::lock_guard lock(totals_mutex);
      text = totals.exposition();
    }
    response.set_content(std::move(text), "text/plain; version=0.0.4; charset=utf-8");
  });
  server.Get("/events", [this](const httplib::Request& request, httplib::Response& response) {
    serve_events(rows, request, response);
  });
  server.Get("/page-events", [this](const httplib::Request& request, httplib::Response& response) {
    serve_events(page_events, request, response);
  });
  // Any other method is answered before its body is read (a chunked one
  // would be read whole into memory), and the connection closed.
  server.set_pre_routing_handler([](const httplib::Request& request, httplib::Response& response) {
    name_this_thread();
    if (request.method == "GET" || request.method == "HEAD") return httplib::Server::HandlerResponse::Unhandled;
    response.status = 405;
    response.set_header("Allow", "GET, HEAD");
    response.set_header("Connection", "close");
    response.set_content("405 only GET and HEAD are served\n", "text/plain; charset=utf-8");
    return httplib::Server::HandlerResponse::Handled;
  });
  server.set_error_handler([](const httplib::Request&, httplib::Response& response) {
    if (response.body.empty()) response.set_content(error_text(response.status), "text/plain; charset=utf-8");
  });
  server.set_exception_handler([](const httplib::Request&, httplib::Response& response, std::exception_ptr) {
    response.status = 500;
    response.set_content("500 internal error\n", "text/plain; charset=utf-8");
  });
}

// The dashboard: a snapshot of the window is taken under the lock (its
// buckets are shared, not copied) and drawn outside it, so that follow's
// thread never waits for a page to be drawn.
void LiveServer::Impl::serve_page(httplib::Response& response) {
  if (!has_html_format()) {
    response.set_content(
        "logagg --follow --serve, built without --format html: no dashboard here; "
        "/metrics and /events are served\n",
        "text/plain; charset=utf-8");
    return;
  }
  Summary summary;
  {
    std::lock_guard lock(totals_mutex);
    summary = totals.summary();
  }
  LivePage::Snapshot window;
  std::string events = "/page-events?after=";
  {
    std::lock_guard lock(page_mutex);
    if (!page_failed.empty()) {
      response.status = 500;
      response.set_content("the dashboard stopped: " + page_failed + " (/metrics and /events are still served)\n",
                           "text/plain; charset=utf-8");
      return;
    }
    window = page.snapshot();
    events += page_events.last_event_id();
  }
  response.set_header("Cache-Control", "no-store");
  response.set_content(page.page(window, summary, events), "text/html; charset=utf-8");
}

// An event stream of `hub`'s: from the event after Last-Event-ID (a client
// coming back) or the `after` parameter (the page), else from the first kept.
void LiveServer::Impl::serve_events(EventHub& hub, const httplib::Request& request, httplib::Response& response) {
  if (streams.fetch_add(1) >= options.max_streams) {
    streams.fetch_sub(1);
    response.status = 503;
    response.set_header("Retry-After", "5");
    response.set_content("too many event streams at once\n", "text/plain; charset=utf-8");
    return;
  }
  uint64_t after = hub.start_after(request.has_header("Last-Event-ID") ? request.get_header_value("Last-Event-ID")
                                                                       : request.get_param_value("after"));
  response.set_header("Cache-Control", "no-store");
  response.set_chunked_content_provider(
      "text/event-stream",
      [&hub, after, first = true](size_t, httplib::DataSink& sink) mutable {
        if (first) {
          first = false;
          static constexpr std::string_view kRetry = "retry: 2000\n\n";
          if (!sink.write(kRetry.data(), kRetry.size())) return false;
        }
        const std::string text = hub.take_after(after, kStreamWait);
        if (!text.empty()) return sink.write(text.data(), text.size());
        if (hub.stopped()) {  // all sent: the stream ends (its last chunk), the worker is free
          sink.done();
          return true;
        }
        return sink.write(":\n\n", 3);  // a heartbeat: a departed client fails it
      },
      [this](bool) { streams.fetch_sub(1); });
}

LiveServer::LiveServer(const Query& query, const ReportOptions& report, const ServeOptions& options)
    : impl_(std::make_unique<Impl>(query, report, options)) {
  Impl& s = *impl_;
  s.route();
  const std::string where =
      (s.options.host.find(':') != std::string::npos ? "[" + s.options.host + "]" : s.options.host) + ":" +
      std::to_string(s.options.port);
  s.port = s.options.port == 0 ? s.server.bind_to_any_port(s.options.host)
                               : (s.server.bind_to_port(s.options.host, s.options.port) ? s.options.port : -1);
  if (s.port < 0) {
    throw std::runtime_error("--serve: cannot listen on " + where +
                             " (in use by another program, or not an address of this host)");
  }
  s.listener = std::thread([&s] {
    name_this_thread();
    s.server.listen_after_bind();
    s.listen_returned = true;
  });
}

LiveServer::~LiveServer() { stop(); }

int LiveServer::port() const { return impl_ ? impl_->port : -1; }

void LiveServer::add_round(const Result& round) {
  if (!impl_) return;  // stopped, and left to the process's exit
  std::lock_guard lock(impl_->totals_mutex);
  impl_->totals.add(round);
}

void LiveServer::add_rows(const std::vector<FollowRow>& rows) {
  if (!impl_ || rows.empty()) return;
  Impl& s = *impl_;
  {
    // The page fails alone: whatever it throws (memory), the counting and
    // the other endpoints go on.
    std::lock_guard lock(s.page_mutex);
    if (s.page_failed.empty()) {
      try {
        s.page_events.publish(s.page.add(rows));
      } catch (const std::exception& e) {
        s.page_failed = e.what();
        s.page_events.publish({{rows.front().start, R"({"reload":true})"}});
      }
    }
  }
  // After the page's: a client that has seen a row at /events finds it in
  // the dashboard it loads then.
  s.rows.publish(row_events(s.json, rows));
}

void LiveServer::stop() {
  if (!impl_ || !impl_->listener.joinable()) return;
  Impl& s = *impl_;
  s.rows.stop();
  s.page_events.stop();
  // Each stream ends once its client has the events published before the
  // stop (the run's last rows); cpp-httplib calls no provider once the
  // server stops, so the server waits for them first (at most kStreamsWait:
  // a client too slow to take them is left without). Without the wait, only
  // a stream between two calls of its provider at the stop loses them: a
  // window too narrow for a test to hit at will.
  const auto streams_deadline = std::chrono::steady_clock::now() + kStreamsWait;
  while (s.streams > 0 && std::chrono::steady_clock::now() < streams_deadline) std::this_thread::sleep_for(5ms);
  // A stop before the accept loop runs would be lost (cpp-httplib 0.11).
  while (!s.server.is_running() && !s.listen_returned) std::this_thread::sleep_for(1ms);
  s.server.stop();
  // The accept loop ends once every worker is done. One held by a client
  // sending a request a byte at a time (each read has its own timeout)
  // could hold it for long: past kStopWait the server is left to the
  // process's exit, its threads detached and its memory never freed.
  const auto deadline = std::chrono::steady_clock::now() + kStopWait;
  while (!s.listen_returned && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(5ms);
  if (s.listen_returned) {
    s.listener.join();
  } else {
    s.listener.detach();
    static_cast<void>(impl_.release());
  }
}

bool ServeOptions::fit_to_descriptors(size_t limit) {
  const size_t room = (limit / 4 - std::min<size_t>(limit / 4, 1)) / 2;  // threads whose descriptors fit
  const size_t streams = std::max<size_t>(1, room > kOtherWorkers ? room - kOtherWorkers : 0);
  if (streams >= max_streams) return false;
  max_streams = streams;
  return true;
}

ServeOptions parse_listen_address(std::string_view text) {
  ServeOptions out;
  std::string_view port = text;
  if (const size_t colon = text.rfind(':'); colon != std::string_view::npos) {
    std::string_view host = text.substr(0, colon);
    port = text.substr(colon + 1);
    if (host.starts_with('[') && host.ends_with(']')) {
      host = host.substr(1, host.size() - 2);
    } else if (host.find(':') != std::string_view::npos) {
      throw std::invalid_argument("--serve: write an IPv6 address in brackets, as [::1]:8080 (not " +
                                  std::string(text) + ")");
    }
    if (host.empty()) throw std::invalid_argument("--serve: no host before the port in " + std::string(text));
    out.host = std::string(host);
  }
  int number = -1;
  const auto [end, error] = std::from_chars(port.data(), port.data() + port.size(), number);
  if (port.empty() || error != std::errc() || end != port.data() + port.size() || number < 0 || number > 65535) {
    throw std::invalid_argument("--serve: the port must be a number 0..65535 (0: any free port), not '" +
                                std::string(port) + "' in " + std::string(text));
  }
  out.port = number;
  return out;
}

bool is_loopback_host(std::string_view host) {
  const std::string text(host);
  in_addr v4{};
  in6_addr v6{};
  if (::inet_pton(AF_INET, text.c_str(), &v4) == 1) return (ntohl(v4.s_addr) >> 24) == 127;
  if (::inet_pton(AF_INET6, text.c_str(), &v6) == 1) return IN6_IS_ADDR_LOOPBACK(&v6);
  return host == "localhost";
}

}  // namespace logagg
