"""Lesson: reciprocal rank and its mean over queries (MRR)."""

import streamlit as st

import metrics
from ranklab_ui import render, widgets
from ranklab_ui.core import charts, explained, views
from ranklab_ui.core.i18n import _, ngettext
from ranklab_ui.parts import lessons

PAGE = "lesson_rr"


def main() -> None:
    lessons.run(
        PAGE,
        _("Reciprocal rank and MRR"),
        _("**Reciprocal rank** looks only at the *first* relevant result: at rank 1 it scores 1, at rank 2 "
        "one half, at rank 5 one fifth, and 0 if nothing relevant was found. **MRR** is its mean over "
        "queries. It suits searches where one good answer is enough; the other relevant results do not count."),
        lesson)


def lesson(inputs: lessons.LessonInputs) -> None:
    """Everything k changes: a new k reruns only this (ranklab_ui.parts.lessons.run)."""
    ex, k, ranking, judgments, labels = (
        inputs.example, inputs.k, inputs.ranking, inputs.judgments, inputs.labels)

    rr = explained.explain("RR", ranking, judgments)
    rr_k = explained.explain(f"RR@{k}", ranking, judgments)
    cols = st.columns(2)
    with cols[0]:
        st.metric(_("RR (trec_eval recip_rank: no cutoff)"), metrics.num(rr.value, fixed=True))
        render.formula(rr, substituted=False)
        render.formula(rr)
        render.download_solution(rr, k=k, labels=labels, key=f"{PAGE}.rr", title=_("Reciprocal rank"))
    with cols[1]:
        st.metric(_("{measure} (0 when the first hit is below k)").format(measure=f"RR@{k}"), metrics.num(rr_k.value, fixed=True))
        render.formula(rr_k)
        st.caption(_("trec_eval's recip_rank has no cutoff; RR@k (ranx mrr@k, ir_measures RR@k) scores 0 "
                     "when the first relevant result is below rank k."))

    st.subheader(_("Step by step"))
    render.step_table(rr.columns, k=k, labels=labels, key=f"{PAGE}.steps", name="reciprocal_rank_steps",
                      caption=_("The first row marked relevant decides the value."))

    st.subheader(ngettext("MRR over the {n} query of this example", "MRR over the {n} queries of this example",
                          len(ex.queries)).format(n=len(ex.queries)))
    qrels, run = ex.qrels_run()
    ev = metrics.evaluate(qrels, run, ["RR", f"RR@{k}"])
    names = ex.query_names()
    values = [ev.per_query[qid]["RR"] for qid in ev.per_query]
    st.latex(views.mean_latex("MRR", values, ev.aggregate["RR"]))
    rows = [{"query": f"{qid}: {names[qid][:30]}", "measure": m, "value": ev.per_query[qid][m]}
            for qid in ev.per_query for m in ev.measures]
    render.chart(charts.per_query_bars, rows, ev.aggregate, key=f"{PAGE}.bars", name="reciprocal_rank_per_query")
    if len(ex.queries) == 1:
        st.caption(_("Load the *Three queries* preset (Playground) or add queries on *Many queries* to average more."))
    series = {"RR@k": views.rr_curve(rr)}
    render.chart(charts.metric_over_k, series, k=k, title=_("RR@k at every k: a single step at the first hit"),
                 key=f"{PAGE}.over_k", name="reciprocal_rank_over_k", on_pick=widgets.set_k_from_chart)


main()
