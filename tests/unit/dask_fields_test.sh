#!/bin/sh
# The Dask driver against the result document's one table of field names:
# every field name apps/logagg-dask/logagg_dask.py reads or sets on a result
# document (a subscript ["NAME"] or ['NAME'], a keyword NAME= of a summary it
# rebuilds with dict(...["summary"], NAME=...), a name of its summary's
# `for key in (...)`) is one that engine/src/report/document_fields.h names. The driver's other documents are
# told apart by their names: --list-inputs' (inputs, piece_size, path,
# path_hex, shown, bytes, compression, ranges) and Dask's scheduler_info
# (workers, host, nthreads).
#
#   tests/unit/dask_fields_test.sh SOURCE_DIR
set -eu
src=$1
driver=$src/apps/logagg-dask/logagg_dask.py
table=$src/engine/src/report/document_fields.h
other="inputs piece_size path path_hex shown bytes compression ranges workers host nthreads"

known=$(sed -n 's/^inline constexpr std::string_view k[A-Za-z]* = "\([a-z_]*\)";.*/\1/p' "$table")
[ -n "$known" ] || { echo "FAIL: no field names read from $table"; exit 1; }
used=$(
  {
    grep -o "\[[\"'][a-z_]*[\"']\]" "$driver" | tr -d "[]\"'"
    grep 'dict(.*\["summary"\]' "$driver" | grep -o '[a-z_]*=[^=]' | cut -d= -f1
    grep "for key in (" "$driver" | grep -o "\"[a-z_]*\"" | tr -d '"'
  } | sort -u
)
[ -n "$used" ] || { echo "FAIL: no field names found in $driver"; exit 1; }
status=0
for name in $used; do
  case " $(echo $known) $other " in *" $name "*) continue ;; esac
  echo "FAIL: $driver uses the field \"$name\", which $table does not name"
  status=1
done
[ $status -eq 0 ] && echo "dask fields: ok ($(echo $used | wc -w) names)"
exit $status
