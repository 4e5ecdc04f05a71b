"""Headless Chromium driven through the DevTools protocol, for pages that keep changing (the live
dashboard of `--follow --serve`): `--dump-dom` only sees a page as it loads, and
`--virtual-time-budget` never ends while an event stream is open.

  with Browser(chromium, scratch) as b:
      page = b.open("http://127.0.0.1:8080/")
      page.wait_for("document.body.dataset.liveLast === '1700000003'", 20)
      page.screenshot("live.png")

A minimal WebSocket client (RFC 6455: one text frame out, masked; frames in, joined) is enough for
the protocol's JSON messages; the standard library has none.
"""

import base64
import http.client
import json
import os
import socket
import struct
import subprocess
import time
import urllib.parse


class Page:
    """One tab, over its own WebSocket."""

    def __init__(self, ws_url):
        url = urllib.parse.urlparse(ws_url)
        self.sock = socket.create_connection((url.hostname, url.port), timeout=30)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET {url.path} HTTP/1.1\r\nHost: {url.netloc}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(1)
            if not chunk:
                raise ConnectionError("DevTools closed the connection in the handshake")
            head += chunk
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise ConnectionError(f"DevTools refused the WebSocket: {head!r}")
        self.next_id = 0

    def _read(self, n):
        data = b""
        while len(data) < n:
            chunk = self.sock.recv(n - len(data))
            if not chunk:
                raise ConnectionError("DevTools closed the connection")
            data += chunk
        return data

    def _send(self, text):
        payload = text.encode()
        mask = os.urandom(4)
        n = len(payload)
        head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + struct.pack(">H", n)
                                if n < 65536 else bytes([0x80 | 127]) + struct.pack(">Q", n))
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))

    def _receive(self):
        message = b""
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7F
            if n == 126:
                n = struct.unpack(">H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack(">Q", self._read(8))[0]
            data = self._read(n)
            if b0 & 0x0F in (0x9, 0xA):  # ping, pong: not part of a message
                continue
            message += data
            if b0 & 0x80:
                return json.loads(message)

    def call(self, method, **params):
        self.next_id += 1
        self._send(json.dumps({"id": self.next_id, "method": method, "params": params}))
        while True:
            reply = self._receive()
            if reply.get("id") == self.next_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return reply["result"]

    def evaluate(self, expression):
        """The value of a JavaScript expression in the page (JSON-able), or raises its exception."""
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def wait_for(self, expression, timeout):
        """Polls `expression` until it is truthy; returns it, or None after `timeout` seconds. An
        expression that throws (the page not there yet) is not yet true."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            try:
                value = self.evaluate(expression)
            except RuntimeError:
                value = None
            if value:
                return value
            time.sleep(0.2)
        return None

    def close(self):
        self.sock.close()

    def screenshot(self, path):
        with open(path, "wb") as out:
            out.write(base64.b64decode(self.call("Page.captureScreenshot", format="png")["data"]))


class Browser:
    """A headless Chromium with a DevTools port, closed on exit."""

    def __init__(self, chromium, scratch):
        self.chromium, self.scratch = chromium, scratch

    def __enter__(self):
        profile = os.path.join(self.scratch, "profile")
        self.process = subprocess.Popen([self.chromium, "--headless", "--no-sandbox", "--disable-gpu",
                                         f"--user-data-dir={profile}", "--remote-debugging-port=0",
                                         "--window-size=1280,1200", "about:blank"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        active = os.path.join(profile, "DevToolsActivePort")
        end = time.monotonic() + 30
        while not (os.path.exists(active) and read(active).count("\n") >= 1):
            if time.monotonic() > end or self.process.poll() is not None:
                self.__exit__()
                raise RuntimeError("Chromium did not open its DevTools port")
            time.sleep(0.1)
        self.port = int(read(active).split()[0])
        self.pages = []
        return self

    def open(self, url):
        """A new tab at `url`."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.request("PUT", "/json/new?" + urllib.parse.quote(url, safe=":/?=&"))
        target = json.loads(conn.getresponse().read())
        conn.close()
        self.pages.append(Page(target["webSocketDebuggerUrl"]))
        return self.pages[-1]

    def __exit__(self, *exc):
        for page in getattr(self, "pages", []):
            page.close()
        self.process.kill()
        self.process.wait()


def read(path):
    with open(path) as f:
        return f.read()
