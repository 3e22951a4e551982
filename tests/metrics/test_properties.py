"""Invariants on random inputs (hypothesis), and agreement with scikit-learn's conventions."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import metrics
from metrics.explain import num
from tests.strength import scaled

FAMILIES_WITH_CUTOFF = ["P", "R", "F1", "Success", "RR", "AP", "CG", "DCG", "IDCG", "nDCG",
                        "NumRet", "NumRelRet"]
PARAMS = {
    "AP": ["", "(denominator='retrieved')", "(denominator='min(k,R)')", "(rel=2)"],
    "nDCG": ["", "(dcg='exp-log2')", "(dcg='jarvelin')", "(ideal='ranking')", "(rel=2)",
             "(dcg='exp-log2',ideal='ranking')"],
    "DCG": ["", "(dcg='exp-log2')", "(dcg='jarvelin')"],
    "IDCG": ["", "(ideal='ranking')", "(dcg='jarvelin')"],
    "P": ["", "(rel=2)"], "R": ["", "(rel=3)"],
}

docs = st.lists(st.sampled_from([f"d{i}" for i in range(25)]), unique=True, max_size=25)


@st.composite
def examples(draw):
    ranking = draw(docs)
    pool = sorted(set(ranking) | set(draw(docs)))
    judged = draw(st.lists(st.sampled_from(pool), unique=True)) if pool else []
    judgments = {d: draw(st.integers(-1, 4)) for d in judged}
    return ranking, judgments


@st.composite
def measures(draw):
    name = draw(st.sampled_from(FAMILIES_WITH_CUTOFF + ["Rprec", "Bpref", "11pt", "IPrec", "NumRel"]))
    text = name + draw(st.sampled_from(PARAMS.get(name, [""])))
    if name == "IPrec":
        return text + "@" + draw(st.sampled_from(["0.0", "0.1", "0.5", "0.7", "1.0"]))
    if name in FAMILIES_WITH_CUTOFF and draw(st.booleans()):
        text += f"@{draw(st.integers(1, 30))}"
    return text


@settings(max_examples=scaled(400), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(examples(), measures())
def test_explain_agrees_with_score_and_its_formula_ends_in_the_value(example, measure):
    ranking, judgments = example
    e = metrics.explain(measure, ranking, judgments)
    assert e.value == metrics.score(measure, ranking, judgments)
    assert e.measure == str(metrics.parse(measure))
    assert num(e.value) in e.formula.rsplit("=", 1)[-1] or e.value == 0
    m = metrics.parse(measure)
    if m.family.normalised:
        assert 0.0 <= e.value <= 1.0 + 1e-12
    assert len(e.steps) == len(e.columns["rank"]) <= len(ranking)
    assert not any(isinstance(v, float) and math.isnan(v) for s in e.steps for v in s.values.values())


@settings(max_examples=scaled(300), deadline=None)
@given(examples(), st.integers(1, 30), st.sampled_from([1, 2, 3]))
def test_precision_times_k_is_hits(example, k, rel):
    ranking, judgments = example
    e = metrics.explain(f"P(rel={rel})@{k}", ranking, judgments)
    hits = sum(1 for d in ranking[:k] if judgments.get(d, -9) >= rel)
    assert e.value * k == pytest.approx(hits)
    assert e.summary["hits"] == hits


@settings(max_examples=scaled(300), deadline=None)
@given(examples(), st.sampled_from(["log2", "exp-log2", "jarvelin"]), st.integers(1, 30) | st.none())
def test_ndcg_is_one_for_the_ideal_order(example, dcg, k):
    _, judgments = example
    ideal = sorted(judgments, key=lambda d: -judgments[d])
    cut = "" if k is None else f"@{k}"
    value = metrics.score(f"nDCG(dcg='{dcg}'){cut}", ideal, judgments)
    if any(g > 0 for g in judgments.values()):
        assert value == pytest.approx(1.0)
    else:
        assert value == 0.0


@settings(max_examples=scaled(300), deadline=None)
@given(examples())
def test_average_precision_bounds_and_denominator_order(example):
    ranking, judgments = example
    by_r = metrics.score("AP", ranking, judgments)
    by_retrieved = metrics.score("AP(denominator='retrieved')", ranking, judgments)
    assert 0.0 <= by_r <= by_retrieved <= 1.0  # relevant retrieved <= R


# ------------------------------------------------------------------ scikit-learn preset

sklearn_metrics = pytest.importorskip("sklearn.metrics")


def test_sklearn_preset_agrees_with_sklearn_on_random_lists():
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(300):
        n = int(rng.integers(2, 30))
        grades = rng.integers(0, 5, size=n)
        scores = rng.permutation(n).astype(float)  # distinct scores: sklearn's tie averaging not involved
        ids = [f"d{i}" for i in range(n)]
        run = dict(zip(ids, scores, strict=True))
        judgments = dict(zip(ids, grades.tolist(), strict=True))
        k = int(rng.integers(1, n + 1))
        ndcg = metrics.score(metrics.conventions.apply("sklearn", f"nDCG@{k}"), run, judgments)
        if grades.any():
            expected = sklearn_metrics.ndcg_score([grades], [scores], k=k)
            assert ndcg == pytest.approx(expected, abs=1e-9)
        binary = (grades >= 1).astype(int)
        if 0 < binary.sum() < n:
            ap = metrics.score(metrics.conventions.apply("sklearn", "AP"), run, judgments)
            assert ap == pytest.approx(sklearn_metrics.average_precision_score(binary, scores), abs=1e-9)
            checked += 1
    assert checked > 200
