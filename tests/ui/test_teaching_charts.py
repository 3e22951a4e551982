"""Chart builders return Altair charts whose specs carry the right data."""

from __future__ import annotations

import altair as alt

from metrics.teaching import compare, explorer, swap
from ranklab_ui.core import teaching_charts


def data(chart):
    spec = chart.to_dict()
    return spec, next(iter(spec["datasets"].values()))


def test_swap_heatmap_is_symmetric_around_zero():
    smap = swap.swap_matrix("RR", ["x", "a", "y"], {"a": 1})  # a to rank 1: +0.5; to rank 3: -1/6
    spec, rows = data(teaching_charts.swap_heatmap(smap, labels={"a": "cat"}))
    assert isinstance(teaching_charts.swap_heatmap(smap), alt.Chart)
    assert spec["mark"]["type"] == "rect" and len(rows) == 9
    assert spec["encoding"]["color"]["scale"]["domain"] == [-0.5, 0.5]
    cell = next(r for r in rows if r["i"] == 1 and r["j"] == 2)
    assert cell["delta"] == 0.5 and cell["label_j"] == "cat" and cell["change"] == "+0.5000"


def test_swap_heatmap_all_zero_and_empty():
    spec, _ = data(teaching_charts.swap_heatmap(swap.swap_matrix("RR", ["a", "b"], {"a": 1, "b": 1})))
    assert spec["encoding"]["color"]["scale"]["domain"] == [-1.0, 1.0]
    teaching_charts.swap_heatmap(swap.swap_matrix("RR", [], {})).to_dict()


def test_delta_bars_colour_the_winner():
    c = compare.compare({"q1": {"a": 1}, "q2": {"b": 1}}, {"q1": ["x", "a"], "q2": ["b"]},
                        {"q1": ["a"], "q2": ["x", "b"]}, "RR")
    spec, rows = data(teaching_charts.delta_bars(c, "RR"))
    assert {r["query"]: (r["delta"], r["better"]) for r in rows} == {"q1": (0.5, "B"), "q2": (-0.5, "A")}


def test_conventions_bars_and_values_over_k():
    x = explorer.explore("AP", ["a", "n", "b"], {"a": 1, "b": 1, "c": 1})
    spec, rows = data(teaching_charts.conventions_bars(x, "AP"))
    by = {r["preset"]: r for r in rows}
    assert round(by["sklearn"]["value"], 4) == 0.8333  # (1 + 2/3) / 2
    assert by["sklearn"]["moves"] == "differs from trec_eval" and by["trec_eval"]["moves"] == "same as trec_eval"
    spec, rows = data(teaching_charts.values_over_k([1.0, 0.5], "nDCG"))
    assert [r["value"] for r in rows] == [1.0, 0.5] and spec["mark"]["type"] == "line"
