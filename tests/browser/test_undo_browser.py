"""Undo in headless Chromium: a move changes a metric, ↶ Undo brings the value back."""

import pytest

from .helpers import TIMEOUT, link_reads, shot, summary_link, wait_ready

pytestmark = pytest.mark.browser


def test_a_move_then_undo_restores_the_metric(server, page):
    page.goto(server)
    wait_ready(page)
    # cat in the box, k = 2: the first relevant result is at rank 2, RR@2 = 1/2
    page.wait_for_function(link_reads("RR@2", "0.5"), timeout=TIMEOUT)
    assert page.get_by_role("button", name="↶ Undo").is_disabled()
    # the picked item is #1 (a cat, not relevant): one down puts the cat in a box first, RR@2 = 1
    page.get_by_role("button", name="↓ down").click()
    try:
        page.wait_for_function(link_reads("RR@2", "1"), timeout=TIMEOUT)
        wait_ready(page)
        page.get_by_role("button", name="↶ Undo").click()
        page.wait_for_function(link_reads("RR@2", "0.5"), timeout=TIMEOUT)
    finally:
        shot(page, "after_undo")
    wait_ready(page)
    assert summary_link(page, "RR@2").inner_text().strip() == "RR@2 = 0.5"
    assert page.get_by_role("button", name="↷ Redo").is_enabled()
    assert page.locator("[data-testid='stException']").count() == 0
