"""Playground: edit a ranking and its grades, and see every metric at k."""

import streamlit as st

import metrics
from ui import charts, render, state, views, widgets

PAGE = "playground"

# measure (with {k} for the cutoff), what to call it, and the lesson that explains it
SUMMARY = [
    ("P@{k}", "Precision@k", "pages/lesson_precision_recall.py"),
    ("R@{k}", "Recall@k", "pages/lesson_precision_recall.py"),
    ("F1@{k}", "F1@k", "pages/lesson_precision_recall.py"),
    ("Success@{k}", "Success@k", "pages/lesson_reciprocal_rank.py"),
    ("RR@{k}", "RR@k", "pages/lesson_reciprocal_rank.py"),
    ("AP@{k}", "AP@k", "pages/lesson_average_precision.py"),
    ("DCG@{k}", "DCG@k", "pages/lesson_dcg.py"),
    ("nDCG@{k}", "nDCG@k", "pages/lesson_dcg.py"),
    ("Rprec", "R-precision", "pages/lesson_pr_curve.py"),
    ("11pt", "11-point avg", "pages/lesson_pr_curve.py"),
]
GROUPED = [("precision", "P"), ("recall", "R"), ("f1", "F1"), ("mrr", "MRR"), ("map", "MAP"), ("ndcg", "nDCG")]


def summary(ranking, judgments, k: int) -> None:
    st.subheader(f"Every metric at k = {k}")
    cols = st.columns(5)
    for n, (measure, title, lesson) in enumerate(SUMMARY):
        e = metrics.explain(measure.format(k=k), ranking, judgments)
        with cols[n % 5]:
            st.metric(title, f"{e.value:.4f}".rstrip("0").rstrip(".") if e.value else "0",
                      help=f"{e.measure} — click the link for the lesson")
            st.page_link(lesson, label="lesson →")


def grouped_summary(q, k: int) -> None:
    groups = q.group_lists()
    ids = [item.id for item in q.ranking]
    st.subheader("Seed 001's grouped reading")
    st.caption("Ground truth as groups: any id of a group satisfies it, every group must be satisfied. "
               "Groups: " + " AND ".join("(" + " or ".join(g) + ")" for g in groups))
    cols = st.columns(len(GROUPED))
    for col, (fn, title) in zip(cols, GROUPED, strict=True):
        value = getattr(metrics.grouped, fn)(ids, groups, k=k)
        col.metric(f"{title}@{k} (groups)", f"{value:.4f}".rstrip("0").rstrip(".") if value else "0")


def main() -> None:
    ex = state.get_example()
    st.title("Playground")
    render.messages()
    st.markdown("Edit the ranked list: change a **label** or a **grade** (0 = not relevant), add rows at the "
                "bottom, move items with the buttons. Every number below follows the edit.")
    top = st.columns([3, 2, 2])
    with top[0]:
        widgets.preset_picker(PAGE)
    with top[1]:
        widgets.query_picker(PAGE)
    with top[2]:
        widgets.mode_switch(PAGE)
    ex = state.get_example()
    q = ex.query
    n = len(q.ranking)
    k = widgets.k_slider(PAGE, n)

    left, right = st.columns([3, 2], gap="large")
    with left:
        st.markdown(f"**Ranked results** for *{widgets.query_title(q)}*")
        widgets.ranking_editor(PAGE, height=min(38 + 35 * max(n + 1, 3), 420))
    with right:
        st.markdown("**Relevant but not retrieved** (they count in R and in the ideal ordering)")
        widgets.tray_editor(PAGE)
        st.markdown("**Move an item**")
        widgets.item_actions(PAGE)

    ex = state.get_example()
    q = ex.query
    n = len(q.ranking)
    if n == 0:
        render.empty_notice()
        return
    k = state.effective_k(ex)
    ranking, judgments = q.inputs(ex.mode)
    st.altair_chart(charts.ranking_strip(views.item_rows(q.ranking), k), width="stretch",
                    key=f"{PAGE}.strip")
    summary(ranking, judgments, k)
    if q.groups:
        grouped_summary(q, k)

    series = {name: metrics.scores_over_k(name, ranking, judgments) for name in ("P", "R", "nDCG")}
    render.chart(charts.metric_over_k(series, k, title="Precision, recall and nDCG at every k (click a point)"),
                 key=f"{PAGE}.over_k", name="playground_over_k", pick_k=True)
    with st.expander("Permalink"):
        params = state.permalink_params(ex)
        if params:
            st.caption("The address in your browser restores this exact example; copy it from here:")
            base = st.context.url or ""
            st.code(f"{base}?{state.PARAM}={params[state.PARAM]}", language=None, wrap_lines=True)
        else:
            st.caption("This example is too large to fit in a link.")


main()
