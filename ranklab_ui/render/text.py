"""Texts: user text made inert for Markdown, messages, formulas, a lesson's header.

User text (labels, query names) is always shown as plain text: in Markdown it goes through
:func:`plain` first, and the messages that quote it are shown as plain text.
"""

from __future__ import annotations

from collections.abc import Sequence

import streamlit as st

from ..core.i18n import _
from ..core.views import escape_markdown
from ..session import state

__all__ = ["plain", "messages", "notes", "formula", "lesson_header", "empty_notice"]


def plain(text: str, limit: int = 80) -> str:
    """``text`` cut to ``limit`` characters and made inert for Markdown
    (:func:`ranklab_ui.core.views.escape_markdown`: no links, images, HTML or formatting).

    >>> plain("[click](http://x) <b>hi</b>", limit=12)
    '\\\\[click\\\\]\\\\(htt…'
    """
    text = str(text)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    return escape_markdown(text)


def messages() -> None:
    """Show the messages queued by :mod:`ranklab_ui.session.state` (bad edits, damaged permalinks). They quote
    user text (a query name, a label, an id), so they are shown as plain text."""
    state.get_example()  # reads the URL first, so a damaged permalink is reported on this run
    notes(state.take_messages())


def notes(pairs: Sequence[tuple[str, str]]) -> None:
    """Show ``(level, text)`` messages ("error" or "warning") as plain text: they quote user text."""
    for level, text in pairs:
        (st.error if level == "error" else st.warning)(escape_markdown(text), icon=":material/warning:")


def formula(explanation, *, substituted: bool = True) -> None:
    """The general formula, or the one with the numbers in it."""
    st.latex(explanation.formula if substituted else explanation.definition)


def lesson_header(title: str, plain_words: str) -> None:
    st.title(title)
    st.markdown(plain_words)


def empty_notice() -> None:
    st.info(_("The ranking is empty: add items on the Playground (or load a preset) to see this lesson."),
            icon=":material/info:")
