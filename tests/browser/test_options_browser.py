"""Lesson options in the link, in headless Chromium: a link opens them, a switch writes them
into the address and the Copy link, and the browser's Back brings the previous one back."""

import pytest

from .helpers import ST, TIMEOUT, shot, wait_ready

pytestmark = pytest.mark.browser


def shows(text: str) -> str:
    return f"() => document.body.innerText.includes({text!r})"


def test_the_gain_switch_travels_in_the_link_and_back_works(server, page):
    page.goto(f"{server}/lesson_dcg?dcg=exp-log2")
    wait_ready(page)
    # cat in the box, binary, k = 2: gain 2^1 - 1 = 1 at rank 2; nDCG@2 = (1/log2 3) / (1 + 1/log2 3) = 0.3869
    page.wait_for_function(shows("nDCG(dcg='exp-log2')@2"), timeout=TIMEOUT)
    assert "0.3869" in page.locator(ST.METRIC, has_text="nDCG(dcg='exp-log2')@2").inner_text()
    page.get_by_text("Järvelin", exact=False).first.click()
    try:
        page.wait_for_function("() => location.search.includes('dcg=jarvelin')", timeout=TIMEOUT)
        wait_ready(page)
        # the Copy link button copies this address (tests/browser/test_app_browser.py clicks it)
        copy = page.evaluate("() => location.href")
        assert "dcg=jarvelin" in copy and "ex=" in copy
        page.go_back()
        page.wait_for_function("() => location.search.includes('dcg=exp-log2')", timeout=TIMEOUT)
        page.wait_for_function(shows("nDCG(dcg='exp-log2')@2"), timeout=TIMEOUT)
    finally:
        shot(page, "options_back")
    assert page.locator(ST.EXCEPTION).count() == 0
