"""Playground: edit a ranking and its grades, and see every metric at k."""

import streamlit as st

import metrics
from ranklab_ui import render, widgets
from ranklab_ui.core import charts, explained, views
from ranklab_ui.core.i18n import N_, _
from ranklab_ui.parts import presenter
from ranklab_ui.session import state
from ranklab_ui.widgets import paste_box

PAGE = "playground"

# measure (with {k} for the cutoff), what to call it, and the lesson that explains it
SUMMARY = [
    ("P@{k}", N_("Precision@k"), "app_pages/lesson_precision_recall.py"),
    ("R@{k}", N_("Recall@k"), "app_pages/lesson_precision_recall.py"),
    ("F1@{k}", N_("F1@k"), "app_pages/lesson_precision_recall.py"),
    ("Success@{k}", N_("Success@k"), "app_pages/lesson_reciprocal_rank.py"),
    ("RR@{k}", N_("RR@k"), "app_pages/lesson_reciprocal_rank.py"),
    ("AP@{k}", N_("AP@k"), "app_pages/lesson_average_precision.py"),
    ("DCG@{k}", N_("DCG@k"), "app_pages/lesson_dcg.py"),
    ("nDCG@{k}", N_("nDCG@k"), "app_pages/lesson_dcg.py"),
    ("Rprec", N_("R-precision"), "app_pages/lesson_pr_curve.py"),
    ("11pt", N_("11-point avg"), "app_pages/lesson_pr_curve.py"),
]
GROUPED = [("precision", "P"), ("recall", "R"), ("f1", "F1"), ("mrr", "MRR"), ("map", "MAP"), ("ndcg", "nDCG")]


def summary(ranking, judgments, k: int) -> None:
    """Every measure at k, each a link to the lesson that explains it."""
    st.markdown(_("**Every metric at k = {k}** (click one for its lesson)").format(k=k))
    # one list, in reading order, that never cuts a value (two columns cut them at 1024 px
    # with the sidebar open); ten short lines fit beside the grid
    with st.container(gap="xxsmall"):
        for measure, title, lesson in SUMMARY:
            e = explained.explain(measure.format(k=k), ranking, judgments)
            st.page_link(lesson, label=f"{_(title).replace('@k', f'@{k}')} = **{metrics.num(e.value)}**",
                         help=_("{measure}: open the lesson").format(measure=e.measure), width="content")


def grouped_summary(q, k: int) -> None:
    groups = q.group_lists()
    ids = [item.id for item in q.ranking]
    st.subheader(_("The AutoRAG study notes' grouped reading"))
    st.caption(_("Ground truth as groups: any id of a group satisfies it, every group must be satisfied. "
                 "Groups: ") + _(" AND ").join("(" + _(" or ").join(render.plain(d, 40) for d in g) + ")" for g in groups))
    cols = st.columns(len(GROUPED))
    for col, (fn, title) in zip(cols, GROUPED, strict=True):
        value = getattr(metrics.grouped, fn)(ids, groups, k=k)
        col.metric(_("{measure} (groups)").format(measure=f"{title}@{k}"), metrics.num(value))


def main() -> None:
    if presenter.active():
        presenter.show(PAGE)
        return
    st.title(_("Playground"))
    render.messages()
    # the relevance switch's two labels need ~220 px (French), which [3, 2, 3] did not give it
    # at 1024 px with the sidebar open: "graded (0..10)" ran out of its column
    top = st.columns([5, 3, 6])
    with top[0]:
        widgets.preset_picker(PAGE)
    with top[1]:
        widgets.query_picker(PAGE)
    with top[2]:
        widgets.mode_switch(PAGE)
        # the browser's address is the link (no code block showing it again: st.code made the
        # first visit load a 1.5 MB syntax highlighter, and it changed on every rerun)
        render.copy_link(render.permalink())  # "Copy link": one line in every language at 1024 px
        presenter.toggle(on=True)
    body(top[0])


@st.fragment
def body(note) -> None:
    """Everything an edit or a new k changes — the preset's note, the slider, the editor, the
    measures, the curve — and nothing else: an edit in the editor or a new k (the slider, a
    click on the curve) reruns only this part. It writes the preset's note into the page's
    column, so each part stays where it belongs."""
    with note:
        widgets.preset_note()
    ex = state.get_example()
    q = ex.query
    k = state.effective_k(ex)
    widgets.k_slider(PAGE, len(q.ranking))
    left, right = st.columns([3, 2], gap="large")
    with left:
        st.markdown(_("**Ranked results** for *{query}*: grade with a digit or a click on the grade, drag or "
                      "Alt+↑ ↓ to move, Delete to send to the tray").format(query=widgets.query_title(q)))
        widgets.ranking_editor(PAGE, height=390)
        paste_box.paste_box(PAGE)
    with right:  # the measures: what the reader watches
        if not q.ranking:
            render.empty_notice()
            return
        ranking, judgments = q.inputs(ex.mode)
        summary(ranking, judgments, k)
    if q.groups:
        grouped_summary(q, k)
    n = len(ranking)
    pr, nd = explained.explain(f"P@{n}", ranking, judgments), explained.explain(f"nDCG@{n}", ranking, judgments)
    series = {"P": views.curve(pr, "precision"), "R": views.curve(pr, "recall"),
              "nDCG": views.curve(nd, "ndcg")}
    render.chart(charts.metric_over_k, series, k=k,
                 title=_("Precision, recall and nDCG at every k (click a point)"),
                 key=f"{PAGE}.over_k", name="playground_over_k", on_pick=widgets.set_k_from_chart)
    render.notebook_button(PAGE, title=_("Playground"))


main()
