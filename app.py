"""Ranklab: page config, routing, and the app-wide switches under the navigation."""

import streamlit as st

from ui import render

# the presenter view (ui/presenter.py) starts with the sidebar collapsed
present = st.query_params.get("view") == "present"
st.set_page_config(page_title="Ranklab", page_icon="📦", layout="wide",
                   initial_sidebar_state="collapsed" if present else "auto")

pages = {
    "Play": [
        st.Page("app_pages/playground.py", title="Playground", icon=":material/tune:", default=True),
        st.Page("app_pages/many_queries.py", title="Many queries", icon=":material/stacks:"),
    ],
    "Lessons": [
        st.Page("app_pages/lesson_precision_recall.py", title="Precision, recall, F1", icon=":material/target:"),
        st.Page("app_pages/lesson_reciprocal_rank.py", title="RR and MRR", icon=":material/looks_one:"),
        st.Page("app_pages/lesson_average_precision.py", title="AP and MAP", icon=":material/show_chart:"),
        st.Page("app_pages/lesson_dcg.py", title="CG → DCG → nDCG", icon=":material/stairs:"),
        st.Page("app_pages/lesson_pr_curve.py", title="Precision–recall curve", icon=":material/ssid_chart:"),
        st.Page("app_pages/lesson_users.py", title="What does the user do?", icon=":material/directions_walk:"),
        st.Page("app_pages/lesson_unjudged.py", title="Unjudged documents", icon=":material/help:"),
    ],
    "Teach": [
        st.Page("app_pages/check_calculation.py", title="Check my calculation", icon=":material/task_alt:"),
        st.Page("app_pages/practice.py", title="Practice", icon=":material/school:"),
        st.Page("app_pages/class_poll.py", title="Class poll", icon=":material/how_to_vote:"),
        st.Page("app_pages/conventions.py", title="Conventions explorer", icon=":material/explore:"),
        st.Page("app_pages/pitfalls.py", title="Pitfall gallery", icon=":material/warning:"),
        st.Page("app_pages/compare.py", title="Compare systems", icon=":material/compare_arrows:"),
        st.Page("app_pages/swap_map.py", title="Swap map", icon=":material/swap_vert:"),
    ],
    "Reader": [st.Page("app_pages/reader.py", title="Reader (QA) metrics", icon=":material/quiz:")],
    "Check numbers": [
        st.Page("app_pages/evaluate_files.py", title="Evaluate files", icon=":material/upload_file:"),
        st.Page("app_pages/diagnose.py", title="Diagnose a discrepancy", icon=":material/troubleshoot:"),
    ],
}
page = st.navigation(pages)
render.sidebar_settings()  # app-wide switches, under the navigation
page.run()
