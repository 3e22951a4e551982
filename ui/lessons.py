"""What every lesson page does first: header, messages, the example bar, the empty case."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import streamlit as st

from ui import options, presenter, render, state, views, widgets


@dataclass(frozen=True)
class LessonInputs:
    """The current example as a lesson needs it."""

    example: state.Example
    query: state.Query
    k: int
    ranking: list[str]
    judgments: dict[str, int]
    labels: dict[str, str]


def run(page: str, title: str, plain_words: str, body: Callable[[LessonInputs], None], *,
        strip: bool = True) -> None:
    """A lesson page: its header and example bar, then ``body(inputs)`` in a fragment.

    Everything a new k changes is in ``body`` (and the strip), so moving the k slider reruns
    only the fragment: the header, the bar and the navigation stay as the browser has them.
    A click on a chart's point that sets k reruns the whole page (:func:`ui.render.chart`),
    so the slider follows.
    """
    presenter.note_lesson(page)
    if presenter.active():  # the projector layout, this lesson's measure in focus
        presenter.show(page)
        return
    render.lesson_header(title, plain_words)
    render.messages()
    n = len(state.get_example().query.ranking)
    key = f"{page}-lesson"
    widgets.example_bar(page, n, rerun=key)
    presenter.toggle(on=True)
    if n == 0:
        render.empty_notice()
        return
    st.fragment(_body, key=key)(page, body, strip)


def _body(page: str, body: Callable[[LessonInputs], None], strip: bool) -> None:
    if options.stale(page):
        st.rerun()  # a switch of the lesson changed: the page and its link follow
    example = state.get_example()
    query = example.query
    if not query.ranking:  # emptied since the page was drawn
        st.rerun()
    k = state.effective_k(example)
    ranking, judgments = query.inputs(example.mode)
    if strip:
        render.strip(views.item_rows(query.ranking), k, key=f"{page}.strip")
    body(LessonInputs(example, query, k, ranking, judgments, query.labels()))
