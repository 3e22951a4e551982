"""Charts of :mod:`metrics.comparison` (N systems): means with confidence intervals, sorted
per-topic deltas of one pair, and the power curve of "how many topics". No ``st.*`` here."""

from __future__ import annotations

import altair as alt
import pandas as pd

from ranklab_ui.core.i18n import _


def means_with_ci(result) -> alt.Chart:
    """Each system's mean (point) and bootstrap interval (error bar), one row per system."""
    df = pd.DataFrame([{"system": s.name, "mean": s.mean, "low": s.ci_low, "high": s.ci_high}
                       for s in result.systems], columns=["system", "mean", "low", "high"])
    y = alt.Y("system:N", sort=None, title=None)
    bars = alt.Chart(df).mark_errorbar(ticks=True).encode(
        x=alt.X("low:Q", title=_("{measure}: mean and 95% bootstrap interval").format(measure=result.measure),
                scale=alt.Scale(zero=False)),
        x2="high:Q", y=y)
    points = alt.Chart(df).mark_point(filled=True, size=70, color="#1b6ca8").encode(
        x="mean:Q", y=y,
        tooltip=[alt.Tooltip("system:N", title=_("system")), alt.Tooltip("mean:Q", format=".4f", title=_("mean")),
                 alt.Tooltip("low:Q", format=".4f", title=_("low")),
                 alt.Tooltip("high:Q", format=".4f", title=_("high"))])
    return (bars + points).properties(height=alt.Step(28))


def sorted_deltas(queries, pair, names, measure: str) -> alt.Chart:
    """One bar per topic, delta = system j − system i, sorted from the largest loss to the largest gain."""
    a, b = names[pair.i], names[pair.j]
    df = pd.DataFrame([{"topic": q, "delta": d, "better": b if d > 1e-12 else a if d < -1e-12 else _("tie")}
                       for q, d in zip(queries, pair.deltas, strict=True)], columns=["topic", "delta", "better"])
    df = df.sort_values("delta", kind="mergesort")
    biggest = float(df["delta"].abs().max()) if len(df) else 0.0
    extent = biggest if biggest > 0 else 1.0
    return (
        alt.Chart(df)
        .mark_bar()
        .encode(
            x=alt.X("topic:N", sort=list(df["topic"]), title=_("topic (sorted by delta)"),
                    axis=alt.Axis(labels=len(df) <= 60)),
            y=alt.Y("delta:Q", title=_("{measure}: {b} − {a}").format(measure=measure, a=a, b=b),
                    scale=alt.Scale(domain=[-extent, extent])),
            color=alt.Color("better:N", title=_("better system"),
                            scale=alt.Scale(domain=[a, b, _("tie")], range=["#d95f02", "#1b9e77", "#999999"])),
            tooltip=[alt.Tooltip("topic:N", title=_("topic")), alt.Tooltip("delta:Q", format="+.4f", title=_("delta"))],
        )
        .properties(height=260)
    )


def power_curve(needed) -> alt.Chart:
    """Share of simulated experiments in which the t-test finds the difference, by number of topics."""
    df = pd.DataFrame({"topics": list(needed.sizes), "power": list(needed.power)})
    line = alt.Chart(df).mark_line(point=True).encode(
        x=alt.X("topics:Q", scale=alt.Scale(type="log"), title=_("number of topics")),
        y=alt.Y("power:Q", scale=alt.Scale(domain=[0, 1]), title=_("power"), axis=alt.Axis(format="%")),
        tooltip=[alt.Tooltip("topics:Q", title=_("topics")), alt.Tooltip("power:Q", format=".0%", title=_("power"))])
    rule = alt.Chart(pd.DataFrame({"y": [needed.target]})).mark_rule(strokeDash=[4, 4], color="#999").encode(y="y:Q")
    return (line + rule).properties(height=220)
