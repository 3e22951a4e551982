"""Reader (QA) metrics: SQuAD's exact match and F1 step by step, and the PIAF QA notes' twelve metrics."""

from pathlib import Path

import streamlit as st

from metrics import qa
from metrics.explain import num
from ranklab_ui import render
from ranklab_ui.core.i18n import N_, _, ngettext, shown
from ranklab_ui.parts import reader_view as view
from ranklab_ui.widgets import files

K = view.KEYS
LIMITS = view.LIMITS
ASSETS = Path(__file__).resolve().parents[1] / "assets" / "reader"
SAMPLE = N_("Sample dataset (assets/reader: 14 questions, top-3 answers)")
UNITS = {"token": N_("tokens (SQuAD)"), "char": N_("characters (PIAF QA notes)")}


def _load_preset() -> None:
    gold, preds, unit = view.PRESETS[st.session_state[K["preset"]]]
    st.session_state[K["gold"]] = "\n".join(gold)
    st.session_state[K["predictions"]] = "\n".join(preds)
    st.session_state[K["unit"]] = unit
    st.session_state.pop(K["explain_rank"], None)


def _sample_rows():
    gold = files.squad(ASSETS / "dev.json")
    preds = files.predictions(ASSETS / "predictions_topk.jsonl")
    return [(q, f" {view.SEPARATOR} ".join(g), f" {view.SEPARATOR} ".join(a if a and a.strip() else "no answer" for a in preds.answers[q]),
             preds.retrieved.get(q, True)) for q, g in gold.answers.items()]


def _load_table_preset() -> None:
    name = st.session_state[K["table_preset"]]
    rows = _sample_rows() if name == SAMPLE else view.TABLE_PRESETS[name]
    st.session_state[K["table_data"]] = view.questions_frame(rows)
    st.session_state.pop(K["table_kept"], None)
    _restart_table()  # forget the edits made to the previous table


def _restart_table() -> None:
    st.session_state[K["table_version"]] = st.session_state.get(K["table_version"], 0) + 1


def _refuse_big_edits() -> None:
    """Refuse the table's pending edits before Streamlit applies them when they are too big
    (it adds rows one by one: minutes for thousands) or malformed; the table as it was
    before them is kept."""
    problem = view.editor_problem(st.session_state.get(view.table_key(st.session_state)),
                                  len(st.session_state[K["table_data"]]))
    if problem:
        kept = st.session_state.get(K["table_kept"])
        if kept is not None:
            st.session_state[K["table_data"]] = kept
        _restart_table()
        st.error(problem)


def _init() -> None:
    if K["gold"] not in st.session_state:
        st.session_state[K["preset"]] = next(iter(view.PRESETS))
        _load_preset()
    if K["table_data"] not in st.session_state:
        st.session_state[K["table_preset"]] = next(iter(view.TABLE_PRESETS))
        _load_table_preset()


def one_question() -> None:
    st.selectbox(_("Example"), list(view.PRESETS), format_func=shown(_), key=K["preset"], on_change=_load_preset,
                 help=_("Loads gold and predicted answers; you can then edit them freely."))
    left, right = st.columns(2)
    left.text_area(_("Gold answers, one per line"), key=K["gold"], height=120,
                   max_chars=LIMITS.text_chars,
                   help=_("Leave empty if the question has no answer (SQuAD 2.0 'is_impossible')."))
    right.text_area(_("Predicted answers, best first, one per line"), key=K["predictions"],
                    height=120, max_chars=LIMITS.text_chars,
                    help=_("Write 'no answer' (or leave the box empty) for a reader that abstains."))
    # the browser enforces max_chars; the server checks again (the text is kept as typed)
    problems = [view.text_problem(st.session_state[K[key]] or "", what)
                for key, what in (("gold", "Gold answers"), ("predictions", "Predicted answers"))]
    if any(problems):
        for problem in filter(None, problems):
            st.error(problem)
        return
    gold = view.parse_lines(st.session_state[K["gold"]])
    preds = view.parse_lines(st.session_state[K["predictions"]]) or [""]
    c1, c2 = st.columns([1, 2])
    unit = c1.radio(_("F1 over"), qa.UNITS, key=K["unit"], horizontal=True,
                    format_func=shown(lambda u: _(UNITS[u])))
    labels = [f"{i + 1}: {view.shorten(p)}" for i, p in enumerate(preds)]
    if st.session_state.get(K["explain_rank"]) not in labels:
        st.session_state[K["explain_rank"]] = labels[0]  # the predictions changed
    rank = labels.index(c2.selectbox(_("Explain the prediction at rank"), labels,
                                     key=K["explain_rank"]))

    try:
        e = qa.explain_answer(preds[rank], gold, unit=unit)
        ev = qa.evaluate_reader({"q": gold}, {"q": preds}, unit=unit)
    except (TypeError, ValueError) as err:
        st.error(view.escape_markdown(str(err)))
        return

    if not e.answerable:
        st.info(_("This question has **no gold answer** (unanswerable): only an abstention "
                  "('no answer', or an empty answer) is right, and it then scores 1 on every metric."))
    m = st.columns(5)
    scored = e.answerable and not e.abstains  # precision and recall mean something
    m[0].metric(_("Exact match"), num(e.em))
    m[1].metric(_("Precision"), num(e.precision) if scored else "–")
    m[2].metric(_("Recall"), num(e.recall) if scored else "–")
    m[3].metric(_("F1 (characters)") if unit == "char" else _("F1 (tokens)"), num(e.f1))
    m[4].metric(_("Correct reading"), _("yes") if e.correct else _("no"),
                help=_("The PIAF QA notes' accuracy counts a reading as correct when it shares at least "
                       "one token with a gold answer (always tokens, even when F1 is over "
                       "characters)."))

    st.subheader(_("1. Normalise (SQuAD)"))
    st.caption(_("Each answer goes through the same four stages; exact match compares the last row."))
    render.table(view.steps_frame(e))

    st.subheader(_("2. Compare the characters") if unit == "char" else _("2. Compare the tokens"))
    if scored:
        best = e.best + 1
        st.markdown(_("Prediction ({count}):").format(count=view.count(len(e.prediction_units), unit)) + " "
                    + view.overlap_markdown(e.prediction_units, e.common, unit=unit, colour="red"))
        st.markdown(_("Best gold answer, #{best} ({count}):").format(best=best, count=view.count(len(e.gold_units), unit)) + " "
                    + view.overlap_markdown(e.gold_units, e.common, unit=unit, colour="orange"))
        st.caption(_("Green: shared (each copy counted once, as in a multiset). "
                     "Red: only in the prediction, lowers precision. "
                     "Orange: only in the gold answer, lowers recall."))
        render.table(view.gold_frame(e))
        st.caption(_("With several gold answers, EM and F1 are the best over them."))
    else:
        st.write(e.reason)
    st.latex(e.formula)
    with st.expander(_("The general formula")):
        st.latex(e.definition)

    st.subheader(_("3. Top-1 and top-k for this question"))
    st.caption(ngettext("Top-1 looks at rank 1 only; top-k at the best of all {n} predicted answer.",
                        "Top-1 looks at rank 1 only; top-k at the best of all {n} predicted answers.",
                        len(preds)).format(n=len(preds)))
    row = ev.per_question["q"]
    render.table(view.single_question_frame(row),
                 column_config=view.score_columns())


