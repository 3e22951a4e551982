"""ranklab_ui.render.table: which read-only tables are HTML (whole, wrapped, printable) and which stay on
the canvas, and user text in an HTML table made inert for its Markdown cells."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest


def _page():
    import pandas as pd

    from ranklab_ui import render

    hostile = ["<script>alert(1)</script>", "[x](http://evil.example)", "a#1 / b", "\u05e9\u05dc\u05d5\u05dd x"]
    render.table(pd.DataFrame({"note": hostile, "value": [0.5, 1.0, None, 2.0]}))  # prose, short
    render.table(pd.DataFrame({"note": ["a long note"] * 31, "value": range(31)}), key="long")  # prose, long
    render.table(pd.DataFrame({"doc": ["a", "b"], "P@i": [0.5, 1.0]}))  # no prose


def test_short_prose_is_html_the_rest_stays_on_the_canvas():
    at = AppTest.from_function(_page).run()
    assert not at.exception
    assert len(at.table) == 1 and len(at.dataframe) == 2
    cells = at.table[0].value
    # Markdown's active characters escaped by hand: < > [ ] ( ) # / : . and the address's "//" broken
    assert list(cells["note"]) == ["\\<script\\>alert\\(1\\)\\<\\/script\\>",
                                   "\\[x\\]\\(http\\:\\/\u200b\\/evil\\.example\\)", "a\\#1 \\/ b",
                                   "\u05e9\u05dc\u05d5\u05dd x"]
    assert list(cells["value"]) == ["0.5", "1", "—", "2"]
    assert len(at.dataframe[0].value) == 31  # long: the canvas, which scrolls
