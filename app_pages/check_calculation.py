"""Check my calculation: type your own numbers, find the first wrong step and the likely mistake.

Hints come first: a wrong number gets its step and the likely mistake, and the right value (in
the verdict, the step table and the worked solution) only once the learner asks for it."""

from __future__ import annotations

import pandas as pd
import streamlit as st

import metrics
from metrics.teaching import check, exercises
from ranklab_ui import render
from ranklab_ui.core import teach_view, views
from ranklab_ui.core.i18n import N_, _, shown
from ranklab_ui.core.views import escape_markdown
from ranklab_ui.parts import lessons
from ranklab_ui.session import options

PAGE = "check_calculation"
MEASURE = f"{PAGE}.measure"
DRAWN_K = f"{PAGE}.measure_k"  # the k the Measure picker's labels were last drawn with
REVEALED = f"{PAGE}.revealed"  # the signature of the example and measure whose answer was asked for
MEASURES = ["P@{k}", "R@{k}", "RR", "AP", "AP@{k}", "DCG@{k}", "nDCG@{k}", "nDCG(dcg='exp-log2')@{k}"]
HELP = {
    "P": N_("P@k = relevant documents in the top k, divided by k."),
    "R": N_("R@k = relevant documents in the top k, divided by R (every relevant document judged)."),
    "RR": N_("RR = 1 / rank of the first relevant document."),
    "AP": N_("AP = sum of the precision at each relevant rank, divided by R."),
    "DCG": N_("DCG@k = sum over ranks i of gain_i / log2(i + 1); the gain is the grade."),
    "nDCG": N_("nDCG@k = DCG@k / IDCG@k; IDCG is the DCG of every judged document sorted by grade."),
}


def _example():
    """The ranking and judgments to work on: the shared example or a generated exercise."""
    source = st.radio(_("Work on"), [N_("The shared example"), N_("A generated exercise")], horizontal=True,
                      format_func=shown(_), key=f"{PAGE}.source")
    if source == "The shared example":
        lessons.example_controls(PAGE)
        cq = lessons.current()
        return cq.ranking, cq.judgments, cq.labels, cq.k, _("query “{name}”").format(name=cq.name)
    c1, c2 = st.columns(2)
    level = c1.selectbox(_("Level"), list(exercises.LEVELS), format_func=shown(lambda v: _(exercises.LEVELS[v])),
                         key=f"{PAGE}.level")
    seed = int(c2.number_input(_("Exercise number"), 0, exercises.MAX_SEED, step=1, key=f"{PAGE}.seed"))
    ex = exercises.generate(seed, level)
    render.exercise_notebook_buttons(PAGE, seed, level)
    return list(ex.ranking), ex.judgments, {}, 3 if level == 1 else 5, _("exercise {seed}").format(seed=seed)


def _measure_picker(k: int) -> str:
    """The Measure picker, its labels written with the example's ``k``; returns the chosen template."""
    ss = st.session_state
    if ss.get(DRAWN_K, k) != k and MEASURE in ss:
        # the browser keeps showing the label it was last sent ("AP@5") when only the labels
        # change: writing the choice again makes Streamlit send its new label ("AP@3") too
        ss[MEASURE] = ss[MEASURE]
    ss[DRAWN_K] = k
    return st.selectbox(_("Measure"), MEASURES, format_func=lambda m: m.format(k=k), key=MEASURE)


def _answer_form(blanks, measure: str, sig: str, final_only: bool) -> dict:
    """Text inputs for the steps, grouped by rank; returns the typed texts by step key."""
    asked = [b for b in blanks if b.key == "value"] if final_only else blanks
    by_rank: dict[str, list] = {}
    rest = []
    for b in asked:
        name, _at, rank = b.key.partition("@")
        (by_rank.setdefault(rank, []) if rank else rest).append(b)
    typed = {}
    with st.form(f"{PAGE}.form.{sig}"):
        for rank, group in by_rank.items():
            cols = st.columns(len(group) + 1)
            cols[0].markdown(_("**rank {rank}**").format(rank=rank))
            for col, b in zip(cols[1:], group, strict=True):
                typed[b.key] = col.text_input(b.label, key=f"{PAGE}.answer.{sig}.{b.key}", max_chars=40,
                                              placeholder=_("a whole number") if b.integer else _("e.g. 0.5 or 1/2"))
        cols = st.columns(max(1, len(rest)))
        for col, b in zip(cols, rest, strict=True):
            label = _("{measure} (your final answer)").format(measure=measure) if b.key == "value" else b.label
            typed[b.key] = col.text_input(label, key=f"{PAGE}.answer.{sig}.{b.key}", max_chars=40,
                                          placeholder=_("a whole number") if b.integer else _("e.g. 0.54 or 2/3"))
        st.form_submit_button(_("Check my numbers"), type="primary")
    return typed


