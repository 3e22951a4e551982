"""Headless Chromium: the Diagnose page reproduces pytrec_eval's exponential-gain nDCG@10 on the
sample collection, and a hostile permalink used as its data stays plain text."""

from __future__ import annotations

import pytest

from ranklab_ui.core import codec

from .helpers import ST, shot
from .hostile import assert_inert, hostile_example, wait_heading

pytestmark = pytest.mark.browser
TIMEOUT = 60_000


def test_sample_collection_reproduced_in_the_browser(server, page):
    from tests.app.test_diagnose_page import exponential_ndcg_text

    page.set_viewport_size({"width": 1400, "height": 1200})
    page.goto(server + "/diagnose")
    wait_heading(page, "Diagnose a discrepancy")
    area = page.locator("textarea").first
    area.fill(exponential_ndcg_text())
    area.press("Control+Enter")
    page.get_by_text("Reproduced with gain").wait_for(timeout=TIMEOUT)
    page.get_by_text("30 queries").wait_for(timeout=TIMEOUT)
    shot(page, "diagnose_sample")
    assert page.locator(ST.EXCEPTION).count() == 0
    assert page.get_by_text("could not be diagnosed").count() == 0


def test_a_hostile_playground_example_stays_plain_text(server, watched):
    page, requests, dialogs = watched
    page.goto(f"{server}/diagnose?{codec.PARAM}={codec.encode(hostile_example())}")
    wait_heading(page, "Diagnose a discrepancy")
    page.get_by_text("The Playground's example").click(timeout=TIMEOUT)
    page.get_by_text("each ranked in its list order").wait_for(timeout=TIMEOUT)
    page.locator("input[type=text]").first.fill("RR")
    page.locator("input[type=text]").first.press("Enter")
    area = page.locator("textarea").first
    area.fill("[x](http://evil.example/x),0.3\n**b**,1\n")
    area.press("Control+Enter")
    page.get_by_text("No set of conventions tried reproduces").wait_for(timeout=TIMEOUT)
    shot(page, "diagnose_hostile")
    assert_inert(page, requests, dialogs, "diagnose")


def test_pasted_numbers_apply_with_the_button(server, page):
    from tests.app.test_diagnose_page import exponential_ndcg_text

    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(server + "/diagnose")
    wait_heading(page, "Diagnose a discrepancy")
    page.locator("textarea").first.fill(exponential_ndcg_text())   # pasted: no Ctrl+Enter, the box keeps focus
    page.get_by_role("button", name="Apply the pasted text").first.click()
    page.get_by_text("Reproduced with gain").wait_for(timeout=TIMEOUT)
    shot(page, "diagnose_apply_button")
    assert page.locator(ST.EXCEPTION).count() == 0


LIMIT = 200_000  # characters a Diagnose box takes (app_pages/diagnose.py MAX_TEXT)

# a paste: the whole text in one input event, as the browser sends it. (Playwright's fill types
# thousands of lines as an edit that Chromium lays out for minutes.)
_PASTE = """(e, text) => {
    Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value').set.call(e, text);
    e.dispatchEvent(new InputEvent('input', {bubbles: true, inputType: 'insertFromPaste'}));
}"""


def paste_into(area, text: str) -> None:
    area.click()
    area.evaluate(_PASTE, text)


def test_too_long_a_paste_is_named_and_kept(server, page):
    from tests.app.test_diagnose_page import exponential_ndcg_text

    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(server + "/diagnose")
    wait_heading(page, "Diagnose a discrepancy")
    assert "/2000000" not in page.locator(ST.MAIN).inner_text()
    one = exponential_ndcg_text()
    text = one * (LIMIT // len(one) + 1)
    assert len(text) > LIMIT
    area = page.locator("textarea").first
    paste_into(area, text)
    page.get_by_role("button", name="Apply the pasted text").first.click()
    page.get_by_text(f"{len(text):,} characters").wait_for(timeout=TIMEOUT)
    shot(page, "diagnose_too_long")
    message = page.locator(ST.ALERT).first.inner_text()
    assert f"{LIMIT:,}" in message and "upload" in message.lower()
    assert len(area.input_value()) == len(text)   # the paste is kept, not cut
    assert page.get_by_text("Reproduced with gain").count() == 0
