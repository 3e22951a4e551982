"""``metrics.score`` on one ranking of 1,000,000 scored items (a dict of float scores).

    python benchmarks/score_speed.py [--items 1000000] [--judged 1000] [--rounds 3]

Run it with PYTHONPATH on two trees to compare them on the same machine, one after the other.
Prints the best and the median of ``--rounds`` for nDCG@10 and AP, with the load average.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

import numpy as np

import metrics


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--items", type=int, default=1_000_000)
    parser.add_argument("--judged", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(0)
    ranking = {f"d{i}": float(s) for i, s in enumerate(rng.random(args.items))}
    judged = {f"d{i}": int(g) for i, g in zip(rng.choice(args.items, args.judged, replace=False).tolist(),
                                              rng.integers(0, 4, args.judged).tolist(), strict=True)}
    print(f"{args.items:,} items, {args.judged:,} judged; load average {os.getloadavg()[0]:.2f}")
    for measure in ("nDCG@10", "AP"):
        times = []
        for _ in range(args.rounds):
            start = time.perf_counter()
            metrics.score(measure, ranking, judged)
            times.append(time.perf_counter() - start)
        print(f"| {measure} | {min(times):.2f} s | {statistics.median(times):.2f} s |")
    print(f"load average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
