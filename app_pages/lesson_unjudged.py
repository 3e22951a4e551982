"""Lesson: unjudged documents — bpref, Judged@k, condensed lists (-J) and RBP's residual."""

import pandas as pd
import streamlit as st

import metrics
from metrics.teaching.users import condensed, kept_judgments
from ranklab_ui import render
from ranklab_ui.core import explained, teaching_charts
from ranklab_ui.core.i18n import N_, _
from ranklab_ui.parts import lessons

PAGE = "lesson_unjudged"
SHARES = [i / 10 for i in range(10)]

NOTES = [
    N_("**AP and P@k** count an unjudged document as not relevant, so they fall as judgments go: "
       "a relevant document nobody judged looks like a miss."),
    N_("**AP (condensed)** scores the list with the unjudged documents taken out first (trec_eval -J), "
       "so the judged ones move up: it falls much less, but now the ranking it scores is not the one "
       "the user saw."),
    N_("**Bpref** only compares relevant documents with judged non-relevant ones; unjudged documents "
       "are skipped, which keeps it steadier when judgments are incomplete (Buckley & Voorhees 2004)."),
    N_("**Judged@k** is the share of the top k that has a judgment: a warning light, not a score. "
       "When it is low, read every other number with care."),
    N_("**RBP** is a lower bound: unjudged documents count 0. Its **residual** is the weight they, and "
       "the ranks past the end, could still add; RBP + residual is the upper bound. The gap between "
       "the two lines is what the missing judgments leave unknown (Moffat & Zobel 2008)."),
]


def main() -> None:
    lessons.run(
        PAGE,
        _("Unjudged documents"),
        _("Nobody judges every document. A measure has to decide what an **unjudged** one is worth: most "
          "count it as not relevant, some skip it, and RBP says how much it could still change. Remove "
          "judgments below and watch how each measure moves."),
        lesson, editor=True)


def lesson(inputs: lessons.LessonInputs) -> None:
    ranking, judgments, k, labels = inputs.ranking, inputs.judgments, inputs.k, inputs.labels
    share = st.select_slider(_("Judgments removed (in one fixed random order)"), SHARES, 0.0,
                             format_func=lambda v: f"{v:.0%}", key=f"{PAGE}.removed")
    kept = kept_judgments(judgments, share)
    rows = explained.removal(ranking, judgments, k)
    now = {r["measure"]: r["value"] for r in rows if r["removed"] == share}
    start = {r["measure"]: r["value"] for r in rows if r["removed"] == 0.0}
    st.text(_("{left} of {total} judgments left").format(left=len(kept), total=len(judgments)))
    cols = st.columns(4)
    for i, (name, value) in enumerate(now.items()):
        cols[i % 4].metric(name, metrics.num(value, fixed=True),
                           delta=metrics.num(value - start[name], fixed=True) if share else None)

    render.altair_chart(teaching_charts.removal_lines, rows, share, key=f"{PAGE}.lines",
                        title=_("Each measure as judgments are removed"))
    for note in NOTES:
        st.markdown(_(note))

    st.subheader(_("The list as each measure sees it"))
    short = condensed(ranking, kept)
    place = {d: i + 1 for i, d in enumerate(short)}
    frame = pd.DataFrame({
        _("rank"): list(range(1, len(ranking) + 1)),
        _("document"): [labels.get(d, d) for d in ranking],
        _("grade"): [_("unjudged") if kept.get(d) is None else str(kept[d]) for d in ranking],
        _("rank in the condensed list (-J)"): [str(place[d]) if d in place else "—" for d in ranking],
    })
    render.table(frame, height=min(38 + 35 * len(ranking), 400), key=f"{PAGE}.list")

    st.subheader(_("RBP's residual, with the numbers"))
    rbp = explained.explain("RBP(bound='upper')", ranking, kept)
    render.formula(rbp)
    st.subheader(_("Bpref, with the numbers"))
    render.formula(explained.explain("Bpref", ranking, kept))


main()
