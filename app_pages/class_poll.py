"""Class poll: predict a measure of the current example, the whole class at once."""

import streamlit as st

from ranklab_ui import render
from ranklab_ui.core.i18n import _
from ranklab_ui.parts import poll_view

PAGE = "class_poll"


def main() -> None:
    code = st.query_params.get(poll_view.PARAM)
    if code is not None:
        st.title(_("Class poll"))
        poll_view.student(code)
        return
    if poll_view.owns_a_poll():
        # the projected screen: the poll alone, without the students' join box or the intro
        st.title(_("Class poll"))
        poll_view.teacher(PAGE)
        return
    render.lesson_header(
        _("Class poll"),
        _("Predict first, then look: ask the class for a measure of the current example before you "
        "show it. Students answer on their phones with the code; the answers appear here as they "
        "come, and you reveal the right one when you choose. No accounts, nothing personal is kept, "
        "and a poll closes by itself after four hours."))
    render.messages()
    poll_view.join(PAGE)
    poll_view.teacher(PAGE)


main()
