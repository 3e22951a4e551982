"""What every lesson page does first: header, messages, the example bar, the empty case."""

from __future__ import annotations

from dataclasses import dataclass

from ui import render, state, views, widgets


@dataclass(frozen=True)
class LessonInputs:
    """The current example as a lesson needs it."""

    example: state.Example
    query: state.Query
    k: int
    ranking: list[str]
    judgments: dict[str, int]
    labels: dict[str, str]


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
    ranking, judgments = query.inputs(example.mode)
    if strip:
        render.strip(views.item_rows(query.ranking), k, key=f"{page}.strip")
    return LessonInputs(example, query, k, ranking, judgments, query.labels())
