"""The app in headless Chromium: charts render, a grade edited in the ranking editor updates the
metrics, the state survives a page switch, and a permalink restores the example."""


import pytest

from .helpers import ST, TIMEOUT, drawn, shot, st_js, wait_ready
from .pages import Playground, measure_link

pytestmark = pytest.mark.browser


def test_default_page_renders_its_charts(server, page):
    play = Playground(page).open(server)
    # the curves over k drawn (a canvas or an svg inside), and the editor's eight results
    page.wait_for_function(st_js(
        "() => [...document.querySelectorAll(ST.CHART)]"
        ".filter(c => c.querySelector('canvas, svg')).length >= 1"), timeout=TIMEOUT)
    assert len(play.ranking()) == 8
    assert play.exceptions() == 0
    shot(page, "playground")
    assert play.measure("Precision@2") == "0.5"


def test_editing_a_grade_updates_the_metrics_everywhere_and_the_permalink(server, page, browser):
    play = Playground(page).open(server)
    assert play.measure("Precision@2") == "0.5"
    # rank 1 becomes relevant: P@2 = 2/2 = 1
    try:
        play.grade(1, 1)
        play.wait_measure("Precision@2", "1")
    finally:
        shot(page, "after_edit")

    # switch pages: the lesson sees the same example
    page.get_by_role("link", name="Precision, recall, F1").first.click()
    page.wait_for_selector("text=Precision, recall and F1 at k", timeout=TIMEOUT)
    wait_ready(page)
    metric = page.locator(ST.METRIC, has_text="P@2").first
    assert "1.0000" in metric.inner_text()
    shot(page, "lesson_after_edit")

    # the address is a permalink: a new browser context (no session) gets the same example
    page.get_by_role("link", name="Playground").first.click()
    wait_ready(page)
    # the address settles on this session's example (it may hold an earlier link for a moment)
    Playground(page).wait_link(lambda ex: ex.query.ranking[0].grade == 1)
    link = page.url
    other = browser.new_context(viewport={"width": 1280, "height": 720})
    try:
        fresh = other.new_page()
        fresh.goto(link)
        wait_ready(fresh)
        fresh.wait_for_function(st_js(
            "() => [...document.querySelectorAll(ST.PAGE_LINK)]"
            ".some(a => /Precision@2 = 1$/.test(a.innerText.trim()))"), timeout=TIMEOUT)
        shot(fresh, "permalink")
    finally:
        other.close()


def test_a_damaged_permalink_shows_a_message(server, page):
    page.goto(f"{server}/?ex=1.damaged")
    wait_ready(page)
    page.wait_for_selector("text=this link is damaged", timeout=TIMEOUT)
    Playground(page).wait_measure("Precision@2", "0.5")


def test_clicking_a_point_sets_k(server, page):
    page.goto(server)
    wait_ready(page)
    page.get_by_role("link", name="Precision, recall, F1").first.click()
    page.wait_for_selector("text=Precision, recall and F1 at k", timeout=TIMEOUT)
    wait_ready(page)
    chart = page.locator(ST.CHART, has_text="P, R and F1 at every k").first
    chart.locator("canvas, svg").first.wait_for(timeout=TIMEOUT)
    chart.scroll_into_view_if_needed()
    drawn(page)

    def click_k5() -> None:
        box = chart.bounding_box()
        # the plot spans the chart minus the y axis (~62 px) and a small right margin; k = 5 of 1..8
        left, right = box["x"] + 62, box["x"] + box["width"] - 8
        page.mouse.click(left + (right - left) * 4 / 7, box["y"] + box["height"] * 0.45)

    click_k5()
    page.wait_for_function(st_js("() => [...document.querySelectorAll(ST.METRIC)]"
                                 ".some(m => m.innerText.includes('P@5'))"), timeout=TIMEOUT)
    shot(page, "clicked_k")
    assert "0.6000" in page.locator(ST.METRIC, has_text="P@5").first.inner_text()  # 3 / 5


