"""The app-wide style rules (our own CSS, no user text), sent once per run by ``app.py``.

- A label that does not fit its box (a button, a page link, a measure's name) wraps onto a
  second line instead of ending in an ellipsis: a cut word hid the text a reader needed
  ("nDCG@2 — in fo…", "remove qu…").
- The first screen: less empty space above a page's title (and none for a script-only element).
- Printing (Chromium's "Print", A4): no sidebar, header or toolbar, the main column as wide
  as the page, and wide formulas and tables scaled or wrapped to the page's width.
"""

from __future__ import annotations

import streamlit as st

__all__ = ["CSS", "apply"]

CSS = """<style>
@media screen {
  /* Streamlit leaves 6rem above a page's title; 2.5rem keeps the toolbar clear, so that the first
     screen at 1024x768 reaches a measure's value */
  [data-testid='stMainBlockContainer'] { padding-top: 2.5rem; }
  /* a script-only st.html (the page's language, the grid's edits kept ahead of clicks) shows
     nothing, but each element gets the column's gap: it would push the title down */
  [data-testid='stElementContainer']:has([data-testid='stHtml'] > script:only-child) { display: none; }
}
[data-testid='stMain'] .stMarkdownEllipsis,
[data-testid='stMain'] .stMarkdownEllipsis p,
[data-testid='stMain'] [data-testid='stPageLink-NavLink'] span,
[data-testid='stMain'] [data-testid='stPageLink-NavLink'] p,
[data-testid='stMain'] [data-testid='stMetricLabel'] [data-testid='stMarkdownContainer'],
[data-testid='stMain'] [data-testid='stMetricLabel'] p {
  white-space: normal; overflow: visible; text-overflow: clip; overflow-wrap: anywhere;
}
@media print {
  /* a lesson on paper: no sidebar, toolbar or buttons; the main column as wide as the page,
     columns one under the other, so that a formula or a table is never cut at the margin */
  [data-testid='stSidebar'], [data-testid='stHeader'], [data-testid='stToolbar'],
  [data-testid='stSidebarCollapsedControl'], [data-testid='stDecoration'], [data-testid='stStatusWidget'],
  [data-testid='stButton'], [data-testid='stDownloadButton'], [data-testid='stIFrame'],
  [data-testid='stSkipToContent'], iframe { display: none !important; }
  [data-testid='stAppViewContainer'], [data-testid='stMain'] { margin: 0 !important; left: 0 !important; }
  [data-testid='stMain'] { width: 100% !important; max-width: 100% !important; }
  [data-testid='stMainBlockContainer'] { padding: 0 !important; max-width: 100% !important; }
  [data-testid='stHorizontalBlock'] { flex-wrap: wrap !important; }
  [data-testid='stColumn'] { min-width: 100% !important; width: 100% !important; flex: 1 1 100% !important; }
  .katex-display, [data-testid='stVegaLiteChart'], [data-testid='stDataFrame'], [data-testid='stMetric'] {
    break-inside: avoid;
  }
}
</style>"""


def apply() -> None:
    """Send the app's style rules (an element of no height)."""
    st.html(CSS)
