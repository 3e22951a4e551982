"""The preference measures (``-R qrels_prefs``) beside the batch path on the same judgments.

    python benchmarks/generate.py --queries 1000 --judged 100 --out /tmp/ranklab-bench/prefs
    python benchmarks/prefs_speed.py --data /tmp/ranklab-bench/prefs

No installable tool computes trec_eval's prefs_* measures (pytrec_eval and ir_measures leave
them out), so the reference is Ranklab's own batch path on the same files read as plain qrels:
``evaluate_batch`` for bpref (the closest plain measure) and trec_eval's official set. Files
are read once (the reading is timed apart); best of ``--repeat``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from user_model_speed import best  # benchmarks/ is this script's directory

from metrics.batch import evaluate_batch, evaluate_prefs
from metrics.io import read_qrels, read_run
from metrics.io.prefs import read_qrels_prefs
from metrics.trec_args import expand


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    data = Path(args.data)
    start = time.perf_counter()
    qrels = read_qrels(data / "qrels.txt")
    t_qrels = time.perf_counter() - start
    start = time.perf_counter()
    prefs = read_qrels_prefs(data / "qrels.txt")
    t_prefs = time.perf_counter() - start
    run = read_run(data / "run.txt")
    print(f"{len(qrels.queries)} queries, {len(qrels):,} judgments, {len(run):,} run lines")
    print(f"read as qrels {t_qrels:.3f} s, as qrels_prefs {t_prefs:.3f} s")
    official = [m for m in expand("official") if m != "runid"]
    base = best(lambda: evaluate_batch(qrels, run, "bpref"), args.repeat)
    print(f"batch bpref                      {base:8.3f} s   1.00 x")
    t = best(lambda: evaluate_batch(qrels, run, official), args.repeat)
    print(f"batch official set               {t:8.3f} s   {t / base:5.2f} x")
    for measures in ("prefs_simp", "prefs_pair", "prefs_avgjg_Rnonrel", " ".join(e for e in expand("all_prefs")
                                                                           if e != "runid")):
        t = best(lambda m=measures: evaluate_prefs(prefs, run, m), args.repeat)
        name = measures if len(measures) < 30 else "all_prefs (14 + num_q)"
        print(f"evaluate_prefs {name:<18} {t:8.3f} s   {t / base:5.2f} x")


if __name__ == "__main__":
    main()
