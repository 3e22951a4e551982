"""The presenter view (``?view=present``): one example laid out for a projector.

At 1024×768 and at 1280×720 the draggable ranking, the measures in large type and one curve
over k are on the screen together, without scrolling; the navigation is hidden and the
sidebar collapsed (``app.py``). The measure in focus is the one of the lesson the teacher
was on last (or ``?focus=``). The tiles show the picked item outlined and a bar where k cuts
the list, the items past it faded. Keyboard: ← → change k, ↑ ↓ pick the item, Shift+↑ /
Shift+↓ move it, T sends it to the top, 0–9 give it that grade and ? marks it unjudged.
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

import metrics

from . import render, widgets
from .core import charts, validation, views
from .core.i18n import N_, _
from .session import state

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
GRADE_KEYS = tuple(str(g) for g in range(10)) + ("?",)  # the keys that give the picked item a grade
PICKED_OUTLINE = "#e8590c"  # the picked tile's outline (a series colour, never a grade's)
K_BAR = "#c92a2a"           # the bar after the k-th tile
# the page's own layout rules (no user text in them): less padding above, so the three parts
# fit; the measure in focus large, the four others in one even row; the grade keys compact.
_CSS = ("<style>[data-testid='stMainBlockContainer']{padding-top:3rem;padding-bottom:0.5rem}"
        ".st-key-presenter-focus [data-testid='stMetricValue']{font-size:44px}"
        ".st-key-presenter-others [data-testid='stMetricValue']{font-size:28px}"
        # a long name (French) takes a second line rather than an ellipsis
        ".st-key-presenter-others [data-testid='stMetricLabel']{min-height:2.6em;align-items:flex-start}"
        ".st-key-presenter-others [data-testid='stMetricLabel'] *{white-space:normal;overflow:visible}"
        ".st-key-presenter-grades button{min-height:2rem;padding:0 0.6rem}"
        ".st-key-presenter-grades button kbd,.st-key-presenter-grades button [data-testid*='Shortcut']"
        "{display:none}.st-key-presenter-keys{display:none}</style>")


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


def _pick(page: str, step: int) -> None:
    q = state.get_example().query
    key = f"{page}.pick.{state.get_example().current}"
    where, n = st.session_state.get(key, ("r", 0))
    if where == "r" and q.ranking:
        st.session_state[key] = ("r", max(0, min(len(q.ranking) - 1, n + step)))


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
    picked = _picked(page)
    widgets.drag_order(page, across=True, extra_css=tile_css(picked, k, len(q.ranking)))
    if len(q.ranking) + len(q.tray) > widgets.DRAG_MOST:
        render.strip(views.item_rows(q.ranking), k, key=f"{page}.present.strip")
    moves = st.container(horizontal=True, vertical_alignment="center", gap="small")
    with moves:
        st.button(_("▲ pick"), key="presenter.prev", on_click=_pick, args=(page, -1), shortcut="Up",
                  help=_("pick the item above"))
        st.button(_("▼ pick"), key="presenter.next", on_click=_pick, args=(page, 1), shortcut="Down",
                  help=_("pick the item below"))
        _moves(page)
    _grade_keys(page, picked)
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
                     name="presenter_over_k", pick_k=True, export=False)


def tile_css(picked: int | None, k: int, n: int) -> str:
    """The presenter tiles' rules for the picked tile (position ``picked``, from 0: an outline)
    and the cut at ``k`` of ``n`` ranked tiles (a bar after the k-th, the tiles past it greyed
    and dashed; not see-through, so their text keeps its contrast on a dark page too).

    >>> "nth-child(2){outline" in tile_css(1, 3, 5), "nth-child(n+4)" in tile_css(1, 3, 5)
    (True, True)
    >>> "nth-child(n+" in tile_css(None, 5, 5)
    False
    """
    first = ".sortable-container:nth-of-type(1) .sortable-item"
    # the empty tray stays a drop target, lower than on the Playground
    rules = [".sortable-container:nth-of-type(2) .sortable-container-body{min-height:34px}"]
    if picked is not None:
        rules.append(f"{first}:nth-child({picked + 1}){{outline:4px solid {PICKED_OUTLINE};outline-offset:1px}}")
    if k < n:
        rules.append(f"{first}:nth-child({k}){{margin-right:14px;border-right:6px solid {K_BAR}}}"
                     f"{first}:nth-child(n+{k + 1}){{filter:grayscale(0.85);border-style:dashed}}")
    return "".join(rules)


def _picked(page: str) -> int | None:
    """The position (from 0) of the picked item in the ranking, None when it is in the tray."""
    ex = state.get_example()
    where, n = st.session_state.get(f"{page}.pick.{ex.current}", ("r", 0))
    return n if where == "r" and 0 <= n < len(ex.query.ranking) else 0 if ex.query.ranking else None


def _set_grade(page: str, key: str) -> None:
    """Give the picked item the grade of ``key`` (a digit, or ``?``: unjudged)."""
    ex = state.get_example()
    q = ex.query
    where, n = st.session_state.get(f"{page}.pick.{ex.current}", ("r", 0))
    if where != "r" or not 0 <= n < len(q.ranking):
        return
    grade = None if key == validation.UNJUDGED else int(key)
    ranking = list(q.ranking)
    ranking[n] = replace(ranking[n], grade=grade)
    state.set_current_query(replace(q, ranking=tuple(ranking)))


# Streamlit's shortcuts take letters and digits only: "?" is listened for here, in a hidden
# frame of our own markup (same origin), and clicks the "?" button; a key typed into a field
# (the grid, a text box) is the field's
_QUESTION_KEY = """<script>
  const doc = window.parent.document;
  if (!window.parent.__ranklabQuestionKey) {
    window.parent.__ranklabQuestionKey = true;
    doc.addEventListener("keydown", (e) => {
      const t = e.target;
      if (e.key !== "?" || e.ctrlKey || e.metaKey || e.altKey || e.repeat) return;
      if (t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName))) return;
      const button = doc.querySelector(".st-key-presenter-grade-unjudged button");
      if (button && !button.disabled) { e.preventDefault(); button.click(); }
    });
  }
