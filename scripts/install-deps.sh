#!/bin/sh
# Installs what logagg needs to build and test, from Debian's packages;
# `scripts/install-deps.sh --profiling` adds the profiling walkthrough's tools.
# Runs apt-get directly as root, through sudo otherwise.
set -eu
packages="cmake ninja-build g++ libsimdjson-dev libabsl-dev libcli11-dev \
libhowardhinnant-date-dev libgtest-dev libgmock-dev libbenchmark-dev \
zlib1g-dev libisal-dev libzstd-dev libre2-dev libcpp-httplib-dev pkg-config help2man dpkg-dev file man-db"
packages="$packages prometheus"  # the --serve test: a real Prometheus scrapes /metrics (promtool checks it)
packages="$packages nlohmann-json3-dev"  # the profiling walkthrough's naive stage
packages="$packages tzdata"  # the zones of --tz (libdate-tz3 reads /usr/share/zoneinfo)
packages="$packages python3-distributed"  # apps/logagg-dask and its test (Dask distributed)
# npm: the build fetches the charting library of --format html (engine/html);
# an npm already installed (e.g. with Node.js from elsewhere) will do.
command -v npm >/dev/null || packages="$packages npm"
packages="$packages chromium"  # the html_report test opens --format html pages headless
# With --profiling, also what profiling/walkthrough.sh runs: perf and Python
# (and Chromium, above, to check that a flame graph renders), and the floors
# of profiling/bench.sh's compressed rows: igzip (isal) and zstd.
if [ "${1:-}" = "--profiling" ]; then
  packages="$packages linux-perf python3 isal zstd"
fi
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $packages >/dev/null
echo "logagg build dependencies installed"
