"""The presenter view in Chromium: at 1024×768 and 1280×720 the draggable tiles,
the measures in large type and the curve over k are all inside the viewport, the sidebar is
collapsed, and the keyboard alone changes k and moves an item.

And at 1024×768 no measure's name or value is cut, in English, French and Korean;
the picked tile is outlined, the tiles past k are faded after a bar at k, a long label ends in
an ellipsis, the keys 0–9 and ? give the picked item a grade, and the four measures beside the
one in focus sit in one even row."""

import pytest

from ranklab_ui.core.codec import encode
from ranklab_ui.core.presets import build_preset

from .helpers import IDLE, drawn, shot
from .layout import CUT_TEXT

TILES = "iframe[title*='sortables']"


def open_presenter(browser, server, width: int, height: int, preset: str = "white-cat", page_path: str = "",
                   lang: str = ""):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.goto(f"{server}/{page_path}?view=present&ex={encode(build_preset(preset))}" + (f"&lang={lang}" if lang else ""))
    page.locator("[data-testid='stMetricValue']").first.wait_for(timeout=60_000)
    page.locator("[data-testid='stVegaLiteChart']").first.wait_for(timeout=60_000)
    page.locator(TILES).first.wait_for(timeout=60_000)
    drawn(page, timeout=60_000)
    return context, page


def inside(box, width: int, height: int) -> bool:
    return (box is not None and box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= width + 1
            and box["y"] + box["height"] <= height + 1)


def tile_styles(page) -> list[dict]:
    """Each ranked tile's text and the styles that mark it (in the sortables frame)."""
    frame = page.frame_locator(TILES).first
    frame.locator(".sortable-item").first.wait_for(timeout=30_000)
    return frame.locator(".sortable-container").first.locator(".sortable-item").evaluate_all(
        """items => items.map(e => { const s = getComputedStyle(e); return {
            text: e.textContent, outline: s.outlineStyle, opacity: parseFloat(s.opacity),
            bar: parseFloat(s.borderRightWidth), grey: s.filter.includes('grayscale'), ellipsis: s.textOverflow === 'ellipsis',
            cut: e.scrollWidth > e.clientWidth + 1}; })""")


@pytest.mark.parametrize("width,height", [(1024, 768), (1280, 720)])
def test_tiles_measures_and_curve_fit_on_one_screen(browser, server, width, height):
    context, page = open_presenter(browser, server, width, height)
    try:
        shot(page, f"presenter_{width}x{height}")
        tiles = page.locator(TILES).first
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


@pytest.mark.parametrize("lang", ["en", "fr", "ko"])
def test_no_measure_is_cut_at_1024(browser, server, lang):
    """The framed measure read "nDCG@2 — in fo…" and "0.38…" at 1024×768."""
    context, page = open_presenter(browser, server, 1024, 768, preset="cat", lang=lang)
    try:
        shot(page, f"presenter_1024_{lang}")
        metrics = page.locator("[data-testid='stMetric']").first
        assert "0.3869" in metrics.inner_text()  # nDCG@2 of the cat example: (1/log2 3) / (1 + 1/log2 3)
        cut = [f for f in page.locator("[data-testid='stMain']").evaluate(CUT_TEXT)
               if f["testid"].startswith("stMetric")]
        assert cut == []
        assert page.evaluate("() => document.scrollingElement.scrollHeight") <= 768 + 1
    finally:
        context.close()


def test_the_tiles_show_the_pick_the_cut_at_k_and_whole_labels(browser, server):
    context, page = open_presenter(browser, server, 1024, 768, preset="cat")
    try:
        tiles = tile_styles(page)
        assert len(tiles) == 8
        # the picked item (#1 at first) is outlined, no other
        assert [t["outline"] != "none" for t in tiles] == [True] + [False] * 7
        # k = 2: a bar after #2, the tiles past it greyed
        assert tiles[1]["bar"] >= 4 and tiles[0]["bar"] < 4
        assert [t["grey"] for t in tiles] == [False, False] + [True] * 6
        # rank and grade first, then the whole label; one cut by its tile ends in an ellipsis
        assert tiles[1]["text"].startswith("#2 · 1 · ") and tiles[1]["text"].endswith("cat in a box")
        assert all(t["ellipsis"] for t in tiles if t["cut"])
        page.evaluate("() => document.activeElement && document.activeElement.blur()")
        page.keyboard.press("ArrowDown")
        page.get_by_text("picked: #2").first.wait_for(timeout=30_000)
        drawn(page)
        assert [t["outline"] != "none" for t in tile_styles(page)] == [False, True] + [False] * 6
    finally:
        context.close()


def test_the_keys_0_to_9_and_question_mark_grade_the_picked_item(browser, server):
    context, page = open_presenter(browser, server, 1024, 768, preset="cat")
    try:
        precision = page.locator("[data-testid='stMetric']", has_text="Precision@2")
        assert "0.5" in precision.inner_text()                   # #1 cat (0), #2 cat in a box (1)
        page.evaluate("() => document.activeElement && document.activeElement.blur()")
        page.keyboard.press("3")                                 # #1 gets grade 3: both relevant
        precision.get_by_text("1", exact=True).wait_for(timeout=30_000)
        page.wait_for_function(IDLE, timeout=30_000)
        assert tile_styles(page)[0]["text"].startswith("#1 · 3 · ")
        page.evaluate("() => document.activeElement && document.activeElement.blur()")
        page.keyboard.press("?")                                 # unjudged: not relevant, as trec_eval reads it
        precision.get_by_text("0.5", exact=True).wait_for(timeout=30_000)
        page.wait_for_function(IDLE, timeout=30_000)
        assert tile_styles(page)[0]["text"].startswith("#1 · ? · ")
    finally:
        context.close()


def test_the_measures_sit_in_an_even_grid(browser, server):
    context, page = open_presenter(browser, server, 1024, 768, preset="cat")
    try:
        boxes = [page.locator("[data-testid='stMetric']").nth(i).bounding_box() for i in range(1, 5)]
        assert len({round(b["y"]) for b in boxes}) == 1                # one row
        assert max(b["width"] for b in boxes) - min(b["width"] for b in boxes) <= 2
        gaps = [boxes[i + 1]["x"] - boxes[i]["x"] for i in range(3)]
        assert max(gaps) - min(gaps) <= 2
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
