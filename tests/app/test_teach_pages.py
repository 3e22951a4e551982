"""AppTest for the Teach pages: no exception, key values shown, hostile input handled."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from ranklab_ui.core import model, presets
from ranklab_ui.session import keys, state
from tests.app.conftest import drawn, submit, tables

APP = str(Path(__file__).resolve().parents[2] / "app.py")
HOSTILE = ["<script>alert(1)</script>", "**bold** [x](http://e) $x$", "x" * 10_000, "nan", "-1e308", "🐱" * 50]


def open_page(page: str, preset: str | None = None, params: dict | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    if params:
        for k, v in params.items():
            at.query_params[k] = v
    if preset:
        at.session_state[state.KEYS["example"]] = presets.build_preset(preset)
    at.run()
    at.switch_page(f"app_pages/{page}.py")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def texts(elements) -> str:
    """The text of some elements, Markdown escapes (and the escaper's zero-width spaces) removed."""
    return " ".join(str(e.value) for e in elements).replace("\\", "").replace("\u200b", "")


def frames(at) -> str:
    return " ".join(df.to_csv() for df in tables(at))


# --------------------------------------------------------------------------- check my calculation

def test_check_final_value_right_and_wrong():
    at = open_page("check_calculation")  # cat in the box, k = 2: P@2 = 1/2
    at.text_input[0].set_value("0.5")
    submit(at).click().run()
    assert "Every number you typed is right." in texts(at.success)
    at.selectbox(key="check_calculation.measure").set_value("AP").run()
    # (1/2 + 2/4 + 3/5 + 0.57) / 4 = 0.5425 instead of 0.5429: intermediate rounding
    at.text_input[0].set_value("0.5425")
    submit(at).click().run()
    assert not at.exception
    assert "0.5429" not in texts(at.error)  # hints only, until the learner asks for the answer
    assert "rounding too early" in texts(at.warning)
    at.button(key="check_calculation.reveal").click().run()
    assert "the right value is 0.5429" in texts(at.error)


def test_check_every_step_finds_the_first_wrong_one():
    at = open_page("check_calculation", preset="dcg")  # Wikipedia's DCG example, k = 6
    at.selectbox(key="check_calculation.measure").set_value("nDCG@{k}").run()
    at.radio(key="check_calculation.detail").set_value("Every step").run()
    boxes = {t.key.rsplit(".", 1)[-1]: t for t in at.text_input}
    boxes["gain@1"].set_value("3")
    boxes["discount@1"].set_value("0")  # log2(1) instead of log2(2)
    boxes["discount@2"].set_value("1")
    submit(at).click().run()
    assert not at.exception
    assert "discount at rank 1" in texts(at.error)
    assert "log2(i) instead of log2(i + 1)" in texts(at.warning)


def test_check_lists_every_mistake_that_gives_the_number():
    at = open_page("check_calculation")  # cat in the box, k = 2: AP@2 = (1/2) / 4 = 0.125
    at.selectbox(key="check_calculation.measure").set_value("AP@{k}").run()
    # (1/2) / min(2, 4) = (1/2) / k = (0/1 + 1/2) / 2 ranks = 0.25: three mistakes fit
    at.text_input[0].set_value("0.25")
    submit(at).click().run()
    assert not at.exception
    warned = texts(at.warning)
    assert "3 mistakes give your numbers" in warned
    for title in ("min(k, R) instead of R", "number of results N or by k", "non-relevant ranks"):
        assert title in warned
    # a decimal fraction is read: the right 1/2 divided by 4
    at.text_input[0].set_value("0.5/4")
    submit(at).click().run()
    assert "Every number you typed is right." in texts(at.success)


@pytest.mark.parametrize("text", HOSTILE)
def test_check_hostile_answers(text):
    at = open_page("check_calculation")  # cat in the box: the box asks for P@2
    at.text_input[0].set_value(text)
    submit(at).click().run()
    assert not at.exception
    assert not at.success
    # the user reads why: the answer is quoted back (its start, as typed) and refused as a number
    shown = texts(at.info)
    assert "Could not read the value of P@2" in shown and "is not a number" in shown
    assert text[:20] in shown
    assert "*bold*" not in " ".join(str(e.value) for e in at.info)  # quoted as text, not rendered


def test_check_generated_exercise():
    at = open_page("check_calculation")
    at.radio(key="check_calculation.source").set_value("A generated exercise").run()
    assert not at.exception
    at.number_input(key="check_calculation.seed").set_value(12).run()
    assert not at.exception and "exercise 12" in texts(at.markdown)


def test_check_measure_picker_is_sent_its_new_label_when_k_changes():
    """A medium exercise is worked to k = 5, an easy one to k = 3: after the switch the picker,
    its options and the answer box all say AP@3 (the browser shows the label it was sent last)."""
    at = open_page("check_calculation")
    at.radio(key="check_calculation.source").set_value("A generated exercise").run()
    at.selectbox(key="check_calculation.level").set_value(2).run()
    at.selectbox(key="check_calculation.measure").set_value("AP@{k}").run()
    assert [t.label for t in at.text_input] == ["AP@5 (your final answer)"]
    at.selectbox(key="check_calculation.level").set_value(1).run()
    picker = at.selectbox(key="check_calculation.measure")
    assert not at.exception
    assert list(picker.proto.options) == ["P@3", "R@3", "RR", "AP", "AP@3", "DCG@3", "nDCG@3",
                                          "nDCG(dcg='exp-log2')@3"]
    assert picker.proto.set_value and picker.proto.raw_value == "AP@3"
    assert [t.label for t in at.text_input] == ["AP@3 (your final answer)"]


def page_text(at) -> str:
    """Every text of the page a learner can read: messages, tables, formulas, captions."""
    return " ".join([texts(at.markdown), texts(at.caption), texts(at.error), texts(at.warning),
                     texts(at.info), texts(at.success), texts(at.latex), frames(at)])


def test_check_every_step_hints_name_the_step_and_keep_every_right_value_hidden():
    """Wikipedia's DCG example (docs/sources.md), k = 6, grades 3, 2, 3, 0, 1, 2 and two more judged (3 and 2):
    DCG@6 = 3 + 2/log2 3 + 3/2 + 0 + 1/log2 6 + 2/log2 7 = 6.8611, ideal 3, 3, 3, 2, 2, 2:
    IDCG@6 = 3 + 3/log2 3 + 3/2 + 2/log2 5 + 2/log2 6 + 2/log2 7 = 8.7403, nDCG@6 = 0.7850.
    A learner who takes log2(1) = 0 at rank 1 types discount 0."""
    at = open_page("check_calculation", preset="dcg")
    at.selectbox(key="check_calculation.measure").set_value("nDCG@{k}").run()
    at.radio(key="check_calculation.detail").set_value("Every step").run()
    before = page_text(at)
    boxes = {t.key.rsplit(".", 1)[-1]: t for t in at.text_input}
    boxes["gain@1"].set_value("3")
    boxes["discount@1"].set_value("0")
    boxes["discount@2"].set_value("oops")
    boxes["value"].set_value("0.9")
    submit(at).click().run()
    assert not at.exception
    shown = page_text(at)
    assert "First wrong step: discount at rank 1 — you typed 0, which is not right." in shown
    assert "log2(i) instead of log2(i + 1)" in texts(at.warning)
    assert not at.latex and "Show the worked solution" not in [e.label for e in at.expander]
    table = tables(at)[-1]  # the verdicts, below the example's ranking
    right = dict(zip(table["step"], table["right value"], strict=True))
    assert right["gain at rank 1"] == "3"  # typed right: its value is no secret
    assert right["discount at rank 1"].startswith("(hidden")
    assert all(v.startswith("(") for step, v in right.items() if step != "gain at rank 1")
    for value in ("6.861", "8.740", "0.785"):  # DCG, IDCG, nDCG, as the page writes them
        assert value not in shown and value not in before, value
    at.button(key="check_calculation.reveal").click().run()
    shown = page_text(at)
    assert "the right value is 1" in texts(at.error)  # log2(1 + 1) = 1
    assert "0.785" in texts(at.latex)  # the worked solution, open
    assert [t.value for t in at.text_input if t.key.endswith(".discount@1")] == ["0"]  # the answers stay


def test_check_answer_shown_for_one_measure_only():
    """Asking for the cat's P@2 (1/2) leaves its AP, (1/2 + 2/4 + 3/5 + 4/7) / 4 = 0.5429, hidden."""
    at = open_page("check_calculation")
    at.button(key="check_calculation.reveal").click().run()
    assert "frac{1}{2} = 0.5\n" in texts(at.latex)  # one relevant document in the top 2
    at.selectbox(key="check_calculation.measure").set_value("AP").run()
    assert not at.latex and "0.5429" not in page_text(at)
    at.text_input[0].set_value("abc")
    submit(at).click().run()
    assert "Could not read the value of AP" in texts(at.info)
    assert "0.5429" not in page_text(at)  # an unreadable answer gets no answer either


# --------------------------------------------------------------------------- practice

def test_practice_seed_from_the_url_and_running_score():
    from metrics.teaching.exercises import generate

    at = open_page("practice", params={"seed": "42", "level": "2"})
    assert at.session_state["practice.seed"] == 42
    assert "Exercise 42 (medium)" in texts(at.subheader)
    assert at.query_params["seed"] == ["42"] or at.query_params["seed"] == "42"
    q = generate(42, 2).questions[0]  # the page must grade with the generated answer
    at.text_input(key="practice.q.42.2.0.answer").set_value(f"{q.answer:.4f}")
    at.button(key="practice.q.42.2.0.check").click().run()
    assert "Right" in texts(at.success)
    assert at.metric[0].value == "1 / 1"
    at.text_input(key="practice.q.42.2.1.answer").set_value("7")
    at.button(key="practice.q.42.2.1.check").click().run()
    assert at.metric[0].value == "1 / 2"
    # the worksheet (Markdown, HTML) and the exercise as a notebook (the learner's, the teacher's)
    assert len(at.get("download_button")) == 4


@pytest.mark.parametrize("seed", ["abc", "-5", "99999999999", "<b>"])
def test_practice_bad_url_seed(seed):
    at = open_page("practice", params={"seed": seed, "level": "9"})
    assert 0 <= at.session_state["practice.seed"] < 10_000
    assert at.session_state["practice.level"] == 1


def test_practice_predict_question_and_hostile_title():
    at = open_page("practice", params={"seed": "3", "level": "3"})
    at.radio(key="practice.q.3.3.3.answer").set_value("same")
    at.button(key="practice.q.3.3.3.check").click().run()
    assert not at.exception and (at.success or at.error)
    at.text_input(key="practice.sheet_title").set_value("<script>x</script>").run()
    assert not at.exception


# --------------------------------------------------------------------------- conventions

def test_conventions_values_and_snippets():
    at = open_page("conventions")  # cat: AP = (1/2 + 2/4 + 3/5 + 4/7) / 4 = 0.5429 everywhere
    table = tables(at)[0]
    assert "0.5429" in table.to_csv()
    assert len(at.tabs) >= 2 and any("pytrec_eval" in c.value for c in at.code)
    at.selectbox(key="conventions.code_preset").set_value("sklearn").run()
    assert not at.exception
    spec = json.loads(at.get("vega_lite_chart")[0].proto.spec)
    assert spec["mark"]["type"] == "bar"


def test_conventions_graded_example_shows_what_moves():
    at = open_page("conventions", preset="dcg")
    moves = tables(at)[1]
    assert "ideal='ranking'" in moves.to_csv() and "dcg='exp-log2'" in moves.to_csv()


@pytest.mark.parametrize("text", ["nDGC@10", "<b>P@5</b>", "P@0", "x" * 300, ""])
def test_conventions_bad_measures(text):
    at = open_page("conventions")
    at.text_input(key="conventions.measures.2").set_value(text).run()
    assert not at.exception and at.error


# --------------------------------------------------------------------------- pitfalls

def test_every_pitfall_renders():
    at = open_page("pitfalls")
    for key in at.radio(key="pitfalls.choice").options:
        at.radio(key="pitfalls.choice").set_value(key).run()
        assert not at.exception, key
    assert "0.4693" in frames(at)  # the last one shown: nDCG@3 = 3 / (3 + 3/log2 3 + 3/2)


def test_course_lab_pitfall_shows_the_error_and_the_fix():
    at = open_page("pitfalls")
    at.radio(key="pitfalls.choice").set_value("course_lab_ndcg").run()
    csv = frames(at)
    assert "TypeError" in csv and "0.7592" in csv and "0.9767" in csv
    at.number_input(key="pitfalls.course_lab_k").set_value(3).run()
    assert not at.exception


# --------------------------------------------------------------------------- compare

def test_compare_three_queries_variant():
    at = open_page("compare", preset="three-queries")
    at.radio(key="compare.source").set_value("The example's queries vs. a variant").run()
    csv = tables(at)[0].to_csv()
    assert "RR" in csv and "AP" in csv
    # B moves each first relevant document down one rank: RR falls on every query
    # A: (1/2 + 1 + 1/5) / 3 = 0.5667; B: (1/3 + 1/2 + 1/6) / 3 = 0.3333
    assert "0.5667" in csv and "0.3333" in csv
    assert at.get("vega_lite_chart")


def test_compare_sample_collection_agrees_with_pytrec_eval():
    pytrec_eval = pytest.importorskip("pytrec_eval")
    from metrics import io as metrics_io

    folder = Path(APP).parent / "assets" / "collection"
    qrels = metrics_io.read_qrels(folder / "qrels.txt").to_dict()
    runs = [metrics_io.read_run(folder / f"run_{n}.txt").to_dict() for n in ("bm25", "tf")]
    ev = pytrec_eval.RelevanceEvaluator(qrels, {"map", "ndcg_cut_10"})
    expected = []
    for run in runs:
        per = ev.evaluate(run)
        # queries judged but missing from a run count 0 (the page compares on the same queries)
        expected.append(sum(per.get(q, {}).get("map", 0.0) for q in qrels) / len(qrels))
    at = open_page("compare")  # the default source is the sample collection
    table = tables(at)[0].set_index("measure")
    assert float(table.loc["AP", "mean A"]) == pytest.approx(expected[0], abs=5e-5)
    assert float(table.loc["AP", "mean B"]) == pytest.approx(expected[1], abs=5e-5)
    assert table.loc["AP", "t-test p"] not in ("—", "") and len(at.get("vega_lite_chart")) == 1


def test_compare_uploaded_files_and_a_broken_one():
    at = open_page("compare")
    at.radio(key="compare.source").set_value("Upload qrels and two runs").run()
    assert at.info  # asks for the three files
    at.file_uploader(key="compare.upload.0").set_value(("qrels.txt", b"q1 0 a 1\nq2 0 b 1\n", "text/plain"))
    at.file_uploader(key="compare.upload.1").set_value(("a.txt", b"q1 Q0 a 1 2.0 A\nq2 Q0 x 1 2.0 A\n", "text/plain"))
    at.file_uploader(key="compare.upload.2").set_value(("b.txt", b"q1 Q0 x 1 2.0 B\nq2 Q0 b 1 2.0 B\n", "text/plain"))
    at.run()
    assert not at.exception and not at.error
    table = tables(at)[0].set_index("measure")
    assert table.loc["RR", "mean A"] == "0.5" and table.loc["RR", "queries A / B / tie"] == "1 / 1 / 0"
    assert tables(at)[1].set_index("measure").loc["RR", "A better on"] == "q1"
    at.file_uploader(key="compare.upload.2").set_value(("b.txt", b"<script>\x00\xff garbage", "text/plain"))
    at.run()
    assert not at.exception and at.error and "run B" in texts(at.error)


def test_compare_generated_disagreement():
    at = open_page("compare")
    at.radio(key="compare.source").set_value("Two rankings where nDCG and AP disagree").run()
    assert not at.exception
    assert "disagree" in texts(at.warning)  # default measures there: nDCG AP P@3 RR


@pytest.mark.parametrize("text, error", [
    ("1 1 2", "Document '1' appears twice in system B's ranking"),
    ("", "Type at least one document id for system B."),
    ("z " * 2000, "2,000 ids is too many (at most 1000)."),
])
def test_compare_typed_order_refused(text, error):
    at = open_page("compare")
    at.radio(key="compare.source").set_value("Type system B's order").run()
    at.text_area(key="compare.b_text").set_value(text).run()
    assert not at.exception
    assert error in texts(at.error)
    assert not tables(at)  # nothing is compared


def test_compare_typed_order_with_unjudged_ids():
    at = open_page("compare")  # cat in the box, k = 2: A ranks 1 (not relevant), 2 (relevant) first
    at.radio(key="compare.source").set_value("Type system B's order").run()
    at.text_area(key="compare.b_text").set_value("<b>x</b> y").run()
    assert not at.exception and not at.error
    assert "2 id(s) are not judged and count as not relevant: '<b>x</b>', 'y'" in texts(at.caption)
    table = tables(at)[0].set_index("measure")
    # A: P@2 = 1/2, RR = 1/2; B retrieves nothing judged: 0 for both
    assert table.loc["P@2", "mean A"] == "0.5" and table.loc["P@2", "mean B"] == "0"
    assert table.loc["RR", "mean A"] == "0.5" and table.loc["RR", "mean B"] == "0"


# --------------------------------------------------------------------------- swap map

def test_swap_map_heatmaps():
    at = open_page("swap_map")
    charts = at.get("vega_lite_chart")
    assert len(charts) == 3
    spec = json.loads(charts[0].proto.spec)
    assert spec["mark"]["type"] == "rect"
    at.multiselect(key="swap_map.measures.2").set_value([]).run()
    assert not at.exception and at.info


def test_example_picker_switches_the_shared_example():
    at = open_page("conventions")
    at.selectbox(key=drawn(at, keys.preset("conventions"))).set_value("dcg").run()
    assert not at.exception
    # Wikipedia's DCG example: nDCG@6 = 6.861 / 8.740 = 0.785 (trec_eval); ideal from the list: 0.961
    table = tables(at)[0].set_index("measure")
    assert round(float(table.loc["nDCG@6", "trec_eval"].split()[0]), 3) == 0.785
    assert round(float(table.loc["nDCG@6", "sklearn"].split()[0]), 3) == 0.961
    at.switch_page("app_pages/swap_map.py").run()
    assert not at.exception and at.session_state[state.KEYS["preset"]] == "dcg"
    assert at.multiselect(key="swap_map.measures.6").value == ["P@6", "AP", "nDCG@6"]  # k = 6 now
    assert len(at.get("vega_lite_chart")) == 3


def test_practice_keeps_the_exercise_when_coming_back():
    at = open_page("practice", params={"seed": "77", "level": "3"})
    at.switch_page("app_pages/swap_map.py").run()
    at.query_params.clear()  # page switches drop the query string
    at.switch_page("app_pages/practice.py").run()
    assert at.session_state["practice.seed"] == 77 and "Exercise 77 (hard)" in texts(at.subheader)


def test_user_text_is_not_rendered_as_markdown():
    at = open_page("compare")
    at.radio(key="compare.source").set_value("Type system B's order").run()
    at.text_area(key="compare.b_text").set_value("**bold** [link](http://e) **bold**").run()
    assert not at.exception
    assert "\\*\\*bold\\*\\*" in " ".join(str(e.value) for e in at.error)
    at = open_page("conventions")
    at.text_input(key="conventions.measures.2").set_value("[x](http://e)").run()
    assert "\\[x\\]" in " ".join(str(e.value) for e in at.error)


EDGE_EXAMPLES = {
    "empty ranking": model.Example((model.Query("nothing retrieved", (), (model.Item("a", "A", 2),)),), k=3),
    "nothing relevant": model.Example((model.Query("all zero", tuple(model.Item(f"d{i}", "", 0) for i in range(4))),)),
    "long": model.Example((model.Query("long", tuple(model.Item(f"d{i}", f"<b>{i}</b>", i % 4) for i in range(60))),),
                          k=50, mode="graded"),
}
TEACH_PAGES = ["check_calculation", "practice", "conventions", "pitfalls", "compare", "swap_map"]


@pytest.mark.parametrize("name", list(EDGE_EXAMPLES))
@pytest.mark.parametrize("page", TEACH_PAGES)
def test_teach_pages_survive_edge_examples(page, name):
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state[state.KEYS["example"]] = EDGE_EXAMPLES[name]
    at.run()
    at.switch_page(f"app_pages/{page}.py")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    if page == "pitfalls":
        for key in ("ndcg_falling", "course_lab_ndcg", "ap_denominators"):
            at.radio(key="pitfalls.choice").set_value(key).run()
            assert not at.exception, key
    if page == "compare":
        at.radio(key="compare.source").set_value("The example's queries vs. a variant").run()
        assert not at.exception


# --------------------------------------------------------------------------- the measures box

def test_conventions_measures_box_names_what_it_leaves_out():
    at = open_page("conventions")  # cat in the box, k = 2
    typed = " ".join(f"P@{i}" for i in range(1, 15)) + " P@1"  # 14 measures, one typed twice
    at.text_input(key="conventions.measures.2").set_value(typed).run()
    assert not at.exception and not at.error
    assert "14 measures: only the first 12 are computed; left out: P@13, P@14." in texts(at.warning)
    assert list(tables(at)[0]["measure"]) == [f"P@{i}" for i in range(1, 13)]


def test_compare_measures_box_names_what_it_leaves_out():
    at = open_page("compare")  # the sample collection, k = 10
    at.text_input(key="compare.measures.0.10").set_value(" ".join(f"P@{i}" for i in range(1, 14))).run()
    assert not at.exception and not at.error
    assert "13 measures: only the first 12 are computed; left out: P@13." in texts(at.warning)
    assert list(tables(at)[0]["measure"]) == [f"P@{i}" for i in range(1, 13)]


def test_compare_counts_two_queries_of_the_same_name():
    same = model.Example((model.Query("q", (model.Item("a", "A", 1), model.Item("b", "B", 0))),
                          model.Query("q", (model.Item("c", "C", 0), model.Item("d", "D", 1)))), k=2)
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state[state.KEYS["example"]] = same
    at.run()
    at.switch_page("app_pages/compare.py").run()
    at.radio(key="compare.source").set_value("The example's queries vs. a variant").run()
    at.text_input(key="compare.measures.2.2").set_value("AP").run()
    assert not at.exception and not at.error
    # AP of the first query: 1/1 = 1; of the second: (1/2) / 1 = 0.5; MAP = (1 + 0.5) / 2 = 0.75
    assert tables(at)[0].set_index("measure").loc["AP", "mean A"] == "0.75"
    shown = texts(at.caption)
    assert "2 queries." in shown and "q1 = “q”; q2 = “q”" in shown


def test_a_long_query_name_is_cut_like_everywhere_else():
    long = model.Example((model.Query("n" * 100, (model.Item("a", "A", 1),)),), k=1)
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state[state.KEYS["example"]] = long
    at.run()
    at.switch_page("app_pages/conventions.py").run()
    assert not at.exception
    # ranklab_ui.render.plain: at most 80 characters, the 80th an ellipsis
    assert f"Query “{'n' * 79}…”" in texts(at.caption) and "n" * 80 not in texts(at.caption)
