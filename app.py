"""Ranklab: page config and routing only."""

import streamlit as st

st.set_page_config(page_title="Ranklab", page_icon="📦", layout="wide")

pages = {
    "Play": [
        st.Page("pages/playground.py", title="Playground", icon=":material/tune:", default=True),
        st.Page("pages/many_queries.py", title="Many queries", icon=":material/stacks:"),
    ],
    "Lessons": [
        st.Page("pages/lesson_precision_recall.py", title="Precision, recall, F1", icon=":material/target:"),
        st.Page("pages/lesson_reciprocal_rank.py", title="RR and MRR", icon=":material/looks_one:"),
        st.Page("pages/lesson_average_precision.py", title="AP and MAP", icon=":material/show_chart:"),
        st.Page("pages/lesson_dcg.py", title="CG → DCG → nDCG", icon=":material/stairs:"),
        st.Page("pages/lesson_pr_curve.py", title="Precision–recall curve", icon=":material/ssid_chart:"),
    ],
    "Teach": [
        st.Page("pages/check_calculation.py", title="Check my calculation", icon=":material/task_alt:"),
        st.Page("pages/practice.py", title="Practice", icon=":material/school:"),
        st.Page("pages/conventions.py", title="Conventions explorer", icon=":material/explore:"),
        st.Page("pages/pitfalls.py", title="Pitfall gallery", icon=":material/warning:"),
        st.Page("pages/compare.py", title="Compare two systems", icon=":material/compare_arrows:"),
        st.Page("pages/swap_map.py", title="Swap map", icon=":material/swap_vert:"),
    ],
    "Reader": [st.Page("pages/reader.py", title="Reader (QA) metrics", icon=":material/quiz:")],
    "Check numbers": [
        st.Page("pages/evaluate_files.py", title="Evaluate files", icon=":material/upload_file:"),
    ],
}
st.navigation(pages).run()
