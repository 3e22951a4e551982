"""Conventions explorer: the current example under every preset, and the code to reproduce it."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from metrics.conventions import PRESETS
from metrics.teaching import explorer
from ui import lessons, render, teach_view, teaching_charts
from ui.views import escape_markdown

PAGE = "conventions"
SHORT = {"trec_eval": "trec_eval", "sklearn": "sklearn", "seed004": "seed 004", "exp-gain": "2^rel − 1 gain",
         "seed002": "seed 002 (J&K)", "recommenders": "÷ min(k,R)", "seed001": "seed 001 groups",
         "seed000": "seed 000 hit rate"}
LIBRARY_TITLES = {"pytrec_eval": "pytrec_eval", "sklearn": "scikit-learn", "ranx": "ranx",
                  "ir_measures": "ir_measures", "ranklab": "Ranklab"}


def _measures(k: int) -> list[str]:
    return lessons.measures_box("Measures (as trec_eval computes them)", f"P@{k} R@{k} RR AP nDCG@{k}",
                                key=f"{PAGE}.measures.{k}",
                                help="Space-separated, e.g. P@5 AP nDCG@10. Each column below shows how another "
                                     "tool or source computes the same measure.")


def _table(x) -> pd.DataFrame:
    rows = []
    for r in x.rows:
        row = {"measure": r.measure}
        for p in x.presets:
            c = r.cells[p]
            text = teach_view.fmt(c.value)
            if c.differs:
                text += " ◆"
            row[SHORT.get(p, p)] = text
        rows.append(row)
    return pd.DataFrame(rows)


def _moves(x) -> pd.DataFrame:
    rows = []
    for r in x.rows:
        for p in x.presets:
            c = r.cells[p]
            if c.differs or c.value is None:
                rows.append({"measure": r.measure, "convention": PRESETS[p].title, "written as": c.measure,
                             "value": teach_view.fmt(c.value), "trec_eval": teach_view.fmt(r.cells["trec_eval"].value),
                             "what moves it": ", ".join(c.moved_by) or c.note})
    return pd.DataFrame(rows, columns=["measure", "convention", "written as", "value", "trec_eval", "what moves it"])


def main() -> None:
    st.title("Conventions explorer")
    st.markdown("The same ranking, the same judgments — and different numbers depending on the tool. "
                "Each column is one convention; **◆** marks a value that differs from trec_eval's, and the "
                "second table names the parameter responsible.")
    render.messages()
    lessons.example_controls(PAGE)
    cq = lessons.current()
    st.caption(f"Query “{render.plain(cq.name)}”, {len(cq.ranking)} results, k = {cq.k}.")
    ms = _measures(cq.k)
    try:
        x = explorer.explore(ms, cq.ranking, cq.judgments, groups=cq.groups or None)
    except ValueError as err:
        st.error(escape_markdown(f"Cannot evaluate this example: {err}"))
        return
    st.dataframe(_table(x), hide_index=True, width="stretch")
    moves = _moves(x)
    if len(moves):
        st.markdown("**What moves each number**")
        st.dataframe(moves, hide_index=True, width="stretch")
    else:
        st.info("On this example every convention agrees with trec_eval. Try a ranking that misses a "
                "relevant document, or graded judgments, to see them part.")
    with st.expander("What each column means"):
        for key, p in PRESETS.items():
            st.markdown(f"**{escape_markdown(SHORT.get(key, key))}** — {escape_markdown(p.title)}: "
                        f"{escape_markdown(p.description)}")

    st.subheader("Reproduce a number in code")
    c1, c2 = st.columns(2)
    measure = c1.selectbox("Measure", ms, index=len(ms) - 1, key=f"{PAGE}.code_measure")
    presets = [p for p in x.presets if not PRESETS[p].grouped]
    preset = c2.selectbox("Convention", presets, format_func=lambda p: PRESETS[p].title, key=f"{PAGE}.code_preset")
    cell = next(r for r in x.rows if r.measure == measure).cells[preset]
    st.markdown(f"**{escape_markdown(measure)} under each convention** (orange: differs from trec_eval)")
    chart = teaching_charts.conventions_bars(x, measure, SHORT)
    st.altair_chart(chart, width="stretch")
    st.markdown(f"{escape_markdown(PRESETS[preset].title)} computes **{escape_markdown(measure)}** as "
                f"`{cell.measure}` = **{teach_view.fmt(cell.value)}**.")
    snippets = explorer.snippets(cell.measure, cq.ranking, cq.judgments)
    libraries = [s.library for s in snippets if s.library != "ranklab"]
    if not libraries:
        st.info("No library implements this convention; Ranklab's line reproduces it.")
    tabs = st.tabs([LIBRARY_TITLES[s.library] for s in snippets])
    for tab, s in zip(tabs, snippets, strict=True):
        tab.code(s.code, language="python")


main()
