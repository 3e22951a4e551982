"""`ranklab evaluate --stream --threads N` at several N, beside pytrec_eval and the pyarrow parse
of the run alone (the floor), as whole processes, one after the other in one invocation.

    python benchmarks/generate.py --queries 2000 --depth 1000 --out /tmp/ranklab-bench/2m
    python benchmarks/thread_speed.py --data /tmp/ranklab-bench/2m --threads 1,2 [--repeat 2]

The floor is ``pyarrow.csv.read_csv`` of the run (space-separated, six columns, its own
threads), nothing else. Ranklab evaluates P@10, R@100, RR@10, AP and nDCG@10 per query and
writes JSON (as benchmarks/evaluate_speed.py); pytrec_eval is that script's worker. Wall time,
CPU time and peak RSS come from wait4; the load average is printed before and after.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MEASURES = ["P@10", "R@100", "RR@10", "AP", "nDCG@10"]
FLOOR = ("import sys, pyarrow.csv as c; c.read_csv(sys.argv[1], read_options=c.ReadOptions(autogenerate_column_names="
         "True), parse_options=c.ParseOptions(delimiter=' '))")


def timed(cmd: list[str]) -> dict:
    start = time.perf_counter()
    cwd = ROOT if cmd[0] != "env" else "/"
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=cwd)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    err = proc.stderr.read().decode(errors="replace")
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"{cmd[:5]} failed:\n{err}")
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime, "rss_mb": usage.ru_maxrss / 1024}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="folder with qrels.txt and run.txt")
    parser.add_argument("--threads", default="1,2", help="comma-separated thread counts (default 1,2)")
    parser.add_argument("--repeat", type=int, default=1, help="rounds, each tool once per round, in turn")
    parser.add_argument("--no-pytrec", action="store_true")
    parser.add_argument("--before", metavar="TREE", help="another checkout (without --threads) to run beside")
    args = parser.parse_args(argv)
    qrels, run = str(args.data / "qrels.txt"), str(args.data / "run.txt")
    py = sys.executable
    tools = {"pyarrow parse (floor)": [py, "-c", FLOOR, run]}
    for n in (int(t) for t in args.threads.split(",")):
        cmd = [py, "-m", "metrics", "evaluate", qrels, run, "-q", "--format", "json", "--stream", "--threads", str(n)]
        for m in MEASURES:
            cmd += ["-m", m]
        tools[f"ranklab --threads {n}"] = cmd
    if args.before:
        cmd = ["env", f"PYTHONPATH={args.before}", py, "-m", "metrics", "evaluate", qrels, run, "-q", "--format",
               "json", "--stream"]
        for m in MEASURES:
            cmd += ["-m", m]
        tools[f"ranklab before ({Path(args.before).name})"] = cmd
    if not args.no_pytrec:
        tools["pytrec_eval"] = [py, str(ROOT / "benchmarks" / "evaluate_speed.py"), "--worker", "pytrec_eval",
                                qrels, run, os.devnull]
    # each tree's bytecode written first, as `pip install` does: a process that finds none
    # compiles every module it imports on each start (and writes none where
    # PYTHONDONTWRITEBYTECODE is set), a cost no installed tool pays
    for tree in (ROOT, *([Path(args.before)] if args.before else [])):
        subprocess.run([py, "-m", "compileall", "-q", str(tree / "metrics"), str(ROOT / "benchmarks")],
                       check=True, stdout=subprocess.DEVNULL)
    lines = sum(1 for _ in open(run, "rb"))
    before = os.getloadavg()[0]
    times: dict[str, list[dict]] = {name: [] for name in tools}
    for _ in range(args.repeat):
        for name, cmd in tools.items():
            times[name].append(timed(cmd))
    after = os.getloadavg()[0]
    floor = min(t["wall"] for t in times["pyarrow parse (floor)"])
    print(f"{run}: {lines:,} lines; {os.cpu_count()} cores; load average {before:.2f} before, {after:.2f} after; "
          f"best of {args.repeat}\n")
    print("| tool | wall (s) | CPU (s) | peak RSS (MB) | wall / floor |")
    print("|---|---|---|---|---|")
    for name, runs in times.items():
        best = min(runs, key=lambda r: r["wall"])
        print(f"| {name} | {best['wall']:.2f} | {best['cpu']:.2f} | {best['rss_mb']:.0f} | {best['wall'] / floor:.2f}x |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
