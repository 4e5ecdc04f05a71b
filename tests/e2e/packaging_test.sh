#!/bin/sh
# What logagg ships, checked the way users get it:
# 1. `cmake --install` into a scratch prefix; the embedding example under
#    apps/examples is configured and built against that prefix (not the build
#    tree) and must count like the logagg binary; `man` finds the page there.
# 2. `cpack` makes the .deb packages; the logagg package is unpacked into a
#    scratch root with `dpkg -x`, its binary runs on the sample log, and its
#    Depends name the Debian runtime libraries it links; liblogagg-dev's
#    Depends name what a program linking the static engine needs.
#
#   tests/e2e/packaging_test.sh BUILD_DIR SOURCE_DIR
set -eu
build=$(cd "$1" && pwd)
src=$(cd "$2" && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/logagg-packaging.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

sample="$src/data/sample.log"
"$build/apps/logagg" -q --format csv "$sample" > "$work/expected.csv"

echo "== cmake --install, then the example built against the installed package"
cmake --install "$build" --prefix "$work/prefix" > /dev/null
for f in bin/logagg share/man/man1/logagg.1 share/man/man1/logagg-split.1 share/man/man1/logagg-merge.1 \
         share/bash-completion/completions/logagg share/zsh/vendor-completions/_logagg \
         share/fish/vendor_completions.d/logagg.fish include/logagg/aggregate.h; do
  [ -e "$work/prefix/$f" ] || fail "not installed: $f"
done
[ -n "$(find "$work/prefix" -name logaggConfig.cmake)" ] || fail "no CMake package file installed"
MANPATH="$work/prefix/share/man" man -P cat logagg 2> /dev/null | grep -q "COUNTING RULES" ||
  fail "man logagg does not show the installed page"
if grep -rq "simdjson\.h\|absl/" "$work/prefix/include/logagg"; then fail "a public header includes simdjson or abseil"; fi

cmake -S "$src/apps/examples" -B "$work/example" -DCMAKE_PREFIX_PATH="$work/prefix" > "$work/configure.log" 2>&1 ||
  { cat "$work/configure.log"; fail "the example does not configure against the installed package"; }
grep -q "$work/prefix" "$work/example/CMakeCache.txt" || fail "the example did not use the installed package"
cmake --build "$work/example" > "$work/build.log" 2>&1 || { cat "$work/build.log"; fail "the example does not build"; }
"$work/example/count_requests" "$sample" > "$work/example.out"
head -n 4 "$work/example.out" > "$work/buffer.out"
printf '%s\n' "# buffer: 4 lines, 2 counted, 1 blank, 1 rejected" "second,count" \
  "2023-11-14T22:13:20Z,2" "# files: 3500 lines, 3361 counted, 15 blank, 124 rejected" | cmp - "$work/buffer.out" ||
  fail "the example's buffer report is wrong"
tail -n +5 "$work/example.out" | cmp - "$work/expected.csv" || fail "the example counts the file unlike logagg"

echo "== cpack, dpkg -x, the installed binary"
(cd "$build" && cpack -B "$work/packages" > "$work/cpack.log" 2>&1) || { cat "$work/cpack.log"; fail "cpack failed"; }
deb=$(ls "$work"/packages/logagg_*.deb)
dev_deb=$(ls "$work"/packages/liblogagg-dev_*.deb) || fail "no liblogagg-dev package"
# The static engine's users link RE2, which they find with pkg-config.
for dep in libre2-dev pkg-config; do
  dpkg-deb -f "$dev_deb" Depends | grep -q "$dep" || fail "liblogagg-dev does not depend on $dep"
done
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for lib in libsimdjson libabsl libstdc++6 libc6; do
  echo "$depends" | grep -q "$lib" || fail "the package does not depend on $lib"
done
dpkg -x "$deb" "$work/root"
"$work/root/usr/bin/logagg" -q --format csv "$sample" | cmp - "$work/expected.csv" ||
  fail "the packaged binary counts differently"
[ -f "$work/root/usr/share/man/man1/logagg.1" ] || fail "the package has no man page"
[ -f "$work/root/usr/share/bash-completion/completions/logagg" ] || fail "the package has no bash completion"
echo "packaging: ok"
