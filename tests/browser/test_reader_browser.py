"""Headless Chromium on the Reader (QA) page: type a prediction and see exact match and F1
follow; the twelve metrics of the many-questions tab render."""

import pytest

from .helpers import ST, shot

pytestmark = pytest.mark.browser
TIMEOUT = 60_000


def metric(page, label: str):
    return page.locator(ST.METRIC, has_text=label).first


def test_typing_a_prediction_rescores_it(server, page):
    page.goto(f"{server}/reader")
    page.get_by_role("heading", name="Reader (QA) metrics").wait_for(timeout=TIMEOUT)
    # SQuAD's example: gold "Denver Broncos", prediction "Broncos": EM 0;
    # precision 1/1, recall 1/2, F1 = 2 * 1 * 0.5 / 1.5 = 0.6667
    metric(page, "F1 (tokens)").get_by_text("0.6667").wait_for(timeout=TIMEOUT)
    assert metric(page, "Exact match").inner_text().strip().endswith("0")

    box = page.get_by_role("textbox", name="Predicted answers, best first")
    box.fill("The Denver Broncos!")   # normalised: articles and punctuation go -> "denver broncos"
    box.press("Control+Enter")
    metric(page, "Exact match").get_by_text("1", exact=True).wait_for(timeout=TIMEOUT)
    assert "1" == metric(page, "F1 (tokens)").locator(ST.METRIC_VALUE).inner_text().strip()
    shot(page, "reader_one_question")

    page.get_by_role("tab", name="Many questions: the twelve metrics").click()
    page.get_by_text("The twelve metrics", exact=True).wait_for(timeout=TIMEOUT)
    # the five-question preset: q4's retrieval failed, so 4 correct retrievals; 2 unanswerable
    page.get_by_text("4 of 5 questions").wait_for(timeout=TIMEOUT)
    assert page.locator(ST.EXCEPTION).count() == 0
    shot(page, "reader_many_questions")
