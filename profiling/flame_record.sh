# Sourced by walkthrough.sh and flame.sh (from the repository's top folder):
# the build they profile, and one perf recording of a command and what is
# made of it, the same way for both.

# The release build with symbols and frame pointers both profile, in
# build/profile; LOGAGG_PROFILE_BUILD=DIR profiles an existing build instead
# (CI's smoke runs use build/release, whose symbol table names the functions
# and whose unwind tables give perf's DWARF call graphs; without -g the
# frames of inlined code are the functions they were inlined into).
profile_build=${LOGAGG_PROFILE_BUILD:-build/profile}
flame_template=profiling/walkthrough/node_modules/d3-flame-graph/dist/templates/d3-flamegraph-base.html

# build_for_profiling LOG TARGET...: builds TARGETs in $profile_build
# (configured first if it is build/profile; the build's output to LOG, shown
# if it fails) and installs d3-flame-graph's template
# (profiling/walkthrough/package-lock.json) if it is not there.
build_for_profiling() {
  local log=$1
  shift
  {
    if [ -z "${LOGAGG_PROFILE_BUILD:-}" ]; then
      cmake --preset release -B "$profile_build" -DCMAKE_CXX_FLAGS="-g -fno-omit-frame-pointer -mno-omit-leaf-frame-pointer"
    fi &&
      cmake --build "$profile_build" --target "$@"
  } > "$log" 2>&1 || { cat "$log" >&2; return 1; }
  if [ ! -f "$flame_template" ]; then
    echo "installing d3-flame-graph (profiling/walkthrough/package-lock.json)" >&2
    (cd profiling/walkthrough && npm ci --no-audit --no-fund --silent)
  fi
}

#   record_flame DIR FREQUENCY TEMPLATE HTML FOLDED -- COMMAND [ARGS...]
#
# Records COMMAND (its stdout to DIR/stdout.txt, its stderr to
# DIR/record.log) with perf at FREQUENCY Hz (cpu-clock; DWARF call graphs,
# because Debian's libstdc++ and simdjson have no frame pointers) into
# DIR/perf.data, then writes the interactive flame graph HTML (perf's
# flamegraph script with the d3-flame-graph TEMPLATE) and the folded stacks
# FOLDED (perf's stackcollapse script). DIR, HTML, FOLDED and TEMPLATE are
# absolute paths; COMMAND runs in the current folder. Returns COMMAND's exit
# status if it fails, or 1 (with a message) if a perf script does.
record_flame() {
  local dir=$1 freq=$2 template=$3 html=$4 folded=$5
  shift 6
  mkdir -p "$dir"
  perf record -q -e cpu-clock -F "$freq" --call-graph dwarf,32768 -m 16M -o "$dir/perf.data" -- \
    "$@" > "$dir/stdout.txt" 2> "$dir/record.log" || return
  # Inlined frames off: perf names them inconsistently, and resolving them is slow.
  (cd "$dir" && perf script --no-inline -s "$(perf --exec-path)/scripts/python/flamegraph.py" -- \
     --template "$template" -o "$html" > /dev/null) || { echo "perf script (flamegraph) failed" >&2; return 1; }
  (cd "$dir" && perf script --no-inline -s "$(perf --exec-path)/scripts/python/stackcollapse.py") > "$folded" ||
    { echo "perf script (stackcollapse) failed" >&2; return 1; }
}
