#!/usr/bin/env python3
"""Redoes the fit behind the Minh-Wolters generator's defaults (docs/workload-models.md).

[Minh10] prints none of its fitted parameters. The defaults of src/workload/minh_wolters.rs come from the paper's
own procedure applied to the HPC2N excerpt in tests/data/hpc2n.swf:
  - jobs that finished successfully (status 1), as [Minh10] section III;
  - BoTs by the rule of section II-C (delta = 100 s from the previous job, six equal attributes, contiguous);
    maximum-likelihood Zipf exponent over sizes 1..5000 (section VI-C);
  - EM fits of Gaussian mixtures to log2(runtime in s), runtimes under 1 s read as 1 s, G = 1..6 with BIC
    (section VI-A; G = 2 taken, see the doc).
Pure Python, no dependencies; deterministic. Usage: python3 scripts/fit_minh_wolters_defaults.py
"""
import math
import random
import sys

PATH = sys.argv[1] if len(sys.argv) > 1 else "tests/data/hpc2n.swf"
DELTA = 100.0
ZIPF_N = 5000
SIGMA_FLOOR = 0.5

jobs = []
for line in open(PATH):
    if line.startswith(";") or not line.strip():
        continue
    f = line.split()
    if len(f) < 18 or int(f[10]) != 1:
        continue
    submit, run = float(f[1]), float(f[3])
    if submit < 0 or run < 0:
        continue
    # user, group, queue, executable, requested time, requested processors
    jobs.append((submit, run, (f[11], f[12], f[14], f[13], f[8], f[7])))
jobs.sort(key=lambda j: j[0])

sizes, cur = [], None
for t, _, k in jobs:
    if cur is not None and k == cur[2] and t - cur[1] <= DELTA:
        cur = (cur[0] + 1, t, k)
    else:
        if cur:
            sizes.append(cur[0])
        cur = (1, t, k)
sizes.append(cur[0])
print(f"{len(jobs)} jobs, {len(sizes)} BoTs, sizes 1..{max(sizes)}, {sizes.count(1)} of size 1")

mean_log = sum(math.log(s) for s in sizes) / len(sizes)


def score(a):
    h = sum(k ** -a for k in range(1, ZIPF_N + 1))
    g = sum(k ** -a * math.log(k) for k in range(1, ZIPF_N + 1))
    return g / h - mean_log


lo, hi = 0.0, 10.0
for _ in range(100):
    mid = (lo + hi) / 2
    lo, hi = (mid, hi) if score(mid) > 0 else (lo, mid)
print(f"Zipf MLE over 1..{ZIPF_N}: alpha = {(lo + hi) / 2:.4f}")

x = [math.log2(max(r, 1.0)) for _, r, _ in jobs]
xs, n = sorted(x), len(x)


def em(init):
    g = len(init)
    w, mu, sd = [1.0 / g] * g, list(init), [max(1.0, (xs[-1] - xs[0]) / g / 2)] * g
    old = -math.inf
    for _ in range(5000):
        ll, resp = 0.0, []
        for v in x:
            ps = [w[k] / (sd[k] * math.sqrt(2 * math.pi)) * math.exp(-0.5 * ((v - mu[k]) / sd[k]) ** 2) for k in range(g)]
            s = sum(ps)
            ll += math.log(s)
            resp.append([p / s for p in ps])
        for k in range(g):
            nk = sum(r[k] for r in resp)
            w[k] = nk / n
            mu[k] = sum(r[k] * v for r, v in zip(resp, x)) / nk
            sd[k] = max(math.sqrt(sum(r[k] * (v - mu[k]) ** 2 for r, v in zip(resp, x)) / nk), SIGMA_FLOOR)
        if abs(ll - old) < 1e-9:
            break
        old = ll
    return ll, sorted(zip(w, mu, sd), key=lambda c: c[1])


for g in range(1, 7):
    starts = [[xs[int((k + 0.5) * n / g)] for k in range(g)]]
    for trial in range(1, 4):
        random.seed(trial * 10 + g)
        starts.append(random.sample(x, g))
    ll, comps = max((em(s) for s in starts), key=lambda r: r[0])
    bic = 2 * ll - (3 * g - 1) * math.log(n)
    shown = ", ".join(f"{w:.4f} N({m:.3f}, {s:.3f})" for w, m, s in comps)
    print(f"G = {g}: log-likelihood {ll:.2f}, BIC {bic:.2f}: {shown}")
