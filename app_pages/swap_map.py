"""Swap map: which positions each measure cares about, as a heatmap of swaps."""

from __future__ import annotations

import streamlit as st

import metrics
from metrics.teaching import swap
from ranklab_ui import render
from ranklab_ui.core import teach_view, teaching_charts
from ranklab_ui.core.i18n import _
from ranklab_ui.core.views import escape_markdown
from ranklab_ui.parts import lessons

PAGE = "swap_map"


def main() -> None:
    st.title(_("Swap map"))
    st.markdown(_("Each cell shows how much the measure changes if the documents at ranks *i* and *j* trade "
                  "places. **Blue** = the measure goes up, **red** = it goes down, white = no change. "
                  "Compare the maps to see which positions each measure cares about."))
    render.messages()
    lessons.example_controls(PAGE)
    cq = lessons.current()
    k = cq.k
    if len(cq.ranking) < 2:
        st.info(_("The current query has fewer than two results: there is nothing to swap. Add results on the "
                  "Playground page."))
        return
    options = [f"P@{k}", f"R@{k}", "RR", "AP", f"nDCG@{k}", "nDCG"]
    chosen = st.multiselect(_("Measures (up to 3)"), options, default=[f"P@{k}", "AP", f"nDCG@{k}"],
                            max_selections=3, key=f"{PAGE}.measures.{k}")
    if not chosen:
        st.info(_("Choose at least one measure."))
        return
    top = min(len(cq.ranking), swap.MAX_POSITIONS)
    depth = st.slider(_("Ranks shown"), 2, top, min(top, 10), key=f"{PAGE}.depth") if top > 2 else 2
    maps = swap.swap_matrices(chosen, cq.ranking, cq.judgments, depth=depth)
    extent = max((float(abs(m.delta).max()) for m in maps.values() if m.delta.size), default=0.0)
    cols = st.columns(len(maps))
    for col, (m, smap) in zip(cols, maps.items(), strict=True):
        with col:
            st.altair_chart(teaching_charts.swap_heatmap(smap, labels=cq.labels, extent=extent), width="stretch")
            i, j, d = smap.largest()
            st.markdown(_("**{measure}** = {value} now.").format(measure=escape_markdown(m), value=teach_view.fmt(smap.base)))
            if d == 0:
                why = (" " + _("{measure} sees which documents are in the top k, not their order: only a swap "
                               "across rank k changes it.").format(measure=m)
                       if metrics.parse(m).name in ("P", "R", "Success") else "")
                st.caption(_("No swap among these ranks changes it.") + escape_markdown(why))
            else:
                a, b = (cq.labels.get(d_, "") or d_ for d_ in (smap.docs[i - 1], smap.docs[j - 1]))
                st.caption(_("Biggest change: swapping ranks {i} and {j} ({a} ↔ {b}) moves it by {d}.").format(
                    i=i, j=j, a=escape_markdown(a), b=escape_markdown(b), d=f"{d:+.4f}"))
    st.caption(_("All maps share one colour scale, so the same blue means the same gain on each. A map is "
                 "symmetric: swapping i and j is the same as swapping j and i. Hover a cell for the documents."))
    if len(cq.ranking) > depth:
        st.caption(_("Only the top {depth} of {n} ranks are mapped.").format(depth=depth, n=len(cq.ranking)))


main()
