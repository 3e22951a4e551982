"""The widget keys of the example's controls on a page, ``"<page>.<name>"``: one function per key,
which the widgets that draw them (:mod:`ranklab_ui.widgets`) and the tests that drive them both
call.

>>> k("playground"), editor("many_queries", 2)
('playground.k', 'many_queries.editor.2')
"""

from __future__ import annotations

__all__ = ["k", "mode", "preset", "query", "editor"]


def k(page: str) -> str:
    """The k slider."""
    return f"{page}.k"


def mode(page: str) -> str:
    """The relevance switch (binary or graded)."""
    return f"{page}.mode"


def preset(page: str) -> str:
    """The "load an example" box."""
    return f"{page}.preset"


def query(page: str) -> str:
    """The query picker (shown when the example has several)."""
    return f"{page}.query"


def editor(page: str, index: int = 0) -> str:
    """The ranking editor of query ``index``: the same for as long as the page shows it, so the
    component keeps its edits across runs (an editor knows a change made elsewhere by the
    version, not by a new key)."""
    return f"{page}.editor.{index}"