def _show_result(result, reveal: bool) -> None:
    """The verdicts; without ``reveal`` no right value the learner has not typed is shown (hints only)."""
    message = result.message if reveal else result.hint
    if result.first_wrong is None:
        (st.success if result.all_correct else st.info)(escape_markdown(message))
    else:
        st.error(escape_markdown(message))
    typed = [s for s in result.steps if s.status != "blank"]
    if typed:
        stop = result.steps.index(result.first_wrong) if result.first_wrong else len(result.steps)
        rows = []
        for i, s in enumerate(result.steps):
            if s.status == "blank":
                continue
            mark = {"correct": _("✓ right"), "wrong": _("✗ wrong"), "unreadable": _("? unreadable")}[s.status]
            if i > stop:
                right = _("(fix the first wrong step first)")
            elif reveal or s.status == "correct":
                right = teach_view.fmt(s.expected)
            else:
                right = _("(hidden until you ask)")
            rows.append({_("step"): s.label, _("you typed"): s.given_text.strip()[:40], _("verdict"): mark,
                         _("right value"): right,
                         _("tolerance"): _("exact") if s.tolerance in (None, 0.0) else f"±{s.tolerance:g}",
                         _("note"): s.note})
        render.table(pd.DataFrame(rows))
    if len(result.diagnoses) > 1:
        st.warning(_("**{n} mistakes give your numbers** — any of them may be yours:").format(n=len(result.diagnoses)))
    for d in result.diagnoses:
        fit = (_("exactly the number you typed") if d.compared == 1
               else _("{matched} of the {compared} numbers you typed from there on").format(matched=d.matched,
                                                                                          compared=d.compared))
        st.warning(_("**Likely mistake: {title}.** {explanation}").format(
            title=escape_markdown(_(d.mistake.title)), explanation=escape_markdown(_(d.mistake.explanation))) + "\n\n"
            + _("Under that mistake this step comes out as {value}: {fit}.").format(value=teach_view.fmt(d.value), fit=fit))
    # the examples are made-up digits, so that they can never give an example's answer away
    st.caption(_("Tolerance: half a unit of the last decimal you typed, at most ±0.005 (so 0.12 is checked to "
                 "±0.005, 0.1234 to ±0.00005); fractions such as 2/3 are exact, 2.17/4 is ±0.005/4; counts "
                 "must be exact. A step computed from numbers you rounded is right when it follows from them."))


def _reveal(sig: str) -> None:
    st.session_state[REVEALED] = sig


def _worked_solution(measure, ranking, judgments, sig: str, reveal: bool) -> None:
    """The worked solution once ``reveal``, else the "Show the answer" button that reveals it (its
    formula, numbers substituted, ends with the right value)."""
    if not reveal:
        st.caption(_("Hints only: a wrong number gets its step and the likely mistake, not the right value. "
                     "Work it out again, or ask for the answer and the worked solution."))
        st.button(_("Show the answer"), key=f"{PAGE}.reveal", on_click=_reveal, args=(sig,))
        return
    with st.expander(_("Show the worked solution"), expanded=True):
        e = metrics.explain(measure, ranking, judgments)
        st.latex(e.formula)
        frame = e.to_frame()
        st.dataframe(frame.rename(columns={c: _(views.HEADERS[c]) for c in frame.columns if c in views.HEADERS}),
                     hide_index=True, width="stretch")


def main() -> None:
    st.title(_("Check my calculation"))
    st.markdown(_("Work a measure out on paper, type your numbers, and Ranklab marks the **first wrong step** "
                  "and names the **likely mistake** — it recomputes the example under each classic mistake "
                  "and looks for the one that gives your numbers."))
    options.sync(PAGE)  # the choices below from the link, or into it
    render.messages()
    ranking, judgments, labels, k, where = _example()
    template = _measure_picker(k)
    choice = template.format(k=k)  # the choice survives a change of k
    measure = metrics.parse(choice)
    st.caption((_(HELP[measure.name]) if measure.name in HELP else "")
               + (" " + _("The gain here is 2^grade − 1.") if "exp-log2" in choice else ""))
    st.markdown(_("**The example** ({where}): judged documents not retrieved still count for R and for the "
                  "ideal ordering.").format(where=render.plain(where, 120)))
    render.table(teach_view.ranking_frame(ranking, judgments, labels))
    try:
        blanks = check.blanks(measure, ranking, judgments)
    except ValueError as err:
        st.error(escape_markdown(_("This example cannot be checked: {error}").format(error=err)))
        return
    final_only = st.radio(_("What will you type?"), [N_("The final value only"), N_("Every step")], horizontal=True,
                          format_func=shown(_), key=f"{PAGE}.detail") == "The final value only"
    sig = teach_view.signature(str(measure), ranking, judgments)
    typed = _answer_form(blanks, str(measure), sig, final_only)
    reveal = st.session_state.get(REVEALED) == sig  # asked for this example and measure only
    if any(t.strip() for t in typed.values() if t):
        _show_result(check.check(measure, ranking, judgments, typed), reveal)
    _worked_solution(measure, ranking, judgments, sig, reveal)


main()
