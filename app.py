"""Ranklab: page config and routing only."""

import streamlit as st

st.set_page_config(page_title="Ranklab", page_icon="📦", layout="wide")

pages = {
    "Play": [
        st.Page("pages/playground.py", title="Playground", icon="🎛️", default=True),
        st.Page("pages/many_queries.py", title="Many queries", icon="🗂️"),
    ],
    "Lessons": [
        st.Page("pages/lesson_precision_recall.py", title="Precision, recall, F1", icon="🎯"),
        st.Page("pages/lesson_reciprocal_rank.py", title="RR and MRR", icon="🥇"),
        st.Page("pages/lesson_average_precision.py", title="AP and MAP", icon="📈"),
        st.Page("pages/lesson_dcg.py", title="CG → DCG → nDCG", icon="🪜"),
        st.Page("pages/lesson_pr_curve.py", title="Precision–recall curve", icon="〰️"),
    ],
}
st.navigation(pages).run()
