"""metrics.stats and metrics.comparison against independent oracles: scipy.stats and
statsmodels (dev extra, test-only), and small cases computed by hand."""

from __future__ import annotations

import io
import json
import math

import numpy as np
import pytest

from metrics import comparison as cmp
from metrics import stats as ours

stats = pytest.importorskip("scipy.stats")
special = pytest.importorskip("scipy.special")
multitest = pytest.importorskip("statsmodels.stats.multitest")
TOL = 1e-9


# --------------------------------------------------------------------------- distributions

@pytest.mark.parametrize("a, b", [(0.5, 0.5), (2, 3), (10, 0.5), (0.5, 30), (100, 0.5), (250, 0.5), (0.5, 5000)])
@pytest.mark.parametrize("x", [1e-6, 0.01, 0.3, 0.5, 0.9, 0.999, 1 - 1e-9])
def test_betainc_grid_matches_scipy(a, b, x):
    assert ours.betainc(a, b, x) == pytest.approx(special.betainc(a, b, x), rel=1e-9, abs=1e-13)


@pytest.mark.parametrize("df", [1, 2, 3, 4, 7, 12, 29, 99, 1000, 20000])
@pytest.mark.parametrize("t", [-80.0, -5.0, -2.0, -0.3, 0.0, 0.01, 1.0, 2.5, 12.0])
def test_student_t_sf_grid_matches_scipy(t, df):
    assert ours.student_t_sf(t, df) == pytest.approx(stats.t.sf(t, df), rel=1e-9, abs=1e-15)


@pytest.mark.parametrize("df", [1, 4, 29, 500])
@pytest.mark.parametrize("p", [0.6, 0.9, 0.975, 0.999])
def test_student_t_ppf_matches_scipy(p, df):
    assert ours.student_t_ppf(p, df) == pytest.approx(stats.t.ppf(p, df), rel=1e-9)


@pytest.mark.parametrize("z", [-6.0, -1.0, 0.0, 0.5, 1.96, 4.0, 9.0])
def test_normal_sf_matches_scipy(z):
    assert ours.normal_sf(z) == pytest.approx(stats.norm.sf(z), rel=1e-12, abs=1e-300)


@pytest.mark.parametrize("k", [2, 3, 5, 10, 20])
@pytest.mark.parametrize("df", [1, 2, 5, 10, 29, 116, 1000, 99_999, 1e6])
def test_studentized_range_grid_matches_scipy(k, df):
    qs = np.array([0.1, 0.5, 1.0, 2.0, 3.0, 3.5, 5.0, 8.0, 15.0, 40.0])
    got = ours.studentized_range_sf(qs, k, df)
    want = stats.studentized_range.sf(qs, k, df)
    np.testing.assert_allclose(got, want, rtol=0, atol=TOL)


def test_studentized_range_edges():
    assert ours.studentized_range_sf(0.0, 3, 10) == 1.0
    assert ours.studentized_range_sf(math.inf, 3, 10) == 0.0
    with pytest.raises(ValueError, match="k must be"):
        ours.studentized_range_sf(1.0, 1, 10)
    with pytest.raises(ValueError, match="degrees of freedom"):
        ours.studentized_range_sf(1.0, 3, 0)


# --------------------------------------------------------------------------- tests

def _samples():
    rng = np.random.default_rng(11)
    for n in (2, 3, 5, 8, 13, 14, 30, 50, 51, 200):
        a = rng.random(n)
        yield a, a + rng.normal(0.03, 0.1, n)                            # continuous: no ties, no zeros
        yield np.round(a, 1), np.round(a + rng.normal(0.05, 0.1, n), 1)  # rounded: ties and zeros


@pytest.mark.parametrize("case", range(20))
def test_paired_t_and_wilcoxon_match_scipy(case):
    a, b = list(_samples())[case]
    t = ours.paired_t_test(a, b)
    want = stats.ttest_rel(b, a)
    if t.sd_diff == 0:  # every delta equal up to float noise: we say t = ±inf, p = 0 (or 1 if all 0)
        assert math.isinf(t.t) or t.t == 0
    elif math.isfinite(want.pvalue):
        assert t.p_value == pytest.approx(want.pvalue, abs=TOL)
        assert t.t == pytest.approx(want.statistic, rel=1e-9)
    d = b - a
    if np.count_nonzero(d) == 0:
        return
    w = ours.wilcoxon_test(a, b)
    want_w = stats.wilcoxon(b, a)
    assert w.statistic == pytest.approx(want_w.statistic, abs=1e-9)
    assert w.p_value == pytest.approx(want_w.pvalue, abs=TOL), w.method


