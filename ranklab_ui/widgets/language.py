"""The language picker, first in the sidebar under the navigation."""

from __future__ import annotations

import streamlit as st

from ..core.i18n import LANGUAGES, _, current_language
from ..session import language

__all__ = ["WIDGET", "language_picker"]

WIDGET = "app.lang"   # the picker's key


def language_picker() -> None:
    """Each language named in its own words, and the page's ``lang`` attribute set to match.
    Streamlit offers no setting for the attribute: a one-line script does it, whose only
    variable part is one of :data:`~ranklab_ui.core.i18n.LANGUAGES`' codes. (The picker is not
    ``bind="query-params"``: a bound select box writes its shown label, ``?lang=한국어``, into
    the link, not the code.)"""
    code = current_language()
    if st.session_state.get(WIDGET) != code:
        st.session_state[WIDGET] = code

    def changed() -> None:
        language.choose(st.session_state.get(WIDGET))

    st.sidebar.selectbox(_("Language"), list(LANGUAGES), format_func=LANGUAGES.__getitem__, key=WIDGET,
                         on_change=changed)
    st.html(f"<script>document.documentElement.lang = {code!r};</script>", unsafe_allow_javascript=True)
