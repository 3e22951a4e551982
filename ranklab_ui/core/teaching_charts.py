"""Altair chart builders for the Teach pages (they return ``alt.Chart``, or a
:class:`~ranklab_ui.core.charts.Plot` for the charts a lesson draws on every run; no ``st.*`` here).

Each builder takes the data objects of :mod:`metrics.teaching` and returns a small chart,
so tests can check ``chart.to_dict()`` without a Streamlit session.
"""

from __future__ import annotations

import altair as alt
import pandas as pd

from .charts import Plot
from .i18n import _

__all__ = ["swap_heatmap", "delta_bars", "conventions_bars", "values_over_k", "user_reach", "removal_lines"]

DIVERGING = "redblue"


def swap_heatmap(swap_map, *, labels: dict | None = None, extent: float | None = None) -> alt.Chart:
    """Heatmap of ``swap_map.delta``: rank i on y, rank j on x, colour = change of the measure.

    Blue cells improve the measure, red cells hurt it, white cells leave it unchanged; the
    colour scale is symmetric around 0 so both directions read the same. Pass the same
    ``extent`` to several maps so that one colour means one amount on all of them.
    """
    labels = labels or {}
    rows = swap_map.cells()
    for r in rows:
        r["label_i"] = labels.get(r["doc_i"], r["doc_i"])
        r["label_j"] = labels.get(r["doc_j"], r["doc_j"])
        r["change"] = f"{r['delta']:+.4f}"
    df = pd.DataFrame(rows, columns=["i", "j", "doc_i", "doc_j", "delta", "label_i", "label_j", "change"])
    if extent is None or extent <= 0:
        biggest = float(df["delta"].abs().max()) if len(df) else 0.0
        extent = biggest if biggest > 0 else 1.0
    n = len(swap_map.docs)
    side = max(160, min(400, 32 * n))
    return (
        alt.Chart(df, title=swap_map.measure)
        .mark_rect(stroke="#ddd", strokeWidth=0.5)
        .encode(
            x=alt.X("j:O", title=_("swap with rank j"), axis=alt.Axis(labelAngle=0)),
            y=alt.Y("i:O", title=_("rank i")),
            # the legend under the map: beside it, it fell off the right edge of three maps at 1024 px
            color=alt.Color("delta:Q", title=_("change"),
                            scale=alt.Scale(scheme=DIVERGING, domain=[-extent, extent], domainMid=0),
                            legend=alt.Legend(orient="bottom", direction="horizontal", gradientLength=120)),
            tooltip=[alt.Tooltip("i:O", title=_("rank i")), alt.Tooltip("label_i:N", title=_("document at i")),
                     alt.Tooltip("j:O", title=_("rank j")), alt.Tooltip("label_j:N", title=_("document at j")),
                     alt.Tooltip("change:N", title=_("change"))],
        )
        # as wide as its column, however many maps share the row; only the width is fitted
        .properties(width="container", height=side, autosize=alt.AutoSizeParams(type="fit-x", contains="padding"))
    )


def delta_bars(comparison, measure: str) -> alt.Chart:
    """Per-query difference B - A for one measure, bars coloured by the system that wins."""
    result = comparison.results[measure]
    tie = _("tie")
    df = pd.DataFrame([{"query": q, "delta": d, "better": "B" if d > 1e-12 else "A" if d < -1e-12 else tie}
                       for q, d in result.deltas.items()], columns=["query", "delta", "better"])
    biggest = float(df["delta"].abs().max()) if len(df) else 0.0
    extent = biggest if biggest > 0 else 1.0
    return (
        alt.Chart(df)  # no chart title: Streamlit squeezes titled charts; the page labels it
        .mark_bar()
        .encode(
            x=alt.X("delta:Q", title=_("{measure} of B minus {measure} of A").format(measure=measure),
                    scale=alt.Scale(domain=[-extent, extent])),
            y=alt.Y("query:N", sort=None, title=_("query")),
            color=alt.Color("better:N", title=_("better system"),
                            scale=alt.Scale(domain=["A", "B", tie], range=["#d95f02", "#1b9e77", "#999999"])),
            tooltip=[alt.Tooltip("query:N", title=_("query")), alt.Tooltip("delta:Q", format="+.4f"),
                     alt.Tooltip("better:N", title=_("better system"))],
        )
        .properties(height=alt.Step(22))  # one band per query, whatever the container
    )


