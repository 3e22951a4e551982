"""Lesson: CG → DCG → IDCG → nDCG, with gain/discount switches and the ideal ordering."""

import streamlit as st

import metrics
from ranklab_ui import render, widgets
from ranklab_ui.core import charts, explained, views
from ranklab_ui.core.i18n import N_, _, shown
from ranklab_ui.parts import lessons
from ranklab_ui.session import options

PAGE = "lesson_dcg"

CONVENTIONS = {
    "log2": N_("gain = grade, discount = log2(i + 1) (trec_eval)"),
    "exp-log2": N_("gain = 2^grade − 1, discount = log2(i + 1) (Burges; ranx ndcg_burges)"),
    "jarvelin": N_("gain = grade, ranks 1..2 undiscounted, then ÷ log2(i) (Järvelin–Kekäläinen, IR course lab)"),
}
IDEALS = {
    "qrels": N_("from every judged document (trec_eval)"),
    "ranking": N_("from the retrieved list only (sklearn ndcg_score)"),
}


def main() -> None:
    options.sync(PAGE)  # the gain/discount and ideal switches from the link, or into it
    lessons.run(
        PAGE,
        _("CG → DCG → IDCG → nDCG"),
        _("**CG@k** adds the grades of the top k, ignoring their order. **DCG@k** divides each gain by a "
        "**discount** that grows with the rank, so a good result lower down is worth less. **IDCG@k** is "
        "the DCG of the best possible ordering, and **nDCG@k = DCG@k / IDCG@k** is between 0 and 1."),
        lesson, editor=False)


def lesson(inputs: lessons.LessonInputs) -> None:
    """Everything k and the gain/discount and ideal switches change: they rerun only this part."""
    ex, q, k = inputs.example, inputs.query, inputs.k
    if ex.mode == "binary":
        st.info(_("Binary mode: every relevant document has gain 1. Switch to *graded* to use the grades."), icon=":material/info:")
    n = len(q.ranking)
    switches = st.columns(2)
    dcg = switches[0].radio(_("gain and discount"), list(CONVENTIONS), format_func=shown(lambda c: _(CONVENTIONS[c])),
                            key=f"{PAGE}.dcg")
    ideal = switches[1].radio(_("ideal ordering"), list(IDEALS), format_func=shown(lambda i: _(IDEALS[i])), key=f"{PAGE}.ideal")
    ndcg = metrics.parse("nDCG").with_params(dcg=dcg, ideal=ideal)

    ranking, judgments, labels = inputs.ranking, inputs.judgments, inputs.labels
    top_grade = max(judgments.values(), default=1)
    e = explained.explain(ndcg.with_cutoff(k), ranking, judgments)
    cg = explained.explain(metrics.parse("CG").with_params(dcg=dcg).with_cutoff(k), ranking, judgments)
    cols = st.columns(4)
    cols[0].metric(f"CG@{k}", metrics.num(cg.value, fixed=True))
    cols[1].metric(f"DCG@{k}", metrics.num(e.summary["DCG"], fixed=True))
    cols[2].metric(f"IDCG@{k}", metrics.num(e.summary["IDCG"], fixed=True))
    cols[3].metric(e.measure, metrics.num(e.value, fixed=True))
    st.caption(_("In general"))
    render.formula(e, substituted=False)
    st.caption(_("With the numbers"))
    render.formula(e)
    render.download_solution(e, k=k, labels=labels, key=f"{PAGE}.ndcg", title="nDCG")

    st.subheader(_("The actual ordering beside the ideal one"))
    full = explained.explain(ndcg.with_cutoff(n), ranking, judgments)
    sides = st.columns(2, gap="large")
    with sides[0]:
        st.markdown(_("**Actual ordering**"))
        render.chart(charts.gain_bars, full.columns, title="", max_grade=top_grade, k=k,
                     key=f"{PAGE}.actual", name="dcg_actual")
    with sides[1]:
        ideal_cols = full.ideal or {}
        st.markdown(_("**Ideal ordering** (the grades sorted, best first)"))
        if ideal_cols.get("rank"):
            render.chart(charts.gain_bars, ideal_cols, title="", max_grade=top_grade,
                                          k=k, key=f"{PAGE}.ideal_chart", name="dcg_ideal")
        else:
            st.info(_("No relevant document is judged, so there is no ideal ordering (nDCG is 0)."))

    series = {"nDCG@k": views.curve(full, "ndcg")}
    render.chart(charts.metric_over_k, series, k=k, title=_("nDCG at every k (click a point)"),
                 key=f"{PAGE}.over_k", name="ndcg_over_k", on_pick=widgets.set_k_from_chart)
    falls = views.falls(series["nDCG@k"])
    st.markdown(
        _("**Why can nDCG@k fall as k grows?** DCG@k never falls, but IDCG@k grows too: the ideal list "
          "puts the best grades first, so each extra rank adds to IDCG at least as much as it adds to "
          "DCG — unless the actual ranking places a good document there.") + " "
        + (_("Here nDCG falls at k = {ks}.").format(ks=", ".join(map(str, falls))) if falls else
           _("Here it does not fall: try moving a grade-0 item up on the Playground.")))
    dcg_series = {"DCG": views.curve(full, "dcg"), "IDCG": views.curve(full, "idcg")}
    render.chart(charts.metric_over_k, dcg_series, k=k, title=_("DCG and IDCG at every k"), y_title=_("gain"),
                                      domain_one=False,
                 key=f"{PAGE}.dcg_over_k", name="dcg_idcg_over_k", on_pick=widgets.set_k_from_chart)

    st.subheader(_("Step by step"))
    render.step_table(full.columns, k=k, labels=labels, key=f"{PAGE}.steps", name="ndcg_steps",
                      caption=_("'adds' = gain ÷ discount; DCG@i is its running sum; the ideal columns do the "
                                "same for the grades sorted from best to worst."))


main()