</script>"""


def _grade_keys(page: str, picked: int | None) -> None:
    """One small button per grade key (0–9, ?) for the picked item; its key is its shortcut."""
    with st.container(horizontal=True, vertical_alignment="center", gap="small", key="presenter-grades"):
        st.markdown(_("grade of #{n}:").format(n=(picked or 0) + 1), width="content")
        for key in GRADE_KEYS:
            if key == validation.UNJUDGED:
                with st.container(key="presenter-grade-unjudged", width="content"):
                    st.button(key, key="presenter.grade.unjudged", on_click=_set_grade, args=(page, key),
                              disabled=picked is None, help=_("unjudged (key ?)"))
            else:
                st.button(key, key=f"presenter.grade.{key}", on_click=_set_grade, args=(page, key), shortcut=key,
                          disabled=picked is None, help=_("grade {grade} (key {grade})").format(grade=key))
    with st.container(key="presenter-keys"):
        st.iframe(_QUESTION_KEY, height=1)


def _moves(page: str) -> None:
    """The picked item and the buttons that move it (Shift+↑, Shift+↓, T)."""
    ex = state.get_example()
    i = ex.current
    q = ex.queries[i]
    key = f"{page}.pick.{i}"
    where, n = st.session_state.get(key, ("r", 0))
    if where != "r" or n >= len(q.ranking):
        where, n = st.session_state[key] = ("r", 0)
    # the rank only: the tiles above show the label (user text stays out of Markdown)
    st.markdown(_("picked: **#{n}**").format(n=n + 1), width="content")
    st.button(_("↑ up"), key="presenter.up", on_click=widgets.move_item, args=(key, i, "up"),
              shortcut="Shift+Up", disabled=n == 0)
    st.button(_("↓ down"), key="presenter.down", on_click=widgets.move_item, args=(key, i, "down"),
              shortcut="Shift+Down", disabled=n + 1 >= len(q.ranking))
    st.button(_("⤒ top"), key="presenter.top", on_click=widgets.move_item, args=(key, i, "top"),
              shortcut="T", disabled=n == 0)
