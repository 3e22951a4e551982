"""Ranklab: page config and routing only."""

import streamlit as st

st.set_page_config(page_title="Ranklab", page_icon="📦", layout="wide")

pages = {
    "Learn": [st.Page("pages/playground.py", title="Playground", icon="🎛️", default=True)],
    "Reader": [st.Page("pages/reader.py", title="Reader (QA) metrics", icon="💬")],
    "Check numbers": [st.Page("pages/evaluate_files.py", title="Evaluate files", icon="📂")],
}
st.navigation(pages).run()