def conventions_bars(exploration, measure: str, titles: dict | None = None) -> alt.Chart:
    """One measure's value under every preset (presets that do not define it are left out)."""
    titles = titles or {}
    row = next(r for r in exploration.rows if r.measure == measure)
    df = pd.DataFrame([{"preset": titles.get(p, p), "value": c.value,
                        "moves": _("differs from trec_eval") if c.differs else _("same as trec_eval")}
                       for p, c in row.cells.items() if c.value is not None],
                      columns=["preset", "value", "moves"])
    return (
        alt.Chart(df)  # titled by the page
        .mark_bar()
        .encode(
            x=alt.X("value:Q", title=measure),
            y=alt.Y("preset:N", sort=None, title=None),
            color=alt.Color("moves:N", title=None,
                            scale=alt.Scale(domain=[_("same as trec_eval"), _("differs from trec_eval")],
                                            range=["#9ecae1", "#e6550d"])),
            tooltip=[alt.Tooltip("preset:N", title=_("convention")), alt.Tooltip("value:Q", format=".4f"),
                     alt.Tooltip("moves:N", title=_("compared with trec_eval"))],
        )
        .properties(height=alt.Step(24))
    )


def values_over_k(values, measure: str) -> alt.Chart:
    """A measure's value at k = 1..n (points joined by a line)."""
    df = pd.DataFrame({"k": list(range(1, len(values) + 1)), "value": [float(v) for v in values]})
    return (
        alt.Chart(df)  # titled by the page
        .mark_line(point=True)
        .encode(x=alt.X("k:O", title="k", axis=alt.Axis(labelAngle=0)),
                y=alt.Y("value:Q", title=measure, scale=alt.Scale(domain=[0, max(1.0, df["value"].max() if len(df) else 1.0)])),
                tooltip=["k:O", alt.Tooltip("value:Q", format=".4f")])
        .properties(height=220)
    )


def user_reach(users, step: int) -> Plot:
    """For each measure's user, the chance of reading rank i at all; a rule where the
    stepping user is (``users``: :func:`metrics.teaching.users.users`). A template drawn once,
    and its data (:class:`ranklab_ui.core.charts.Plot`): the walk down the list draws it again
    on every step."""
    df = pd.DataFrame([{"rank": i + 1, "user": u.measure, "reach": float(r)}
                       for u in users for i, r in enumerate(u.reach)], columns=["rank", "user", "reach"])
    return Plot(_reach_template, (), {"reach": df, "here": pd.DataFrame({"rank": [step]})})


def _reach_template():
    lines = (
        alt.Chart(alt.NamedData(name="reach"))
        .mark_line(point=True, strokeWidth=2.5)
        .encode(x=alt.X("rank:Q", title="rank", axis=alt.Axis(tickMinStep=1, format="d")),
                y=alt.Y("reach:Q", title="chance the user reads this rank", scale=alt.Scale(domain=[0, 1])),
                color=alt.Color("user:N", title=None, legend=alt.Legend(orient="top", columns=3)),  # 3: fits a phone
                strokeDash=alt.StrokeDash("user:N", title=None, legend=None),  # lines that coincide stay visible
                tooltip=["user:N", "rank:Q", alt.Tooltip("reach:Q", format=".4f")])
    )
    here = alt.Chart(alt.NamedData(name="here")).mark_rule(color="#444", strokeDash=[4, 3], size=2).encode(x="rank:Q")
    return (lines + here).properties(height=320)


def removal_lines(rows, current: float) -> Plot:
    """Each measure's value as more judgments are removed (:func:`metrics.teaching.users.removal`):
    a template drawn once, and its data (:class:`ranklab_ui.core.charts.Plot`).

    >>> spec = removal_lines([{"removed": 0.0, "measure": "AP", "value": 0.5}], 0.0).to_dict()
    >>> spec["layer"][0]["mark"]["type"], spec["datasets"]["lines"]
    ('line', [{'removed': 0.0, 'measure': 'AP', 'value': 0.5}])
    """
    df = pd.DataFrame(rows, columns=["removed", "measure", "value"])
    return Plot(_removal_template, (), {"lines": df, "here": pd.DataFrame({"removed": [current]})})


def _removal_template():
    lines = (
        alt.Chart(alt.NamedData(name="lines"))
        .mark_line(point=True, strokeWidth=2.5)
        .encode(x=alt.X("removed:Q", title="share of the judgments removed", axis=alt.Axis(format="%")),
                y=alt.Y("value:Q", title="value", scale=alt.Scale(domain=[0, 1])),
                color=alt.Color("measure:N", title=None, legend=alt.Legend(orient="top", columns=2)),  # long names: two a row fit a phone
                tooltip=["measure:N", alt.Tooltip("removed:Q", format=".0%"), alt.Tooltip("value:Q", format=".4f")])
    )
    here = alt.Chart(alt.NamedData(name="here")).mark_rule(color="#444", strokeDash=[4, 3], size=2).encode(
        x="removed:Q")
    return (lines + here).properties(height=340)
