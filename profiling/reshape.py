#!/usr/bin/env python3
"""Rewrites a loggen corpus into another log shape, for shapes_bench.sh.

    profiling/reshape.py SHAPE < corpus.log > reshaped.log

Every line keeps its bytes except the field the shape is about, so the
corpora compare one parsing path against another on the same traffic:

  pointer   "app_id":X becomes "request":{"app_id":X} (--app-field /request/app_id)
  unix      the RFC 3339 timestamp as float seconds, a JSON number, fraction kept
  unix-ms   as integer milliseconds, a JSON number
  clf       as the Common Log Format time, dd/Mon/yyyy:hh:mm:ss +hhmm, its offset kept
  pattern   as "YYYY-MM-DD hh:mm:ss" in UTC (--time-format '%Y-%m-%d %H:%M:%S')

A timestamp that does not look like RFC 3339 (a deliberately bad one) is left
as it is, so it is rejected in the new shape too. The regex is looser than
RFC 3339 (it takes 2023-02-30, which the calendar arithmetic rolls over), so a
few lines loggen made invalid may count in the new shape: shapes_bench.sh
prints the counted lines of every shape beside its time.
"""
import calendar
import time
import re
import sys

FIELD = re.compile(rb'"timestamp"(\s*:\s*)"([^"\\]*)"')
APP = re.compile(rb'"app_id"(\s*:\s*)("(?:[^"\\]|\\.)*"|[^,}\s]+)')
RFC3339 = re.compile(rb'(\d{4})-(\d\d)-(\d\d)[Tt ](\d\d):(\d\d):(\d\d)(\.\d+)?([Zz]|[+-]\d\d:\d\d)\Z')
MONTHS = [b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun", b"Jul", b"Aug", b"Sep", b"Oct", b"Nov", b"Dec"]


def offset_seconds(zone):
    if zone in (b"Z", b"z"):
        return 0
    sign = -1 if zone[:1] == b"-" else 1
    return sign * (int(zone[1:3]) * 3600 + int(zone[4:6]) * 60)


def utc_seconds(m):
    y, mo, d, h, mi, s = (int(g) for g in m.groups()[:6])
    return calendar.timegm((y, mo, d, h, mi, s, 0, 0, 0)) - offset_seconds(m.group(8))


def unix(m):
    second = utc_seconds(m)
    if second < 0 and m.group(7):  # -5 and .25 is -4.75: not worth spelling, loggen writes no such time
        return None
    return b"%d%s" % (second, m.group(7) or b"")


def unix_ms(m):
    fraction = (m.group(7) or b".")[1:4].ljust(3, b"0")
    return b"%d" % (utc_seconds(m) * 1000 + int(fraction))  # floors right below 1970 too


def clf(m):
    y, mo, d, h, mi, s = m.groups()[:6]
    zone = m.group(8)
    zone = b"+0000" if zone in (b"Z", b"z") else zone[:3] + zone[4:6]
    return b'"%s/%s/%s:%s:%s:%s %s"' % (d, MONTHS[int(mo) - 1], y, h, mi, s, zone) if 1 <= int(mo) <= 12 else None


def pattern(m):
    y, mo, d, h, mi, s = time.gmtime(utc_seconds(m))[:6]
    return b'"%04d-%02d-%02d %02d:%02d:%02d"' % (y, mo, d, h, mi, s)


TIME_SHAPES = {b"unix": unix, b"unix-ms": unix_ms, b"clf": clf, b"pattern": pattern}


def reshape_time(write):
    def replace(field):
        m = RFC3339.match(field.group(2))
        if not m:
            return field.group(0)
        try:
            value = write(m)
        except (ValueError, OverflowError):  # a calendar field out of range
            value = None
        return field.group(0) if value is None else b'"timestamp"' + field.group(1) + value
    return lambda line: FIELD.sub(replace, line)


def main():
    shape = sys.argv[1].encode() if len(sys.argv) == 2 else b""
    if shape == b"pointer":
        rewrite = lambda line: APP.sub(rb'"request"\1{"app_id":\2}', line)
    elif shape in TIME_SHAPES:
        rewrite = reshape_time(TIME_SHAPES[shape])
    else:
        sys.exit("usage: reshape.py pointer|unix|unix-ms|clf|pattern < corpus > reshaped")
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        out.write(rewrite(line))


if __name__ == "__main__":
    main()
