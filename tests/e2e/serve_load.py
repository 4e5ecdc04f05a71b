"""Clients of `logagg --follow --serve`, many at once, for serve_e2e's load test and
profiling/serve_bench.py: event streams (/events, /page-events) that note when each bucket's
first event came, and /metrics scrapers, each on a thread of its own.

  clients = Clients(port, events=150, pages=25, scrapers=25)
  ...                       # the log grows
  clients.stop()            # or: clients.stop_scraping(), stop logagg, clients.drain(): every event read
  clients.arrivals          # per /events stream: {bucket start (ISO text): when its first row came (time.time())}
  clients.rows              # per /events stream: its rows (dicts), in order
"""

import http.client
import json
import threading
import time


class Clients:
    def __init__(self, port, events=0, pages=0, scrapers=0, scrape_every=1.0):
        self.port, self.scrape_every = port, scrape_every
        self.stopping = threading.Event()
        self.scraping = threading.Event()  # set: the scrapers stop
        self.errors = []
        self.arrivals = [{} for _ in range(events)]
        self.rows = [[] for _ in range(events)]
        self.page_events = [0] * pages
        self.scrapes = [0] * scrapers
        self.connected = threading.Semaphore(0)
        self.threads = [threading.Thread(target=self._stream, args=(i,), daemon=True) for i in range(events)]
        self.threads += [threading.Thread(target=self._page, args=(i,), daemon=True) for i in range(pages)]
        self.threads += [threading.Thread(target=self._scrape, args=(i,), daemon=True) for i in range(scrapers)]
        for t in self.threads:
            t.start()
        for _ in range(events + pages):  # every stream answered
            if not self.connected.acquire(timeout=30):
                raise AssertionError(f"event streams not answered: {self.errors[:3]}")

    def _open(self, path):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.request("GET", path)
        response = conn.getresponse()
        if response.status != 200:
            raise AssertionError(f"GET {path}: {response.status}")
        self.connected.release()
        return conn, response

    def _events(self, path):
        """Yields the data of each event of `path` until stop()."""
        conn, response = self._open(path)
        try:
            while not self.stopping.is_set():
                line = response.readline()
                if not line:
                    return
                if line.startswith(b"data: "):
                    yield line[6:]
        finally:
            conn.close()

    def _stream(self, i):
        try:
            for data in self._events("/events"):
                row = json.loads(data)
                self.rows[i].append(row)
                self.arrivals[i].setdefault(row["second"], time.time())
        except Exception as e:  # noqa: BLE001 (told through errors, and failed by the caller)
            self.errors.append(f"/events: {e!r}")

    def _page(self, i):
        try:
            for data in self._events("/page-events"):
                json.loads(data)
                self.page_events[i] += 1
        except Exception as e:  # noqa: BLE001
            self.errors.append(f"/page-events: {e!r}")

    def _scrape(self, i):
        try:
            while not self.scraping.wait(self.scrape_every):
                conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
                conn.request("GET", "/metrics")
                response = conn.getresponse()
                response.read()
                conn.close()
                if response.status != 200:
                    raise AssertionError(f"/metrics: {response.status}")
                self.scrapes[i] += 1
        except Exception as e:  # noqa: BLE001
            self.errors.append(f"/metrics: {e!r}")

    def stop_scraping(self):
        """Stops the scrapers (before logagg stops: a scrape of a server gone would fail)."""
        self.scraping.set()
        for t in self.threads[len(self.arrivals) + len(self.page_events):]:
            t.join(timeout=10)

    def drain(self, timeout=30):
        """Once logagg has stopped: waits for each stream to read to its end (every event the
        server sent)."""
        end = time.monotonic() + timeout
        for t in self.threads:
            t.join(timeout=max(0.0, end - time.monotonic()))

    def stop(self):
        """Stops every client: a stream ends at its next event or heartbeat (a second at most)."""
        self.scraping.set()
        self.stopping.set()
        for t in self.threads:
            t.join(timeout=10)
