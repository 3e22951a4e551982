"""The presenter view in Chromium: at 1024×768 and 1280×720 the ranking editor's tiles, the
measures in large type and the curve over k are all inside the viewport, the sidebar is
collapsed, nothing is under the app's header bar, and the keyboard alone changes k, grades and
moves an item.

And at 1024×768 no measure's name or value is cut, in English, French and Korean; the focused
tile is outlined, the tiles past k are marked after a bar at k, a long label ends in an
ellipsis, the keys 0–9 and ? give the focused tile a grade, and the four measures beside the
one in focus sit in one even row."""

import pytest

from ranklab_ui.core.presets import build_preset

from .helpers import ST, shot
from .layout import CUT_TEXT
from .pages import Presenter


def open_presenter(browser, server, width: int, height: int, preset: str = "white-cat", page_path: str = "",
                   lang: str = ""):
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    show = Presenter(page, page_path).open(server, build_preset(preset), **({"lang": lang} if lang else {}))
    show.finished()
    return context, page, show


def inside(box, width: int, height: int) -> bool:
    return (box is not None and box["x"] >= 0 and box["y"] >= 0 and box["x"] + box["width"] <= width + 1
            and box["y"] + box["height"] <= height + 1)


# what is drawn at a point: the element there, the top of the button ``b`` included
ON_TOP = """(b) => { const r = b.getBoundingClientRect(); const x = r.left + r.width / 2;
  return [r.top + 2, r.top + r.height / 2].every(y => { const e = document.elementFromPoint(x, y); return !!e && b.contains(e); }); }"""


@pytest.mark.parametrize("width,height", [(1024, 768), (1280, 720)])
def test_tiles_measures_and_curve_fit_on_one_screen(browser, server, width, height):
    context, page, show = open_presenter(browser, server, width, height)
    try:
        shot(page, f"presenter_{width}x{height}")
        editor = show.editor()
        assert inside(editor.ranking_list().bounding_box(), width, height)
        assert inside(editor.tray_list().bounding_box(), width, height)
        chart = page.locator(ST.CHART).first
        assert inside(chart.bounding_box(), width, height)
        values = page.locator(ST.METRIC_VALUE)
        assert values.count() == 5
        for i in range(values.count()):
            value = values.nth(i)
            assert inside(value.bounding_box(), width, height), value.inner_text()
            size = float(value.evaluate("e => getComputedStyle(e).fontSize").removesuffix("px"))
            assert size >= 24
        sidebar = page.locator(ST.SIDEBAR)
        assert sidebar.get_attribute("data-collapsed") == "true"
        assert page.evaluate("() => document.scrollingElement.scrollHeight") <= height + 1
        # the buttons beside the title are drawn whole, none of them under the header bar
        for name in ("k −", "k +", "Leave presenter view"):
            assert page.get_by_role("button", name=name).evaluate(ON_TOP), name
    finally:
        context.close()


@pytest.mark.parametrize("lang", ["en", "fr", "ko"])
def test_no_measure_is_cut_at_1024(browser, server, lang):
    """The framed measure read "nDCG@2 — in fo…" and "0.38…" at 1024×768."""
    context, page, _show = open_presenter(browser, server, 1024, 768, preset="cat", lang=lang)
    try:
        shot(page, f"presenter_1024_{lang}")
        metrics = page.locator(ST.METRIC).first
        assert "0.3869" in metrics.inner_text()  # nDCG@2 of the cat example: (1/log2 3) / (1 + 1/log2 3)
        cut = [f for f in page.locator(ST.MAIN).evaluate(CUT_TEXT)
               if f["testid"].startswith("stMetric")]
        assert cut == []
        assert page.evaluate("() => document.scrollingElement.scrollHeight") <= 768 + 1
    finally:
        context.close()


# each ranked tile's name and the styles that mark it
TILE_STYLES = """(list) => [...list.querySelectorAll('[role=option]')].map(e => { const s = getComputedStyle(e);
  const label = e.querySelector('.label'), l = getComputedStyle(label); return {
    name: e.getAttribute('aria-label'), outline: s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0,
    bar: parseFloat(s.borderRightWidth), dashed: s.borderLeftStyle === 'dashed', ellipsis: l.textOverflow === 'ellipsis',
    cut: label.scrollWidth > label.clientWidth + 1}; })"""


