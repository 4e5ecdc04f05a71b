#!/usr/bin/env python3
"""Checks that a flame graph from walkthrough.sh renders and shows the expected frames.

Usage: check_flamegraph.py HTML FRAME...

Loads HTML in headless Chromium and reads the DOM after the page's scripts ran:
d3-flame-graph draws each frame as an SVG group whose <title> is
"NAME (SHARE%, N samples)". Fails unless the graph was drawn and, for each
FRAME (part of a frame name, e.g. "date_parse_second"), a drawn frame matches;
prints each FRAME's share of the samples.
"""
import html
import re
import shutil
import subprocess
import sys
from pathlib import Path


def drawn_frames(page):
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        sys.exit("check_flamegraph: chromium not found (scripts/install-deps.sh --profiling installs it)")
    dom = subprocess.run(
        [browser, "--headless", "--no-sandbox", "--disable-gpu", "--virtual-time-budget=10000", "--dump-dom",
         page.resolve().as_uri()],
        capture_output=True, text=True, timeout=120, check=True).stdout
    start = dom.find("<svg")
    svg = dom[start:dom.find("</svg>", start)] if start >= 0 else ""
    return [(html.unescape(name), float(share))
            for name, share in re.findall(r"<title>(.*?) \(([\d.]+)%, [\d,]+ samples\)</title>", svg)]


def main():
    page, wanted = Path(sys.argv[1]), sys.argv[2:]
    frames = drawn_frames(page)
    if not frames:
        sys.exit(f"check_flamegraph: {page}: no flame graph was drawn")
    missing = []
    for frame in wanted:
        shares = [share for name, share in frames if frame in name]
        if shares:
            print(f"check_flamegraph: {page}: {frame} drawn, {min(100.0, sum(shares)):.1f}% of the samples")
        else:
            missing.append(frame)
    if missing:
        sys.exit(f"check_flamegraph: {page}: not drawn: {', '.join(missing)} ({len(frames)} frames drawn)")


if __name__ == "__main__":
    main()
