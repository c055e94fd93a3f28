"""The real Apache Otava over method-eval's simulated series.

Input: a CSV of `setting,delta,lane,series,v0,...,vN` (one series' lane
means, the new lane last). Output: `setting,delta,lane,series` for each
series where Otava's `compute_change_points` (its defaults: window 50,
p 0.001, min magnitude 0) places a change point at the new lane going up.
Run by `method-eval --otava PYTHON` (PYTHON with apache-otava installed).
"""
import sys

from otava.analysis import compute_change_points

with open(sys.argv[1]) as f:
    for line in f:
        fields = line.strip().split(",")
        if len(fields) < 6:
            continue
        key, values = fields[:4], [float(v) for v in fields[4:]]
        last = len(values) - 1
        cps, _ = compute_change_points(values, window_len=50, max_pvalue=0.001)
        if any(c.index == last and c.stats.mean_2 > c.stats.mean_1 for c in cps):
            print(",".join(key))
