#!/bin/bash
# The docs' lists of files agree with the tree:
# - every file under engine/src/ and engine/include/logagg/ is named in the
#   first column of docs/architecture.md's file table for its folder;
# - every name in the first column of a file table is a file (or, ending in
#   /, a folder) of that table's folder;
# - every path in backticks elsewhere in a table row of architecture.md
#   (`text/lines.h`, `apps/logagg/main.cc`, `engine/html/`: a / between two
#   names, and a file extension or a trailing /) is a file or folder under
#   engine/src/, engine/include/ or the repository's root;
# - the public headers that CONTRIBUTING.md's "The repository" names on its
#   include/logagg/ line are exactly those of engine/include/logagg/ (a
#   configured NAME.in counts as NAME).
# A file table is a Markdown table whose header row starts `| file |`; its
# folder is named by the last line before it, under the same heading, that
# starts with the folder in backticks and a colon (`engine/src/input/`: ...).
#
#   tests/unit/docs_files_test.sh SOURCE_DIR
set -euo pipefail
src=$(cd "$1" && pwd)
arch=docs/architecture.md
contributing=CONTRIBUTING.md
failures=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }

[ -f "$src/$arch" ] || { echo "FAIL: $arch does not exist" >&2; exit 1; }

# Every backticked token of architecture.md's table rows, outside fenced code
# blocks, one per line: "LINE KIND FOLDER TOKEN", where KIND is "file" for the
# first column of a file table (FOLDER its folder, or "-" if it has none) and
# "cell" for any other cell (FOLDER "-").
tokens=$(awk '
  /^[ ]*(```|~~~)/ { fence = !fence; next }
  fence { next }
  /^#/ { folder = ""; table = 0; next }
  /^`engine\/[^`]*\/`:/ { folder = $0; sub(/^`/, "", folder); sub(/`.*$/, "", folder); next }
  /^\|/ {
    if (!table) { table = 1; files = ($0 ~ /^\| *file *\|/); next }  # the header row
    if ($0 ~ /^\|[ :|-]*$/) next                                       # the separator row
    n = split($0, cell, "|")
    for (c = 2; c < n; c++) {
      kind = (files && c == 2) ? "file" : "cell"
      rest = cell[c]
      while (match(rest, /`[^`]+`/)) {
        t = substr(rest, RSTART + 1, RLENGTH - 2)
        rest = substr(rest, RSTART + RLENGTH)
        print NR, kind, (kind == "file" ? (folder == "" ? "-" : folder) : "-"), t
      }
    }
    next
  }
  { table = 0 }' "$src/$arch")

# The files each file table names, as "FOLDER/NAME" lines.
named=""
while read -r line kind folder token; do
  [ -n "$line" ] || continue
  if [ "$kind" = file ]; then
    if [ "$folder" = - ]; then
      fail "$arch:$line: \`$token\` is in a file table with no folder line (\`engine/src/STAGE/\`: ...) before it"
      continue
    fi
    case $token in
      */) [ -d "$src/$folder$token" ] ||
            fail "$arch:$line: \`$token\` in the file table of $folder names no folder: there is no $folder$token" ;;
      *) if [ -f "$src/$folder$token" ]; then
           named+="$folder$token"$'\n'
         else
           fail "$arch:$line: \`$token\` in the file table of $folder names no file: there is no $folder$token"
         fi ;;
    esac
    continue
  fi
  # Another cell: only paths, relative or from the root.
  case $token in
    /* | *' '* | *'`'*) continue ;;
    */*/) ;;
    */*.h | */*.cc | */*.in | */*.js | */*.css | */*.sh | */*.py | */*.cmake | */*.json | */*.txt) ;;
    *) continue ;;
  esac
  [[ $token =~ ^[A-Za-z0-9_./-]+$ ]] || continue
  found=false
  for base in engine/src/ engine/include/ ""; do
    if [ -e "$src/$base$token" ]; then found=true; break; fi
  done
  $found || fail "$arch:$line: \`$token\` names nothing: there is no engine/src/$token, engine/include/$token or $token"
done <<< "$tokens"

# Every file of the engine's sources and public headers, named in its table.
checked=0
while IFS= read -r file; do
  checked=$((checked + 1))
  grep -qxF -- "$file" <<< "$named" && continue
  folder=${file%/*}/
  if grep -q " file $folder " <<< "$tokens"; then
    fail "$file is not named in $arch: add a row for \`${file##*/}\` to the file table of $folder"
  else
    fail "$file is not named in $arch: it has no file table for $folder (a line \`$folder\`: ... and a table | file | what it does |)"
  fi
done < <(cd "$src" && find engine/src engine/include/logagg -type f ! -name '.*' | sort)
[ "$checked" -ge 50 ] || fail "only $checked engine files found under $src: is SOURCE_DIR the repository's root?"

# The public headers of CONTRIBUTING.md's "The repository": the names on the
# include/logagg/ line of its layout and the lines continuing it (indented
# further than any entry).
listed=$(awk '
  /^## / { section = ($0 ~ /^## The repository/); entry = 0; next }
  !section { next }
  /^ *include\/logagg\// { entry = 1; print; next }
  entry && /^          / { print; next }
  { entry = 0 }' "$src/$contributing" | sed 's/^ *include\/logagg\///' | grep -oE '[A-Za-z0-9_]+\.h\b' | sort -u || true)
headers=$(cd "$src/engine/include/logagg" && ls | sed 's/\.in$//' | sort -u)
[ -n "$listed" ] || fail "$contributing: no public headers found on the include/logagg/ line of \"The repository\""
for h in $headers; do
  grep -qxF -- "$h" <<< "$listed" ||
    fail "$contributing: \"The repository\" does not name the public header $h (engine/include/logagg/) on its include/logagg/ line"
done
for h in $listed; do
  grep -qxF -- "$h" <<< "$headers" ||
    fail "$contributing: \"The repository\" names the public header $h, which is not in engine/include/logagg/"
done

[ "$failures" -eq 0 ] || exit 1
echo "docs_files: ok ($checked engine files named in $arch; $(wc -w <<< "$headers") public headers in $contributing)"
