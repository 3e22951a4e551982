"""Which language a session speaks, and its place in the link: the session's side of
:mod:`ranklab_ui.core.i18n` (which translates, and needs no Streamlit)."""

from __future__ import annotations

import streamlit as st

from ..core.i18n import DEFAULT, KEY, PARAM, from_locale, normalise

__all__ = ["start", "choose"]


def start() -> str:
    """Settle this session's language at the top of a run and return it: the one already
    settled (the picker changes it), else the link's ``?lang=`` (an unknown value means
    English), else the browser's language (``st.context.locale``), else English. `_()` reads
    it back from the session (:data:`~ranklab_ui.core.i18n.KEY`) in this run and in its
    fragments' reruns. The link carries every language but English, so a shared link opens in
    the sharer's language."""
    ss = st.session_state
    code = normalise(ss.get(KEY))
    if code is None:
        if PARAM in st.query_params:
            code = normalise(st.query_params.get(PARAM)) or DEFAULT
        else:
            try:
                code = from_locale(st.context.locale)
            except Exception:  # no browser behind this session (AppTest, a script)
                code = DEFAULT
        ss[KEY] = code
    _link(code)
    return code


def choose(value: object) -> str:
    """Make ``value`` (a code from the picker; anything else means English) this session's
    language, in the session and the link; returns the code."""
    code = normalise(value) or DEFAULT
    st.session_state[KEY] = code
    _link(code)
    return code


def _link(code: str) -> None:
    """``?lang=code`` in the address (none for English; an unknown value is taken out)."""
    shown = st.query_params.get(PARAM)
    if code == DEFAULT:
        if shown is not None:
            del st.query_params[PARAM]
    elif shown != code:
        st.query_params[PARAM] = code
