"""The floor for benchmarks/browser_latency.py: the same widgets as Ranklab's Playground with
nothing behind them, so a timing here is what Streamlit and the widget cost by themselves.

    streamlit run benchmarks/latency_floor_app.py -- --items 100

The ranking editor (the same component, ``ranklab/ranking_editor``) holding N results: the lists
it sends are kept as they come and echoed by ``st.write`` (the sum of the grades, a checksum of
the order). A slider whose value ``st.write`` echoes. No measure, no history, no fragment.
"""

import sys
import zlib

import streamlit as st

from ranklab_ui.widgets.ranking_editor import texts

n = int(sys.argv[sys.argv.index("--items") + 1]) if "--items" in sys.argv else 100
st.set_page_config(layout="wide")
editor = st.components.v2.component("ranklab.ranking_editor", js="editor.js", css="editor.css")
ss = st.session_state
ss.setdefault("lists", ([[f"d{i}", f"result {i}", 0] for i in range(1, n + 1)], []))
ss.setdefault("processed", 0)


def received() -> None:
    """Keep the lists of every event not seen yet, as they are."""
    for event in (ss.get("editor") or {}).get("events") or []:
        if event["seq"] > ss.processed:
            ss.processed = event["seq"]
            if event.get("ranking") is not None:
                ss.lists = (event["ranking"], event.get("tray") or [])


ranking, tray = ss.lists
editor(key="editor", default={"events": []}, on_events_change=received, data={
    "version": 0, "processed": ss.processed, "ranking": ranking, "tray": tray, "undo": [], "redo": [],
    "undo_count": 0, "redo_count": 0, "depth": 50, "k": min(5, n), "mode": "graded", "grade_max": 10,
    "label_chars": 200, "most": 1000, "layout": "rows", "height": 390, "notice": None, "texts": texts()})
st.write(f"echo grade {sum(row[2] or 0 for row in ranking)}")
st.write(f"echo order {zlib.crc32(' '.join(row[0] for row in ranking).encode())}")
k = st.slider("k — the cutoff", 1, n, min(5, n), key="k")
st.write(f"echo k {k}")
