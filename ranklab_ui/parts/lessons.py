"""What every lesson and Teach page starts from: the current query, ready for :mod:`metrics`,
and (for lessons) the header, the queued messages, the example bar and the empty case."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import streamlit as st

import metrics
from ranklab_ui.core.model import Example, Query

from .. import render, widgets
from ..core import explained
from ..core.i18n import _
from ..session import options, state
from . import predict, presenter

__all__ = ["LessonInputs", "inputs", "current", "run", "example_controls", "MAX_MEASURES", "read_measures",
           "measures_box"]

MAX_MEASURES = 12  # measures a page computes from its box; the others are named and left out


@dataclass(frozen=True)
class LessonInputs:
    """The current query of the shared example as a page needs it."""

    example: Example
    query: Query
    k: int
    ranking: list[str]
    judgments: dict[str, int]
    labels: dict[str, str]

    @property
    def name(self) -> str:
        return self.query.name

    @property
    def mode(self) -> str:
        return self.example.mode

    @property
    def groups(self) -> list[list[str]]:
        """The query's groups (AutoRAG study notes) as lists; empty when it has none."""
        return self.query.group_lists()


def inputs(example: Example, k: int | None = None) -> LessonInputs:
    """``example``'s current query read in its mode, at ``k`` (default: k clipped to the ranking).

    >>> from ranklab_ui.core.presets import build_preset
    >>> cat = inputs(build_preset("cat"))
    >>> cat.name, cat.k, cat.ranking[:3], cat.judgments["2"], cat.labels["3"], cat.groups
    ('cat in the box', 2, ['1', '2', '3'], 1, '📦 box', [])
    """
    query = example.query
    ranking, judgments = query.inputs(example.mode)
    return LessonInputs(example, query, state.effective_k(example) if k is None else k, ranking, judgments,
                        query.labels())


def current() -> LessonInputs:
    """The current query of the session's example (:func:`ranklab_ui.session.state.get_example`)."""
    return inputs(state.get_example())


def example_controls(page: str, *, k: bool = True) -> None:
    """The app's own example controls (preset, query, k, relevance mode) for a Teach page."""
    widgets.preset_picker(page)
    widgets.preset_note()
    if k:
        widgets.example_bar(page, len(state.get_example().query.ranking))
    else:
        widgets.query_picker(page)


def run(page: str, title: str, plain_words: str, body: Callable[[LessonInputs], None], *,
        editor: bool = True) -> None:
    """A lesson page: its header and example bar, then ``body(inputs)`` in a fragment.

    Everything a new k or an edit changes is in ``body`` (and the ranking editor, drawn first
    when ``editor``), so moving the k slider or grading a result reruns only the fragment: the
    header, the bar and the navigation stay as the browser has them.
    The slider itself is drawn by the fragment into its place in the bar, so that a new k is
    one run of the fragment (a slider outside it made two runs of every change).
    A click on a chart's point that sets k reruns the whole page (:func:`ranklab_ui.render.chart`),
    so the slider follows.
    """
    presenter.note_lesson(page)
    if presenter.active():  # the projector layout, this lesson's measure in focus
        presenter.show(page)
        return
    render.lesson_header(title, plain_words)
    render.messages()
    n = len(state.get_example().query.ranking)
    k_slot = widgets.example_bar(page, n, k_slot=True)
    presenter.toggle(on=True)
    if n == 0:
        with k_slot:
            widgets.k_slider(page, n)
        if editor:
            widgets.ranking_editor(page, layout="across")
        render.empty_notice()
        return
    st.fragment(_body, key=f"{page}-lesson")(page, body, editor, k_slot, (title, plain_words))


def _body(page: str, body: Callable[[LessonInputs], None], editor: bool, k_slot, text: tuple[str, str]) -> None:
    if options.stale(page):
        st.rerun()  # a switch of the lesson changed: the page and its link follow
    example = state.get_example()
    if not example.query.ranking:  # emptied since the page was drawn
        st.rerun()
    lesson = inputs(example)
    with k_slot:  # the bar's slider, drawn here so that a new k reruns only this fragment
        widgets.k_slider(page, len(example.query.ranking))
        _headline(page, lesson)
    if editor:  # the results as tiles, graded and moved as on the Playground
        widgets.ranking_editor(page, layout="across")
    predict.predict_first(page, lesson)
    body(lesson)
    render.notebook_button(page, title=text[0], text=text[1])  # after the body: its switches are set


def _headline(page: str, lesson: LessonInputs) -> None:
    """The lesson's measure at the current k under the slider: the first screen shows a value."""
    measure, title, _curve = presenter.FOCUS[presenter.LESSONS.get(page, "nDCG")]
    value = explained.explain(measure.format(k=lesson.k), lesson.ranking, lesson.judgments).value
    st.metric(_(title).replace("@k", f"@{lesson.k}"), metrics.num(value))


def read_measures(text: str, default: str, *, limit: int = MAX_MEASURES) -> tuple[list[str], list[tuple[str, str]]]:
    """The measures typed in a box: canonical, each once, at most ``limit``; and the
    ``(level, message)`` pairs to show — an error when the text does not parse (then the
    ``default`` measures are used), a warning naming the measures left out beyond ``limit``.

    >>> read_measures("P@5 map P@5", "AP")
    (['P@5', 'AP'], [])
    >>> read_measures("P@1, P@2 P@3 P@4", "AP", limit=2)
    (['P@1', 'P@2'], [('warning', '4 measures: only the first 2 are computed; left out: P@3, P@4.')])
    >>> read_measures("P@0", "AP")[0]
    ['AP']
    """
    notes = []
    try:
        measures = [str(m) for m in metrics.parse_many(text)]
    except ValueError as err:
        notes.append(("error", _("{error}. Using the default measures instead.").format(error=err)))
        measures = [str(m) for m in metrics.parse_many(default)]
    measures = list(dict.fromkeys(measures))
    if len(measures) > limit:
        notes.append(("warning", _("{n} measures: only the first {limit} are computed; left out: {rest}.").format(
            n=len(measures), limit=limit, rest=", ".join(measures[limit:]))))
        measures = measures[:limit]
    return measures, notes


def measures_box(label: str, default: str, *, key: str, help: str | None = None) -> list[str]:
    """A text box of measures (:func:`read_measures`), its messages shown under it."""
    text = st.text_input(label, default, max_chars=300, key=key, help=help)
    measures, notes = read_measures(text, default)
    render.notes(notes)
    return measures
