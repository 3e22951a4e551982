"""How long `metrics.explain` takes for every measure on one 1,000-item ranking.

Run: .venv/bin/python benchmarks/explain_speed.py
Target (issue 2): every measure, explained once each, in <= 20 ms in total.
"""

from __future__ import annotations

import random
import statistics
import time

import metrics

MEASURES = [
    "P@10", "R@100", "F1@10", "Success@10", "RR", "RR@10", "AP", "AP@100", "CG@10", "DCG@10",
    "IDCG@10", "nDCG", "nDCG@10", "Rprec", "Bpref", "IPrec@0.5", "11pt", "NumRet", "NumRel", "NumRelRet",
]


def main(n: int = 1000, repeats: int = 30) -> None:
    rng = random.Random(1)
    ranking = [f"doc{i}" for i in range(n)]
    judgments = {d: rng.choice([0, 0, 0, 1, 2, 3]) for d in rng.sample(ranking, n // 2)}
    judgments.update({f"extra{i}": 2 for i in range(20)})
    cases = {
        "explain() once per measure": lambda: [metrics.explain(m, ranking, judgments) for m in MEASURES],
        "explain_many() (inputs validated once)": lambda: metrics.explain_many(MEASURES, ranking, judgments),
        "explain() + every .steps record": lambda: [metrics.explain(m, ranking, judgments).steps for m in MEASURES],
    }
    for name, run in cases.items():
        totals = []
        for _ in range(repeats):
            start = time.perf_counter()
            run()
            totals.append(time.perf_counter() - start)
        print(f"{name:42s} {len(MEASURES)} measures, {n} items: p50 {statistics.median(totals) * 1000:6.1f} ms, "
              f"min {min(totals) * 1000:6.1f} ms ({repeats} runs)")


if __name__ == "__main__":
    main()
