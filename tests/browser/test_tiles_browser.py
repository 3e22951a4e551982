"""The ranking editor's results in Chromium, on the Playground and in two lessons, on a phone
(390×844) and a laptop (1280×800): each shows its rank and its grade whole (the old strip read
"…" on a phone), the grade is a digit so colour is never the only cue, the label follows, and
the bar where k cuts the list says so."""

import pytest

from ranklab_ui.core.presets import build_preset

from .helpers import shot
from .pages import Lesson, Playground


@pytest.mark.parametrize("path", ["", "lesson_average_precision", "lesson_reciprocal_rank"])
@pytest.mark.parametrize("width,height", [(390, 844), (1280, 800)])
def test_each_result_shows_its_rank_and_grade(browser, server, path, width, height):
    example = build_preset("cat")
    grades = [item.grade for item in example.query.ranking]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    try:
        shown = Lesson(page, path) if path else Playground(page)
        shown.open(server, example)
        editor = shown.editor()
        rows = editor.ranking()
        assert [r.rank for r in rows] == list(range(1, len(grades) + 1))
        assert [r.grade for r in rows] == grades
        assert [r.label for r in rows] == [item.label for item in example.query.ranking]
        for n in range(1, len(rows) + 1):
            row = editor.row(n)
            row.scroll_into_view_if_needed()
            for part in (".rank", ".grade", ".label"):
                box = row.locator(part).bounding_box()
                assert box and box["width"] > 0 and 0 <= box["x"] and box["x"] + box["width"] <= width, (n, part, box)
            # the grade's digit is inside its chip, not cut by it
            assert row.locator(".grade").evaluate("e => e.scrollWidth <= e.clientWidth + 1")
        # k = 2: the bar after rank 2, with its label, and the name says it too
        cut = editor.row(2)
        assert "k = 2" in cut.evaluate("e => getComputedStyle(e, '::after').content")
        assert rows[1].name.endswith("k = 2: the top k end here")
        if width == 390 and not path:
            editor.row(1).scroll_into_view_if_needed()
            shot(page, "tiles_phone_playground")
    finally:
        context.close()
