"""The rest of trec_eval 9.0.8's measures, checked against pytrec_eval and by hand.

Oracle: pytrec_eval (pytrec-eval-terrier = trec_eval 9.0.8) for gm_map, gm_bpref, infAP,
Rprec_mult, utility, binG, G, Rndcg, ndcg_rel, relative_P, set_relative_P, set_map and
num_nonrel_judged_ret, on 1,200 random queries per relevance level (graded labels, score
ties, -1 labels, unjudged documents, judged documents never retrieved, queries with an
empty ranking), through both ``metrics.evaluate`` and the batch path. pytrec_eval cannot
take gain maps (``G.1=3.5,2=7``: it splits parameters at commas and then fails) nor
utility's coefficients (it returns 0 for any ``utility.a,b,c,d``), so those are
hand-computed below.
"""

from __future__ import annotations

import math
import random

import pytest

import metrics
from metrics.batch import evaluate_batch

from .test_pytrec_agreement import random_query

pytrec_eval = pytest.importorskip("pytrec_eval")

# Ranklab measure -> pytrec_eval measure name
PAIRS = {
    "GMAP": "gm_map", "GMBpref": "gm_bpref", "infAP": "infAP",
    "RprecMult@0.2": "Rprec_mult_0.20", "RprecMult@0.6": "Rprec_mult_0.60", "RprecMult@1": "Rprec_mult_1.00",
    "RprecMult@1.4": "Rprec_mult_1.40", "RprecMult@2": "Rprec_mult_2.00",
    "Utility": "utility", "binG": "binG", "G": "G", "Rndcg": "Rndcg", "nDCG_rel": "ndcg_rel",
    "RelP@5": "relative_P_5", "RelP@10": "relative_P_10", "RelP@100": "relative_P_100",
    "RelP": "set_relative_P", "SetAP": "set_map", "NumNonRelJudgedRet": "num_nonrel_judged_ret",
}
FAMILIES = {"gm_map", "gm_bpref", "infAP", "Rprec_mult", "utility", "binG", "G", "Rndcg", "ndcg_rel",
            "relative_P", "set_relative_P", "set_map", "num_nonrel_judged_ret"}


def random_collection(seed: int, n: int = 1200):
    rng = random.Random(seed)
    qrels, run = {}, {}
    for i in range(n):
        grades, ranking = random_query(rng)
        if rng.random() < 0.03:
            ranking = {}  # a judged query with an empty ranking
        qrels[f"q{i}"], run[f"q{i}"] = grades, ranking
    return {q: g for q, g in qrels.items() if g}, run


@pytest.mark.parametrize("rel", [1, 2])
@pytest.mark.parametrize("path", ["evaluate", "batch"])
def test_new_measures_agree_with_pytrec_eval(rel, path):
    qrels, run = random_collection(20261125 + rel)
    expected = pytrec_eval.RelevanceEvaluator(qrels, FAMILIES, relevance_level=rel).evaluate(run)
    ms = [metrics.parse(m) for m in PAIRS]
    ms = [m.with_params(rel=rel) if m.family.params.get("rel") == 1 else m for m in ms]
    if path == "batch":
        run = {q: r for q, r in run.items() if r}  # a TREC run file has no empty ranking
        expected = {q: v for q, v in expected.items() if q in run}
    got = (metrics.evaluate if path == "evaluate" else evaluate_batch)(qrels, run, ms)
    assert set(got.per_query) == set(expected)
    bad = [(q, str(m), got.per_query[q][str(m)], values[name])
           for q, values in expected.items() for m, name in zip(ms, PAIRS.values(), strict=True)
           if abs(got.per_query[q][str(m)] - values[name]) > 1e-9]
    assert not bad, bad[:10]
    # GMAP's summary is the geometric mean of AP (floored at 1e-5), as trec_eval prints it
    aps = [max(v["gm_map"], math.log(1e-5)) for v in expected.values()]
    assert got.aggregate[str(ms[0])] == pytest.approx(math.exp(sum(aps) / len(aps)), rel=1e-12)


def test_each_new_measure_explains_itself():
    """The step table and the formula come from the same kernel as the value."""
    grades = {"a": 2, "b": 0, "c": 1, "d": -1, "z": 3}
    ranking = ["a", "x", "b", "d", "c"]
    for name in PAIRS:
        e = metrics.explain(name, ranking, grades)
        assert e.value == metrics.score(name, ranking, grades)
        assert e.formula and e.definition
        assert len(e.steps) <= len(ranking)


# hand-computed cases (pytrec_eval lacks gain maps and utility's coefficients)

