"""A newcomer finds every part of Ranklab: on a first visit no page hides under
"View N more", a start page says where a student, a teacher and an engineer begin, and at
1024×768 the first screen of the Playground and of every lesson shows a measure's value."""

import re
from pathlib import Path

import pytest

from .helpers import IDLE, ST, drawn, st_js

APP = (Path(__file__).resolve().parents[2] / "app.py").read_text(encoding="utf-8")
LESSONS = re.findall(r'st\.Page\("app_pages/(lesson_\w+)\.py"', APP)


def settled(page, url: str) -> None:
    page.goto(url)
    page.locator(f"{ST.MAIN_BLOCK} h1").first.wait_for(timeout=60_000)
    drawn(page, timeout=60_000)


def test_every_page_is_listed_and_the_start_page_says_where_to_begin(browser, server):
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    try:
        settled(page, f"{server}/start")
        links = page.locator(f"{ST.SIDEBAR_NAV} a")
        assert links.count() == len(re.findall(r"st\.Page\(", APP))
        assert page.locator(ST.SIDEBAR_NAV).get_by_text(re.compile(r"View \d+ more")).count() == 0
        main = page.locator(ST.MAIN)
        for who in ("A student", "A teacher", "An engineer"):
            assert main.get_by_text(who, exact=True).count() == 1
        assert main.locator("a[href$='lesson_precision_recall']").count() == 1
    finally:
        context.close()


@pytest.mark.parametrize("path", ["playground"] + LESSONS)
def test_the_first_screen_shows_a_value(browser, server, path):
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    try:
        settled(page, f"{server}/{path}")
        # the lesson's body is a fragment, drawn after the page's first run
        page.locator(f"{ST.METRIC_VALUE}, {ST.NAV_LINK}").first.wait_for(
            timeout=60_000)
        page.wait_for_function(IDLE, timeout=60_000)
        # a measure's value: a metric, or the Playground's "Precision@2 = 0.5" links
        boxes = page.evaluate(st_js("""() => [...document.querySelectorAll(
              ST.METRIC_VALUE + ', ' + ST.NAV_LINK)]
            .filter(e => /\\d/.test(e.textContent)).map(e => e.getBoundingClientRect())
            .map(r => ({top: r.top, bottom: r.bottom}))"""))
        assert any(b["top"] >= 0 and b["bottom"] <= 768 for b in boxes), boxes[:3]
    finally:
        context.close()
