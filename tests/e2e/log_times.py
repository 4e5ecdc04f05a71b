"""RFC 3339 times for the end-to-end tests' generated lines (state_test.py, follow_test.py)."""

import time


def second_of(t):
    """The Unix second `t` as the reports print it: YYYY-MM-DDThh:mm:ssZ."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t))


def stamp(rng, t):
    """An RFC 3339 time for the Unix second `t`: Z or an offset, with or without a fraction."""
    fraction = rng.choice(["", "", ".5", ".123", ".999999999"])
    offset = rng.choice([0, 0, 0, 3600, -5 * 3600 - 1800])
    if offset == 0:
        zone = rng.choice(["Z", "Z", "+00:00"])
    else:
        zone = ("+" if offset > 0 else "-") + time.strftime("%H:%M", time.gmtime(abs(offset)))
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(t + offset)) + fraction + zone
