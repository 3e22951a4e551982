"""Conventions explorer: the current example under every preset, and the code to reproduce it."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from metrics.conventions import PRESETS
from metrics.teaching import explorer
from ranklab_ui import render
from ranklab_ui.core import teach_view, teaching_charts
from ranklab_ui.core.i18n import _, ngettext, shown
from ranklab_ui.core.views import escape_markdown
from ranklab_ui.parts import lessons

PAGE = "conventions"
# each convention by the tool, paper or document it comes from (docs/sources.md names each document)
SHORT = {key: p.short for key, p in PRESETS.items()}
LIBRARY_TITLES = {"pytrec_eval": "pytrec_eval", "sklearn": "scikit-learn", "ranx": "ranx",
                  "ir_measures": "ir_measures", "ranklab": "Ranklab"}


def _measures(k: int) -> list[str]:
    return lessons.measures_box(_("Measures (as trec_eval computes them)"), f"P@{k} R@{k} RR AP nDCG@{k}",
                                key=f"{PAGE}.measures.{k}",
                                help=_("Space-separated, e.g. P@5 AP nDCG@10. Each column below shows how another "
                                       "tool or source computes the same measure."))


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
                rows.append({_("measure"): r.measure, _("convention"): _(PRESETS[p].title), _("written as"): c.measure,
                             _("value"): teach_view.fmt(c.value), "trec_eval": teach_view.fmt(r.cells["trec_eval"].value),
                             _("what moves it"): ", ".join(c.moved_by) or c.note})
    return pd.DataFrame(rows, columns=[_("measure"), _("convention"), _("written as"), _("value"), "trec_eval",
                                       _("what moves it")])


def main() -> None:
    st.title(_("Conventions explorer"))
    st.markdown(_("The same ranking, the same judgments — and different numbers depending on the tool. "
                  "Each column is one convention; **◆** marks a value that differs from trec_eval's, and the "
                  "second table names the parameter responsible."))
    render.messages()
    lessons.example_controls(PAGE)
    cq = lessons.current()
    st.caption(ngettext("Query “{name}”, {n} result, k = {k}.", "Query “{name}”, {n} results, k = {k}.",
                        len(cq.ranking)).format(name=render.plain(cq.name), n=len(cq.ranking), k=cq.k))
    ms = _measures(cq.k)
    try:
        x = explorer.explore(ms, cq.ranking, cq.judgments, groups=cq.groups or None)
    except ValueError as err:
        st.error(escape_markdown(_("Cannot evaluate this example: {error}").format(error=err)))
        return
    render.table(_table(x))
    moves = _moves(x)
    if len(moves):
        st.markdown(_("**What moves each number**"))
        render.table(moves)
    else:
        st.info(_("On this example every convention agrees with trec_eval. Try a ranking that misses a "
                  "relevant document, or graded judgments, to see them part."))
    with st.expander(_("What each column means")):
        for key, p in PRESETS.items():
            st.markdown(f"**{escape_markdown(_(SHORT.get(key, key)))}** — {escape_markdown(_(p.title))}: "
                        f"{escape_markdown(_(p.description))}")

    st.subheader(_("Reproduce a number in code"))
    c1, c2 = st.columns(2)
    measure = c1.selectbox(_("Measure"), ms, index=len(ms) - 1, key=f"{PAGE}.code_measure")
    presets = [p for p in x.presets if not PRESETS[p].grouped]
    preset = c2.selectbox(_("Convention"), presets, format_func=shown(lambda p: _(PRESETS[p].title)), key=f"{PAGE}.code_preset")
    cell = next(r for r in x.rows if r.measure == measure).cells[preset]
    st.markdown(_("**{measure} under each convention** (orange: differs from trec_eval)").format(
        measure=escape_markdown(measure)))
    chart = teaching_charts.conventions_bars(x, measure, SHORT)
    st.altair_chart(chart, width="stretch")
    st.markdown(_("{convention} computes **{measure}** as `{written}` = **{value}**.").format(
        convention=escape_markdown(_(PRESETS[preset].title)), measure=escape_markdown(measure), written=cell.measure,
        value=teach_view.fmt(cell.value)))
    snippets = explorer.snippets(cell.measure, cq.ranking, cq.judgments)
    libraries = [s.library for s in snippets if s.library != "ranklab"]
    if not libraries:
        st.info(_("No library implements this convention; Ranklab's line reproduces it."))
    tabs = st.tabs([LIBRARY_TITLES[s.library] for s in snippets])
    for tab, s in zip(tabs, snippets, strict=True):
        tab.code(s.code, language="python")


main()
