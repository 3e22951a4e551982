"""Predict, then reveal on every lesson: commit a guess, see the answer computed by
metrics and the calculation before and after, then apply the swap to the shared example."""

import pytest

from metrics import score
from metrics.teaching.exercises import predict_swap, swapped
from ranklab_ui.parts.predict import MEASURES
from tests.app.conftest import example, new_app

CAT = list("12345678")
CAT_JUDGED = {"2": 1, "4": 1, "5": 1, "7": 1}
LESSONS = {"lesson_pr": "app_pages/lesson_precision_recall.py", "lesson_rr": "app_pages/lesson_reciprocal_rank.py",
           "lesson_ap": "app_pages/lesson_average_precision.py", "lesson_dcg": "app_pages/lesson_dcg.py",
           "lesson_prc": "app_pages/lesson_pr_curve.py"}


def opened(page: str):
    at = new_app()
    at.run()
    at.switch_page(LESSONS[page]).run()
    assert not at.exception
    assert not [r for r in at.radio if ".predict." in r.key]  # closed, it holds no question
    at.session_state[f"{page}.predict.open"] = True  # the learner opens "Predict first"
    at.run()
    return at


def tag(page: str, k: int = 2) -> str:
    measure = MEASURES[page].format(k=k)
    _, _, i, j = predict_swap(measure, CAT, CAT_JUDGED, 1)
    return f"{page}.predict.1.{i}.{j}.{measure}", measure, i, j


@pytest.mark.parametrize("page", sorted(LESSONS))
def test_every_lesson_predicts_then_reveals(page):
    at = opened(page)
    key, measure, i, j = tag(page)
    before, after = score(measure, CAT, CAT_JUDGED), score(measure, swapped(CAT, i, j), CAT_JUDGED)
    truth = "up" if after > before + 1e-9 else "down" if after < before - 1e-9 else "same"
    wrong = next(c for c in ("up", "down", "same") if c != truth)
    at.radio(key=f"{key}.direction").set_value(wrong)
    at.text_input(key=f"{key}.value").set_value(f"{after:.4f}")
    at.button(key=f"{key}.reveal").click().run()
    assert not at.exception
    assert at.error[0].value.startswith(f"Not quite — it goes {truth}")
    assert any(s.value.replace("\\", "").startswith("Right:") for s in at.success)  # the value typed was right
    shown = "\n".join(m.value for m in at.markdown)
    assert "Before:" in shown and "After:" in shown


def test_a_reveal_without_a_prediction_asks_for_one():
    at = opened("lesson_ap")
    key, *_ = tag("lesson_ap")
    at.button(key=f"{key}.reveal").click().run()
    assert at.info[0].value == "Commit to a prediction first: up, down or the same."


def test_applying_the_swap_changes_the_shared_example():
    at = opened("lesson_ap")
    key, measure, i, j = tag("lesson_ap")
    at.radio(key=f"{key}.direction").set_value("up")
    at.button(key=f"{key}.reveal").click().run()
    at.button(key="lesson_ap.predict.apply").click().run()
    assert [item.id for item in example(at).query.ranking] == swapped(CAT, i, j)
    at.switch_page("app_pages/playground.py").run()
    assert not at.exception


def test_another_change_asks_a_new_question():
    at = opened("lesson_rr")
    key, *_ = tag("lesson_rr")
    at.radio(key=f"{key}.direction").set_value("up")
    at.button(key=f"{key}.reveal").click().run()
    at.button(key="lesson_rr.predict.next").click().run()
    assert at.session_state["lesson_rr.predict.seed"] == 2
