"""The permalink of a page, and the button that copies it: a frame of our own markup, style
and script (``copy_link.html``), filled with our own texts."""

from __future__ import annotations

import html
from pathlib import Path
from string import Template

import streamlit as st

from ..core import codec
from ..core.i18n import _
from ..session import options, state

__all__ = ["permalink", "copy_link"]


def _file(name: str) -> str:
    return Path(__file__).with_name(name).read_text(encoding="utf-8")


# the button's page: its markup, into which go its style and its script (files of their own)
# and our own texts, as attributes
_PAGE = Template(_file("copy_link.html"))
_STYLE, _SCRIPT = _file("copy_link.css"), _file("copy_link.js")


def permalink(page: str | None = None) -> str | None:
    """This page's address with the current example in it (None when it is too large), and
    ``page``'s options (:mod:`ranklab_ui.session.options`) when they differ from the defaults."""
    state.get_example()  # mirrors the example into the URL: its code is kept, not encoded again
    code = st.session_state.get(state.KEYS["url"])
    return f"{st.context.url or ''}?{options.query_string(page, {codec.PARAM: code})}" if code else None


def copy_link(link: str | None, label: str | None = None) -> None:
    """A button that copies the page's address, which is ``link`` (:func:`permalink`: the
    example and the page's options), to the clipboard; a note instead when there is no link.

    The frame holds only our markup and ``label`` (never user text): it is the same on every
    run, so the browser keeps it instead of loading it again after each edit.
    """
    if not link:
        st.caption(_("This example is too large to fit in a link."))
        return
    label = _("Copy link") if label is None else label
    texts = {"label": label, "tip": _("a link that restores this exact example"), "copied": "✓ " + _("Link copied"),
             "failed": _("Copy failed: use the address bar")}
    # our own texts, escaped for HTML (quotes too: they are attribute values)
    st.iframe(_PAGE.substitute({name: html.escape(text, quote=True) for name, text in texts.items()},
                               style=_STYLE, script=_SCRIPT), height=42)
