#!/usr/bin/env bash
# The mutation check's compiler launcher (run.sh configures its scratch
# copies with it, ahead of the tree's own launcher, ccache in CI): a source
# file that the row being checked mutates, or that includes the mutated
# header, compiles at -O1 instead of the preset's -O3. Such a compile is new
# anyway (the cache has no mutated object), and -O1 compiles the engine's
# files in about 80 % of -O3's time and the tests' in about 60 %; the
# semantics are the same, so a mutation the tests catch at -O3 they catch at
# -O1 (docs/testing.md). Every other compile, and every compile outside a
# row (the copies' first build, the restored originals), is the release
# build's own, so the compiler cache hands back the tree's objects.
#
#   compile.sh [LAUNCHER...] COMPILER ARGS...
#
# MUTATION_REACHED=FILE: the absolute paths of the sources to compile at
# -O1, one a line (unset outside a row: nothing changes).
set -eu
args=("$@")
if [ -n "${MUTATION_REACHED:-}" ]; then
  source=
  for ((i = 0; i + 1 < ${#args[@]}; ++i)); do
    if [ "${args[i]}" = -c ]; then source=${args[i + 1]}; fi
  done
  if [ -n "$source" ] && grep -qxF -- "$source" "$MUTATION_REACHED"; then
    for i in "${!args[@]}"; do
      if [ "${args[i]}" = -O3 ]; then args[i]=-O1; fi
    done
  fi
fi
exec "${args[@]}"
