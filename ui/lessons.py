"""What every lesson and Teach page starts from: the current query, ready for :mod:`metrics`,
and (for lessons) the header, the queued messages, the example bar and the empty case."""

from __future__ import annotations

from dataclasses import dataclass

from ui import render, state, views, widgets
from ui.model import Example, Query

__all__ = ["LessonInputs", "inputs", "current", "start", "example_controls"]


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
        """The query's groups (seed 001) as lists; empty when it has none."""
        return self.query.group_lists()


def inputs(example: Example, k: int | None = None) -> LessonInputs:
    """``example``'s current query read in its mode, at ``k`` (default: k clipped to the ranking).

    >>> from ui.presets import build_preset
    >>> cat = inputs(build_preset("cat"))
    >>> cat.name, cat.k, cat.ranking[:3], cat.judgments["2"], cat.labels["3"], cat.groups
    ('cat in the box', 2, ['1', '2', '3'], 1, '📦 box', [])
    """
    query = example.query
    ranking, judgments = query.inputs(example.mode)
    return LessonInputs(example, query, state.effective_k(example) if k is None else k, ranking, judgments,
                        query.labels())


def current() -> LessonInputs:
    """The current query of the session's example (:func:`ui.state.get_example`)."""
    return inputs(state.get_example())


def example_controls(page: str, *, k: bool = True) -> None:
    """The app's own example controls (preset, query, k, relevance mode) for a Teach page."""
    widgets.preset_picker(page)
    widgets.preset_note()
    if k:
        widgets.example_bar(page, len(state.get_example().query.ranking))
    else:
        widgets.query_picker(page)


def start(page: str, title: str, plain_words: str, *, strip: bool = True) -> LessonInputs | None:
    """Draw the lesson's header and example bar; None (with a notice) when the ranking is empty.

    ``strip`` also draws the ranking strip with the top k marked.
    """
    render.lesson_header(title, plain_words)
    render.messages()
    example = state.get_example()
    query = example.query
    n = len(query.ranking)
    k = widgets.example_bar(page, n)
    if n == 0:
        render.empty_notice()
        return None
    if strip:
        render.strip(views.item_rows(query.ranking), k, key=f"{page}.strip")
    return inputs(example, k)
