"""Lesson: the precision–recall curve, raw and interpolated, the 11-point average, R-precision."""

import streamlit as st

import metrics
from ranklab_ui import render
from ranklab_ui.core import charts, explained
from ranklab_ui.core.i18n import _
from ranklab_ui.parts import lessons

PAGE = "lesson_prc"


def main() -> None:
    lessons.run(
        PAGE,
        _("The precision–recall curve"),
        _("Walk down the ranking and plot, at each rank i, the **recall** so far against the **precision** so "
        "far. The raw curve zig-zags; the **interpolated** precision at recall r is the best precision at "
        "any recall ≥ r, a staircase that never goes up. Averaging it at the 11 recall levels "
        "0, 0.1, …, 1 gives the **11-point average precision**. **R-precision** is the precision at rank R "
        "(R = number of relevant documents), where precision and recall are equal."),
        lesson)


def lesson(inputs: lessons.LessonInputs) -> None:
    """Everything k changes: a new k reruns only this (ranklab_ui.parts.lessons.run)."""
    k, ranking, judgments, labels = inputs.k, inputs.ranking, inputs.judgments, inputs.labels

    eleven = explained.explain("11pt", ranking, judgments)
    rprec = explained.explain("Rprec", ranking, judgments)
    cols = st.columns(2)
    with cols[0]:
        st.metric(_("11-point average"), metrics.num(eleven.value, fixed=True))
        render.formula(eleven, substituted=False)
    with cols[1]:
        st.metric(_("R-precision (R = {r})").format(r=rprec.summary['R']), metrics.num(rprec.value, fixed=True))
        render.formula(rprec, substituted=False)
    st.caption(_("With the numbers"))
    render.formula(eleven)
    render.formula(rprec)
    with st.container(horizontal=True):
        render.download_solution(eleven, k=k, labels=labels, key=f"{PAGE}.11pt", title=_("11-point average"))
        render.download_solution(rprec, k=k, labels=labels, key=f"{PAGE}.rprec", title=_("R-precision"))

    columns = eleven.columns
    if eleven.summary.get("R"):
        render.chart(charts.pr_curve, columns["recall"], columns["precision"], columns["interpolated"],
                                     eleven.summary["levels"], eleven.summary["iprec"],
                     key=f"{PAGE}.curve", name="precision_recall_curve")
    else:
        st.info(_("No relevant document is judged: recall is undefined and the curve is empty."))

    st.subheader(_("Step by step"))
    render.step_table(columns, k=k, labels=labels, key=f"{PAGE}.steps", name="precision_recall_curve_steps",
                      caption=_("'interpolated P' at rank i is the highest precision at this rank or below."))
    levels = [{_("recall level"): level, _("interpolated precision"): round(p, 4)}
              for level, p in zip(eleven.summary.get("levels", []), eleven.summary.get("iprec", []), strict=True)]
    if levels:
        with st.expander(_("The 11 recall levels")):
            render.table(levels)


main()
