"""Pitfall gallery: each wrong and right value recomputed here from the definitions."""

from __future__ import annotations

import math

import pytest

from metrics.teaching import pitfalls
from metrics.teaching.pitfalls import GALLERY, course_lab_ndcg_as_written, course_lab_ndcg_patched

L3 = math.log2(3)


def values(p):
    return [o.value for o in p.outcomes]


def test_gallery_has_every_pitfall_and_each_has_a_right_value():
    assert list(GALLERY) == ["ndcg_above_one", "ties", "nothing_relevant", "p_at_k_short", "ap_denominators",
                             "relevance_level", "rounding", "course_lab_ndcg", "ndcg_falling"]
    for fn in GALLERY.values():
        p = fn()
        assert p.title and p.what and p.why and p.outcomes
        assert any(o.right for o in p.outcomes)


def test_ndcg_above_one():
    v = values(pitfalls.ndcg_above_one())
    assert v[0] == pytest.approx(1.0)
    assert v[1] == pytest.approx((2 + 1 / L3 + 1 / 2) / 2)
    assert v[2] == pytest.approx((2 + 2 / L3 + 1 / 2) / (2 + 1 / L3 + 1 / 2))
    assert v[3] is None and "twice" in pitfalls.ndcg_above_one().outcomes[3].error
    assert v[4] == pytest.approx((3 + 1 / L3 + 1 / 2) / (2 + 1 / L3 + 1 / 2))
    assert all(x > 1 for x in (v[1], v[2], v[4]))


def test_ties_and_zero_division_and_short_lists():
    assert values(pitfalls.ties()) == [0.5, 1.0, 1.0]
    v = values(pitfalls.nothing_relevant())
    assert math.isnan(v[0]) and v[1:] == [0.0, 0.5, 1.0]
    assert values(pitfalls.p_at_k_short()) == [2 / 5, 2 / 2]


def test_ap_denominators_and_relevance_level():
    assert values(pitfalls.ap_denominators()) == pytest.approx([(1 + 2 / 3) / 4, (1 + 2 / 3) / 2, (1 + 2 / 3) / 3])
    v = values(pitfalls.relevance_level())
    assert v == pytest.approx([2 / 3, (1 + 2 / L3 + 1) / (2 + 2 / L3 + 1 / 2), (2 / L3 + 1) / (2 + 2 / L3)])


def test_rounding_pinecone():
    v = values(pitfalls.rounding())
    assert v[0] == pytest.approx(9 / 40)
    assert v[1:4] == [0.23, 0.22, 0.23]
    assert v[4] == round((0.54 + 0.67 + 0.22) / 3, 4)
    ap = [(1 / 2 + 2 / 4 + 3 / 5 + 4 / 7) / 4, (1 + 2 / 4 + 3 / 5 + 4 / 7) / 4, (1 / 5 + 2 / 8) / 2]
    assert v[5] == round(sum(ap) / 3, 4)


def test_course_lab_as_written_raises_what_its_code_raises():
    err = course_lab_ndcg_as_written({"q": {"a": 2, "b": 1}}, {"q": ["a", "b"]})
    assert isinstance(err, TypeError) and "not subscriptable" in str(err)
    assert isinstance(course_lab_ndcg_as_written({"q": {"a": 1}}, {}), KeyError)  # query missing from the run
    assert course_lab_ndcg_as_written({"q": {}}, {"q": ["a"]}) == []  # an empty query ends everything


def test_course_lab_patched_counts_rank_one_twice_and_stops_at_r():
    # qrels d1 3, d2 2, d3 1; run d2 d1 x d3 -> only 3 documents looked at (R = 3)
    # DCG = 2/1 + 3/log2 3 + 0/2 + 2 (rank 1 again); IDCG = 3/1 + 2/log2 3 + 1/2 + 3
    got = course_lab_ndcg_patched({"q": {"d1": 3, "d2": 2, "d3": 1}}, {"q": ["d2", "d1", "x", "d3"]})
    assert got == pytest.approx((2 + 3 / L3 + 2) / (3 + 2 / L3 + 1 / 2 + 3))
    p = pitfalls.course_lab_ndcg()
    assert p.outcomes[0].error.startswith("TypeError")
    # Järvelin–Kekäläinen: 2 + 3/1 + 0/log2 3 + 1/log2 4 over 3 + 2/1 + 1/log2 3
    assert p.outcomes[2].value == pytest.approx((2 + 3 + 0 + 1 / 2) / (3 + 2 + 1 / L3))


def test_course_lab_with_other_inputs():
    p = pitfalls.course_lab_ndcg({"q1": {"a": 1}, "q2": {}}, {"q1": ["a"], "q2": ["b"]}, k=5)
    assert p.outcomes[0].error and p.outcomes[2].value == pytest.approx(0.5)  # q1 = 1, q2 = 0


def test_ndcg_falling():
    assert values(pitfalls.ndcg_falling()) == pytest.approx(
        [1.0, 3 / (3 + 3 / L3), 3 / (3 + 3 / L3 + 3 / 2), 3 / (3 + 3 / L3 + 3 / 2)])
