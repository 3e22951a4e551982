"""The widget keys of the example's controls on a page, ``"<page>.<name>"``: one function per key,
which the widgets that draw them (:mod:`ranklab_ui.widgets`) and the tests that drive them both
call.

>>> k("playground"), k("playground", 2), editor("many_queries", 2)
('playground.k', 'playground.k.2', 'many_queries.editor.2')

A widget whose options change (the slider's range, the query picker's list) is a new widget
for Streamlit, and each shape of it gets a key of its own, never used before in the session
(``generation``: how many times the shape changed; :func:`ranklab_ui.widgets.controls.shaped`).
"""

from __future__ import annotations

__all__ = ["k", "mode", "preset", "query", "editor", "generation", "shape_mark", "current"]


def generation(key: str, n: int = 0) -> str:
    """The key of the ``n``-th shape of the widget ``key`` (the first keeps ``key``)."""
    return f"{key}.{n}" if n else key


def shape_mark(key: str) -> str:
    """Where a session keeps the widget ``key``'s last shape and its generation."""
    return f"{key}.shape"


def current(session_state, key: str) -> str:
    """The key under which the widget ``key`` is drawn now, read from a session's state (the
    app's, or an AppTest's)."""
    mark = shape_mark(key)
    return generation(key, session_state[mark][1]) if mark in session_state else key


def k(page: str, n: int = 0) -> str:
    """The k slider (its ``n``-th range)."""
    return generation(f"{page}.k", n)


def mode(page: str) -> str:
    """The relevance switch (binary or graded)."""
    return f"{page}.mode"


def preset(page: str) -> str:
    """The "load an example" box."""
    return f"{page}.preset"


def query(page: str, n: int = 0) -> str:
    """The query picker (shown when the example has several; its ``n``-th list of queries)."""
    return generation(f"{page}.query", n)


def editor(page: str, index: int = 0) -> str:
    """The ranking editor of query ``index``: the same for as long as the page shows it, so the
    component keeps its edits across runs (an editor knows a change made elsewhere by the
    version, not by a new key)."""
    return f"{page}.editor.{index}"
