"""Reference values for lane-history's unit tests, from scipy and from the
real Apache Otava (PyPI `apache-otava`).

Run: .tools/venv/bin/python crates/lane-history/tests/history/reference.py
(the venv: python3 -m venv .tools/venv && .tools/venv/bin/pip install
numpy scipy apache-otava). It prints the scipy values the unit tests
hold and writes otava-reference.json beside this file: Otava's change
points on fixed series, which `edivisive`'s tests compare with.
"""
import json
import math
import os

import numpy as np
from scipy import integrate, special, stats

from otava.analysis import compute_change_points


def trigamma_inverse(x):
    # limma::trigammaInverse
    y = 0.5 + 1.0 / x
    for _ in range(50):
        tri = special.polygamma(1, y)
        dif = tri * (1 - tri / x) / special.polygamma(2, y)
        y = y + dif
        if -dif / y < 1e-8:
            break
    return y


def fit_f_dist(s2, d):
    # limma::fitFDist, no covariate
    s2 = np.maximum(np.asarray(s2, float), 0)
    m = np.median(s2)
    m = 1.0 if m == 0 else m
    s2 = np.maximum(s2, 1e-5 * m)
    e = np.log(s2) - special.digamma(d / 2) + np.log(d / 2)
    emean = e.mean()
    evar = e.var(ddof=1) - np.mean(special.polygamma(1, d / 2))
    if evar > 0:
        d0 = 2 * trigamma_inverse(evar)
        s0 = math.exp(emean + special.digamma(d0 / 2) - math.log(d0 / 2))
        return d0, s0
    return math.inf, math.exp(emean)


def fit_f_dist_trend(s2, d, cov, trend_p=0.01):
    # limma::fitFDist with a covariate, a polynomial basis in place of ns()
    s2 = np.maximum(np.asarray(s2, float), 0); d = np.asarray(d, float); cov = np.asarray(cov, float)
    n = len(s2)
    m = np.median(s2); m = 1.0 if m == 0 else m
    e = np.log(np.maximum(s2, 1e-5 * m)) - special.digamma(d / 2) + np.log(d / 2)
    terms = min(1 + (n >= 3) + (n >= 6) + (n >= 30), len(set(cov)))
    z = (cov - cov.mean()) / cov.std(ddof=1)
    X = np.vander(z, terms, increasing=True)
    fit = X @ np.linalg.lstsq(X, e, rcond=None)[0]
    rank = terms
    rss0 = ((e - e.mean()) ** 2).sum(); rss1 = ((e - fit) ** 2).sum()
    if rank > 1:
        f = ((rss0 - rss1) / (rank - 1)) / (rss1 / (n - rank))
        if stats.f.sf(f, rank - 1, n - rank) >= trend_p:
            fit = np.full(n, e.mean()); rank = 1
    rss = ((e - fit) ** 2).sum()
    evar = rss / (n - rank) - np.mean(special.polygamma(1, d / 2))
    if evar > 0:
        d0 = 2 * trigamma_inverse(evar)
        return d0, np.exp(fit + special.digamma(d0 / 2) - math.log(d0 / 2)), rank
    return math.inf, np.exp(fit), rank

def median_var_factor(k):
    # Var(median of k standard normals), exact by numerical integration
    if k % 2 == 1:
        r = (k + 1) // 2
        coef = math.factorial(k) / (math.factorial(r - 1) * math.factorial(k - r))
        f = lambda x: x * x * coef * stats.norm.cdf(x) ** (r - 1) * stats.norm.sf(x) ** (k - r) * stats.norm.pdf(x)
        return integrate.quad(f, -12, 12, epsabs=1e-13)[0]
    # even: the mean of the two middle order statistics, by simulation-free
    # double integral of their joint density
    r = k // 2
    coef = math.factorial(k) / (math.factorial(r - 1) * math.factorial(k - r - 1))
    f = lambda y, x: ((x + y) / 2) ** 2 * coef * stats.norm.cdf(x) ** (r - 1) * stats.norm.sf(y) ** (k - r - 1) * stats.norm.pdf(x) * stats.norm.pdf(y)
    return integrate.dblquad(f, -10, 10, lambda x: x, lambda x: 10, epsabs=1e-11)[0]


print("polygamma(1|2, x):")
for x in [0.1, 0.5, 1.0, 2.5, 10.0, 1000.0]:
    print(f"  ({x!r}, {float(special.polygamma(1, x))!r}, {float(special.polygamma(2, x))!r}),")
s2 = [0.002, 0.020, 0.015, 0.090, 0.004, 0.060, 0.012, 0.045]
d0, s0 = fit_f_dist(s2, np.full(8, 4.0))
print(f"squeezeVar example: d0 = {d0!r}, s0^2 = {s0!r}")
trend_cov = [4.5, 4.4, 3.4, 2.7, 2.3, 1.7, 0.9, 0.2, -0.5, -0.8, -1.5, -4.2, -5.8, -7.4]
trend_s2 = [8e-5, 1.3e-5, 1.5e-3, 2.0e-3, 4.1e-3, 5.3e-4, 6.1e-4, 3.2e-3, 1.3e-2, 3.1e-2, 2.7e-4, 0.19, 4.1e-3, 0.2]
d0, s0, rank = fit_f_dist_trend(trend_s2, np.full(14, 2.0), trend_cov)
print(f"squeezeVar trend example: d0 = {d0!r}, terms {rank}, s0^2 = {[float(x) for x in s0]!r}")
print(f"t.sf(2, 5) = {float(stats.t.sf(2.0, 5))!r}, t.ppf(.95, 10) = {float(stats.t.ppf(0.95, 10))!r}")
print(f"ttest_ind_from_stats(10, 1, 5, 12, 1.5, 4) p = {stats.ttest_ind_from_stats(10, 1, 5, 12, 1.5, 4).pvalue.item()!r}")
print("Var(median of k normals):", {k: round(median_var_factor(k), 6) for k in [3, 4, 5]})

# Otava on fixed series: a step, two steps, noise only, a single outlier,
# a short lane-sized series, and a slow drift.
rng = np.random.default_rng(2014)
series = {
    "step": [100 + (0 if i < 20 else 12) + rng.normal(0, 2) for i in range(40)],
    "two_steps": [50 + (0 if i < 15 else 6 if i < 30 else -4) + rng.normal(0, 1) for i in range(45)],
    "noise": [10 + rng.normal(0, 0.5) for i in range(30)],
    "outlier": [20 + rng.normal(0, 0.3) + (6 if i == 12 else 0) for i in range(25)],
    "lane_sized": [4.6 + (0 if i < 6 else 0.2) + rng.normal(0, 0.03) for i in range(12)],
    "drift": [30 + 0.3 * i + rng.normal(0, 0.5) for i in range(60)],
    "long_windowed": [7 + (0 if i < 70 else 1.5) + rng.normal(0, 0.4) for i in range(120)],
}
cases = []
for name, values in series.items():
    for window, p in [(50, 0.001), (30, 0.01)]:
        cps, _ = compute_change_points(list(values), window_len=window, max_pvalue=p)
        cases.append({
            "name": name,
            "window_len": window,
            "max_pvalue": p,
            "values": [float(v) for v in values],
            "change_points": [int(c.index) for c in cps],
            "pvalues": [float(c.stats.pvalue) for c in cps],
        })
out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "otava-reference.json")
with open(out, "w") as f:
    json.dump({"otava": "apache-otava 0.8.0 (otava.analysis.compute_change_points)", "cases": cases}, f, indent=1)
    f.write("\n")
print("wrote", out, [(c["name"], c["window_len"], c["change_points"]) for c in cases])
