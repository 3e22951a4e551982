"""metrics.teaching.users (the C/W/L users, the condensed list, judgment removal) and its charts."""

from __future__ import annotations

import pytest

from metrics.teaching.users import condensed, kept_judgments, removal, users
from ranklab_ui.core import teaching_charts

RANKING = ["a", "b", "c", "d", "e"]
JUDGED = {"a": 0, "b": 2, "d": 1, "e": -1}  # c unjudged


def by_name(k=3, **kw):
    return {u.measure.split("(")[0].split("@")[0]: u for u in users(RANKING, JUDGED, k, **kw)}


def test_weights_sum_to_one_and_give_the_value():
    u = by_name()
    for name in ("P", "RR", "RBP", "nDCG", "ERR"):
        assert sum(u[name].weight) == pytest.approx(1.0 if name != "RBP" else 1 - 0.8**5)
    # P@3: 1 relevant (b) in the top 3, W = 1/3 each
    assert u["P"].utility_until(5) == pytest.approx(1 / 3) == pytest.approx(u["P"].value)
    # RR: first relevant at rank 2, reads ranks 1 and 2 with W = 1/2
    assert u["RR"].utility_until(5) == pytest.approx(1 / 2) == pytest.approx(u["RR"].value)
    # AP: R = 2 (b and d): (1/2 + 2/4) / 2
    assert u["AP"].utility_until(5) == pytest.approx(0.5) == pytest.approx(u["AP"].value)
    # RBP: 0.2 * (0.8 + 0.8^3)
    assert u["RBP"].utility_until(5) == pytest.approx(0.2 * (0.8 + 0.8**3)) == pytest.approx(u["RBP"].value)


def test_err_user_uses_the_top_grade():
    u = by_name()
    # top grade 2: b satisfies with (2^2 - 1)/4 at rank 2; ERR@3 = 0.75 / 2 (d is at rank 4)
    assert u["ERR"].value == pytest.approx(0.75 / 2)
    assert u["ERR"].reach[:3] == pytest.approx([1, 1, 0.25])


def test_condensed_and_removal():
    assert condensed(RANKING, JUDGED) == ["a", "b", "d"]  # c unjudged, e pooled (-1)
    rows = removal(RANKING, JUDGED, 3, steps=4)
    assert {r["removed"] for r in rows} == {0.0, 0.25, 0.5, 0.75}
    first = {r["measure"]: r["value"] for r in rows if r["removed"] == 0.0}
    assert first["Judged@3"] == pytest.approx(2 / 3)  # a, b judged; c not
    assert first["AP (condensed)"] == pytest.approx((1 / 2 + 2 / 3) / 2)  # b at 2, d at 3 of [a, b, d]
    for share in (0.25, 0.5, 0.75):
        kept = kept_judgments(JUDGED, share)
        assert len(kept) == len(JUDGED) - round(share * len(JUDGED))


def test_charts_are_valid_vega_lite():
    from altair.utils.schemapi import validate_jsonschema
    from altair.vegalite.v6.schema.core import load_schema

    schema = load_schema()
    validate_jsonschema(teaching_charts.user_reach(users(RANKING, JUDGED, 3), 2).to_dict(), schema)
    validate_jsonschema(teaching_charts.removal_lines(removal(RANKING, JUDGED, 3), 0.5).to_dict(), schema)
