"""Defects a new user met in Chromium: what is copied from the page works where it is pasted,
the users lesson's walk leaves its slider where the chart is, the worked solution's file."""

import pytest

from .helpers import ST, TIMEOUT, shot, st_js, wait_ready
from .pages import Playground

pytestmark = pytest.mark.browser


def test_a_measure_copied_from_practice_has_no_invisible_character(server, page):
    # "P@4" read "P@\u200b4" (a zero-width space against e-mail links): pasted into the
    # command line it failed with "unexpected character '\u200b'"
    page.goto(f"{server}/practice?seed=7&level=2")
    wait_ready(page)
    page.wait_for_function("() => /@[0-9]/.test(document.body.innerText)", timeout=TIMEOUT)
    text = page.inner_text(ST.MAIN)
    assert "@" in text and "\u200b" not in text
    shot(page, "practice_copyable")


def test_walking_down_the_list_leaves_the_slider_at_the_last_rank(server, page):
    # the chart went to rank 8 and the slider above stayed at 1
    page.goto(f"{server}/lesson_users")
    wait_ready(page)
    slider = page.locator(ST.SLIDER, has_text="The user has just read rank").locator(
        "input[type='range']").first
    slider.wait_for(state="attached", timeout=TIMEOUT)
    assert slider.input_value() == "1"
    page.get_by_role("button", name="Walk down the list").click()
    # the cat in the box has 8 results: the walk ends at rank 8, on the slider too
    page.wait_for_function(st_js("() => [...document.querySelectorAll(ST.SLIDER)]"
                                 ".filter(s => s.innerText.includes('The user has just read rank'))"
                                 ".some(s => s.querySelector('input[type=range]')?.value === '8')"), timeout=TIMEOUT)
    wait_ready(page)
    assert slider.input_value() == "8"
    shot(page, "users_walked")


def test_the_worked_solution_file_shows_ticks_not_python_booleans(server, page):
    page.goto(f"{server}/lesson_precision_recall")
    wait_ready(page)
    button = page.get_by_role("button", name="Worked solution of P@2 (.md)")
    button.wait_for(timeout=TIMEOUT)
    with page.expect_download(timeout=TIMEOUT) as download:
        button.click()
    text = open(download.value.path(), encoding="utf-8").read()
    assert "| relevant |" in text or "relevant" in text
    assert "True" not in text and "False" not in text
    # the cat in the box, k = 2: rank 1 not relevant, rank 2 relevant
    rows = [line for line in text.splitlines() if line.startswith("| 1 ") or line.startswith("| 2 ")]
    assert "✗" in rows[0] and "✓" in rows[1]


@pytest.mark.parametrize("size", [(1280, 800), (1024, 768)])
def test_the_first_edit_moves_nothing_under_the_pointer(server, browser, size):
    # "↺ restore the preset" appeared with the first edit and pushed the k slider and the
    # results down: a quick second click on a grade hit nothing. The first click on rank 1's
    # grade leaves the slider and the editor's rows where they were
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    try:
        page = context.new_page()
        play = Playground(page).open(server)
        editor = play.editor()
        editor.row(1).scroll_into_view_if_needed()
        where = st_js("() => [document.querySelector(ST.SLIDER).getBoundingClientRect().top + window.scrollY]")
        before = page.evaluate(where) + [editor.row(n).evaluate("e => e.getBoundingClientRect().top") for n in (1, 8)]
        play.click_grade(1)                    # rank 1 relevant
        play.shows("(edited since)")
        play.settled()
        after = page.evaluate(where) + [editor.row(n).evaluate("e => e.getBoundingClientRect().top") for n in (1, 8)]
        shot(page, f"first_edit_{size[0]}")
        assert [abs(a - b) < 1 for a, b in zip(after, before, strict=True)] == [True] * 3, \
            f"the slider and ranks 1 and 8 moved {[round(a - b) for a, b in zip(after, before, strict=True)]} px"
    finally:
        context.close()
