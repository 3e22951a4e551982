"""Altair chart builders. Each returns a chart and never calls ``st.*``.

Every chart that shows relevance uses :func:`grade_scale`, so a grade has one colour on
every page. Axes over k are integer axes. Data is passed inline (plain records) to keep
the specs small and fast to serialise.

>>> spec = metric_over_k({"P": [0.0, 0.5]}, k=2).to_dict()
>>> spec["params"][0]["name"]
'pick'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import altair as alt
import pandas as pd

__all__ = [
    "GRADE_COLORS", "SERIES_COLORS", "grade_scale", "grade_text_color", "ranking_strip",
    "metric_over_k", "confusion_matrix", "pr_curve", "per_query_bars", "gain_bars",
    "precision_at_ranks", "PICK", "K", "K_PARAM_CHARTS", "set_k",
]

# grade 0 is grey (not relevant); then light cyan to deep indigo as the grade grows
GRADE_COLORS = ["#a3a3a3", "#4dd8ec", "#1aa7d1", "#1479b8", "#1f4e9c", "#2e2f86",
                "#44207a", "#5a1670", "#6d1061", "#7a0b4e", "#3b0a2a"]
# measures (not grades): a categorical palette that never looks like a grade
SERIES_COLORS = ["#e8590c", "#7048e8", "#2b8a3e", "#c2255c", "#495057", "#b08900"]
PICK = "pick"   # the name of the click-to-set-k selection
K = "kcut"      # the Vega-Lite parameter holding k: a new k changes one value in the spec
K_PARAM_CHARTS = {"ranking_strip", "metric_over_k", "gain_bars", "precision_at_ranks"}
FONT = 15       # base font size: readable on a projector
MAX_STRIP = 40  # ranks shown in a ranking strip


def grade_scale(max_grade: int = 4) -> alt.Scale:
    """The colour scale of grades 0..max_grade (at least 0..1), the same on every chart.

    >>> grade_scale(2).to_dict()["range"]
    ['#a3a3a3', '#4dd8ec', '#1aa7d1']
    """
    top = max(1, min(int(max_grade), len(GRADE_COLORS) - 1))
    return alt.Scale(domain=list(range(top + 1)), range=GRADE_COLORS[: top + 1])


def grade_text_color(grade: int) -> str:
    """Black text on light tiles, white on dark ones.

    >>> grade_text_color(0), grade_text_color(4)
    ('#111111', '#ffffff')
    """
    return "#111111" if grade <= 2 else "#ffffff"


def _k_param(k: int) -> alt.Parameter:
    return alt.param(name=K, value=int(k))


def set_k(spec: dict, k: int) -> dict:
    """A copy of a built spec whose k parameter is ``k`` (for the charts of :data:`K_PARAM_CHARTS`).

    >>> spec = metric_over_k({"P": [0.0, 0.5]}, k=1).to_dict()
    >>> [p["value"] for p in set_k(spec, 2)["params"] if p["name"] == K]
    [2]
    """
    params = [{**p, "value": int(k)} if p.get("name") == K else p for p in spec.get("params", [])]
    return {**spec, "params": params}


def _base(chart, height: int = 300):
    """Common size and fonts. Streamlit fits the whole chart (title and axes included) in
    ``height`` pixels, so heights here are totals."""
    return chart.properties(height=height, width="container").configure_axis(
        labelFontSize=FONT - 1, titleFontSize=FONT, grid=True, gridOpacity=0.4,
    ).configure_legend(labelFontSize=FONT - 1, titleFontSize=FONT).configure_title(
        fontSize=FONT + 2, anchor="start",
    ).configure_view(strokeWidth=0)


def _k_axis(n: int, title: str = "k (cutoff)") -> alt.Axis:
    step = 1 if n <= 20 else (5 if n <= 100 else (50 if n <= 1000 else 500))
    return alt.Axis(title=title, format="d", tickMinStep=1,
                    values=list(range(step if step > 1 else 1, n + 1, step)) if n <= 2000 else None)


def ranking_strip(items: Sequence[Mapping], k: int, *, title: str = "") -> alt.Chart:
    """The ranked list as tiles coloured by grade (the top k bright, the rest faded).

    ``items``: dicts with ``rank``, ``label``, ``grade`` (best first). Only the first
    :data:`MAX_STRIP` ranks are drawn.

    >>> spec = ranking_strip([{"rank": 1, "label": "🐱", "grade": 0}], k=1).to_dict()
    >>> spec["layer"][0]["mark"]["type"]
    'rect'
    """
    shown = list(items)[:MAX_STRIP]
    top = max([int(i["grade"]) for i in shown] + [1])
    data = [{"rank": int(i["rank"]), "label": str(i["label"]), "grade": int(i["grade"]),
             "ink": grade_text_color(int(i["grade"]))}
            for i in shown]
    base = alt.Chart(pd.DataFrame(data)).encode(
        x=alt.X("rank:O", title=None, axis=alt.Axis(labelAngle=0, orient="top", ticks=False, domain=False,
                                                   labelExpr="'#' + datum.label")),
    )
    tiles = base.mark_rect(cornerRadius=6, stroke="#ffffff", strokeWidth=3).encode(
        color=alt.Color("grade:O", scale=grade_scale(top), legend=alt.Legend(title="grade", orient="right",
                                                                                 direction="horizontal" if top > 2 else "vertical",
                                                                                 columns=6)),
        opacity=alt.condition(f"datum.rank <= {K}", alt.value(1.0), alt.value(0.3)),
        tooltip=[alt.Tooltip("rank:O"), alt.Tooltip("label:N"), alt.Tooltip("grade:O")],
    )
    # labels are cut to the tile (about 760 px shared by the tiles) so they never overlap
    text = base.mark_text(fontSize=FONT, limit=max(24, 700 // max(len(shown), 1) - 20), baseline="middle").encode(
        text="label:N", color=alt.Color("ink:N", scale=None),
        opacity=alt.condition(f"datum.rank <= {K}", alt.value(1.0), alt.value(0.45)),
    )
    chart = alt.layer(tiles, text).add_params(_k_param(k))
    if title:
        chart = chart.properties(title=title)
    return _base(chart, height=130 if title else 100)


def metric_over_k(series: Mapping[str, Sequence[float]], k: int, *, title: str = "",
                  y_title: str = "value", selectable: bool = True, domain_one: bool = True) -> alt.Chart:
    """One line per measure over k = 1..n, a rule at the current k, click a point to pick k.

    >>> spec = metric_over_k({"R": [0.0, 0.25, 0.25]}, k=2, selectable=False).to_dict()
    >>> spec["layer"][0]["encoding"]["x"]["axis"]["format"]
    'd'
    """
    data = [{"k": i, "measure": name, "value": float(v)}
            for name, values in series.items() for i, v in enumerate(values, start=1)]
    n = max((len(v) for v in series.values()), default=1)
    names = list(series)
    color = alt.Color("measure:N", scale=alt.Scale(domain=names, range=SERIES_COLORS[: len(names)]),
                      legend=alt.Legend(title=None, orient="top") if len(names) > 1 else None)
    y = alt.Y("value:Q", title=y_title, scale=alt.Scale(domain=[0, 1]) if domain_one else alt.Scale(zero=True))
    x = alt.X("k:Q", axis=_k_axis(n), scale=alt.Scale(domain=[1, max(n, 2)], nice=False))
    base = alt.Chart(pd.DataFrame(data)).encode(x=x, y=y, color=color)
    line = base.mark_line(strokeWidth=3, interpolate="linear")
    points = base.mark_point(filled=True, size=90 if n <= 50 else 20).encode(
        tooltip=[alt.Tooltip("measure:N"), alt.Tooltip("k:Q"), alt.Tooltip("value:Q", format=".4f")],
    )
    if selectable:
        pick = alt.selection_point(name=PICK, fields=["k"], on="click", nearest=True, clear=False)
        points = points.add_params(pick)
    one = alt.Chart(pd.DataFrame({"one": [1]})).transform_calculate(k=K, text=f"'k = ' + {K}")
    rule = one.mark_rule(color="#111111", strokeDash=[6, 4], strokeWidth=2).encode(x="k:Q")
    label = one.mark_text(
        align="left", dx=6, dy=-6, fontSize=FONT, fontWeight="bold", baseline="top",
    ).encode(x="k:Q", y=alt.value(0), text="text:N")
    chart = alt.layer(line, points, rule, label).add_params(_k_param(k)).properties(title=title or "over k")
    return _base(chart, height=330)


def confusion_matrix(tp: int, fp: int, fn: int, tn: int, k: int) -> alt.Chart:
    """The 2×2 table at k as seed 004 draws it: actual condition across, prediction down.

    >>> spec = confusion_matrix(1, 1, 3, 3, 2).to_dict()
    >>> cells = spec["datasets"][spec["data"]["name"]]
    >>> [(c["cell"], c["count"]) for c in cells]
    [('TP', 1), ('FP', 1), ('FN', 3), ('TN', 3)]
    """
    cells = [
        {"actual": "relevant", "predicted": f"in top {k}", "cell": "TP", "count": tp, "good": True},
        {"actual": "not relevant", "predicted": f"in top {k}", "cell": "FP", "count": fp, "good": False},
        {"actual": "relevant", "predicted": f"not in top {k}", "cell": "FN", "count": fn, "good": False},
        {"actual": "not relevant", "predicted": f"not in top {k}", "cell": "TN", "count": tn, "good": True},
    ]
    for c in cells:
        c["text"] = f"{c['cell']} = {c['count']}"
    order_x = ["relevant", "not relevant"]
    order_y = [f"in top {k}", f"not in top {k}"]
    base = alt.Chart(pd.DataFrame(cells)).encode(
        x=alt.X("actual:N", sort=order_x, title="actual condition", axis=alt.Axis(labelAngle=0, orient="top")),
        y=alt.Y("predicted:N", sort=order_y, title="predicted (the cutoff)"),
    )
    rect = base.mark_rect(stroke="#ffffff", strokeWidth=4).encode(
        color=alt.Color("good:N", scale=alt.Scale(domain=[True, False], range=["#c3f0ca", "#ffd6d6"]),
                        legend=None),
    )
    text = base.mark_text(fontSize=FONT + 7, fontWeight="bold").encode(text="text:N")
    return _base(alt.layer(rect, text).properties(title=f"confusion matrix at k = {k}"), height=280)


def pr_curve(recall: Sequence[float], precision: Sequence[float], interpolated: Sequence[float],
             levels: Sequence[float], iprec: Sequence[float], k: int | None = None) -> alt.Chart:
    """Precision against recall: the raw points, the interpolated staircase, the 11 levels.

    >>> spec = pr_curve([0.5, 1.0], [1.0, 0.5], [1.0, 0.5], [0.0, 1.0], [1.0, 0.5]).to_dict()
    >>> len(spec["layer"])
    3
    """
    raw = [{"rank": i, "recall": float(r), "precision": float(p), "curve": "raw P@i"}
           for i, (r, p) in enumerate(zip(recall, precision, strict=True), start=1)]
    interp = [{"rank": i, "recall": float(r), "precision": float(p), "curve": "interpolated"}
              for i, (r, p) in enumerate(zip(recall, interpolated, strict=True), start=1)]
    eleven = [{"recall": float(r), "precision": float(p), "curve": "11 recall levels"}
              for r, p in zip(levels, iprec, strict=True)]
    names = ["raw P@i", "interpolated", "11 recall levels"]
    color = alt.Color("curve:N", scale=alt.Scale(domain=names, range=SERIES_COLORS[:3]),
                      legend=alt.Legend(title=None, orient="top"))
    x = alt.X("recall:Q", scale=alt.Scale(domain=[0, 1]), title="recall")
    y = alt.Y("precision:Q", scale=alt.Scale(domain=[0, 1]), title="precision")
    raw_line = alt.Chart(pd.DataFrame(raw)).mark_line(point=alt.OverlayMarkDef(size=80), strokeDash=[4, 3]).encode(
        x=x, y=y, color=color, order="rank:Q",
        tooltip=[alt.Tooltip("rank:Q"), alt.Tooltip("recall:Q", format=".3f"), alt.Tooltip("precision:Q", format=".3f")],
    )
    interp_line = alt.Chart(pd.DataFrame(interp)).mark_line(strokeWidth=3, interpolate="step-before").encode(
        x=x, y=y, color=color, order="rank:Q",
    )
    dots = alt.Chart(pd.DataFrame(eleven)).mark_point(shape="diamond", size=140, filled=True).encode(
        x=x, y=y, color=color,
        tooltip=[alt.Tooltip("recall:Q", title="recall level"), alt.Tooltip("precision:Q", format=".4f")],
    )
    title = "precision–recall curve" + (f" (ranks 1..{k})" if k else "")
    return _base(alt.layer(raw_line, interp_line, dots).properties(title=title), height=380)


def per_query_bars(rows: Sequence[Mapping], means: Mapping[str, float]) -> alt.Chart:
    """Bars per query and measure (``rows``: query, measure, value), a dashed rule at each mean.

    >>> rows = [{"query": "q1", "measure": "RR", "value": 0.5}]
    >>> per_query_bars(rows, {"RR": 0.5}).to_dict()["layer"][0]["mark"]["type"]
    'bar'
    """
    names = list(means)
    color = alt.Color("measure:N", scale=alt.Scale(domain=names, range=SERIES_COLORS[: len(names)]),
                      legend=alt.Legend(title=None, orient="top"))
    data = [{"query": str(r["query"]), "measure": str(r["measure"]), "value": float(r["value"])} for r in rows]
    order = list(dict.fromkeys(d["query"] for d in data))
    bars = alt.Chart(pd.DataFrame(data)).mark_bar().encode(
        x=alt.X("query:N", sort=order, title=None, axis=alt.Axis(labelAngle=0, labelLimit=160)),
        xOffset=alt.XOffset("measure:N", sort=names),
        y=alt.Y("value:Q", scale=alt.Scale(domain=[0, 1]), title="value"),
        color=color,
        tooltip=[alt.Tooltip("query:N"), alt.Tooltip("measure:N"), alt.Tooltip("value:Q", format=".4f")],
    )
    mean_rows = [{"measure": m, "value": float(v)} for m, v in means.items()]
    rules = alt.Chart(pd.DataFrame(mean_rows)).mark_rule(strokeDash=[8, 4], strokeWidth=2).encode(
        y="value:Q", color=color,
        tooltip=[alt.Tooltip("measure:N", title="mean of"), alt.Tooltip("value:Q", format=".4f")],
    )
    return _base(alt.layer(bars, rules).properties(title="per query (bars) and the mean (dashed)"), height=340)


def gain_bars(columns: Mapping[str, Sequence], *, title: str, max_grade: int, k: int,
              value: str = "contribution") -> alt.Chart:
    """Per rank: the gain (pale bar) and what it adds after the discount (solid bar).

    ``columns`` is an explanation's table (rank, grade, gain, ``value``), actual or ideal.

    >>> cols = {"rank": [1, 2], "grade": [3, 0], "gain": [3.0, 0.0], "contribution": [3.0, 0.0]}
    >>> len(gain_bars(cols, title="t", max_grade=3, k=2).to_dict()["layer"])
    2
    """
    data = [{"rank": int(r), "grade": int(g or 0), "gain": float(ga), "added": float(c)}
            for r, g, ga, c in zip(columns["rank"], columns["grade"], columns["gain"], columns[value], strict=True)]
    x = alt.X("rank:O", title="rank", axis=alt.Axis(labelAngle=0))
    base = alt.Chart(pd.DataFrame(data)).encode(x=x)
    gain = base.mark_bar(opacity=0.3, color="#9ca3af").encode(
        y=alt.Y("gain:Q", title="gain ÷ discount (pale: gain)"))
    added = base.mark_bar(width={"band": 0.55}).encode(
        y="added:Q",
        color=alt.Color("grade:O", scale=grade_scale(max_grade), legend=alt.Legend(title="grade", orient="right")),
        opacity=alt.condition(f"datum.rank <= {K}", alt.value(1.0), alt.value(0.3)),
        tooltip=[alt.Tooltip("rank:O"), alt.Tooltip("grade:O"), alt.Tooltip("gain:Q", format=".3f"),
                 alt.Tooltip("added:Q", format=".3f", title="gain ÷ discount")],
    )
    chart = alt.layer(gain, added).add_params(_k_param(k))
    return _base(chart.properties(title=title) if title else chart, height=300)


def precision_at_ranks(columns: Mapping[str, Sequence], *, k: int, max_grade: int = 1) -> alt.Chart:
    """Bars of P@i at every rank i; ranks holding a relevant document in the grade colour.

    AP sums the coloured bars (and divides by its denominator).

    >>> cols = {"rank": [1, 2], "precision": [0.0, 0.5], "relevant": [False, True], "grade": [0, 1]}
    >>> precision_at_ranks(cols, k=2).to_dict()["layer"][0]["mark"]["type"]
    'bar'
    """
    data = [{"rank": int(r), "precision": float(p), "relevant": bool(rel),
             "grade": int(g or 0) if rel else 0}
            for r, p, rel, g in zip(columns["rank"], columns["precision"], columns["relevant"],
                                    columns["grade"], strict=True)]
    base = alt.Chart(pd.DataFrame(data)).encode(x=alt.X("rank:O", title="rank i", axis=alt.Axis(labelAngle=0)))
    bars = base.mark_bar().encode(
        y=alt.Y("precision:Q", scale=alt.Scale(domain=[0, 1]), title="P@i"),
        color=alt.Color("grade:O", scale=grade_scale(max_grade), legend=alt.Legend(title="grade", orient="right")),
        opacity=alt.condition(f"datum.relevant && datum.rank <= {K}", alt.value(1.0), alt.value(0.3)),
        tooltip=[alt.Tooltip("rank:O"), alt.Tooltip("precision:Q", format=".4f"), alt.Tooltip("relevant:N")],
    )
    text = base.transform_filter("datum.relevant").mark_text(dy=-10, fontSize=FONT - 1).encode(
        y="precision:Q", text=alt.Text("precision:Q", format=".2f"))
    return _base(alt.layer(bars, text).add_params(_k_param(k)).properties(title="P@i at each rank i"),
                 height=320)
