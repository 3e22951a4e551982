"""AppTest for app_pages/reader.py: presets, hand-checked numbers, the table, hostile text."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from tests.app.conftest import tables

ROOT = Path(__file__).resolve().parents[2]
PAGE = str(ROOT / "app_pages" / "reader.py")


def run_page() -> AppTest:
    at = AppTest.from_file(PAGE, default_timeout=60).run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def edit_table(at, edited_rows=None, added_rows=None, deleted_rows=None) -> AppTest:
    """Send the table editor's edits as the browser would, then rerun."""
    key = f"reader.table.v{at.session_state['reader.table_version']}"
    at.session_state[key] = {"edited_rows": edited_rows or {}, "added_rows": added_rows or [],
                             "deleted_rows": deleted_rows or []}
    return at.run()


def metric_values(at) -> dict[str, str]:
    return {m.label: m.value for m in at.metric}


def frame_with(at, column: str):
    for df in tables(at, numbers=True):
        if column in df.columns:
            return df
    raise AssertionError(f"no dataframe with a {column!r} column")


def test_default_preset_is_squads_broncos_example():
    at = run_page()
    # "Broncos" vs "Denver Broncos": 1 common token, P = 1/1, R = 1/2, F1 = 2/3
    assert metric_values(at) == {"Exact match": "0", "Precision": "1", "Recall": "0.5",
                                 "F1 (tokens)": "0.6667", "Correct reading": "yes"}
    latex = at.latex[0].value.strip("$\n")
    assert r"R = \frac{1}{2} = 0.5" in latex and latex.endswith("= 0.6667")
    steps = frame_with(at, "stage")
    assert steps["gold 1"].tolist() == ["Denver Broncos", "denver broncos", "denver broncos",
                                        "denver broncos", "denver broncos"]
    # top-k finds "The Denver Broncos!" at rank 2: EM 1
    topk = frame_with(at, "top-k")
    assert topk["top-1"].tolist() == pytest.approx([1, 0, 2 / 3], abs=5e-5)  # as shown: 4 decimals
    assert topk["top-k"].tolist() == [1, 1, 1]


@pytest.mark.parametrize("preset, expected", [
    ("Several gold answers", {"Exact match": "1", "F1 (tokens)": "1"}),
    ("Unanswerable question", {"Exact match": "0", "Precision": "–", "F1 (tokens)": "0"}),
    ("Word order: F1 ignores it, EM does not", {"Exact match": "0", "F1 (tokens)": "1"}),
    ("Characters: an anagram scores F1 = 1", {"Exact match": "0", "F1 (characters)": "1",
                                               "Correct reading": "no"}),
    ("Markup is not removed, only punctuation", {"Exact match": "0", "F1 (tokens)": "0"}),
])
def test_presets(preset, expected):
    at = run_page()
    at.selectbox(key="reader.preset").set_value(preset).run()
    assert not at.exception
    values = metric_values(at)
    for label, value in expected.items():
        assert values[label] == value, (label, values)


def test_character_preset_uses_characters_in_the_top_k_table_too():
    at = run_page()
    at.selectbox(key="reader.preset").set_value("Characters: an anagram scores F1 = 1").run()
    topk = frame_with(at, "top-k")  # "cat" vs "act": F1 1 over characters, EM 0, no common token
    assert topk["top-1"].tolist() == [0, 0, 1] and topk["top-k"].tolist() == [0, 0, 1]


def test_unanswerable_preset_explains_and_topk_finds_no_answer():
    at = run_page()
    at.selectbox(key="reader.preset").set_value("Unanswerable question").run()
    assert any("no gold answer" in i.value for i in at.info)
    topk = frame_with(at, "top-k")  # "1931" then "no answer": top-1 wrong, top-k right
    assert topk["top-1"].tolist() == [0, 0, 0] and topk["top-k"].tolist() == [1, 1, 1]
    # explaining rank 2 ("no answer") gives EM 1
    at.selectbox(key="reader.explain_rank").set_value("2: no answer").run()
    assert metric_values(at)["Exact match"] == "1"


def test_typing_answers_and_switching_unit():
    at = run_page()
    at.text_area(key="reader.gold").set_value("Denver Broncos").run()
    at.text_area(key="reader.predictions").set_value("Denver").run()
    at.radio(key="reader.unit").set_value("char").run()
    # "denver" is 6 of the 14 characters of "denver broncos": P = 1, R = 6/14, F1 = 12/20
    assert metric_values(at)["F1 (characters)"] == "0.6"
    # an empty prediction box abstains; an empty gold box makes the question unanswerable
    at.text_area(key="reader.predictions").set_value("").run()
    assert metric_values(at)["Exact match"] == "0"
    at.text_area(key="reader.gold").set_value("").run()
    assert metric_values(at)["Exact match"] == "1"
    assert not at.exception


HOSTILE = ("**bold** <script>alert(1)</script> <img src=x onerror=alert(2)> [link](http://evil.example) "
           "$x^2$ :smile: :material/home: # Heading\n> quote\n- item ~~strike~~ `code` |a|b|")


