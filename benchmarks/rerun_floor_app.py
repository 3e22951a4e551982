"""The floor of ``class_load.py --cpu --floor``: the least a k step can cost the server in
Streamlit. One fragment that draws one slider under the Playground's key for k, and nothing
else, so a k step is one fragment run with one element sent back.

    streamlit run benchmarks/rerun_floor_app.py
"""

import streamlit as st


@st.fragment
def k_only() -> None:
    st.slider("k — the cutoff", 1, 8, 4, key="playground.k")


k_only()
