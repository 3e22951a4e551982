"""The formulas shared by the kernels, the batch path and the checker, checked by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from metrics.ranking import ratio
from metrics.ranking.dcg import discount, gain
from metrics.ranking.interpolation import needed_hits
from metrics.ranking.precision_recall import f1


@pytest.mark.parametrize("dcg, want", [
    ("log2", [1.0, math.log2(3), 2.0, math.log2(5)]),          # log2(i + 1)
    ("exp-log2", [1.0, math.log2(3), 2.0, math.log2(5)]),
    ("jarvelin", [1.0, 1.0, math.log2(3), 2.0]),               # max(1, log2 i)
])
def test_discount_by_hand_on_arrays_and_numbers(dcg, want):
    ranks = np.arange(1, 5)
    assert discount(ranks, dcg).tolist() == pytest.approx(want, abs=1e-15)
    assert [discount(int(r), dcg) for r in ranks] == pytest.approx(want, abs=1e-15)
    assert isinstance(discount(1, dcg), float)


@pytest.mark.parametrize("dcg, want", [("log2", [0.0, 1.0, 2.0, 3.0]), ("exp-log2", [0.0, 1.0, 3.0, 7.0])])
def test_gain_by_hand_on_arrays_and_numbers(dcg, want):
    assert gain(np.arange(4), dcg).tolist() == want
    assert [gain(g, dcg) for g in range(4)] == want


def test_ratio_f1_and_needed_hits_by_hand():
    assert ratio(np.array([1.0, 3.0, 2.0]), np.array([4, 0, 8])).tolist() == [0.25, 0.0, 0.25]
    assert f1(np.array([0.5, 0.0]), np.array([1.0, 0.0])).tolist() == pytest.approx([2 / 3, 0.0])
    # trec_eval: (long)(0.7 * 3 + 0.9) = (long)2.9999999999999996 = 2; 1.0 * 3 + 0.9 -> 3
    assert needed_hits(np.array([0.7, 1.0]), 3).tolist() == [2.0, 3.0]
    assert needed_hits(0.7, 3) == 2


@pytest.mark.parametrize("x, options, want", [
    (3.0, {}, "3"), (3, {}, "3"), (0.5, {}, "0.5"), (1 / 3, {}, "0.3333"), (2 / 3, {"digits": 2}, "0.67"),
    (-1e-9, {}, "0"), (True, {}, "1"), (float("inf"), {}, "inf"),
    (0.5, {"fixed": True}, "0.5000"), (1, {"fixed": True}, "1.0000"), (1.58496, {"digits": 3}, "1.585"),
    (None, {}, "—"), (float("nan"), {}, "nan"), (float("nan"), {"nan": "not a number"}, "not a number"),
])
def test_the_one_number_formatter_by_hand(x, options, want):
    import metrics

    assert metrics.num(x, **options) == want
