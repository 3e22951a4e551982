"""Lesson: precision, recall and F1 at k, with the confusion matrix at k (Pinecone notebook)."""

import streamlit as st

import metrics
from ranklab_ui import render, widgets
from ranklab_ui.core import charts, explained, views
from ranklab_ui.core.i18n import _
from ranklab_ui.parts import lessons

PAGE = "lesson_pr"


def main() -> None:
    lessons.run(
        PAGE,
        _("Precision, recall and F1 at k"),
        _("Cut the ranking after **k** results and treat the top k as the system's *yes* answers. "
        "**Precision@k**: how many of those k are relevant. **Recall@k**: how many of all the relevant "
        "documents made it into the top k. **F1@k** balances the two (their harmonic mean). "
        "None of them cares about the order *inside* the top k."),
        lesson)


def lesson(inputs: lessons.LessonInputs) -> None:
    """Everything k changes: a new k reruns only this (ranklab_ui.parts.lessons.run)."""
    k, ranking, judgments, labels = inputs.k, inputs.ranking, inputs.judgments, inputs.labels

    shown_at_k = {name: explained.explain(f"{name}@{k}", ranking, judgments) for name in ("P", "R", "F1")}
    cols = st.columns(3)
    for col, e in zip(cols, shown_at_k.values(), strict=True):
        with col:
            st.metric(e.measure, metrics.num(e.value, fixed=True))
            render.formula(e, substituted=False)
    st.caption(_("With the numbers"))
    for e in shown_at_k.values():
        render.formula(e)
    row = st.container(horizontal=True)
    with row:
        for name, e in shown_at_k.items():
            render.download_solution(e, k=k, labels=labels, key=f"{PAGE}.{name}", title=name)

    left, right = st.columns([1, 1], gap="large")
    with left:
        population = len(set(ranking) | set(judgments))
        counts = views.confusion_counts(shown_at_k["P"].summary, population)
        render.chart(charts.confusion_matrix, counts["TP"], counts["FP"], counts["FN"], counts["TN"], k,
                     key=f"{PAGE}.confusion", name="confusion_matrix")
        st.markdown(
            _("Of the **{population}** documents we know, the top {k} holds **TP = {tp}** relevant "
              "and **FP = {fp}** non-relevant ones; **FN = {fn}** relevant documents are "
              "below the cut (or never retrieved) and **TN = {tn}** non-relevant ones are rightly "
              "left out. Precision = TP / (TP + FP) = TP / k; recall = TP / (TP + FN) = TP / R.").format(
                population=population, k=k, tp=counts["TP"], fp=counts["FP"], fn=counts["FN"], tn=counts["TN"]))
    with right:
        full = explained.explain(f"P@{len(ranking)}", ranking, judgments)  # one row per rank: P@i, R@i, F1@i
        series = {"P": views.curve(full, "precision"), "R": views.curve(full, "recall"),
                  "F1": views.curve(full, "f1")}
        render.chart(charts.metric_over_k, series, k=k, title=_("P, R and F1 at every k (click a point to set k)"),
                     key=f"{PAGE}.over_k", name="precision_recall_over_k", on_pick=widgets.set_k_from_chart)
        st.caption(_("Recall never goes down as k grows; precision can go either way."))

    st.subheader(_("Step by step"))
    render.step_table(full.columns, k=k, labels=labels, key=f"{PAGE}.steps", name="precision_recall_steps",
                      caption=_("Row k = {k} is highlighted: its P@i, R@i and F1@i are the values above.").format(k=k))


main()
