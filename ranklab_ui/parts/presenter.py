"""The presenter view (``?view=present``): one example laid out for a projector.

At 1024×768 and at 1280×720 the ranking editor's tiles, the measures in large type and one
curve over k are on the screen together, without scrolling; the navigation is hidden and the
sidebar collapsed (``app.py``). The measure in focus is the one of the lesson the teacher
was on last (or ``?focus=``). The tiles show a bar where k cuts the list. Keyboard: ← → change
k; on a tile (the editor's keys), ↑ ↓ pick the next one, 0–9 give it that grade, ? marks it
unjudged, Alt+↑ ↓ move it, Home sends it to the top.
"""

from __future__ import annotations

import streamlit as st

import metrics

from .. import render, widgets
from ..core import charts, views
from ..core.i18n import N_, _
from ..session import state

__all__ = ["VIEW", "PRESENT", "FOCUS", "active", "note_lesson", "toggle", "show", "focus"]

VIEW, PRESENT = "view", "present"   # the URL parameter and its value
LESSON_KEY = "presenter.lesson"     # the lesson the teacher was on last (session)
# focus name -> (measure at k, what to call it, the curve over k: (measure at n, its running column))
FOCUS = {
    "P": ("P@{k}", N_("Precision@k"), ("P@{n}", "precision")),
    "R": ("R@{k}", N_("Recall@k"), ("P@{n}", "recall")),
    "RR": ("RR@{k}", N_("RR@k"), ("RR", None)),
    "AP": ("AP@{k}", N_("AP@k"), ("AP@{n}", "ap_at_i")),
    "nDCG": ("nDCG@{k}", N_("nDCG@k"), ("nDCG@{n}", "ndcg")),
}
LESSONS = {"lesson_pr": "P", "lesson_rr": "RR", "lesson_ap": "AP", "lesson_dcg": "nDCG", "lesson_prc": "P"}
SHOWN = ("P", "R", "RR", "AP", "nDCG")
# the page's own layout rules (no user text in them): less padding above, so the three parts
# fit, yet enough that the app's header bar (drawn over the page's top) covers none of the
# buttons beside the title; the measure in focus large, the four others in one even row.
_CSS = ("<style>[data-testid='stMainBlockContainer']{padding-top:4rem;padding-bottom:0.5rem}"
        ".st-key-presenter-focus [data-testid='stMetricValue']{font-size:44px}"
        ".st-key-presenter-others [data-testid='stMetricValue']{font-size:28px}"
        # a long name (French) takes a second line rather than an ellipsis
        ".st-key-presenter-others [data-testid='stMetricLabel']{min-height:2.6em;align-items:flex-start}"
        ".st-key-presenter-others [data-testid='stMetricLabel'] *{white-space:normal;overflow:visible}"
        "</style>")


def active() -> bool:
    """Whether the page was opened in the presenter view."""
    return st.query_params.get(VIEW) == PRESENT


def note_lesson(page: str) -> None:
    """Remember the lesson on screen: the presenter view puts its measure in focus."""
    if page in LESSONS:
        st.session_state[LESSON_KEY] = page


def focus() -> str:
    """The measure in focus: ``?focus=`` when it names one, else the last lesson's, else nDCG.

    The parameter is read as an exact name from :data:`FOCUS`; anything else is ignored.
    """
    asked = st.query_params.get("focus")
    if asked in FOCUS:
        return asked
    return LESSONS.get(st.session_state.get(LESSON_KEY), "nDCG")


def toggle(*, on: bool) -> None:
    """A button that enters (``on``) or leaves the presenter view; the link keeps the choice."""
    def switch() -> None:
        if on:
            st.query_params[VIEW] = PRESENT
        else:
            st.query_params.pop(VIEW, None)

    st.button(_("Presenter view") if on else _("Leave presenter view"), key=f"presenter.{'on' if on else 'off'}",
              on_click=switch, icon=":material/present_to_all:" if on else ":material/close_fullscreen:",
              help=_("one example for a projector: ranking, measures and a curve on one screen") if on else None)


def _set_k(step: int) -> None:
    ex = state.get_example()
    n = len(ex.query.ranking)
    state.update(k=max(1, min(n, state.effective_k(ex) + step)))


def show(page: str) -> None:
    """The presenter layout of the current example."""
    st.html(_CSS)
    ex = state.get_example()
    q = ex.query
    chosen = focus()
    head = st.container(horizontal=True, vertical_alignment="center", gap="small")
    with head:
        st.markdown(f"### {widgets.query_title(q)}", width="content")
        if q.ranking:
            k = state.effective_k(ex)
            st.button("k −", key="presenter.k-", on_click=_set_k, args=(-1,), shortcut="Left",
                      disabled=k <= 1, help=_("one result less in the top k"))
            st.markdown(f"**k = {k}**", width="content")
            st.button("k +", key="presenter.k+", on_click=_set_k, args=(1,), shortcut="Right",
                      disabled=k >= len(q.ranking), help=_("one result more in the top k"))
        toggle(on=False)
    if not q.ranking:
        render.empty_notice()
        return
    render.messages()
    widgets.ranking_editor(page, layout="across")
    ranking, judgments = q.inputs(ex.mode)
    left, right = st.columns([3, 2], gap="medium")
    with left:
        def value(name: str) -> tuple[str, str]:
            measure, title, _curve = FOCUS[name]
            return _(title).replace("@k", f"@{k}"), metrics.num(metrics.explain(measure.format(k=k), ranking,
                                                                                  judgments).value)

        # the measure in focus alone on its row, the four others in one even row under it
        with st.container(key="presenter-focus"):
            label, shown = value(chosen)
            st.metric(label + _(" — in focus"), shown, border=True)
        with st.container(key="presenter-others"):
            for column, name in zip(st.columns(4, gap="small"), [n for n in SHOWN if n != chosen], strict=True):
                column.metric(*value(name))
    with right:
        measure, column = FOCUS[chosen][2]
        full = metrics.explain(measure.format(n=len(ranking)), ranking, judgments)
        values = views.rr_curve(full) if column is None else views.curve(full, column)
        render.chart(charts.metric_over_k, {FOCUS[chosen][0].replace("{k}", "k"): values}, k=k,
                     title=_("{measure} at every k").format(measure=_(FOCUS[chosen][1])), height=215, key=f"{page}.present.over_k",
                     name="presenter_over_k", on_pick=widgets.set_k_from_chart, export=False)
