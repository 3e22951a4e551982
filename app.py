"""Ranklab: page config and routing only."""

import streamlit as st

st.set_page_config(page_title="Ranklab", page_icon="📦", layout="wide")

pages = {
    "Learn": [st.Page("pages/playground.py", title="Playground", icon="🎛️", default=True)],
    "Teach": [
        st.Page("pages/check_calculation.py", title="Check my calculation", icon="✅"),
        st.Page("pages/practice.py", title="Practice", icon="🎯"),
        st.Page("pages/conventions.py", title="Conventions explorer", icon="🧭"),
        st.Page("pages/pitfalls.py", title="Pitfall gallery", icon="⚠️"),
        st.Page("pages/compare.py", title="Compare two systems", icon="⚖️"),
        st.Page("pages/swap_map.py", title="Swap map", icon="🔀"),
    ],
    "Reader": [st.Page("pages/reader.py", title="Reader (QA) metrics", icon="💬")],
}
st.navigation(pages).run()
