"""The compare page with several systems and a fused run, in real Chromium: it renders the tables and
charts without an error and leaves a screenshot in test-artifacts/."""

from __future__ import annotations

import pytest

from .helpers import ARTIFACTS, ST, drawn

pytestmark = pytest.mark.browser
TIMEOUT = 60_000


def test_several_systems_with_fusion(server, browser):
    page = browser.new_page(viewport={"width": 1300, "height": 3400})
    page.goto(f"{server}/compare")
    page.get_by_text("Several systems: the sample collection").click(timeout=TIMEOUT)
    page.get_by_role("heading", name="Every pair").wait_for(timeout=TIMEOUT)
    page.get_by_text("Fuse the runs").click(timeout=TIMEOUT)
    page.get_by_text("Add the fused run as one more system").click(timeout=TIMEOUT)
    page.get_by_text("fused (rrf) − BM25").first.wait_for(state="attached", timeout=TIMEOUT)  # a grid cell
    drawn(page)
    assert page.locator("canvas, svg.marks").count() >= 3
    assert page.get_by_text("Traceback").count() == 0 and page.locator(ST.EXCEPTION).count() == 0
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "compare_many.png"), full_page=True)
    page.close()
