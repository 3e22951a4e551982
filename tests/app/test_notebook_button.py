"""AppTest: "Open as a notebook" on the Playground and every lesson, and the notebook's numbers
equal to the values the page shows (the notebook run on a fresh kernel)."""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from ranklab_ui.core import notebook, presets
from ranklab_ui.core.i18n import _, language
from ranklab_ui.session import state
from tests.app.conftest import k_slider
from tests.notebook.test_generator import execute, printed

APP = str(Path(__file__).resolve().parents[2] / "app.py")
LABEL = "Open as a notebook (.ipynb)"
LESSONS = {"playground": "playground", "lesson_pr": "lesson_precision_recall", "lesson_rr": "lesson_reciprocal_rank",
           "lesson_ap": "lesson_average_precision", "lesson_dcg": "lesson_dcg", "lesson_prc": "lesson_pr_curve",
           "lesson_unjudged": "lesson_unjudged", "lesson_users": "lesson_users"}


def open_page(file: str, preset: str, lang: str = "en") -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    if lang != "en":
        at.query_params["lang"] = lang
    at.session_state[state.KEYS["example"]] = presets.build_preset(preset)
    at.run()
    at.switch_page(f"app_pages/{file}.py")
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def buttons(at: AppTest) -> list[str]:
    return [b.proto.label for b in at.get("download_button")]


def notebook_of(at: AppTest, page: str, title: str = "", text: str = ""):
    """The notebook the page's button writes: the same state read the same way."""
    chosen = {name: at.session_state[f"{page}.{name}"] for name in notebook.CONVENTIONS
              if f"{page}.{name}" in at.session_state}
    patience = at.session_state[f"{page}.p"] if f"{page}.p" in at.session_state else 0.8
    removed = at.session_state[f"{page}.removed"] if f"{page}.removed" in at.session_state else 0.0
    view = notebook.page_view(page, at.session_state[state.KEYS["example"]], conventions=chosen,
                              title=title, text=text, patience=patience, removed=removed)
    return view, nbformat.reads(notebook.write(view).decode("utf-8"), as_version=4)


@pytest.mark.parametrize("page", LESSONS)
def test_every_lesson_and_the_playground_offer_the_notebook(page):
    at = open_page(LESSONS[page], "cat")
    assert LABEL in buttons(at)


def test_the_button_is_translated():
    at = open_page("lesson_dcg", "cat", "fr")
    with language("fr"):
        assert _(LABEL) != LABEL and _(LABEL) in buttons(at)


# the page's metric boxes, in order, and the notebook's measures they show (num(value, fixed=True));
# box 0 is the lesson's headline value under its k slider, the same number rounded as a summary
SHOWN = {
    "lesson_pr": [1, 2, 3],
    "lesson_rr": [1, 2],
    "lesson_dcg": [1, 2, 3, 4],
    "lesson_prc": [1, 2],
    "lesson_ap": [1],
    "lesson_users": [1, 2, 3, 4, 5, 6],
}


@pytest.mark.slow
@pytest.mark.parametrize(("page", "preset"), [("lesson_pr", "three-queries"), ("lesson_rr", "three-queries"),
                                              ("lesson_dcg", "dcg"), ("lesson_prc", "white-cat"),
                                              ("lesson_ap", "cat"), ("lesson_users", "white-cat"),
                                              ("lesson_unjudged", "dcg")])
def test_notebook_numbers_equal_the_page_values(page, preset):
    at = open_page(LESSONS[page], preset)
    if page == "lesson_dcg":  # a convention chosen on the page reaches the notebook
        at.radio(key="lesson_dcg.dcg").set_value("exp-log2").run()
    if page == "lesson_ap":
        at.radio(key="lesson_ap.denominator").set_value("retrieved").run()
    if page == "lesson_unjudged":  # judgments removed on the page
        at.select_slider(key="lesson_unjudged.removed").set_value(0.3).run()
    if page == "lesson_users":  # RBP's patience
        at.slider(key="lesson_users.p").set_value(0.6).run()
    if page in ("lesson_pr", "lesson_ap"):  # a k moved on the page reaches the notebook
        k_slider(at, page).set_value(5).run()
    assert not at.exception
    view, nb = notebook_of(at, page)
    values = {m: v for mean, m, v in printed(execute(nb)) if not mean}
    if page == "lesson_unjudged":  # boxes labelled by their measure, in four columns
        by_label = {m.label: m.value for m in at.metric}
        assert set(by_label) - set(view.measures) == {"AP (condensed)"}  # the -J list: no measure string
        for measure in view.measures:
            assert by_label[measure] == metrics.num(values[measure], fixed=True), measure
    else:
        shown = [m.value for m in at.metric]
        for box, measure in zip(SHOWN[page], view.measures, strict=True):
            assert shown[box] == metrics.num(values[measure], fixed=True), (measure, shown)
    if page == "lesson_dcg":
        assert "dcg='exp-log2'" in view.measures[-1]
    if page == "lesson_ap":
        assert view.measures == ("AP(denominator='retrieved')@5",)
    if page == "lesson_pr":
        assert view.measures == ("P@5", "R@5", "F1@5")
    if page == "lesson_users":
        assert "RBP(p=0.6)" in view.measures
    if page == "lesson_unjudged":
        assert view.removed == 0.3


@pytest.mark.slow
def test_playground_notebook_numbers_equal_the_summary():
    at = open_page("playground", "white-cat")
    view, nb = notebook_of(at, "playground")
    values = [v for mean, _m, v in printed(execute(nb)) if not mean]
    shown = []
    for link in at.get("page_link"):
        name, sep, value = link.proto.label.partition(" = ")
        if sep:
            shown.append(value.strip("*"))
    assert shown == [metrics.num(v) for v in values]


EXERCISE_LABELS = ["Exercise as a notebook (.ipynb)", "Teacher's version, answers filled in (.ipynb)"]


def test_practice_offers_the_exercise_and_the_teacher_notebooks():
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["seed"] = "5"
    at.query_params["level"] = "2"
    at.run()
    at.switch_page("app_pages/practice.py").run()
    assert not at.exception
    assert set(EXERCISE_LABELS) <= set(buttons(at))
    # what those buttons write: exercise 5 at level 2, the teacher's with the answers
    teacher = notebook.exercise_notebook(5, 2, teacher=True)
    assert teacher.metadata["ranklab"]["exercise"] == 5 and teacher.metadata["ranklab"]["level"] == 2


def test_check_my_calculation_offers_the_exercise_notebooks_for_a_generated_exercise():
    at = AppTest.from_file(APP, default_timeout=60)
    at.run()
    at.switch_page("app_pages/check_calculation.py").run()
    assert not set(EXERCISE_LABELS) & set(buttons(at))  # the shared example: no exercise to export
    at.radio(key="check_calculation.source").set_value("A generated exercise").run()
    assert not at.exception
    assert set(EXERCISE_LABELS) <= set(buttons(at))
