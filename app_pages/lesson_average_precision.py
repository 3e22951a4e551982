"""Lesson: average precision (the denominator named) and MAP over queries."""

import streamlit as st

import metrics
from ranklab_ui import render, widgets
from ranklab_ui.core import charts, explained, views
from ranklab_ui.core.i18n import N_, _, ngettext, shown
from ranklab_ui.parts import lessons
from ranklab_ui.session import options

PAGE = "lesson_ap"

DENOMINATORS = [
    ("R", N_("R — every relevant document (trec_eval map, map_cut_k)")),
    ("retrieved", N_("relevant retrieved in the top k (sklearn, torchmetrics)")),
    ("min(k,R)", N_("min(k, R) (Spark, recommender libraries)")),
]


def main() -> None:
    options.sync(PAGE)  # the denominator from the link, or into it
    lessons.run(
        PAGE,
        _("Average precision and MAP"),
        _("Walk down the ranking; **each time you meet a relevant document, note the precision at that rank**. "
        "Average precision adds those precisions and divides by a **denominator**: trec_eval divides by R, "
        "the number of relevant documents *judged*, so a relevant document that was never retrieved "
        "pulls AP down. **MAP** is the mean of AP over queries."),
        lesson)


def lesson(inputs: lessons.LessonInputs) -> None:
    """Everything k changes: a new k reruns only this (ranklab_ui.parts.lessons.run)."""
    ex, k, ranking, judgments, labels = (
        inputs.example, inputs.k, inputs.ranking, inputs.judgments, inputs.labels)

    denominator = st.radio(_("AP's denominator"), [p for p, _text in DENOMINATORS],
                           format_func=shown(lambda p: _(dict(DENOMINATORS)[p])),
                           key=f"{PAGE}.denominator", horizontal=True)
    if denominator == "R":
        ap = explained.explain(f"AP@{k}", ranking, judgments)
        st.metric(_("{measure} (divided by R = {r})").format(measure=f"AP@{k}", r=ap.summary['R']), metrics.num(ap.value, fixed=True))
    else:
        ap = explained.explain(metrics.parse("AP").with_params(denominator=denominator).with_cutoff(k), ranking, judgments)
        st.metric(_("{measure} (divided by {denominator})").format(measure=ap.measure,
                                                                  denominator=ap.summary['denominator']), metrics.num(ap.value, fixed=True))
    left, right = st.columns([3, 2], gap="large")
    with left:
        st.caption(_("In general"))
        render.formula(ap, substituted=False)
        st.caption(_("With the numbers"))
        render.formula(ap)
        render.download_solution(ap, k=k, labels=labels, key=f"{PAGE}.ap", title=_("Average precision"))
    with right:
        st.markdown(_("**The denominator, named.** The same sum divided three ways:"))
        for param, text in DENOMINATORS:
            e = explained.explain(metrics.parse("AP").with_params(denominator=param).with_cutoff(k), ranking, judgments)
            st.markdown(f"- {_(text)}: **{metrics.num(e.value, fixed=True)}** (÷ {e.summary['denominator']})")

    full = explained.explain(f"AP@{len(ranking)}", ranking, judgments)
    charts_row = st.columns(2, gap="large")
    with charts_row[0]:
        st.caption(_("AP adds the bright bars (relevant ranks up to k) and divides by the denominator."))
        render.chart(charts.precision_at_ranks, full.columns, k=k, max_grade=max(judgments.values(), default=1),
                     key=f"{PAGE}.precisions", name="precision_at_each_rank")
    with charts_row[1]:
        every_rank = metrics.parse("AP").with_cutoff(len(ranking))
        series = {f"÷ {p}": views.curve(explained.explain(every_rank.with_params(denominator=p), ranking, judgments),
                                        "ap_at_i")
                  for p, _text in DENOMINATORS}
        render.chart(charts.metric_over_k, series, k=k, title=_("AP@k for each denominator (click a point)"),
                     key=f"{PAGE}.over_k", name="average_precision_over_k", on_pick=widgets.set_k_from_chart)

    st.subheader(_("Step by step"))
    render.step_table(full.columns, k=k, labels=labels, key=f"{PAGE}.steps", name="average_precision_steps",
                      caption=_("'adds' is P@i at each relevant rank; AP@{k} is the running sum at rank {k} "
                                "divided by the denominator.").format(k=k))

    st.subheader(ngettext("MAP over the {n} query of this example", "MAP over the {n} queries of this example",
                          len(ex.queries)).format(n=len(ex.queries)))
    qrels, run = ex.qrels_run()
    measure = f"AP@{k}"
    ev = metrics.evaluate(qrels, run, [measure])
    key = ev.measures[0]
    values = [ev.per_query[qid][key] for qid in ev.per_query]
    st.latex(views.mean_latex(f"MAP@{k}", values, ev.aggregate[key]))
    names = ex.query_names()
    rows = [{"query": f"{qid}: {names[qid][:30]}", "measure": key, "value": ev.per_query[qid][key]}
            for qid in ev.per_query]
    render.chart(charts.per_query_bars, rows, ev.aggregate, key=f"{PAGE}.bars", name="average_precision_per_query")
    if len(values) >= 3 and round(values[2], 4) == 0.225:  # the Pinecone notebook's three queries
        st.caption(_("The Pinecone notebook, where these three queries come from, rounds the AP of its third query "
                     "({name}: 0.225) to 0.22 in its prose and to 0.23 in its code.").format(
                         name=render.plain(names[list(ev.per_query)[2]], 30)))


main()
