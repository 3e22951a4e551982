"""Practice: generated exercises (a seed in the URL reproduces one), predict-then-reveal, worksheets."""

from __future__ import annotations

import secrets

import streamlit as st

from metrics.teaching import exercises
from ranklab_ui import render
from ranklab_ui.core import teach_view
from ranklab_ui.core.i18n import _, shown
from ranklab_ui.core.views import escape_markdown
from ranklab_ui.session import options, state

PAGE = "practice"
SCORE = f"{PAGE}.score"
KEPT = f"{PAGE}.exercise"  # (seed, level) outside widget state, so it survives other pages  # {"<seed>/<level>/<question>": first answer right?}
MAX_SHEET = 10


def _int_param(name: str, low: int, high: int):
    """The URL's ``name`` (seed or level), checked by :mod:`ranklab_ui.session.options`; None (and a message) when bad."""
    raw = st.query_params.get(name)
    if raw is None:
        return None
    try:
        value = options.option(PAGE, name).read(raw)
    except options.OptionError as err:
        st.session_state.setdefault(state.KEYS["messages"], []).append(("error", str(err)))  # escaped when shown
        return None
    return value if low <= value <= high else None


def _init_from_url() -> None:
    """Take seed and level from the URL when it names an exercise this session has not shown yet;
    without them (first visit, or back from another page) keep the session's exercise."""
    seed = _int_param("seed", 0, exercises.MAX_SEED)
    level = _int_param("level", 1, 3)
    ss = st.session_state
    if f"{PAGE}.seed" not in ss:  # widget state is dropped while another page is shown
        kept = ss.get(KEPT)
        if seed is None and kept:
            seed, level = kept
        ss[f"{PAGE}.seed"] = seed if seed is not None else secrets.randbelow(10_000)
        ss[f"{PAGE}.level"] = level if level is not None else 1
    elif (seed, level) != ss.get(f"{PAGE}.url") and seed is not None:
        ss[f"{PAGE}.seed"] = seed
        ss[f"{PAGE}.level"] = level if level is not None else ss.get(f"{PAGE}.level") or 1
    ss[f"{PAGE}.url"] = (seed, level)


def _new_exercise() -> None:
    st.session_state[f"{PAGE}.seed"] = secrets.randbelow(10_000)


def _record(key: str, correct: bool) -> None:
    score = st.session_state.setdefault(SCORE, {})
    score.setdefault(key, correct)  # the first answer counts


def _question(ex, i: int, q) -> None:
    key = f"{PAGE}.q.{ex.seed}.{ex.level}.{i}"
    st.markdown(f"**{i + 1}.** {escape_markdown(q.prompt)}")
    if q.kind == "predict":
        choice = st.radio(_("Your prediction"), q.choices, index=None, horizontal=True, format_func=shown(_),
                          key=f"{key}.answer")
        clicked = st.button(_("Reveal"), key=f"{key}.check")
    else:
        c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
        choice = c1.text_input(_("Your answer"), key=f"{key}.answer", max_chars=40, placeholder=_("e.g. 0.5 or 1/2"))
        clicked = c2.button(_("Check"), key=f"{key}.check")
    if clicked:
        st.session_state[f"{key}.graded"] = True
        grade = exercises.grade_answer(q, choice)
        if grade.counted:
            _record(f"{ex.seed}/{ex.level}/{i}", grade.correct)
    if st.session_state.get(f"{key}.graded"):
        grade = exercises.grade_answer(q, choice)
        (st.success if grade.correct else st.error)(escape_markdown(grade.message))


def _worksheet(seed: int, level: int) -> None:
    st.subheader(_("Worksheet for a class"))
    c1, c2 = st.columns([1, 3])
    count = int(c1.number_input(_("Exercises"), 1, MAX_SHEET, 3, key=f"{PAGE}.sheet_count"))
    title = c2.text_input(_("Title"), _("Ranking metrics worksheet"), max_chars=120, key=f"{PAGE}.sheet_title")
    seeds = [min(seed + n, exercises.MAX_SEED) for n in range(count)]
    sheet = [exercises.generate(s, level) for s in dict.fromkeys(seeds)]
    title = title.strip() or _("Ranking metrics worksheet")
    d1, d2 = st.columns(2)
    d1.download_button(_("Download Markdown"), exercises.worksheet_markdown(sheet, title=title),
                       file_name=f"worksheet-{seed}-level{level}.md", mime="text/markdown", key=f"{PAGE}.md")
    d2.download_button(_("Download HTML (open it, then print)"), exercises.worksheet_html(sheet, title=title),
                       file_name=f"worksheet-{seed}-level{level}.html", mime="text/html", key=f"{PAGE}.html")
    st.caption(_("Exercises {seeds} at level {level}, with the answer key on the last page.").format(
        seeds=", ".join(map(str, dict.fromkeys(seeds))), level=_(exercises.LEVELS[level])))


def main() -> None:
    st.title(_("Practice"))
    st.markdown(_("A new ranking every time. Work each answer out on paper, then check it. "
                  "The exercise number is in the address bar: share the link and others get the same exercise."))
    _init_from_url()
    render.messages()
    c1, c2, c3 = st.columns([2, 2, 1], vertical_alignment="bottom")
    level = c1.segmented_control(_("Level"), list(exercises.LEVELS), format_func=shown(lambda v: _(exercises.LEVELS[v])),
                                 key=f"{PAGE}.level") or 1
    seed = int(c2.number_input(_("Exercise number"), 0, exercises.MAX_SEED, step=1, key=f"{PAGE}.seed"))
    c3.button(_("New exercise"), on_click=_new_exercise, key=f"{PAGE}.new")
    st.query_params["seed"] = str(seed)
    st.query_params["level"] = str(level)
    st.session_state[f"{PAGE}.url"] = (seed, level)
    st.session_state[KEPT] = (seed, level)

    score_box = st.empty()  # filled after the questions, so a click counts at once
    ex = exercises.generate(seed, level)
    st.subheader(_("Exercise {seed} ({level})").format(seed=seed, level=_(exercises.LEVELS[level])))
    st.dataframe(teach_view.ranking_frame(list(ex.ranking), ex.judgments), hide_index=True, width="content",
                 column_config={_("document"): st.column_config.TextColumn(width="medium")})
    if ex.missed:
        st.caption(_("Rows marked “not retrieved” are judged relevant but the system missed them: "
                     "they count for R and for the ideal ordering."))
    for i, q in enumerate(ex.questions):
        _question(ex, i, q)
    score = st.session_state.get(SCORE, {})
    score_box.metric(_("Your score this session"), f"{sum(score.values())} / {len(score)}",
                     help=_("Only your first answer to each question counts."))
    render.exercise_notebook_buttons(PAGE, seed, level)
    st.divider()
    _worksheet(seed, level)


main()
