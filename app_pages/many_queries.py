"""Many queries: edit several rankings; per-query RR, AP and nDCG; MRR and MAP written out."""

from dataclasses import replace

import streamlit as st

import metrics
from ranklab_ui import render, widgets
from ranklab_ui.core import charts, views
from ranklab_ui.core.i18n import _
from ranklab_ui.session import state

PAGE = "many"


def add_query() -> None:
    ex = state.get_example()
    name = _("query {n}").format(n=len(ex.queries) + 1)
    state.set_example(replace(ex, queries=(*ex.queries, state.Query(name)), current=len(ex.queries)))


def remove_query(i: int) -> None:
    ex = state.get_example()
    if len(ex.queries) > 1:
        queries = ex.queries[:i] + ex.queries[i + 1:]
        state.set_example(replace(ex, queries=queries, current=min(ex.current, len(queries) - 1)))


def rename(i: int, key: str) -> None:
    ex = state.get_example()
    state.set_current_query(replace(ex.queries[i], name=st.session_state.get(key, "")), index=i)


def main() -> None:
    st.title(_("Many queries"))
    st.markdown(_("Each query has its own ranking and grades. **MRR** and **MAP** are plain means over "
                  "queries of RR and AP: every query counts the same, however many relevant documents it has."))
    render.messages()
    ex = state.get_example()
    top = st.columns([3, 2, 4])  # the relevance switch needs ~220 px at 1024 (widgets.mode_switch)
    with top[0]:
        widgets.preset_picker(PAGE)
    with top[2]:
        widgets.mode_switch(PAGE)

    # tab labels are Markdown (links, images): the names go in as plain text
    tabs = st.tabs([f"{i + 1}\\. {render.plain(q.name, 24)}" for i, q in enumerate(ex.queries)]
                   + [":material/add: " + _("add a query")])
    for i, q in enumerate(ex.queries):
        with tabs[i]:
            head = st.columns([4, 1])
            key = f"{PAGE}.name.{i}.v{st.session_state.get(state.KEYS['version'], 0)}"
            head[0].text_input(_("query name"), q.name, key=key, on_change=rename, args=(i, key),
                               max_chars=state.LIMITS.name_chars)
            head[1].button(_("remove query"), key=f"{PAGE}.remove.{i}", on_click=remove_query, args=(i,),
                           disabled=len(ex.queries) < 2, width="stretch")
            widgets.ranking_editor(PAGE, i, height=320)
    with tabs[-1]:
        st.button(_("add an empty query"), key=f"{PAGE}.add", on_click=add_query,
                  disabled=len(ex.queries) >= state.LIMITS.queries)

    ex = state.get_example()
    longest = max(len(q.ranking) for q in ex.queries)
    with top[0]:
        widgets.preset_note()
    with top[1]:
        widgets.k_slider(PAGE, longest)
    k = max(1, min(ex.k, longest))
    qrels, run = ex.qrels_run()
    names = ex.query_names()
    ev = metrics.evaluate(qrels, run, ["RR", "AP", f"nDCG@{k}"])
    st.subheader(_("Per query, and the mean (k = {k})").format(k=k))
    rows = [{"query": f"{qid}: {names[qid][:30]}", "measure": m, "value": ev.per_query[qid][m]}
            for qid in ev.per_query for m in ev.measures]
    render.chart(charts.per_query_bars, rows, ev.aggregate, key=f"{PAGE}.bars", name="per_query")
    for title, measure in (("MRR", "RR"), ("MAP", "AP"), (f"mean nDCG@{k}", f"nDCG@{k}")):
        values = [ev.per_query[qid][measure] for qid in ev.per_query]
        st.latex(views.mean_latex(title.replace(" ", r"\ "), values, ev.aggregate[measure]))
    table = [{"query": names[qid], **{m: round(v, 4) for m, v in ev.per_query[qid].items()}}
             for qid in ev.per_query]
    render.table(table)
    frame = render.frame_of(table)
    st.download_button(_("CSV of this table"), lambda: frame.to_csv(index=False), file_name="per_query.csv",
                       mime="text/csv", key=f"{PAGE}.csv", on_click="ignore", icon=":material/download:")


main()