def many_questions() -> None:
    st.selectbox(_("Example set"), [*view.TABLE_PRESETS, SAMPLE], key=K["table_preset"], format_func=shown(_),
                 on_change=_load_table_preset)
    st.caption(_("Separate several answers in a cell with a vertical bar ( {separator} ). Leave the gold "
                 "answers empty for an unanswerable question; write 'no answer' (or nothing) for a "
                 "reader that abstains. Untick *retrieved* when the retriever missed every "
                 "relevant passage: the question is then left out, as in Haystack.").format(separator=view.SEPARATOR))
    _refuse_big_edits()
    edited = st.data_editor(
        st.session_state[K["table_data"]], key=view.table_key(st.session_state),
        num_rows="dynamic", hide_index=True, width="stretch",
        height=view.table_height(len(st.session_state[K["table_data"]]), extra=1),
        column_config={
            "question": st.column_config.TextColumn(_("question"), help=_("an id, e.g. q1"),
                                                    max_chars=LIMITS.cell_chars),
            "gold answers": st.column_config.TextColumn(_("gold answers"), width="medium",
                                                        max_chars=LIMITS.cell_chars),
            "predictions": st.column_config.TextColumn(_("predictions (best first)"), width="large",
                                                       max_chars=LIMITS.cell_chars),
            "retrieved": st.column_config.CheckboxColumn(_("retrieved"), default=True),
        })
    st.session_state[K["table_kept"]] = edited  # what a refused edit goes back to
    st.caption(_("At most {rows} questions, {chars} characters a cell.").format(rows=LIMITS.rows,
                                                                               chars=f"{LIMITS.cell_chars:,}"))
    c1, c2 = st.columns(2)
    k = c1.number_input(_("k (top-k uses the first k answers)"), min_value=1, max_value=100, value=3,
                        step=1, key=K["k"])
    unit = c2.radio(_("F1 over"), qa.UNITS, key=K["table_unit"], horizontal=True,
                    format_func=shown(lambda u: _(UNITS[u])))
    gold, preds, retrieved, problems = view.table_to_questions(edited)
    for p in problems:
        st.warning(view.escape_markdown(p))
    if not gold:
        st.info(_("Add a row to the table to see the metrics."))
        return
    too_much = view.work_problem(qa.comparisons(gold, preds, k=int(k)))
    if too_much:
        st.error(too_much)
        return
    try:
        ev = qa.evaluate_reader(gold, preds, k=int(k), unit=unit, retrieved=retrieved)
    except (TypeError, ValueError) as err:
        st.error(view.escape_markdown(str(err)))
        return
    c = ev.counts
    st.subheader(_("The twelve metrics"))
    st.markdown(
        _("Every metric divides by the **correct retrievals**: {correct} of {questions} questions. The "
          "*_has_answer* ones divide by the answerable ones among them: {correct} − {no_answer} unanswerable = "
          "{has_answer}.").format(correct=c["correct_retrievals"], questions=c["questions"],
                                  no_answer=c["no_answer"], has_answer=c["has_answer"]))
    for w in ev.warnings:
        st.warning(w)
    render.table(view.metrics_frame(ev),
                 column_config=view.score_columns())
    st.subheader(_("Per question"))
    st.caption(_("The metrics above are the averages of these columns over the retrieved "
                 "questions (all of them, or the answerable ones only)."))
    render.table(view.per_question_frame(ev),
                 height=view.table_height(len(ev.per_question)),
                 column_config=view.score_columns())


def main() -> None:
    _init()
    st.title(_("Reader (QA) metrics"))
    st.write(_("A question-answering *reader* returns answers, best first. It is scored against "
               "the gold answers with SQuAD's **exact match** and **F1**, and the PIAF QA notes "
               "report twelve averages: accuracy, exact match and F1, each for the top-1 and the "
               "top-k answers, each over all questions and over answerable ones only."))
    tab1, tab2 = st.tabs([_("One question, step by step"), _("Many questions: the twelve metrics")])
    with tab1:
        one_question()
    with tab2:
        many_questions()


main()