HOSTILE = "[x](http://evil.example) <b>hi</b> www.evil.example me@evil.example"


def test_hostile_text_is_shown_as_text_never_as_a_link(server, page):
    page.goto(f"{server}/many_queries")
    wait_ready(page)
    name = page.get_by_role("textbox", name="query name").first
    name.fill(HOSTILE)
    name.press("Enter")
    page.wait_for_function("() => document.body.innerText.includes('Per query')", timeout=TIMEOUT)
    wait_ready(page)
    page.get_by_role("link", name="Playground").first.click()
    heading = page.locator(ST.MARKDOWN, has_text="Ranked results").first
    heading.wait_for(timeout=TIMEOUT)
    shot(page, "hostile_name")
    # the name reads exactly as typed (zero-width spaces are invisible) ...
    assert HOSTILE in heading.inner_text().replace("\u200b", "")
    # ... and nothing in it became markup: no link, no bold, no e-mail link
    assert heading.locator("a").count() == 0 and heading.locator("b").count() == 0
    assert page.locator("a[href*='evil']").count() == 0


def test_dragging_a_result_reorders_the_ranking(server, page):
    # the relevant "cat in a box" dragged to rank 1: RR@2 = 1/1 and P@2 stays 1/2
    play = Playground(page).open(server)
    play.drag(2, 1)
    assert [r.short for r in play.ranking()[:2]] == [(1, 1, "🐱📦 cat in a box", "2"), (2, 0, "🐱 cat", "1")]
    play.wait_measure("RR@2", "1")
    assert play.measure("Precision@2") == "0.5"
    play.settled()
    # the page drawn again from the new order: the editor shows it as the server has it
    assert [r.id for r in play.ranking()] == ["2", "1", "3", "4", "5", "6", "7", "8"]
    shot(page, "dragged")


def test_the_copy_link_button_copies_a_permalink(server, browser):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    context.grant_permissions(["clipboard-read", "clipboard-write"], origin=server)
    try:
        page = context.new_page()
        page.goto(f"{server}/?ex=1.damaged")   # then load a preset: the link must carry it
        wait_ready(page)
        page.locator(ST.SELECTBOX, has_text="load an example").first.click()
        page.get_by_role("option", name="White cat in the box (graded)").click()
        page.wait_for_function("() => document.body.innerText.includes('Loaded: White cat')", timeout=TIMEOUT)
        wait_ready(page)
        button = page.frame_locator("iframe[title='st.iframe']").get_by_role("button", name="Copy link")
        button.scroll_into_view_if_needed()
        button.click()
        page.frame_locator("iframe[title='st.iframe']").get_by_text("✓ Link copied").wait_for(timeout=TIMEOUT)
        link = page.evaluate("() => navigator.clipboard.readText()")
        assert link.startswith(server) and "ex=" in link
        fresh = context.new_page()
        fresh.goto(link)
        wait_ready(fresh)
        fresh.wait_for_function("() => document.body.innerText.includes('nDCG@8')", timeout=TIMEOUT)
        # white cat, graded, k = 8: DCG@8 = 4/log2(3) + 1/2 + 3/log2(5) + 4/log2(6) + 1/log2(7) + 3/3
        # + 2/log2(9) = 2.5237 + 0.5 + 1.2920 + 1.5474 + 0.3562 + 1 + 0.6309 = 7.8503
        assert "7.8503" in measure_link(fresh, "DCG@8").inner_text()
        shot(fresh, "copied_link")
        # a lesson's button links to the lesson itself
        page.get_by_role("link", name="CG → DCG → nDCG").first.click()
        page.get_by_role("heading", name="CG → DCG → IDCG → nDCG").wait_for(timeout=TIMEOUT)
        wait_ready(page)
        page.frame_locator("iframe[title='st.iframe']").get_by_role("button", name="Copy link").click()
        page.wait_for_function("() => navigator.clipboard.readText().then(t => t.includes('/lesson_dcg?ex='))",
                               timeout=TIMEOUT)
    finally:
        context.close()
