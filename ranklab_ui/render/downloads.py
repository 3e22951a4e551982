"""Downloads made from a page: a measure's worked solution, the page as a notebook, a
practice exercise as notebooks."""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st

from ..core.i18n import _, current_language
from ..core.views import worked_solution
from ..session import state

__all__ = ["download_solution", "notebook_button", "exercise_notebook_buttons"]


def download_solution(explanation, *, k: int, labels: Mapping[str, str], key: str, title: str) -> None:
    """The worked solution of one measure as a Markdown file."""
    st.download_button(_("Worked solution of {measure} (.md)").format(measure=explanation.measure),
                       lambda: worked_solution(explanation, labels=labels, k=k, title=title),
                       file_name=f"{key.replace('.', '_')}.md", mime="text/markdown",
                       key=f"{key}.md", on_click="ignore", icon=":material/download:")


def notebook_button(page: str, *, title: str = "", text: str = "") -> None:
    """The "Open as a notebook" button: the page's example, conventions, k, measures and charts as an
    ``.ipynb`` (:mod:`ranklab_ui.core.notebook`), with the lesson's ``title`` and ``text``. Called where the
    page's k and option widgets have their values for this run (in a fragment: in it)."""
    from ..core import notebook  # lazily: nbformat loads on the first page that offers a notebook

    chosen = {name: st.session_state.get(f"{page}.{name}") for name in notebook.CONVENTIONS}
    patience = st.session_state.get(f"{page}.p")  # the users lesson's RBP p
    removed = st.session_state.get(f"{page}.removed")  # the unjudged lesson's share of judgments removed
    view = notebook.page_view(page, state.get_example(), title=title, text=text,
                              conventions={name: v for name, v in chosen.items() if isinstance(v, str)},
                              patience=patience if isinstance(patience, float) else 0.8,
                              removed=removed if isinstance(removed, float) else 0.0)
    st.download_button(_("Open as a notebook (.ipynb)"), lambda: notebook.write(view),
                       file_name=f"ranklab_{page}.ipynb", mime="application/x-ipynb+json",
                       key=f"{page}.notebook", on_click="ignore", icon=":material/code:",
                       help=_("A Jupyter notebook that rebuilds this page's example, measures and charts "
                              "with Ranklab's Python API"))


def exercise_notebook_buttons(page: str, seed: int, level: int) -> None:
    """Practice exercise ``seed`` at ``level`` as a notebook to work in, and the teacher's
    version with the answers filled in (:func:`ranklab_ui.core.notebook.exercise_notebook`)."""
    from ..core import notebook  # lazily, as notebook_button

    code = current_language()  # the download runs after this run: keep its language
    with st.container(horizontal=True):
        for teacher, label in ((False, _("Exercise as a notebook (.ipynb)")),
                               (True, _("Teacher's version, answers filled in (.ipynb)"))):
            st.download_button(label, lambda t=teacher: notebook.write_exercise(seed, level, teacher=t, language_code=code),
                               file_name=f"ranklab_exercise_{seed}_level{level}{'_teacher' if teacher else ''}.ipynb",
                               mime="application/x-ipynb+json", key=f"{page}.notebook.{'teacher' if teacher else 'learner'}",
                               on_click="ignore", icon=":material/code:")
