"""ranklab_ui/reader_view: escaping is lossless and complete; frames and table parsing."""

from __future__ import annotations

import re
import string

from hypothesis import given
from hypothesis import strategies as st

from metrics.qa import evaluate_reader, explain_answer
from ranklab_ui.parts import reader_view as view


@given(st.text(max_size=200))
def test_escape_markdown_is_lossless_and_escapes_every_ascii_punctuation(text):
    out = view.escape_markdown(text)
    assert "\n" not in out and "\r" not in out
    # undoing the escapes gives back the text (newlines as spaces, addresses broken by
    # invisible zero-width spaces)
    zw = "\u200b"
    assert re.sub(r"\\(.)", r"\1", out).replace(zw, "") == " ".join(text.splitlines()).replace(zw, "")
    assert "//" not in out.replace("\\", "") and "ww" + "w" not in out
    # no ASCII punctuation is left unescaped
    unescaped = re.sub(r"\\.", "", out)
    assert not set(unescaped) & set(string.punctuation)


def test_overlap_markdown_marks_shared_units_once_and_truncates():
    md = view.overlap_markdown(["new", "new", "york"], ["new", "york"], unit="token", colour="red")
    assert md == (":green-background[:green[**new**]] :red[new] "
                  ":green-background[:green[**york**]]")
    assert view.overlap_markdown([], [], unit="token", colour="red").startswith("*(nothing")
    long = view.overlap_markdown([str(i) for i in range(250)], [], unit="token", colour="red")
    assert long.endswith("… (50 more)")
    assert view.overlap_markdown(["a", " ", "b"], [" "], unit="char", colour="red").count("␣") == 1


def test_frames():
    e = explain_answer("Broncos", ["Denver Broncos", "the Broncos"])
    steps = view.steps_frame(e)
    assert list(steps.columns) == ["stage", "prediction", "gold 1", "gold 2"]
    assert steps["gold 2"].iloc[-1] == "broncos"
    g = view.gold_frame(e)
    assert g["best"].tolist() == ["", "✓"]
    assert g["F1"].round(4).tolist() == [0.6667, 1.0] and g["common"].tolist() == ["broncos"] * 2
    none = view.steps_frame(explain_answer(None, []))
    assert none["prediction"][0] == "(no answer)" and len(none) == 5
    ev = evaluate_reader({"q1": ["Paris"], "q2": []}, {"q1": ["Lyon", "Paris"], "q2": "x"})
    m = view.metrics_frame(ev).set_index("metric")
    assert m.loc["reader_topk_em", "= sum / count"] == "1 / 2"      # q1 at rank 2, q2 wrong
    assert m.loc["reader_topk_em", "= sum / count "] == "1 / 1"     # answerable: q1 only
    assert view.per_question_frame(ev)["topk_em"].tolist() == [1.0, 0.0]


def test_table_to_questions_cleans_cells():
    import pandas as pd

    df = pd.DataFrame({"question": ["q1", None, "q1", "  "],
                       "gold answers": ["a | b ||", None, "x", float("nan")],
                       "predictions": [" b ", "", "y", None],
                       "retrieved": [True, None, True, False]})
    gold, preds, retrieved, problems = view.table_to_questions(df)
    assert gold == {"q1": ["a", "b"], "row 2": [], "row 4": []}
    assert preds == {"q1": ["b"], "row 2": [], "row 4": []}
    assert retrieved == {"q1": True, "row 2": True, "row 4": False}
    assert len(problems) == 1 and "Row 3" in problems[0] and "row 1" in problems[0]


def test_editor_problem_counts_rows_and_checks_every_part():
    limits = view.ReaderLimits(rows=10, cell_chars=5)
    ok = {"edited_rows": {"2": {"question": "12345"}}, "added_rows": [{}] * 4, "deleted_rows": [0]}
    # 7 rows - 1 deleted + 4 added = 10: allowed; edits reach rows 0..10 (7 old + 4 new)
    assert view.editor_problem(ok, 7, limits=limits) is None
    assert view.editor_problem({**ok, "edited_rows": {10: {"question": "x"}}}, 7, limits=limits) is None
    # 7 - 0 + 4 = 11 rows: one too many (a deleted row given twice counts once)
    too_many = view.editor_problem({**ok, "deleted_rows": []}, 7, limits=limits)
    assert "4 rows added" in too_many and "at most 10" in too_many and "would have 11" in too_many
    assert "at most 10" in view.editor_problem({**ok, "deleted_rows": [0, 0]}, 8, limits=limits)
    long = view.editor_problem({**ok, "added_rows": [{"predictions": "123456"}]}, 7, limits=limits)
    assert "6 characters" in long and "at most 5" in long
    for bad in ({"edited_rows": {11: {}}}, {"edited_rows": {"1.5": {}}}, {"edited_rows": {True: {}}},
                {"deleted_rows": [7]}, {"deleted_rows": [-1]}, {"deleted_rows": ["x"]}):
        assert "do not exist" in view.editor_problem({**ok, **bad}, 7, limits=limits), bad
    for bad in ({"edited_rows": [1]}, {"added_rows": {"a": 1}}, {"added_rows": ["row"]},
                {"edited_rows": {0: None}}, {"edited_rows": {0: {"nope": "x"}}},
                {"added_rows": [{"question": ["a"]}]}, {"edited_rows": {0: {"predictions": {}}}}):
        assert "could not be read" in view.editor_problem({**ok, **bad}, 7, limits=limits), bad
    assert view.editor_problem(None, 7) is None  # no edits yet


def test_text_and_work_limits():
    limits = view.ReaderLimits(text_chars=10, answers=2, comparisons=6)
    assert view.text_problem("a\n\nb\n", "Gold", limits=limits) is None  # 2 answers, 5 characters
    assert "3 answers" in view.text_problem("a\nb\nc", "Gold", limits=limits)
    assert "11 characters" in view.text_problem("x" * 11, "Gold", limits=limits)
    assert view.work_problem(6, limits=limits) is None
    assert "7 comparisons" in view.work_problem(7, limits=limits)
    assert view.table_key({"reader.table_version": 3}) == "reader.table.v3"
