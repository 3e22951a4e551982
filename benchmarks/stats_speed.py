"""Ranklab's numpy statistics against SciPy's, side by side, as ratios (`make bench` runs it).

    python benchmarks/stats_speed.py [--topics 250] [--systems 5] [--repeat 3]

Each row times one task both ways on the same generated per-topic scores (seeded) and checks that
the answers agree (p-values to 1e-9; the bootstrap to 1e-12 with the same draws). Best of
``--repeat`` runs; the machine is shared, so read the ratios, not the seconds.
"""

from __future__ import annotations

import argparse
import itertools
import os
import time

import numpy as np
from scipy import stats

from metrics import stats as ours


def best(fn, repeat: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - start)
    return min(times), out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--topics", type=int, default=250)
    parser.add_argument("--systems", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    x = rng.random((args.topics, args.systems)) * 0.3 + rng.random((args.topics, 1)) * 0.7
    pairs = list(itertools.combinations(range(args.systems), 2))
    rows = []

    def ttests(lib):
        if lib == "ours":
            return [ours.paired_t_test(x[:, i], x[:, j]).p_value for i, j in pairs]
        return [stats.ttest_rel(x[:, j], x[:, i]).pvalue for i, j in pairs]

    def wilcoxons(lib):
        if lib == "ours":
            return [ours.wilcoxon_test(x[:, i], x[:, j]).p_value for i, j in pairs]
        return [stats.wilcoxon(x[:, j], x[:, i]).pvalue for i, j in pairs]

    def boots(lib):
        if lib == "ours":
            return [ours.bootstrap_ci(x[:, i], resamples=10_000, seed=1) for i in range(args.systems)]
        return [tuple(stats.bootstrap((x[:, i],), np.mean, n_resamples=10_000, method="percentile",
                                      rng=np.random.default_rng(1)).confidence_interval)
                for i in range(args.systems)]

    def tukeys(lib):
        if lib == "ours":
            return list(ours.tukey_hsd(x, design="independent").p_values)
        p = stats.tukey_hsd(*x.T).pvalue
        return [p[i, j] for i, j in pairs]

    for name, task, tol in (("paired t-test, every pair", ttests, 1e-9), ("Wilcoxon, every pair", wilcoxons, 1e-9),
                            ("percentile bootstrap, 10,000, each system", boots, 1e-12),
                            ("Tukey HSD (one-way), all pairs", tukeys, 1e-9)):
        t_ours, a = best(lambda task=task: task("ours"), args.repeat)
        t_scipy, b = best(lambda task=task: task("scipy"), args.repeat)
        agree = np.allclose(np.array(a, dtype=float), np.array(b, dtype=float), rtol=0, atol=tol)
        rows.append((name, t_ours, t_scipy, agree))
    print(f"{args.topics} topics x {args.systems} systems ({len(pairs)} pairs); best of {args.repeat}; "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'task':<44} {'ranklab s':>10} {'scipy s':>10} {'ratio':>7}  agree")
    for name, a, b, agree in rows:
        print(f"{name:<44} {a:>10.4f} {b:>10.4f} {a / b:>7.2f}  {'yes' if agree else 'NO'}")


if __name__ == "__main__":
    main()
