"""`ranklab compare` with many systems: wall time and peak memory of the command.

    python benchmarks/compare_speed.py [--systems 100] [--topics 50] [--tree PATH ...] [--baseline]

Writes a seeded collection (``--topics`` topics, 40 judged documents each, grades 0-2; each
system retrieves 100 documents per topic) into a temporary folder, then runs
``python -m metrics compare QRELS RUN... -m AP`` once per ``--tree`` (a checkout's root, put on
PYTHONPATH; default: this one), one after the other, and prints wall time, peak RSS
(``/usr/bin/time``) and the load average before and after each.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent


def collection(folder: Path, systems: int, topics: int, seed: int = 1) -> list[str]:
    rng = np.random.default_rng(seed)
    with open(folder / "qrels.txt", "w") as f:
        for t in range(topics):
            for d in rng.choice(500, 40, replace=False):
                f.write(f"t{t} 0 d{d} {int(rng.integers(0, 3))}\n")
    runs = []
    for s in range(systems):
        path = folder / f"s{s:04d}.txt"
        with open(path, "w") as f:
            for t in range(topics):
                docs = rng.choice(500, 100, replace=False)
                f.write("".join(f"t{t} Q0 d{d} {r + 1} {100 - r} s{s}\n" for r, d in enumerate(docs)))
        runs.append(str(path))
    return runs


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--systems", type=int, default=100)
    parser.add_argument("--topics", type=int, default=50)
    parser.add_argument("--tree", action="append", help="a checkout to run (default: this one)")
    parser.add_argument("--baseline", action="store_true", help="test each system against the first only")
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        runs = collection(folder, args.systems, args.topics)
        extra = ["--baseline", "s0000"] if args.baseline else []
        print(f"{args.systems} systems x {args.topics} topics, -m AP{' --baseline' if args.baseline else ''}")
        for tree in args.tree or [str(ROOT)]:
            env = dict(os.environ, PYTHONPATH=tree)
            before = os.getloadavg()[0]
            start = time.perf_counter()
            try:
                done = subprocess.run(["/usr/bin/time", "-f", "%M", sys.executable, "-m", "metrics", "compare",
                                       str(folder / "qrels.txt"), *runs, "-m", "AP", *extra], env=env,
                                      capture_output=True, text=True, timeout=args.timeout)
            except subprocess.TimeoutExpired:
                print(f"| {tree} | killed after {args.timeout:.0f} s | - | load {before:.1f} |")
                continue
            seconds = time.perf_counter() - start
            peak = int(done.stderr.strip().splitlines()[-1]) / 1024 if done.stderr.strip() else float("nan")
            status = "ok" if done.returncode == 0 else f"exit {done.returncode}: {done.stderr.splitlines()[0][:120]}"
            print(f"| {tree} | {seconds:.1f} s | {peak:.0f} MB | load {before:.1f} -> {os.getloadavg()[0]:.1f} | "
                  f"{status} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
