"""How long `ranklab diagnose`'s search takes, against one pytrec_eval evaluation of the same run.

    python benchmarks/diagnose_speed.py [--queries 3000] [--depth 100]

A seeded random collection (20 judged documents per query, grades 0-3, scores rounded to 3
decimals so that some tie, ten judged queries missing from the run). Three searches on it:
"their" nDCG@10 made by pytrec_eval with the exponential gain (grades replaced by 2^g - 1) and
-c (found after the pairs), their numbers rounded to 4 decimals per query (found after one
change), and an aggregate nothing reproduces (the whole bounded search). The reference is one
pytrec_eval evaluation of nDCG@10 on the same dicts: a search costs so many evaluations.
"""

from __future__ import annotations

import argparse
import os
import time

import numpy as np
import pytrec_eval

from metrics.io.theirs import Number, Theirs
from metrics.teaching import diagnose as dg


def collection(queries: int, depth: int, seed: int = 11):
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for i in range(queries):
        q = f"q{i}"
        qrels[q] = {f"d{j}": int(rng.integers(0, 4)) for j in rng.choice(5 * depth, 20, replace=False)}
        docs = rng.choice(5 * depth, depth, replace=False)
        run[q] = {f"d{j}": round(float(s), 3) for j, s in zip(docs, rng.random(depth), strict=True)}
    for i in range(queries, queries + 10):
        qrels[f"q{i}"] = {"d1": 1}
    return qrels, run


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=3000)
    parser.add_argument("--depth", type=int, default=100)
    args = parser.parse_args(argv)
    qrels, run = collection(args.queries, args.depth)
    print(f"{args.queries:,} queries x {args.depth} documents, load average {os.getloadavg()[0]:.2f}")
    remapped = {q: {d: 2 ** g - 1 for d, g in docs.items()} for q, docs in qrels.items()}
    evaluator = pytrec_eval.RelevanceEvaluator(remapped, {"ndcg_cut_10"})
    res, reference = timed(lambda: evaluator.evaluate(run))
    exp = {q: v["ndcg_cut_10"] for q, v in res.items()}
    prepared, t_prepare = timed(lambda: dg.prepare(qrels, run))
    cases = {
        "exponential gain and -c (aggregate)": Theirs(aggregate=Number(sum(exp.values()) / len(qrels), "x", 1e-9)),
        "exponential gain, 4 decimals per query": Theirs({q: Number(round(v, 4), f"{v:.4f}", 5e-5)
                                                          for q, v in exp.items()}),
        "nothing reproduces (aggregate 0.123)": Theirs(aggregate=Number(0.123, "0.123", 5e-4)),
    }
    print(f"| search | sets evaluated | seconds | / one pytrec_eval evaluation ({reference:.2f} s) |")
    print("|---|---|---|---|")
    print(f"| prepare (read the run once) | - | {t_prepare:.2f} | {t_prepare / reference:.1f} |")
    for name, theirs in cases.items():
        prepared.batches.clear()
        d, seconds = timed(lambda t=theirs: dg.diagnose(None, None, "nDCG@10", theirs=t, prepared=prepared))
        found = ", ".join(map(str, d.changes)) or "defaults"
        print(f"| {name}: {'found ' + found if d.matched else 'closest ' + found} | {d.evaluations} | "
              f"{seconds:.2f} | {seconds / reference:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
