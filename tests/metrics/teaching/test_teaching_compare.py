"""Two systems: the t distribution against scipy (an oracle, test-only), tests by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

import metrics
from metrics.teaching.compare import (
    betainc,
    compare,
    disagreeing_rankings,
    paired_t_test,
    randomization_test,
    student_t_cdf,
)

stats = pytest.importorskip("scipy.stats")
special = pytest.importorskip("scipy.special")


@pytest.mark.parametrize("a, b, x", [(0.5, 0.5, 0.1), (2, 3, 0.4), (10, 0.5, 0.95), (0.5, 30, 0.01),
                                     (100, 0.5, 0.999), (3.5, 0.5, 0.5), (1, 1, 0.73)])
def test_betainc_matches_scipy(a, b, x):
    assert betainc(a, b, x) == pytest.approx(special.betainc(a, b, x), rel=1e-10, abs=1e-14)


@pytest.mark.parametrize("df", [1, 2, 3, 5, 10, 29, 100, 1000])
@pytest.mark.parametrize("t", [-40.0, -3.2, -1.0, -0.1, 0.0, 0.5, 2.0, 7.5, 60.0])
def test_student_t_cdf_matches_scipy(t, df):
    assert student_t_cdf(t, df) == pytest.approx(stats.t.cdf(t, df), rel=1e-9, abs=1e-15)


def test_paired_t_test_matches_scipy_ttest_rel():
    rng = np.random.default_rng(3)
    for n in (2, 3, 8, 50):
        a, b = rng.random(n), rng.random(n) + 0.1
        ours = paired_t_test(a, b)
        ref = stats.ttest_rel(b, a)
        assert ours.t == pytest.approx(ref.statistic, rel=1e-10)
        assert ours.p_value == pytest.approx(ref.pvalue, rel=1e-8)
        d = b - a
        assert ours.cohen_d == pytest.approx(d.mean() / d.std(ddof=1))


def test_t_test_edge_cases():
    assert paired_t_test([0.5, 0.5], [0.5, 0.5]).p_value == 1.0  # no difference at all
    same = paired_t_test([0, 0, 0], [0.1, 0.1, 0.1])  # a constant difference
    assert same.p_value == 0.0 and same.t == math.inf
    one = paired_t_test([0.2], [0.4])
    assert math.isnan(one.p_value) and one.mean_diff == pytest.approx(0.2)
    with pytest.raises(ValueError, match="same length"):
        paired_t_test([1, 2], [1])
    with pytest.raises(ValueError, match="finite"):
        paired_t_test([1, float("nan")], [1, 2])


def test_randomization_exact_by_hand():
    # differences 1, -1, 2, 2: sum 4; sign patterns with |sum| >= 4 out of 16:
    # |±1 ±1 ±2 ±2|: with 2+2 same sign (4 patterns each way -> sums 4+{-2,0,0,2}) ... enumerate:
    d = [1, -1, 2, 2]
    import itertools
    sums = [abs(sum(s * x for s, x in zip(signs, d, strict=True))) for signs in itertools.product((1, -1), repeat=4)]
    expected = sum(v >= 4 for v in sums) / 16
    r = randomization_test([0, 0, 0, 0], d)
    assert r.exact and r.rounds == 16 and r.p_value == expected == 6 / 16


def test_randomization_sampled_is_seeded_and_close_to_exact():
    rng = np.random.default_rng(0)
    a, b = rng.random(16), rng.random(16) + 0.15
    exact = randomization_test(a, b, rounds=2**16)
    sampled = randomization_test(a, b, rounds=5000, seed=7)
    assert exact.exact and not sampled.exact
    assert sampled.p_value == randomization_test(a, b, rounds=5000, seed=7).p_value
    assert sampled.p_value == pytest.approx(exact.p_value, abs=0.02)
    with pytest.raises(ValueError, match="rounds"):
        randomization_test(a, b, rounds=0)


def test_compare_two_systems_by_hand():
    qrels = {"q1": {"a": 1, "b": 1}, "q2": {"c": 2}, "q3": {"d": 1}}
    run_a = {"q1": ["a", "x", "b"], "q2": ["c"], "q3": ["x", "d"]}
    run_b = {"q1": ["x", "a", "b"], "q2": ["x", "c"]}  # q3 missing from B: scores 0
    c = compare(qrels, run_a, run_b, "RR AP")
    rr = c.results["RR"]
    # A: 1, 1, 1/2 ; B: 1/2, 1/2, 0
    assert rr.mean_a == pytest.approx((1 + 1 + 0.5) / 3) and rr.mean_b == pytest.approx(1 / 3)
    assert rr.deltas == pytest.approx({"q1": -0.5, "q2": -0.5, "q3": -0.5})
    assert rr.preferred == "A" and rr.a_better == ("q1", "q2", "q3") and rr.b_better == ()
    ap = c.results["AP"]
    # A: (1 + 2/3)/2, 1, 1/2 ; B: (1/2 + 2/3)/2, 1/2, 0
    assert ap.mean_b == pytest.approx(((1 / 2 + 2 / 3) / 2 + 0.5 + 0) / 3)
    assert len(c.rows()) == 6 and not c.disagree


def test_disagreeing_rankings_really_disagree():
    for seed in range(5):
        d = disagreeing_rankings(seed)
        nd = [metrics.score("nDCG", r, d.judgments) for r in (d.ranking_a, d.ranking_b)]
        ap = [metrics.score("AP", r, d.judgments) for r in (d.ranking_a, d.ranking_b)]
        assert (nd[0] > nd[1]) != (ap[0] > ap[1])
        assert sorted(d.ranking_a) == sorted(d.ranking_b)
        c = compare({"q": d.judgments}, {"q": d.ranking_a}, {"q": d.ranking_b}, "nDCG AP")
        assert c.disagree
    with pytest.raises(ValueError, match="seed"):
        disagreeing_rankings(-1)


def test_compare_reports_missing_and_unknown_queries():
    c = compare({"q1": {"a": 1}, "q2": {"b": 1}}, {"q1": ["a"], "zz": ["a"]}, {"q1": ["a"], "q2": ["b"]}, "AP")
    assert c.queries == ("q1", "q2")
    assert c.results["AP"].mean_a == 0.5 and c.results["AP"].mean_b == 1.0  # q2 missing from A: 0
    assert c.warnings == ("run A: 1 judged query missing, scored 0: q2", "run A: 1 query not in the qrels (ignored)")
    empty = compare({}, {"q": ["a"]}, {"q": ["a"]}, "AP")
    assert empty.queries == () and math.isnan(empty.results["AP"].t_test.p_value)