def test_hostile_text_renders_as_plain_text():
    at = run_page()
    long = (HOSTILE.replace("\n", " ") * 100)[:9_999] + "!"  # 10,000 characters
    assert len(long) == 10_000
    at.text_area(key="reader.gold").set_value(HOSTILE + "\n" + long).run()
    at.text_area(key="reader.predictions").set_value(long + "\n" + HOSTILE).run()
    assert not at.exception
    steps = frame_with(at, "stage")
    assert steps["prediction"][0] == long  # shown verbatim in a table (plain text)
    assert steps["gold 1"][0] == HOSTILE.split("\n")[0]
    # every markdown element: no raw markup of the user's text survives unescaped
    for md in at.markdown:
        body = md.value
        assert "<script" not in body and "<img" not in body and "](" not in body
        assert not re.search(r"(?<!\\)\$", body)
    # the prediction equals gold 2 after normalisation: EM 1
    assert metric_values(at)["Exact match"] == "1"
    # and the choice of prediction to explain is a shortened, plain label
    labels = at.selectbox(key="reader.explain_rank").options
    assert all(len(label) <= 64 for label in labels)


def test_table_default_set_hand_checked():
    at = run_page()
    m = frame_with(at, "answerable only (_has_answer)").set_index("metric")
    # q1..q5 as in tests/metrics/qa/test_qa.py: q4 not retrieved, q3 and q5 unanswerable
    assert m.loc["reader_top1_em", "all questions"] == pytest.approx(1 / 4, abs=5e-5)
    assert m.loc["reader_top1_em", "= sum / count"] == "1 / 4"
    assert m.loc["reader_top1_f1", "all questions"] == pytest.approx((2 / 3 + 1) / 4, abs=5e-5)
    assert m.loc["reader_top1_f1", "answerable only (_has_answer)"] == pytest.approx(1 / 3, abs=5e-5)
    assert m.loc["reader_topk_em", "all questions"] == 1.0
    assert any("4 of 5 questions" in md.value for md in at.markdown)


def test_table_edits_k_and_bad_rows():
    at = run_page()
    # tick "retrieved" on q4 ("1998" = "1998"): 5 correct retrievals, top-1 EM (1 + 1) / 5
    edit_table(at, {3: {"retrieved": True}})
    m = frame_with(at, "answerable only (_has_answer)").set_index("metric")
    assert m.loc["reader_top1_em", "all questions"] == pytest.approx(2 / 5, abs=5e-5)
    # k = 1: top-k is top-1
    at.number_input(key="reader.k").set_value(1).run()
    m = frame_with(at, "answerable only (_has_answer)").set_index("metric")
    assert m.loc["reader_topk_em", "all questions"] == m.loc["reader_top1_em", "all questions"]
    # a duplicate id is reported and left out, the rest still computes
    edit_table(at, {1: {"question": "q1"}})
    assert any("already used" in w.value for w in at.warning)
    assert not at.exception and len(frame_with(at, "topk_f1")) == 4
    # every row deleted: a hint instead of an error
    edit_table(at, deleted_rows=[0, 1, 2, 3, 4])
    assert not at.exception and any("Add a row" in i.value for i in at.info)


def test_sample_dataset_preset():
    at = run_page()
    at.selectbox(key="reader.table_preset").set_value(
        "Sample dataset (assets/reader: 14 questions, top-3 answers)").run()
    assert not at.exception
    m = frame_with(at, "answerable only (_has_answer)").set_index("metric")
    # as in tests/metrics/cli/test_reader_cli.py: sd-6 not retrieved; top-3 EM 11 / 13 and 8 / 9
    assert m.loc["reader_topk_em", "= sum / count"] == "11 / 13"
    assert m.loc["reader_topk_em", "= sum / count "] == "8 / 9"


def test_page_is_reachable_from_the_app():
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=60).run()
    at.switch_page("app_pages/reader.py").run()
    assert not at.exception
    assert at.title[0].value == "Reader (QA) metrics"


def test_hostile_question_ids_in_the_table_stay_plain():
    at = run_page()
    evil = "[x](http://evil.example) **b** <b>"
    edit_table(at, {0: {"question": evil}, 1: {"question": evil}})
    assert not at.exception
    warning = at.warning[0].value
    assert "\\[x\\]\\(http" in warning and "<b>" not in warning
    assert evil in frame_with(at, "topk_f1")["question"].tolist()


# --------------------------------------------------------------------------- limits

def top1_em(at) -> float:
    return frame_with(at, "answerable only (_has_answer)").set_index("metric").loc[
        "reader_top1_em", "all questions"]


@pytest.mark.perf
def test_thousands_of_added_rows_are_refused_at_once_and_the_table_kept():
    at = run_page()
    edit_table(at, {3: {"retrieved": True}})  # the user's work: top-1 EM (1 + 1) / 5
    assert top1_em(at) == pytest.approx(2 / 5)
    rows = [{"question": f"x{i}", "gold answers": "a", "predictions": "a"} for i in range(5_000)]
    start = time.perf_counter()
    edit_table(at, added_rows=rows)
    elapsed = time.perf_counter() - start
    assert not at.exception
    assert elapsed < 10  # without the limit, Streamlit took minutes to add these rows
    assert any("5,000 rows added" in e.value and "at most 200" in e.value for e in at.error)
    # the previous table is kept, the user's edit included
    assert len(frame_with(at, "topk_f1")) == 5
    assert top1_em(at) == pytest.approx(2 / 5)
    # and the editor starts afresh: the next run shows no error
    at.run()
    assert not at.error and top1_em(at) == pytest.approx(2 / 5)