@pytest.mark.parametrize("method, scipy_method", [("exact", "exact"), ("approx", "asymptotic")])
def test_wilcoxon_forced_methods_match_scipy(method, scipy_method):
    rng = np.random.default_rng(4)
    a, b = rng.random(20), rng.random(20)
    got = ours.wilcoxon_test(a, b, method=method)
    assert got.p_value == pytest.approx(stats.wilcoxon(b, a, method=scipy_method).pvalue, abs=TOL)


def test_wilcoxon_by_hand():
    # d = 1, -2, 3, 0: the zero is dropped; ranks 1, 2, 3; W+ = 4, W- = 2; n = 4 with a zero, so
    # SciPy (and we) enumerate the signs: W+ in {0,1,2,3,3,4,5,6}: P(W+ <= 2) = 3/8, P(W+ >= 4) = 3/8
    r = ours.wilcoxon_test([0, 0, 0, 0], [1, -2, 3, 0])
    assert (r.statistic, r.zeros, r.method) == (2.0, 1, "permutation")
    assert r.p_value == pytest.approx(0.75)


def test_randomization_exact_by_hand_and_seeded():
    # d = 0.1, 0.2, 0.3, 0.4 (sum 1.0): only the all-plus and all-minus patterns reach |sum| 1.0 → 2/16
    r = ours.randomization_test([0, 0, 0, 0], [0.1, 0.2, 0.3, 0.4])
    assert r.exact and r.p_value == 2 / 16
    rng = np.random.default_rng(2)
    a, b = rng.random(40), rng.random(40)
    r1 = ours.randomization_test(a, b, rounds=5000, seed=3)
    r2 = ours.randomization_test(a, b, rounds=5000, seed=3)
    assert r1 == r2 and not r1.exact
    # 40 topics: close to the t-test's p (the sampling error of 5000 rounds is about 0.007)
    assert r1.p_value == pytest.approx(stats.ttest_rel(b, a).pvalue, abs=0.03)


def test_bootstrap_ci_equals_scipy_percentile_with_the_same_draws():
    rng = np.random.default_rng(5)
    for n, resamples, seed in ((30, 999, 7), (8, 10_000, 0), (250, 2000, 42)):
        x = rng.random(n)
        want = stats.bootstrap((x,), np.mean, n_resamples=resamples, method="percentile",
                               rng=np.random.default_rng(seed)).confidence_interval
        lo, hi = ours.bootstrap_ci(x, resamples=resamples, seed=seed)
        assert lo == pytest.approx(want.low, abs=1e-12) and hi == pytest.approx(want.high, abs=1e-12)


