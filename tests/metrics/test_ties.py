"""Tie-aware scoring against scikit-learn, and against every order of the tied documents.

Oracles:
- scikit-learn's ``ndcg_score``, ``dcg_score`` (both average over the orders of tied scores,
  McSherry & Najork 2008), ``average_precision_score`` and
  ``label_ranking_average_precision_score`` (a tie group is counted all at once), on 1,200
  random rows with many ties, through the sklearn preset (:mod:`metrics.conventions`).
- pytrec_eval on every order of each query's tie groups, averaged: the definition of
  ``ties='average'`` itself, computed by an independent implementation.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import pytrec_eval
from sklearn.metrics import (
    average_precision_score,
    dcg_score,
    label_ranking_average_precision_score,
    ndcg_score,
)

import metrics
from metrics.conventions import get

SKLEARN = get("sklearn")


def random_rows(seed: int, n: int = 1200):
    rng = np.random.default_rng(seed)
    for _ in range(n):
        size = int(rng.integers(1, 13))
        grades = rng.integers(0, 4, size=size)
        scores = rng.integers(0, 4, size=size) / 4  # few distinct values: many ties
        yield grades, scores


def as_inputs(grades, scores):
    docs = [f"d{i}" for i in range(len(grades))]
    return dict(zip(docs, scores.tolist(), strict=True)), dict(zip(docs, grades.tolist(), strict=True))


def preset_score(measure: str, grades, scores) -> float:
    ranking, judged = as_inputs(grades, scores)
    m = SKLEARN.apply(measure)
    return metrics.score(m, ranking, judged, ties=SKLEARN.ties_for(m))


@pytest.mark.parametrize("k", [None, 1, 3, 5])
def test_ndcg_and_dcg_match_sklearn_with_ties(k):
    checked = 0
    for grades, scores in random_rows(100 + (k or 0)):
        if len(grades) < 2:
            continue  # sklearn's ndcg_score refuses a single document
        name = "" if k is None else f"@{k}"
        expected = ndcg_score([grades], [scores], k=k)
        assert preset_score("nDCG" + name, grades, scores) == pytest.approx(expected, abs=1e-12)
        assert preset_score("DCG" + name, grades, scores) == pytest.approx(dcg_score([grades], [scores], k=k), abs=1e-12)
        checked += 1
    assert checked > 1000


@pytest.mark.parametrize("base", [10, 3.5])
def test_log_base_matches_sklearn_dcg_score(base):
    for grades, scores in random_rows(base_seed := int(base * 10)):
        expected = dcg_score([grades], [scores], k=4, log_base=base) if len(grades) > 1 else None
        if expected is None:
            continue
        ranking, judged = as_inputs(grades, scores)
        assert metrics.score(f"DCG(base={base})@4", ranking, judged, ties="average") == \
            pytest.approx(expected, abs=1e-12), base_seed
    # nDCG does not depend on the base: both DCGs scale by log2(base)
    ranking, judged = as_inputs(np.array([1, 0, 2]), np.array([0.5, 0.5, 0.1]))
    assert metrics.score("nDCG(base=10)", ranking, judged) == pytest.approx(metrics.score("nDCG", ranking, judged))


def test_average_precision_and_lrap_match_sklearn_with_ties():
    checked = 0
    for grades, scores in random_rows(7):
        binary = (grades >= 1).astype(int)
        if not binary.any():
            continue  # sklearn: no positive label, AP undefined (and LRAP 1, see below)
        ours = preset_score("AP", binary, scores)
        assert ours == pytest.approx(average_precision_score(binary, scores), abs=1e-12)
        assert ours == pytest.approx(label_ranking_average_precision_score([binary], [scores]), abs=1e-12)
        checked += 1
    assert checked > 1000


def test_lrap_rows_without_a_relevant_label():
    # sklearn's LRAP scores such a row 1; AP(empty=1) says so, the default AP says 0
    for grades, scores in random_rows(21):
        binary = (grades >= 1).astype(int)
        ranking, judged = as_inputs(binary, scores)
        ours = metrics.score("AP(denominator='retrieved',empty=1)", ranking, judged, ties="threshold")
        assert ours == pytest.approx(label_ranking_average_precision_score([binary], [scores]), abs=1e-12)
    assert metrics.score("AP", ["a"], {"a": 0}) == 0.0
    assert metrics.score("AP(empty=1)", ["a"], {"a": 0}) == 1.0


def test_the_issue_example():
    # average_precision_score([0, 1], [.5, .5]) = 0.5: both documents seen at once
    assert average_precision_score([0, 1], [0.5, 0.5]) == 0.5
    assert preset_score("AP", np.array([0, 1]), np.array([0.5, 0.5])) == 0.5
    # averaged over both orders instead: (1 + 1/2) / 2
    assert metrics.score("AP", {"a": 0.5, "b": 0.5}, {"b": 1}, ties="average") == 0.75


# --------------------------------------------------------------------------- every order, by pytrec_eval

TREC_MEASURES = {"P_1", "P_3", "recall_3", "map", "map_cut_3", "recip_rank", "ndcg", "ndcg_cut_3"}
OURS = {"P_1": "P@1", "P_3": "P@3", "recall_3": "R@3", "map": "AP", "map_cut_3": "AP@3",
        "recip_rank": "RR", "ndcg": "nDCG", "ndcg_cut_3": "nDCG@3"}


def small_queries(seed: int, n: int = 1100):
    rng = np.random.default_rng(seed)
    for i in range(n):
        size = int(rng.integers(1, 8))
        docs = [f"d{j}" for j in range(size)]
        scores = (rng.integers(0, 3, size=size)).astype(float)
        judged = {d: int(rng.choice([-1, 0, 1, 2])) for d in docs if rng.random() < 0.7}
        judged.setdefault("extra", int(rng.choice([0, 1])))  # judged, never retrieved
        yield f"q{i}", dict(zip(docs, scores.tolist(), strict=True)), judged


def orders(ranking: dict[str, float]):
    """Every ranking obtained by ordering each tie group in every way."""
    groups = [sorted(d for d in ranking if ranking[d] == s) for s in sorted(set(ranking.values()), reverse=True)]
    for choice in itertools.product(*(itertools.permutations(g) for g in groups)):
        yield [d for group in choice for d in group]


def test_average_is_the_mean_over_every_order():
    qrels, run, members = {}, {}, {}
    queries = []
    for qid, ranking, judged in small_queries(11):
        count = math.prod(math.factorial(list(ranking.values()).count(s)) for s in set(ranking.values()))
        if count > 720:
            continue
        queries.append((qid, ranking, judged))
        members[qid] = []
        for j, order in enumerate(orders(ranking)):
            key = f"{qid}_{j}"
            qrels[key] = judged
            run[key] = {d: float(len(order) - r) for r, d in enumerate(order)}  # this order exactly
            members[qid].append(key)
    assert len(queries) > 1000
    results = pytrec_eval.RelevanceEvaluator(qrels, TREC_MEASURES).evaluate(run)
    for qid, ranking, judged in queries:
        for trec, ours in OURS.items():
            mean = float(np.mean([results[k][trec] for k in members[qid]]))
            assert metrics.score(ours, ranking, judged, ties="average") == pytest.approx(mean, abs=1e-9), (qid, ours)


def test_rbp_and_judged_average_by_hand():
    # a, b tie at the top, only a relevant, b unjudged: rank 1 and 2 each relevant with chance 1/2
    e = metrics.explain("RBP(p=0.5)", {"a": 1.0, "b": 1.0, "c": 0.0}, {"a": 1, "c": 0}, ties="average")
    assert e.value == pytest.approx(0.5 * (0.5 + 0.5 * 0.5))
    assert metrics.score("Judged@1", {"a": 1.0, "b": 1.0}, {"a": 1}, ties="average") == 0.5


def test_undefined_rules_are_refused():
    with pytest.raises(ValueError, match="ties='average' is defined for"):
        metrics.score("Bpref", {"a": 1.0}, {"a": 1}, ties="average")
    with pytest.raises(ValueError, match="ties='threshold' is defined for"):
        metrics.score("P@5", {"a": 1.0}, {"a": 1}, ties="threshold")
    with pytest.raises(ValueError, match="ties must be one of"):
        metrics.score("P@5", {"a": 1.0}, {"a": 1}, ties="random")
    # a list has no scores: nothing ties, the rule changes nothing
    assert metrics.score("AP", ["b", "a"], {"a": 1}, ties="average") == 0.5
