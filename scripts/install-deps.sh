#!/bin/sh
# Installs what logagg needs to build and test, from Debian's packages.
# Runs apt-get directly as root, through sudo otherwise.
set -eu
packages="cmake ninja-build g++ libsimdjson-dev libabsl-dev libcli11-dev \
libhowardhinnant-date-dev libgtest-dev libgmock-dev libbenchmark-dev \
zlib1g-dev libzstd-dev help2man dpkg-dev man-db"
if [ "$(id -u)" -eq 0 ]; then sudo=""; else sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $packages >/dev/null
echo "logagg build dependencies installed"
