"""Start here: what Ranklab is, and where a teacher, a student and an engineer begin."""

from __future__ import annotations

import streamlit as st

from ranklab_ui.core.i18n import _


def main() -> None:
    st.title(_("Start here"))
    st.markdown(_("Ranklab shows how ranking metrics are computed — precision, recall, reciprocal rank, average "
                  "precision, nDCG and more — on a ranked list you can edit, with every number worked out step "
                  "by step. Every default follows trec_eval; every other convention is named."))
    student, teacher, engineer = st.columns(3, gap="medium")
    with student:
        st.subheader(_("A student"))
        st.markdown(_("Open the **Playground**: change a grade or k and watch every measure move. Then follow the "
                      "**Lessons** in order, and test yourself with **Practice** and **Check my calculation**."))
        st.page_link("app_pages/playground.py", label=_("Playground"), icon=":material/tune:")
        st.page_link("app_pages/lesson_precision_recall.py", label=_("First lesson: precision, recall, F1"),
                     icon=":material/target:")
    with teacher:
        st.subheader(_("A teacher"))
        st.markdown(_("Pick an example, then press **Presenter view** for the projector (keys: ← → change k, "
                      "↑ ↓ pick an item, 0–9 grade it). Ask the class with a **Class poll**; the **Pitfall gallery** "
                      "and the **Swap map** start discussions."))
        st.page_link("app_pages/class_poll.py", label=_("Class poll"), icon=":material/how_to_vote:")
        st.page_link("app_pages/pitfalls.py", label=_("Pitfall gallery"), icon=":material/warning:")
    with engineer:
        st.subheader(_("An engineer"))
        st.markdown(_("Upload qrels and a run to **Evaluate files** (the same numbers as trec_eval), find why two "
                      "tools disagree with **Diagnose a discrepancy** and the **Conventions explorer**, and "
                      "compare two systems with significance tests."))
        st.page_link("app_pages/evaluate_files.py", label=_("Evaluate files"), icon=":material/upload_file:")
        st.page_link("app_pages/diagnose.py", label=_("Diagnose a discrepancy"), icon=":material/troubleshoot:")


main()