def test_the_tiles_show_the_focus_the_cut_at_k_and_whole_labels(browser, server):
    context, page, show = open_presenter(browser, server, 1024, 768, preset="cat")
    try:
        editor = show.editor()
        editor.focus(1)
        tiles = editor.ranking_list().evaluate(TILE_STYLES)
        assert len(tiles) == 8
        # the focused tile (#1) is outlined, no other
        assert [t["outline"] for t in tiles] == [True] + [False] * 7
        # k = 2: a bar after #2, the tiles past it marked (a dashed edge), the others not
        assert tiles[1]["bar"] >= 4 and tiles[0]["bar"] < 4
        assert [t["dashed"] for t in tiles] == [False, False] + [True] * 6
        # rank, grade and the whole label in the name; a label cut by its tile ends in an ellipsis
        assert tiles[1]["name"].startswith("rank 2, grade 1, 🐱📦 cat in a box")
        assert all(t["ellipsis"] for t in tiles if t["cut"])
        page.keyboard.press("ArrowDown")
        assert [t["outline"] for t in editor.ranking_list().evaluate(TILE_STYLES)] == [False, True] + [False] * 6
    finally:
        context.close()


def test_the_keys_0_to_9_and_question_mark_grade_the_focused_tile(browser, server):
    context, page, show = open_presenter(browser, server, 1024, 768, preset="cat")
    try:
        editor = show.editor()
        assert show.measure("Precision@2") == "0.5"            # #1 cat (0), #2 cat in a box (1)
        editor.grade(1, 3)                                     # #1 gets grade 3: both relevant
        assert editor.ranking()[0].name.startswith("rank 1, grade 3, ")
        show.wait_measure("Precision@2", "1")
        show.settled()
        page.keyboard.press("?")                               # unjudged: not relevant, as trec_eval reads it
        assert editor.ranking()[0].name.startswith("rank 1, grade ?, ") and editor.focused() == "1"
        show.wait_measure("Precision@2", "0.5")
        show.settled()
        page.keyboard.press("ArrowDown")                       # the next tile, cat in a box, graded 0
        page.keyboard.press("0")
        assert editor.focused() == "2" and editor.grades()[:2] == [None, 0]
        show.wait_measure("Precision@2", "0")
        shot(page, "presenter_graded")
    finally:
        context.close()


def test_the_measures_sit_in_an_even_grid(browser, server):
    context, page, _show = open_presenter(browser, server, 1024, 768, preset="cat")
    try:
        boxes = [page.locator(ST.METRIC).nth(i).bounding_box() for i in range(1, 5)]
        assert len({round(b["y"]) for b in boxes}) == 1                # one row
        assert max(b["width"] for b in boxes) - min(b["width"] for b in boxes) <= 2
        gaps = [boxes[i + 1]["x"] - boxes[i]["x"] for i in range(3)]
        assert max(gaps) - min(gaps) <= 2
    finally:
        context.close()


def test_the_keyboard_changes_k_and_moves_an_item(browser, server):
    context, page, show = open_presenter(browser, server, 1280, 720, preset="cat")
    try:
        assert show.k == 2
        page.evaluate("() => document.activeElement && document.activeElement.blur()")  # no widget has focus
        page.keyboard.press("ArrowRight")                          # the "k +" button's key
        show.wait_k(3)
        show.settled()
        editor = show.editor()
        editor.focus(2)                                            # cat in a box, relevant
        page.keyboard.press("Home")                                # to the top: RR@3 becomes 1
        assert editor.ids()[:2] == ["2", "1"] and editor.focused() == "2"
        show.wait_measure("RR@3", "1")
        shot(page, "presenter_keyboard")
    finally:
        context.close()


def test_a_lesson_in_the_presenter_view_focuses_its_measure(browser, server):
    context, page, _show = open_presenter(browser, server, 1024, 768, preset="cat", page_path="lesson_average_precision")
    try:
        first = page.locator(ST.METRIC).first
        assert "AP@2" in first.inner_text() and "in focus" in first.inner_text()
    finally:
        context.close()
