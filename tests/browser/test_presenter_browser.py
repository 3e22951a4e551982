"""The presenter view in Chromium (issue 12): at 1024×768 and 1280×720 the draggable tiles,
the measures in large type and the curve over k are all inside the viewport, the sidebar is
collapsed, and the keyboard alone changes k and moves an item."""

import pytest

from ui.codec import encode
from ui.presets import build_preset

from .conftest import shot

IDLE = "() => !document.querySelector('[data-testid=\"stStatusWidget\"]')"


def open_presenter(browser, server, width: int, height: int, preset: str = "white-cat", page_path: str = ""):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{server}/{page_path}?view=present&ex={encode(build_preset(preset))}")
    page.locator("[data-testid='stMetricValue']").first.wait_for(timeout=60_000)
    page.locator("[data-testid='stVegaLiteChart']").first.wait_for(timeout=60_000)
    page.locator("iframe[title*='sortables']").first.wait_for(timeout=60_000)
    page.wait_for_function(IDLE, timeout=60_000)
    page.wait_for_timeout(1500)
    return context, page


def inside(box, width: int, height: int) -> bool:
    return (box is not None and box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= width + 1
            and box["y"] + box["height"] <= height + 1)


@pytest.mark.parametrize("width,height", [(1024, 768), (1280, 720)])
def test_tiles_measures_and_curve_fit_on_one_screen(browser, server, width, height):
    context, page = open_presenter(browser, server, width, height)
    try:
        shot(page, f"presenter_{width}x{height}")
        tiles = page.locator("iframe[title*='sortables']").first
        assert inside(tiles.bounding_box(), width, height)
        chart = page.locator("[data-testid='stVegaLiteChart']").first
        assert inside(chart.bounding_box(), width, height)
        values = page.locator("[data-testid='stMetricValue']")
        assert values.count() == 5
        for i in range(values.count()):
            value = values.nth(i)
            assert inside(value.bounding_box(), width, height), value.inner_text()
            size = float(value.evaluate("e => getComputedStyle(e).fontSize").removesuffix("px"))
            assert size >= 24
        sidebar = page.locator("[data-testid='stSidebar']")
        assert sidebar.get_attribute("data-collapsed") == "true"
        assert page.evaluate("() => document.scrollingElement.scrollHeight") <= height + 1
    finally:
        context.close()


def test_the_keyboard_changes_k_and_moves_an_item(browser, server):
    context, page = open_presenter(browser, server, 1280, 720, preset="cat")
    try:
        page.get_by_text("k = 2", exact=True).first.wait_for(timeout=30_000)
        page.evaluate("() => document.activeElement && document.activeElement.blur()")  # no widget has focus
        page.keyboard.press("ArrowRight")
        page.get_by_text("k = 3", exact=True).first.wait_for(timeout=30_000)
        page.wait_for_function(IDLE, timeout=30_000)
        page.keyboard.press("ArrowDown")                           # pick #2 (cat in a box, relevant)
        page.get_by_text("picked: #2").first.wait_for(timeout=30_000)
        page.wait_for_function(IDLE, timeout=30_000)
        page.keyboard.press("t")                                   # to the top: RR@3 becomes 1
        page.locator("[data-testid='stMetric']", has_text="RR@3").get_by_text("1", exact=True).wait_for(
            timeout=30_000)
        shot(page, "presenter_keyboard")
    finally:
        context.close()


def test_a_lesson_in_the_presenter_view_focuses_its_measure(browser, server):
    context, page = open_presenter(browser, server, 1024, 768, preset="cat", page_path="lesson_average_precision")
    try:
        first = page.locator("[data-testid='stMetric']").first
        assert "AP@2" in first.inner_text() and "in focus" in first.inner_text()
    finally:
        context.close()
