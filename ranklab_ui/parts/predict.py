"""Predict, then reveal — on every lesson. Before a change is applied to the
example, the learner commits a guess (up, down or the same, and optionally the new value),
then sees the answer and the calculation before and after. Practice's logic, on the lesson's
own example: :func:`metrics.teaching.exercises.predict_swap` and ``grade_answer``.
"""

from __future__ import annotations

from dataclasses import replace

import streamlit as st

from metrics.teaching import exercises

from ..core.i18n import _, shown
from ..core.views import escape_markdown
from ..session import state

__all__ = ["predict_first", "MEASURES"]

# the measure each lesson predicts ({k}: the current cutoff)
MEASURES = {"lesson_pr": "P@{k}", "lesson_rr": "RR@{k}", "lesson_ap": "AP@{k}", "lesson_dcg": "nDCG@{k}",
            "lesson_prc": "P@{k}"}


def predict_first(page: str, inputs) -> None:
    """A collapsed "Predict first" box for ``page``'s measure on the current example.

    Its question is built only while the box is open: closed, it is one element that stays
    the same when k changes, instead of a new question (text, three new widgets) drawn and
    thrown away on every step of the slider.
    """
    if page not in MEASURES or len(inputs.ranking) < 2:
        return
    key = f"{page}.predict"
    box = st.expander(_("Predict first: what will a swap do to {measure}?").format(measure=MEASURES[page].format(k="k")),
                      key=f"{key}.open", on_change="rerun")
    if not box.open:
        return
    measure = MEASURES[page].format(k=inputs.k)
    seed = st.session_state.setdefault(f"{key}.seed", 1)
    direction, value, i, j = exercises.predict_swap(measure, inputs.ranking, inputs.judgments, seed)
    tag = f"{key}.{seed}.{i}.{j}.{measure}"  # new widgets for a new question
    with box:
        st.markdown(escape_markdown(direction.prompt))
        cols = st.columns([3, 2, 2], vertical_alignment="bottom")
        choice = cols[0].radio(_("your prediction"), direction.choices, format_func=shown(_), index=None, horizontal=True,
                               key=f"{tag}.direction")
        guess = cols[1].text_input(_("and its new value (optional)"), key=f"{tag}.value", max_chars=40,
                                   placeholder=_("e.g. 0.5 or 1/2"))
        if cols[2].button(_("Reveal"), key=f"{tag}.reveal", type="primary"):
            st.session_state[f"{tag}.revealed"] = True
        if st.session_state.get(f"{tag}.revealed"):
            _reveal(direction, value, choice, guess, inputs, i, j, key)


def _reveal(direction, value, choice, guess, inputs, i: int, j: int, key: str) -> None:
    if choice is None:
        st.info(_("Commit to a prediction first: up, down or the same."))
        return
    grade = exercises.grade_answer(direction, choice)
    (st.success if grade.correct else st.error)(escape_markdown(grade.message))
    if guess and guess.strip():
        graded = exercises.grade_answer(value, guess)
        (st.success if graded.correct else st.warning)(escape_markdown(graded.message))
    before = exercises.working(direction.measure, inputs.ranking, inputs.judgments)
    after = exercises.working(direction.measure, exercises.swapped(inputs.ranking, i, j), inputs.judgments)
    st.markdown(_("**Before:** {before}  \n**After:** {after}").format(before=escape_markdown(before),
                                                                        after=escape_markdown(after)))
    buttons = st.container(horizontal=True)
    buttons.button(_("Apply the swap to the example"), key=f"{key}.apply", on_click=_apply, args=(i, j))
    buttons.button(_("Another change"), key=f"{key}.next", on_click=_next, args=(key,))


def _apply(i: int, j: int) -> None:
    q = state.get_example().query
    state.set_current_query(replace(q, ranking=tuple(exercises.swapped(q.ranking, i, j))))
    st.rerun()  # the whole page, its strip and slider too


def _next(key: str) -> None:
    st.session_state[f"{key}.seed"] = st.session_state.get(f"{key}.seed", 1) + 1
