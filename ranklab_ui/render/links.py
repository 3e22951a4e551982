"""The permalink of a page, and the button that copies it: a frame of our own markup, style
and script (``copy_link.html``), filled with our own texts."""

from __future__ import annotations

import html
import json
from pathlib import Path
from string import Template

import streamlit as st

from ..core import codec
from ..core.i18n import _
from ..session import options, state

__all__ = ["permalink", "copy_link"]

_COPY_BUTTON = Template(Path(__file__).with_name("copy_link.html").read_text(encoding="utf-8"))


# a chain link drawn in the button's text colour (Material Symbols "link"): an emoji needs a
# font that a stock Linux lacks, and showed there as an empty box
_LINK_ICON = ('<svg viewBox="0 -960 960 960" aria-hidden="true" fill="currentColor"><path d="M440-280H280q-83 '
              '0-141.5-58.5T80-480q0-83 58.5-141.5T280-680h160v80H280q-50 0-85 35t-35 85q0 50 35 85t85 35h160v80ZM320'
              '-440v-80h320v80H320Zm200 160v-80h160q50 0 85-35t35-85q0-50-35-85t-85-35H520v-80h160q83 0 141.5 58.5T880'
              '-480q0 83-58.5 141.5T680-280H520Z"/></svg>')


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
    st.iframe(_COPY_BUTTON.substitute(  # our own texts: escaped for HTML, and as JSON strings in the script
        label=html.escape(label), tip=html.escape(_("a link that restores this exact example")),
        copied=_script_text("✓ " + _("Link copied")), failed=_script_text(_("Copy failed: use the address bar")),
        again=_script_text(label), icon=_LINK_ICON), height=42)


def _script_text(text: str) -> str:
    """``text`` as a JavaScript string literal that cannot end the script (``</`` escaped).

    >>> print(_script_text('a "b" </script>'))
    "a \\"b\\" <\\/script>"
    """
    return json.dumps(text, ensure_ascii=False).replace("</", "<\\/")
