"""Cross-check every measure pytrec_eval computes, on random and crafted queries.

pytrec_eval (pytrec-eval-terrier = trec_eval 9.0.8) is the independent oracle: no
per-query difference above 1e-9 is allowed.
"""

from __future__ import annotations

import random

import pytest

import metrics

pytrec_eval = pytest.importorskip("pytrec_eval")

# Ranklab measure -> pytrec_eval measure name
PAIRS = {
    "P@1": "P_1", "P@5": "P_5", "P@10": "P_10", "P@30": "P_30",
    "R@5": "recall_5", "R@20": "recall_20",
    "P": "set_P", "R": "set_recall", "F1": "set_F",
    "Success@1": "success_1", "Success@5": "success_5", "Success@10": "success_10",
    "RR": "recip_rank",
    "AP": "map", "AP@5": "map_cut_5", "AP@20": "map_cut_20",
    "nDCG": "ndcg", "nDCG@5": "ndcg_cut_5", "nDCG@10": "ndcg_cut_10", "nDCG@100": "ndcg_cut_100",
    "Rprec": "Rprec", "Bpref": "bpref",
    "IPrec@0.0": "iprec_at_recall_0.00", "IPrec@0.1": "iprec_at_recall_0.10",
    "IPrec@0.3": "iprec_at_recall_0.30", "IPrec@0.5": "iprec_at_recall_0.50",
    "IPrec@0.7": "iprec_at_recall_0.70", "IPrec@1.0": "iprec_at_recall_1.00",
    "11pt": "11pt_avg",
    "NumRet": "num_ret", "NumRel": "num_rel", "NumRelRet": "num_rel_ret",
}


def random_query(rng: random.Random):
    """A run with score ties, unjudged documents, -1 labels and judged-but-unretrieved docs."""
    pool = [f"d{i:03d}" for i in range(rng.randint(1, 40))]
    judged = rng.sample(pool, rng.randint(0, len(pool)))
    grades = {d: rng.choice([-1, 0, 0, 1, 1, 2, 3, 4]) for d in judged}
    retrieved = rng.sample(pool, rng.randint(1, len(pool)))
    levels = rng.choice([[1.0], [1.0, 2.0, 3.0], [0.5, 1.0, 1.5, 2.0], [float(i) for i in range(50)]])
    run = {d: rng.choice(levels) for d in retrieved}
    return grades, run


def oracle(qrels, run, names, rel=1):
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(names), relevance_level=rel)
    return evaluator.evaluate(run)


def binary_rel(m, rel):
    return m.with_params(rel=rel) if m.family.params.get("rel") == 1 else m


def compare(qrels, run, rel=1, pairs=PAIRS):
    expected = oracle(qrels, run, pairs.values(), rel)
    # -l applies to binary measures only; trec_eval's nDCG ignores it
    ms = [binary_rel(metrics.parse(m), rel) for m in pairs]
    got = metrics.evaluate(qrels, run, ms)
    assert set(got.per_query) == set(expected)
    bad = []
    for qid, values in expected.items():
        for ours, theirs in zip(ms, pairs.values(), strict=True):
            a, b = got.per_query[qid][str(ours)], values[theirs]
            if abs(a - b) > 1e-9:
                bad.append((qid, str(ours), a, b))
    assert not bad, bad[:10]


@pytest.mark.parametrize("rel", [1, 2])
def test_random_queries_agree_with_pytrec_eval(rel):
    rng = random.Random(20261122 + rel)
    qrels, run = {}, {}
    for i in range(600):
        grades, ranking = random_query(rng)
        qrels[f"q{i}"], run[f"q{i}"] = grades, ranking
    # keep only queries pytrec_eval evaluates: judged (non-empty qrels) and in the run
    qrels = {q: g for q, g in qrels.items() if g}
    compare(qrels, run, rel)


def test_crafted_edge_cases_agree_with_pytrec_eval():
    qrels = {
        "nothing_relevant": {"a": 0, "b": 0},
        "only_minus_one": {"a": -1, "b": -1, "c": 1},
        "all_ties": {"a": 1, "c": 2, "e": 1},
        "relevant_unretrieved": {"zz": 3, "yy": 2, "a": 1},
        "one_doc": {"a": 1},
        "long": {f"d{i}": (i % 3) for i in range(0, 300, 7)},
    }
    run = {
        "nothing_relevant": {"a": 1.0, "b": 0.5, "c": 0.2},
        "only_minus_one": {"a": 3.0, "b": 2.0, "c": 1.0, "d": 0.0},
        "all_ties": {d: 1.0 for d in "abcdef"},
        "relevant_unretrieved": {"a": 0.1, "b": 0.2},
        "one_doc": {"a": -5.0},
        "long": {f"d{i}": float(i % 17) for i in range(300)},
    }
    compare(qrels, run)
    compare(qrels, run, rel=2)