@pytest.mark.parametrize("method, sm", [("bonferroni", "bonferroni"), ("holm", "holm"), ("bh", "fdr_bh")])
def test_adjust_p_matches_statsmodels(method, sm):
    rng = np.random.default_rng(8)
    for m in (1, 2, 5, 17, 100):
        p = rng.random(m) ** 3
        p[: m // 4] = p[0]  # ties
        want = multitest.multipletests(p, method=sm)[1]
        np.testing.assert_allclose(ours.adjust_p(p, method), want, rtol=0, atol=TOL)
    with pytest.raises(ValueError, match="correction"):
        ours.adjust_p([0.1], "sidak-ish")


def test_tukey_independent_matches_scipy_tukey_hsd():
    rng = np.random.default_rng(9)
    x = rng.random((25, 4)) + np.array([0, 0.05, 0.2, 0.21])
    t = ours.tukey_hsd(x, design="independent")
    want = stats.tukey_hsd(*x.T).pvalue
    for (i, j), p in zip(t.pairs, t.p_values, strict=True):
        assert p == pytest.approx(want[i, j], abs=TOL)


def test_tukey_paired_uses_the_two_way_anova_residual():
    # oracle: statsmodels' OLS of value ~ C(system) + C(topic) gives the residual mean square and its
    # degrees of freedom; scipy's studentized range gives the p of each pair from them.
    sm = pytest.importorskip("statsmodels.api")
    rng = np.random.default_rng(10)
    n, m = 20, 3
    x = rng.random((n, m)) + rng.random((n, 1)) + np.array([0, 0.05, 0.15])
    topic = np.repeat(np.arange(n), m)
    system = np.tile(np.arange(m), n)
    design = np.column_stack([np.ones(n * m)] + [(system == s).astype(float) for s in range(1, m)]
                             + [(topic == q).astype(float) for q in range(1, n)])
    fit = sm.OLS(x.ravel(), design).fit()
    t = ours.tukey_hsd(x)
    assert t.df == fit.df_resid and t.mse == pytest.approx(fit.mse_resid, rel=1e-12)
    means = x.mean(axis=0)
    for (i, j), p in zip(t.pairs, t.p_values, strict=True):
        q = abs(means[j] - means[i]) / math.sqrt(fit.mse_resid / n)
        assert p == pytest.approx(stats.studentized_range.sf(q, m, fit.df_resid), abs=TOL)


# --------------------------------------------------------------------------- comparing N systems

def _three_systems(n=15, seed=1):
    rng = np.random.default_rng(seed)
    qrels = {f"t{i}": {f"d{k}": 1 for k in range(3)} for i in range(n)}
    runs = {}
    for name in ("base", "better", "best"):
        runs[name] = {f"t{i}": [f"x{k}" if rng.random() < {"base": 0.6, "better": 0.4, "best": 0.2}[name]
                                else f"d{k % 3}" if k < 3 else f"y{k}" for k in range(10)] for i in range(n)}
        for q, docs in runs[name].items():  # a document once per topic
            seen, out = set(), []
            for d in docs:
                out.append(d if d not in seen else f"z{len(out)}")
                seen.add(d)
            runs[name][q] = out
    return qrels, runs


def test_compare_systems_against_scipy_and_statsmodels():
    qrels, runs = _three_systems()
    c = cmp.compare_systems(qrels, runs, "AP RR", correction="holm", resamples=2000, seed=3)
    assert c.names == ("base", "better", "best") and len(c.queries) == 15
    for m in ("AP", "RR"):
        r = c.results[m]
        x = r.values
        assert len(r.pairs) == 3
        for p in r.pairs:
            a, b = x[:, p.i], x[:, p.j]
            assert p.t_test.p_value == pytest.approx(stats.ttest_rel(b, a).pvalue, abs=TOL)
            if np.count_nonzero(b - a):
                assert p.wilcoxon.p_value == pytest.approx(stats.wilcoxon(b, a).pvalue, abs=TOL)
            assert p.cohen_d == pytest.approx(np.mean(b - a) / np.std(b - a, ddof=1), rel=1e-12)
            want_ci = stats.bootstrap((b - a,), np.mean, n_resamples=2000, method="percentile",
                                      rng=np.random.default_rng(3)).confidence_interval
            assert p.delta_ci == pytest.approx((want_ci.low, want_ci.high), abs=1e-12)
        for test, key in (("t", "t_test"), ("wilcoxon", "wilcoxon"), ("randomization", "randomization")):
            raw = [getattr(p, key).p_value for p in r.pairs]
            for method, sm in (("bonferroni", "bonferroni"), ("holm", "holm"), ("bh", "fdr_bh")):
                if any(math.isnan(v) for v in raw):
                    continue
                want = multitest.multipletests(raw, method=sm)[1]
                np.testing.assert_allclose([p.adjusted[test][method] for p in r.pairs], want, atol=TOL)


def test_compare_systems_by_hand_and_writers():
    qrels = {"t1": {"a": 1}, "t2": {"b": 1}}
    A = {"t1": ["a"], "t2": ["b"]}          # RR 1, 1
    B = {"t1": ["x", "a"], "t2": ["b"]}     # RR 1/2, 1
    c = cmp.compare_systems(qrels, {"A": A, "B": B}, "RR", resamples=100)
    r = c.results["RR"]
    assert [s.mean for s in r.systems] == [1.0, 0.75]
    assert r.pairs[0].deltas == (-0.5, 0.0)
    assert any("only 2 topics" in w for w in c.warnings)
    out = io.StringIO()
    cmp.write_json(out, c)
    data = json.loads(out.getvalue())
    assert data["measures"]["RR"]["pairs"][0]["deltas"] == {"t1": -0.5, "t2": 0.0}
    assert data["measures"]["RR"]["pairs"][0]["wilcoxon"]["zeros_dropped"] == 1
    out = io.StringIO()
    cmp.write_csv(out, c)
    assert out.getvalue().splitlines()[0].startswith("measure,system,pair,mean")
    assert len(out.getvalue().splitlines()) == 1 + 2 + 1


def test_latex_marks_and_escapes():
    qrels = {f"t{i}": {"d": 1} for i in range(12)}
    good = {f"t{i}": ["d"] for i in range(12)}
    bad = {f"t{i}": ["x", "d"] for i in range(12)}
    c = cmp.compare_systems(qrels, {"bad_run&%": bad, "good": good}, "RR", resamples=100)
    out = io.StringIO()
    cmp.write_latex(out, c)
    text = out.getvalue()
    assert r"(a) bad\_run\&\% & 0.5000 \\" in text          # a is better than nobody
    assert r"(b) good & 1.0000$^{a}$ \\" in text            # b beats a: every delta is +0.5
    assert "superscript letter" in text and r"\caption" in text


def test_many_topics_and_bad_input():
    c = cmp.compare_systems({"q": {"d": 1}}, {"A": {"q": ["d"]}, "B": {"q": ["d"]}}, "RR", resamples=10)
    assert c.results["RR"].pairs[0].t_test.n == 1
    with pytest.raises(ValueError, match="at least 2 runs"):
        cmp.compare_systems({"q": {"d": 1}}, {"A": {"q": ["d"]}}, "RR")
    with pytest.raises(ValueError, match="test must be"):
        cmp.compare_systems({"q": {"d": 1}}, {"A": {}, "B": {}}, "RR", test="z")
    rng = np.random.default_rng(0)
    n = 1200
    qrels = {f"t{i}": {"d": 1} for i in range(n)}
    runs = {s: {f"t{i}": (["d"] if rng.random() < p else ["x", "d"]) for i in range(n)}
            for s, p in (("A", 0.5), ("B", 0.55))}
    c = cmp.compare_systems(qrels, runs, "RR", resamples=200)
    assert any("Ihemelandu" in w for w in c.warnings)


def test_topics_needed_power_by_hand():
    # every delta +0.1: any sample has sd 0 and mean 0.1, so the t-test always rejects
    r = cmp.topics_needed([0.1, 0.1, 0.1], sizes=(5, 10))
    assert r.power == (1.0, 1.0) and r.needed == 5
    # deltas +-0.1 with mean 0: power is the false-positive rate, about alpha, never 80%
    r = cmp.topics_needed([0.1, -0.1] * 10, sizes=(20, 50), resamples=4000)
    assert r.needed is None and all(p < 0.1 for p in r.power)


@pytest.mark.slow  # ranx compiles with numba on first use
def test_t_test_agrees_with_ranx_compare_where_installed():
    """ranx.compare(stat_test="student") on runs without tied scores (ranx breaks ties its own way,
    so tied runs are not defined the same; see docs/measures-and-conventions.md)."""
    ranx = pytest.importorskip("ranx")
    rng = np.random.default_rng(12)
    qrels = {f"q{i}": {f"d{k}": int(rng.integers(1, 3)) for k in rng.choice(40, 6, replace=False)} for i in range(20)}
    runs = {name: {q: {f"d{k}": float(s) for k, s in zip(rng.permutation(40)[:25], rng.permutation(25) + 1.0,
                                                         strict=True)} for q in qrels}
            for name in ("r1", "r2", "r3")}
    ours_c = cmp.compare_systems(qrels, runs, "AP nDCG@10", resamples=100)
    report = ranx.compare(ranx.Qrels(qrels), [ranx.Run(r, name=n) for n, r in runs.items()],
                          metrics=["map", "ndcg@10"], stat_test="student", make_comparable=True).to_dict()
    for ours_m, theirs_m in (("AP", "map"), ("nDCG@10", "ndcg@10")):
        r = ours_c.results[ours_m]
        for s in r.systems:
            assert s.mean == pytest.approx(report[s.name]["scores"][theirs_m], abs=1e-12)
        for p in r.pairs:
            theirs = report[ours_c.names[p.i]]["comparisons"][ours_c.names[p.j]][theirs_m]
            assert p.t_test.p_value == pytest.approx(float(theirs), abs=TOL)
