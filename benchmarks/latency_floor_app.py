"""The floor for benchmarks/browser_latency.py: the same kinds of widget as Ranklab's
Playground, with nothing behind them, so a timing here is what Streamlit itself costs.

    streamlit run benchmarks/latency_floor_app.py -- --items 100

A data editor of N rows (rank, grade, label, id) whose edited grade is echoed by
``st.write``, a button that counts its clicks, and a slider echoing its value.
"""

import sys

import pandas as pd
import streamlit as st

n = int(sys.argv[sys.argv.index("--items") + 1]) if "--items" in sys.argv else 100
st.set_page_config(layout="wide")
frame = pd.DataFrame({"rank": range(1, n + 1), "grade": [0.0] * n,
                      "label": [f"result {i}" for i in range(1, n + 1)], "id": [f"d{i}" for i in range(1, n + 1)]})
edited = st.data_editor(frame, key="grid", hide_index=True, height=390, num_rows="dynamic",
                        column_config={"rank": st.column_config.NumberColumn(disabled=True),
                                       "grade": st.column_config.NumberColumn(min_value=0, max_value=10, step=1),
                                       "id": st.column_config.TextColumn(disabled=True)})
st.write(f"echo grade {int(edited['grade'].sum())}")
if st.button("↓ down"):
    st.session_state["clicks"] = st.session_state.get("clicks", 0) + 1
st.write(f"echo clicks {st.session_state.get('clicks', 0)}")
k = st.slider("k — the cutoff", 1, n, min(5, n), key="k")
st.write(f"echo k {k}")
