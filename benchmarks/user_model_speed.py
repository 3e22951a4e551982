"""The user-model measures in the batch path, beside the measures it already had, and beside peers.

    python benchmarks/generate.py --queries 1000 --out /tmp/ranklab-bench/1m
    python benchmarks/user_model_speed.py --data /tmp/ranklab-bench/1m

Times ``metrics.batch.evaluate_batch`` for one measure at a time on files already read (the
reading is shared by every measure, so it is left out), best of ``--repeat``; then the peers on
the same queries: cwl-eval's RBP and INST (its Python classes, as ``ir_measures`` calls them)
and ir_measures' Judged provider.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from metrics.batch import evaluate_batch
from metrics.io import read_qrels, read_run

MEASURES = ["AP", "nDCG@10", "RBP", "RBP(bound='residual')", "ERR@20", "INST", "INST@100", "Judged@10"]


def best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    data = Path(args.data)
    qrels, run = read_qrels(data / "qrels.txt"), read_run(data / "run.txt")
    print(f"{len(qrels.queries)} queries, {len(run):,} run lines")
    base = None
    for m in MEASURES:
        t = best(lambda m=m: evaluate_batch(qrels, run, m), args.repeat)
        base = base or t
        print(f"ranklab batch {m:<24} {t:8.3f} s   {t / base:5.2f} x AP")

    qd, rd = qrels.to_dict(), run.to_dict()
    from cwl.ruler.measures.cwl_inst import INSTCWLMetric
    from cwl.ruler.measures.cwl_rbp import RBPCWLMetric
    from cwl.ruler.ranking import RankingMaker
    from cwl.seeker.trec_qrel_handler import TrecQrelHandler

    handler = TrecQrelHandler()
    for q, judged in qd.items():
        for d, g in judged.items():
            handler.put_value(q, d, 1.0 if g >= 1 else 0.0)

    def cwl(metric):
        for q in qd:
            maker = RankingMaker(q, handler, None, max_n=1000)
            for d, _ in sorted(sorted(rd.get(q, {}).items(), reverse=True), key=lambda t: -t[1]):
                maker.add(d, "_")
            metric.measure(maker.get_ranking())

    for name, metric in (("RBP", RBPCWLMetric(0.8)), ("INST", INSTCWLMetric(1.0))):
        t = best(lambda metric=metric: cwl(metric), 1)
        print(f"cwl-eval classes {name:<21} {t:8.3f} s")
    import ir_measures

    provider = ir_measures.providers.registry["judged"]
    t = best(lambda: list(provider.iter_calc([ir_measures.Judged @ 10], qd, rd)), 1)
    print(f"ir_measures Judged@10            {t:8.3f} s")


if __name__ == "__main__":
    main()
