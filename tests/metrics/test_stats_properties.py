"""Invariants of metrics.stats and metrics.fusion on generated input (hypothesis, seeded by its
database-free default profile): p-values are probabilities, corrections never lower a p-value and
keep its order, RRF stays in its documented range, nothing crashes on odd but legal numbers."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics import stats as ours
from metrics.fusion import fuse
from tests.strength import scaled

values = st.lists(st.floats(min_value=0, max_value=1, allow_nan=False), min_size=2, max_size=40)


@settings(max_examples=scaled(60), deadline=None, derandomize=True)
@given(values, st.integers(0, 2**31), st.sampled_from([0.0, 1e-12, 0.1, 1.0]))
def test_paired_tests_give_probabilities(a, seed, shift):
    rng = np.random.default_rng(seed)
    b = np.clip(np.array(a) + shift * rng.standard_normal(len(a)), 0, 1)
    for p in (ours.paired_t_test(a, b).p_value, ours.wilcoxon_test(a, b).p_value,
              ours.randomization_test(a, b, rounds=500, seed=seed).p_value):
        assert math.isnan(p) or 0.0 <= p <= 1.0
    d = b - np.array(a)
    lo, hi = ours.bootstrap_ci(d, resamples=200, seed=seed)
    assert d.min() - 1e-12 <= lo <= hi <= d.max() + 1e-12  # means of resamples stay within the data


@settings(max_examples=scaled(80), deadline=None, derandomize=True)
@given(st.lists(st.floats(min_value=0, max_value=1, allow_nan=False), min_size=1, max_size=30),
       st.sampled_from(ours.CORRECTIONS))
def test_corrections_never_lower_p_and_keep_order(p, method):
    adj = ours.adjust_p(p, method)
    raw = np.array(p)
    assert (adj >= raw - 1e-15).all() and (adj <= 1.0).all()
    order = np.argsort(raw, kind="mergesort")
    assert (np.diff(adj[order]) >= -1e-15).all()


@settings(max_examples=scaled(40), deadline=None, derandomize=True)
@given(st.floats(min_value=0, max_value=60), st.integers(2, 12), st.sampled_from([1, 3, 10, 50, 1e4, 1e6]))
def test_studentized_range_is_a_survival_function(q, k, df):
    p = ours.studentized_range_sf(q, k, df)
    assert 0.0 <= p <= 1.0
    assert ours.studentized_range_sf(q + 0.5, k, df) <= p + 1e-12


docs = st.dictionaries(st.text(alphabet="abcdefgh", min_size=1, max_size=3),
                       st.floats(min_value=-1e6, max_value=1e6, allow_nan=False), min_size=1, max_size=15)


@settings(max_examples=scaled(60), deadline=None, derandomize=True)
@given(st.lists(docs, min_size=2, max_size=4), st.floats(min_value=0, max_value=1000))
def test_rrf_range_and_comb_invariants(rankings, k):
    runs = [{"q": r} for r in rankings]
    fused = fuse(runs, method="rrf", k=k, depth=None)["q"]
    n, deepest = len(runs), max(len(r) for r in rankings)
    assert set(fused) == set().union(*rankings)
    for s in fused.values():
        assert 1 / (k + deepest) - 1e-12 <= s <= n / (k + 1) + 1e-12
    total = fuse(runs, method="combsum", depth=None)["q"]
    mnz = fuse(runs, method="combmnz", depth=None)["q"]
    for d, s in total.items():  # min-max scores are >= 0, and CombMNZ multiplies by the count >= 1
        assert 0.0 <= s <= n + 1e-12 and mnz[d] >= s - 1e-12
    z = fuse(runs, method="combsum", norm="zscore", depth=None)["q"]
    assert all(math.isfinite(v) for v in z.values())
