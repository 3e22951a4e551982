"""The app-wide style rules (our own CSS, no user text), sent once per run by ``app.py``.

- A label that does not fit its box (a button, a page link, a measure's name) wraps onto a
  second line instead of ending in an ellipsis: a cut word hid the text a reader needed
  ("nDCG@2 — in fo…", "remove qu…").
- The first screen: less empty space above a page's title (and none for a script-only element).
- Printing (Chromium's "Print", A4): no sidebar, header or toolbar, the main column as wide
  as the page, and wide formulas and tables scaled or wrapped to the page's width.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

__all__ = ["CSS", "apply"]

# our own rules, a file of their own
CSS = "<style>\n" + Path(__file__).with_name("style.css").read_text(encoding="utf-8") + "</style>"



def apply() -> None:
    """Send the app's style rules (an element of no height)."""
    st.html(CSS)
