"""No meaning on an emoji: on a stock Debian Chromium 📦, 🔗 and ➕ were empty boxes,
and the "add a query" tab was only "➕". The tab has words, the copy button a drawn icon, and no
character of the pages below is drawn as an empty box."""

from ranklab_ui.core.codec import encode
from ranklab_ui.core.presets import build_preset

from .helpers import IDLE, ST
from .layout import EMPTY_GLYPHS


def test_the_add_a_query_tab_has_words(page, server):
    page.goto(f"{server}/many_queries")
    tab = page.get_by_role("tab").last
    tab.wait_for(timeout=60_000)
    assert "add a query" in tab.inner_text()


def test_the_copy_button_and_a_lesson_have_no_empty_glyph(page, server):
    page.goto(f"{server}/lesson_average_precision?ex={encode(build_preset('cat'))}")
    page.locator(f"{ST.METRIC_VALUE}, {ST.CHART}").first.wait_for(timeout=60_000)
    page.wait_for_function(IDLE, timeout=60_000)
    copy = page.frame_locator("iframe[srcdoc*='copy']").first.locator("button")
    copy.wait_for(timeout=30_000)
    assert copy.inner_text().strip() == "Copy link"
    assert copy.locator("svg").count() == 1
    assert page.evaluate(EMPTY_GLYPHS, None) == []
    assert copy.evaluate(EMPTY_GLYPHS) == []
