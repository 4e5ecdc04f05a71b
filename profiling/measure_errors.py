#!/usr/bin/python3
"""profiling/bench.sh's comparison of per-second measures with DuckDB's.

  measure_errors.py LOGAGG_CSV DUCKDB_CSV EXACT_CSV

LOGAGG_CSV: `logagg --sum bytes --quantiles latency_ms --percentiles 99 --format csv` rows
(second,count,n(bytes),sum(bytes),n(latency_ms),min,max,p99). DUCKDB_CSV: second, count, sum(bytes),
quantile_cont(latency_ms, 0.99), approx_quantile(latency_ms, 0.99). EXACT_CSV: second, count, the
exact nearest-rank p99 (DuckDB's sorted list of the second's values, element ceil(0.99 n)).
Compares the seconds where all three counted the same lines (the readers' rules differ): how many
sums agree to the digit, and each p99's relative distance from the exact one (median and max).
"""
import csv
import sys
from decimal import Decimal


def rows(path, header):
    with open(path, newline="") as f:
        r = csv.reader(f)
        if header:
            next(r)
        return {row[0]: row for row in r}


def main():
    logagg, duck, exact = rows(sys.argv[1], True), rows(sys.argv[2], False), rows(sys.argv[3], False)
    same = [s for s in logagg if s in duck and s in exact and logagg[s][1] == duck[s][1] == exact[s][1]]
    if not same:
        print("measures beside DuckDB: no second counted alike by both")
        return
    sums_equal = sum(logagg[s][3] != "" and duck[s][2] != "" and Decimal(logagg[s][3]) == Decimal(duck[s][2])
                     for s in same)
    errors = {"logagg p99": [], "DuckDB quantile_cont": [], "DuckDB approx_quantile": []}
    for s in same:
        want = float(exact[s][2])
        if want == 0:
            continue
        for name, got in (("logagg p99", logagg[s][7]), ("DuckDB quantile_cont", duck[s][3]),
                          ("DuckDB approx_quantile", duck[s][4])):
            errors[name].append(abs(float(got) - want) / abs(want))
    print(f"seconds counted alike by both: {len(same)} of logagg's {len(logagg)}; sum(bytes) equal in {sums_equal}")
    for name, e in errors.items():
        e.sort()
        print(f"{name}: distance from the exact nearest-rank p99, median {100 * e[len(e) // 2]:.3f}%, "
              f"max {100 * e[-1]:.3f}% (over {len(e)} seconds)")


if __name__ == "__main__":
    main()
