"""The one percentile definition every bench uses (issue 18): nearest rank.

percentile(values, p) is the smallest value such that at least p % of the values are at or
below it: the ceil(p / 100 * n)-th smallest (1-based), never interpolated. With 10 values,
p50 is the 5th and p99 the 10th; with 200 values p99 is the 198th. The Java benches use the
same definition (app/src/bench/java/dev/hanwiki/Percentiles.java).
"""
import math


def percentile(values, p):
    """Nearest-rank percentile of values (any order) for p in (0, 100]; nan when empty."""
    if not values:
        return float("nan")
    s = sorted(values)
    rank = max(1, math.ceil(p / 100 * len(s)))
    return s[min(len(s), rank) - 1]