def test_g_by_hand():
    # ideal gains 3 (z), 2 (a), 1 (c); run a, x, c. Cost so far: max(1,3)=3, 3+2=5, 5+1=6;
    # gain so far 2, 2, 3. G = (2/log2(2+3-2) + 1/log2(2+6-3)) / (3+2+1)
    g = (2 / math.log2(3) + 1 / math.log2(5)) / 6
    assert metrics.score("G", ["a", "x", "c"], {"a": 2, "c": 1, "z": 3}) == pytest.approx(g, abs=1e-12)
    # gains 1=5: c's gain is 5, so the ideal is 5 (c), 3 (z), 2 (a); cost 5, 8, 10; so far 2, 2, 7
    g = (2 / math.log2(2 + 5 - 2) + 5 / math.log2(2 + 10 - 7)) / 10
    got = metrics.score("G(gains='1=5')", ["a", "x", "c"], {"a": 2, "c": 1, "z": 3})
    assert got == pytest.approx(g, abs=1e-12)


def test_rndcg_and_ndcg_rel_by_hand():
    grades = {"a": 2, "b": 2, "c": 1}  # ideal gains 2, 2, 1: the gain changes after ranks 2 and 3
    ranking = ["c", "x", "a", "y", "z", "b"]
    d = [1 / math.log2(2), 0, 2 / math.log2(4), 0, 0, 2 / math.log2(7)]
    dcg = [sum(d[:i]) for i in range(7)]
    idcg = [0, 2, 2 + 2 / math.log2(3), 2 + 2 / math.log2(3) + 1 / math.log2(4)]
    # R levels at 2 and 3; the list (6) goes on past rank P + 1 = 4, so also at 6 with the full ideal
    want = (dcg[2] / idcg[2] + dcg[3] / idcg[3] + dcg[6] / idcg[3]) / 3
    assert metrics.score("Rndcg", ranking, grades) == pytest.approx(want, abs=1e-12)
    # ndcg_rel: c at 1, a at 3, b at 6: DCG@i / IDCG@min(i, 3), averaged over P = 3
    want = (dcg[1] / idcg[1] + dcg[3] / idcg[3] + dcg[6] / idcg[3]) / 3
    assert metrics.score("nDCG_rel", ranking, grades) == pytest.approx(want, abs=1e-12)
    # with gains 1=0 the ideal is 2, 2: c gains nothing; level changes only at 2
    want = (dcg[2] - d[0]) / idcg[2]
    got = metrics.score("Rndcg(gains='1=0')", ranking, grades)
    want_tail = ((dcg[6] - d[0]) / idcg[2])  # and at n = 6 > P + 1 = 3
    assert got == pytest.approx((want + want_tail) / 2, abs=1e-12)


def test_utility_coefficients_by_hand():
    run, grades = ["a", "b", "c", "d"], {"a": 1, "c": 1, "e": 1, "b": 0}
    # 2 relevant retrieved, 2 others retrieved, 1 relevant missed
    assert metrics.score("Utility", run, grades) == 0.0
    assert metrics.score("Utility(a=3,b=-1,c=-2)", run, grades) == 3 * 2 - 2 - 2 * 1
    assert str(metrics.parse("Utility(a=1,b=-1,c=0)")) == "Utility"


def test_gmap_summary_and_batch_agree():
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1}}
    run = {"q1": ["a"], "q2": ["x", "b"], "q3": ["y"]}
    e = evaluate_batch(qrels, run, "GMAP AP")
    # AP 1, 1/2, 0 (floored at 1e-5): (1 * 0.5 * 1e-5) ** (1/3)
    assert e.aggregate["GMAP"] == pytest.approx((0.5 * 1e-5) ** (1 / 3), rel=1e-12)
    assert e.per_query["q2"]["GMAP"] == pytest.approx(math.log(0.5), abs=1e-15)


@pytest.mark.parametrize("bad, words", [
    ("G(gains='1')", "grade=gain"), ("G(gains='x=1')", "integer grade"), ("G(gains='1=2,1=3')", "twice"),
    ("G(gains='1=inf')", "finite"), ("G(gains='-1=2')", "integer grade"), ("G(gains=3)", "text"),
    ("RprecMult", "multiple of R"), ("RprecMult@0", "above 0"), ("Utility(a='x')", "a must be a number"),
    ("infAP@5", "takes no cutoff"),
])
def test_bad_parameters_name_the_problem(bad, words):
    with pytest.raises(ValueError) as err:
        metrics.parse(bad)
    assert words in str(err.value)
