"""Ranklab: page config, the session's language, routing, and the app-wide switches under the
navigation."""

import streamlit as st

from ranklab_ui import render
from ranklab_ui.core.i18n import _
from ranklab_ui.render import style
from ranklab_ui.session import language
from ranklab_ui.widgets import language_picker

# the presenter view (ranklab_ui/parts/presenter.py) starts with the sidebar collapsed
present = st.query_params.get("view") == "present"
st.set_page_config(page_title="Ranklab", page_icon=":material/leaderboard:", layout="wide",
                   initial_sidebar_state="collapsed" if present else "auto")
language.start()  # this session's language, before the first text
style.apply()   # app-wide layout rules: labels wrap, printing

pages = {
    _("Ranklab"): [st.Page("app_pages/start.py", title=_("Start here"), icon=":material/home:")],
    _("Play"): [
        st.Page("app_pages/playground.py", title=_("Playground"), icon=":material/tune:", default=True),
        st.Page("app_pages/many_queries.py", title=_("Many queries"), icon=":material/stacks:"),
    ],
    _("Lessons"): [
        st.Page("app_pages/lesson_precision_recall.py", title=_("Precision, recall, F1"), icon=":material/target:"),
        st.Page("app_pages/lesson_reciprocal_rank.py", title=_("RR and MRR"), icon=":material/looks_one:"),
        st.Page("app_pages/lesson_average_precision.py", title=_("AP and MAP"), icon=":material/show_chart:"),
        st.Page("app_pages/lesson_dcg.py", title=_("CG → DCG → nDCG"), icon=":material/stairs:"),
        st.Page("app_pages/lesson_pr_curve.py", title=_("Precision–recall curve"), icon=":material/ssid_chart:"),
        st.Page("app_pages/lesson_users.py", title=_("What does the user do?"), icon=":material/directions_walk:"),
        st.Page("app_pages/lesson_unjudged.py", title=_("Unjudged documents"), icon=":material/help:"),
    ],
    _("Teach"): [
        st.Page("app_pages/check_calculation.py", title=_("Check my calculation"), icon=":material/task_alt:"),
        st.Page("app_pages/practice.py", title=_("Practice"), icon=":material/school:"),
        st.Page("app_pages/class_poll.py", title=_("Class poll"), icon=":material/how_to_vote:"),
        st.Page("app_pages/conventions.py", title=_("Conventions explorer"), icon=":material/explore:"),
        st.Page("app_pages/pitfalls.py", title=_("Pitfall gallery"), icon=":material/warning:"),
        st.Page("app_pages/compare.py", title=_("Compare systems"), icon=":material/compare_arrows:"),
        st.Page("app_pages/swap_map.py", title=_("Swap map"), icon=":material/swap_vert:"),
    ],
    _("Reader"): [st.Page("app_pages/reader.py", title=_("Reader (QA) metrics"), icon=":material/quiz:")],
    _("Check numbers"): [
        st.Page("app_pages/evaluate_files.py", title=_("Evaluate files"), icon=":material/upload_file:"),
        st.Page("app_pages/diagnose.py", title=_("Diagnose a discrepancy"), icon=":material/troubleshoot:"),
    ],
}
page = st.navigation(pages, expanded=True)  # every page listed: none hidden under "View more"
language_picker()          # the language, first under the navigation
render.sidebar_settings()  # app-wide switches
page.run()