def test_the_table_takes_up_to_200_questions():
    at = run_page()
    # 5 rows + 195 added = 200: each added question is answered right (EM 1)
    rows = [{"question": f"x{i}", "gold answers": f"w{i}", "predictions": f"w{i}",
             "retrieved": True} for i in range(195)]
    edit_table(at, added_rows=rows)
    assert not at.exception and not at.error
    assert len(frame_with(at, "topk_f1")) == 200
    # q1..q5 give 1 EM at rank 1 over 4 retrieved (q4 is not): (1 + 195) / (4 + 195)
    assert top1_em(at) == pytest.approx(196 / 199, abs=5e-5)
    edit_table(at, added_rows=rows + rows[:1])  # 201
    assert any("at most 200" in e.value for e in at.error)


@pytest.mark.parametrize("delta, words", [
    ({"edited_rows": {0: {"gold answers": "x" * 2_001}}}, ["2,001 characters", "at most 2,000"]),
    ({"added_rows": [{"predictions": "y" * 5_000}]}, ["5,000 characters"]),
    ({"edited_rows": {99: {"question": "q9"}}}, ["rows that do not exist"]),
    ({"deleted_rows": [-1]}, ["rows that do not exist"]),
    ({"edited_rows": {0: "not a row"}}, ["could not be read"]),
    ({"edited_rows": {0: {"no such column": "x"}}}, ["could not be read"]),  # a KeyError before
])
def test_malformed_or_huge_edits_are_refused(delta, words):
    at = run_page()
    edit_table(at, **delta)
    assert not at.exception
    assert any(all(w in e.value for w in words) for e in at.error), [e.value for e in at.error]
    assert len(frame_with(at, "topk_f1")) == 5  # the table as it was


def test_too_many_answer_comparisons_are_refused():
    at = run_page()
    golds = "|".join(f"g{i}" for i in range(400))    # 400 gold answers, 1,889 characters
    preds = "|".join(f"p{i}" for i in range(100))    # 100 predicted answers
    assert len(golds) <= 2_000
    # 2 rows x 400 x 100 (k = 100) = 80,000 more pairs: still under 200,000
    at.number_input(key="reader.k").set_value(100).run()
    edit_table(at, {0: {"gold answers": golds, "predictions": preds},
                    1: {"gold answers": golds, "predictions": preds}})
    assert not at.error, [e.value for e in at.error]
    # 6 rows x 400 x 100 = 240,000: refused
    edit_table(at, {i: {"gold answers": golds, "predictions": preds} for i in range(5)},
               added_rows=[{"question": "z", "gold answers": golds, "predictions": preds}])
    assert any("240,000 comparisons" in e.value for e in at.error), [e.value for e in at.error]
    # k = 1 scores one predicted answer per question: 6 x 400 = 2,400 pairs
    at.number_input(key="reader.k").set_value(1).run()
    assert not at.error


def test_text_boxes_refuse_unbounded_text_and_keep_it():
    at = run_page()
    huge = "word " * 5_000  # 25,000 characters, one line
    at.text_area(key="reader.predictions").set_value(huge).run()
    assert not at.exception
    # Streamlit cuts a text box at its max_chars on the server too
    assert at.text_area(key="reader.predictions").value == huge[:20_000]
    assert metric_values(at)["Exact match"] == "0"
    many = "\n".join(f"answer {i}" for i in range(101))
    at.text_area(key="reader.predictions").set_value(many).run()
    assert any("101 answers" in e.value and "at most 100" in e.value for e in at.error)
    assert at.text_area(key="reader.predictions").value == many  # kept as typed
    assert not at.metric
    at.text_area(key="reader.predictions").set_value("Denver Broncos").run()
    assert not at.error and metric_values(at)["Exact match"] == "1"


def test_random_editor_states_never_crash_the_page():
    # what a hostile browser could send as the table's widget state (fixed seed)
    rng = random.Random(10)
    values = [None, "", "q1", "a | b", "x" * 2_001, 7, 1.5, float("nan"), True, [], {}, "**b** <i>"]
    columns = ["question", "gold answers", "predictions", "retrieved", "nope", 0]
    rows = [-1, 0, 4, 5, 6, 10**9, "2", "x", 1.5]
    at = run_page()
    for _ in range(30):
        def row():
            return {rng.choice(columns): rng.choice(values) for _ in range(rng.randrange(3))}
        edit_table(at, {rng.choice(rows): row() for _ in range(rng.randrange(3))},
                   [row() for _ in range(rng.choice([0, 1, 2, 300]))],
                   [rng.choice(rows) for _ in range(rng.randrange(3))])
        assert not at.exception, [e.value for e in at.exception]
        assert len(frame_with(at, "question")) <= 200
