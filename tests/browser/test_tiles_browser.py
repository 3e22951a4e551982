"""The ranking strip's tiles in Chromium: on a phone (390×844) each tile
still shows its rank and its grade (they read "…" before), the grade is written in the tile so
colour is never the only cue, and a line under the strip says what a faded tile means."""

import pytest

from ranklab_ui.core.codec import encode
from ranklab_ui.core.presets import build_preset

from .helpers import drawn, shot

# the strip: the chart whose top axis reads #1, #2, ...; its tiles' texts and its axis labels
STRIP_TEXTS = """() => {
  for (const chart of document.querySelectorAll("[data-testid='stVegaLiteChart'] svg")) {
    const axis = [...chart.querySelectorAll(".role-axis-label text")].map(t => t.textContent);
    if (axis.length && axis.every(t => t.startsWith("#"))) {
      return {axis, tiles: [...chart.querySelectorAll(".mark-text.role-mark text")].map(t => t.textContent)};
    }
  }
  return null;
}"""


@pytest.mark.parametrize("path", ["", "lesson_average_precision", "lesson_reciprocal_rank"])
@pytest.mark.parametrize("width,height", [(390, 844), (1280, 800)])
def test_each_tile_shows_its_rank_and_grade(browser, server, path, width, height):
    example = build_preset("cat")
    grades = [item.grade for item in example.query.ranking]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        page.goto(f"{server}/{path}?ex={encode(example)}")
        page.wait_for_function(f"() => ({STRIP_TEXTS})() !== null", timeout=60_000)
        drawn(page, timeout=60_000)
        strip = page.evaluate(STRIP_TEXTS)
        assert strip["axis"] == [f"#{n}" for n in range(1, len(grades) + 1)]
        # the grade first in every tile (the label after it where the tile is wide enough)
        assert [text.split(" · ")[0] for text in strip["tiles"]] == [str(g) for g in grades]
        if width >= 1280:
            # the label too (its start at least: it is cut to the tile's width)
            assert strip["tiles"][1].startswith("1 · ") and len(strip["tiles"][1]) > len("1 · ") + 1
        assert page.get_by_text("faded tiles are past k").count() >= 1
        if width == 390 and not path:
            shot(page, "tiles_phone_playground")
    finally:
        context.close()
