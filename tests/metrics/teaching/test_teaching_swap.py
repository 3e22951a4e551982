"""Swap map: changes computed by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.teaching.swap import MAX_POSITIONS, swap_matrices, swap_matrix
from tests.strength import scaled


def test_precision_ignores_order_inside_the_top_k():
    s = swap_matrix("P@2", ["a", "b", "c", "d"], {"a": 1, "c": 1})
    # a, c relevant; top 2 = a, b. Swapping b (2) with c (3) brings c in: +1/2.
    # Swapping a (1) with d (4) drops a: -1/2. a<->c: c in, a out: 0.
    assert s.delta[1, 2] == 0.5 and s.delta[0, 3] == -0.5 and s.delta[0, 2] == 0.0
    assert s.delta[0, 1] == 0.0 and s.delta[2, 3] == 0.0
    assert np.allclose(s.delta, s.delta.T) and not np.diag(s.delta).any()


def test_ndcg_swap_by_hand():
    judged = {"a": 3, "b": 1}
    s = swap_matrix("nDCG", ["b", "a", "x"], judged)
    idcg = 3 + 1 / math.log2(3)
    now = (1 + 3 / math.log2(3)) / idcg
    assert s.base == pytest.approx(now)
    assert s.delta[0, 1] == pytest.approx(1 - now)  # a, b, x is ideal
    assert s.delta[1, 2] == pytest.approx((1 + 3 / 2) / idcg - now)  # b, x, a
    assert s.largest()[:2] == (1, 2)


def test_several_measures_and_cells():
    maps = swap_matrices("RR AP", ["x", "a", "b"], {"a": 1, "b": 1})
    assert set(maps) == {"RR", "AP"}
    assert maps["RR"].delta[0, 1] == 0.5  # 1/2 -> 1
    assert maps["RR"].delta[1, 2] == 0.0  # b takes rank 2: still relevant
    # AP now (1/2 + 2/3) / 2; swapping 1 and 3 gives b, a, x: (1 + 1) / 2
    assert maps["AP"].delta[0, 2] == pytest.approx(1 - (1 / 2 + 2 / 3) / 2)
    cells = maps["AP"].cells()
    assert len(cells) == 9 and cells[2] == {"i": 1, "j": 3, "doc_i": "x", "doc_j": "b",
                                            "delta": pytest.approx(1 - (1 / 2 + 2 / 3) / 2)}


def test_limits_and_bad_input():
    long = [f"d{i}" for i in range(50)]
    s = swap_matrix("P@5", long, {"d1": 1})
    assert s.delta.shape == (MAX_POSITIONS, MAX_POSITIONS) and s.truncated
    assert swap_matrix("P@5", long, {"d1": 1}, depth=6).delta.shape == (6, 6)
    assert swap_matrix("RR", [], {"a": 1}).delta.shape == (0, 0)
    assert swap_matrix("RR", ["a"], {"a": 1}).largest() == (1, 1, 0.0)
    with pytest.raises(ValueError, match="depth"):
        swap_matrix("RR", ["a"], {"a": 1}, depth=0)
    with pytest.raises(ValueError, match="one measure"):
        swap_matrix("RR AP", ["a"], {"a": 1})
    with pytest.raises(ValueError):
        swap_matrix("nope", ["a"], {"a": 1})


@settings(max_examples=scaled(40), deadline=None)
@given(st.lists(st.integers(-1, 3), min_size=1, max_size=7), st.sampled_from(["P@3", "RR", "AP", "nDCG@4"]))
def test_every_cell_is_the_measure_after_that_swap(grades, measure):
    import metrics

    ranking = [f"d{i}" for i in range(len(grades))]
    judged = dict(zip(ranking, grades, strict=True))
    s = swap_matrix(measure, ranking, judged)
    base = metrics.score(measure, ranking, judged)
    assert np.allclose(s.delta, s.delta.T) and not np.diag(s.delta).any()
    for i in range(len(ranking)):
        for j in range(i + 1, len(ranking)):
            other = list(ranking)
            other[i], other[j] = other[j], other[i]
            assert s.delta[i, j] == pytest.approx(metrics.score(measure, other, judged) - base, abs=1e-12)
