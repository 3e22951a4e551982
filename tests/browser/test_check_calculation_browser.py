"""Check my calculation in headless Chromium, as a learner uses it: the Measure picker follows
the exercise's k, and a wrong answer gets a hint (the step and the likely mistake) while the
right value stays off the page until the learner asks for it."""

import re

import pytest
from playwright.sync_api import expect

from .helpers import ST, TIMEOUT, drawn, shot, wait_ready

pytestmark = pytest.mark.browser


def pick(page, label: str, option: str) -> None:
    """Open the picker ``label`` and click ``option``, then wait for the run it starts. The page
    is finished first: a picker opened while the page is drawn again is taken away from under
    the click."""
    picker = page.get_by_role("combobox", name=label)
    picker.wait_for(timeout=TIMEOUT)
    # scrolled to the middle first, as a person would: a picker clicked at the screen's bottom
    # edge gets the focus but opens no menu under Playwright's own scroll
    picker.evaluate("e => e.scrollIntoView({block: 'center'})")
    drawn(page)
    picker.click()
    page.get_by_role("option", name=option, exact=True).click()
    wait_ready(page)


def test_the_measure_picker_follows_the_exercise_k(server, page):
    page.goto(f"{server}/check_calculation")
    wait_ready(page)
    page.get_by_text("A generated exercise", exact=True).click()
    wait_ready(page)
    # each step waits for the answer box the run draws: a picker opened while the page is drawn
    # again is taken away from under the click
    expect(page.get_by_label("P@3 (your final answer)")).to_be_visible(timeout=TIMEOUT)
    pick(page, "Level", "medium")  # a medium exercise is worked to k = 5
    expect(page.get_by_label("P@5 (your final answer)")).to_be_visible(timeout=TIMEOUT)
    pick(page, "Measure", "AP@5")
    expect(page.get_by_label("AP@5 (your final answer)")).to_be_visible(timeout=TIMEOUT)
    pick(page, "Level", "easy")  # an easy one to k = 3: the same measure, now AP@3
    expect(page.get_by_label("AP@3 (your final answer)")).to_be_visible(timeout=TIMEOUT)
    picker = page.get_by_role("combobox", name="Measure")
    try:
        expect(picker).to_have_value("AP@3", timeout=TIMEOUT)
        picker.click()
        shown = page.get_by_role("option").all_inner_texts()
    finally:
        shot(page, "check_picker_k")
    assert shown == ["P@3", "R@3", "RR", "AP", "AP@3", "DCG@3", "nDCG@3", "nDCG(dcg='exp-log2')@3"]
    assert page.locator(ST.EXCEPTION).count() == 0


def test_a_wrong_answer_gets_a_hint_and_the_value_only_when_asked(server, page):
    page.goto(f"{server}/check_calculation")  # cat in the box: R = 4, relevant at ranks 2, 4, 5, 7
    wait_ready(page)
    pick(page, "Measure", "AP")
    # AP = (1/2 + 2/4 + 3/5 + 4/7) / 4 = 2.1714 / 4 = 0.54286; 0.5425 is 4/7 rounded to 0.57 first
    page.get_by_label("AP (your final answer)").fill("0.5425")
    page.get_by_role("button", name="Check my numbers").click()
    error = page.locator(ST.ERROR)
    expect(error).to_contain_text("First wrong step: the value of AP", timeout=TIMEOUT)
    wait_ready(page)
    right = re.compile(r"0\.54(29|3\b|286)")  # the right value, rounded as the page might show it
    try:
        # everything in the page, the step table's cells and a closed expander's formula included
        text = page.evaluate("() => document.documentElement.textContent")
        assert not right.search(text), right.search(text) and text[right.search(text).start() - 80:][:120]
        assert "rounding too early" in page.locator(ST.WARNING).first.inner_text()
        page.get_by_role("button", name="Show the answer").click()
        expect(error).to_contain_text("the right value is 0.5429", timeout=TIMEOUT)
        wait_ready(page)
    finally:
        shot(page, "check_hint")
    # the worked solution is there now: opened, its formula ends in the value
    page.get_by_text("Show the worked solution").click()
    expect(page.locator(ST.EXPANDER, has_text="Show the worked solution")).to_contain_text(
        "0.5429", timeout=TIMEOUT)
    assert page.get_by_label("AP (your final answer)").input_value() == "0.5425"  # the answer is kept
    assert page.locator(ST.EXCEPTION).count() == 0
