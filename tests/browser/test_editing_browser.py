"""The editing defects, each reproduced in real Chromium: a grade typed back, grades
the browser used to bend, rows added at the bottom, quick presses on the k slider."""

import math
import os
import re
import signal

import pytest

from ranklab_ui.core import codec, model

from .helpers import (
    IDLE,
    SERVER_PIDS,
    SHOWN_SLIDER,
    TIMEOUT,
    click_curve,
    drag_to,
    drawn,
    focus_slider,
    open_playground,
    precision_at_2_is,
    shot,
    summary_link,
    tiles,
    type_grade,
    wait_ready,
)

pytestmark = pytest.mark.browser

GRID_ROWS = ("e => [...e.querySelectorAll('tr')].map(r => [...r.querySelectorAll('td')].map(c => c.innerText))"
             ".filter(r => r.length)")


def cell_is(row: int, col: int, text: str) -> str:
    """A condition: the grid's cell (0-based row and column) reads ``text``."""
    return (f"() => {{ const r = ({GRID_ROWS})(document.querySelector('[data-testid=\"stDataFrame\"]'))[{row}];"
            f" return !!r && r[{col}] === {text!r}; }}")


def rows(page) -> list[list[str]]:
    """The ranking grid's cells as text (rank, grade, label, id), from its accessible table."""
    return page.locator("[data-testid='stDataFrame']").first.evaluate(GRID_ROWS)


def add_row(page) -> None:
    """The grid's own "Add row" button (shown when the pointer is over the grid)."""
    grid = page.locator("[data-testid='stDataFrame']").first
    grid.evaluate("e => e.scrollIntoView({block: 'center'})")
    grid.hover()
    page.get_by_role("button", name="Add row").first.click()


def test_a_grade_typed_back_is_applied(server, page):
    # a fresh page, one try per edit: the browser drops an edit typed back to the grid's own
    # value, and the page took "no edit in the grid" for "nothing changed" (the 0 was lost)
    open_playground(server, page)
    for typed, p_at_2 in (("1", "1"), ("0", "0.5"), ("1", "1"), ("0", "0.5")):
        type_grade(page, 1, typed)    # rank 1: P@2 = 2 / 2 when relevant, 1 / 2 when not
        try:
            page.wait_for_function(precision_at_2_is(p_at_2), timeout=TIMEOUT)
            page.wait_for_function(cell_is(0, 1, typed), timeout=TIMEOUT)
        except Exception:
            shot(page, "typed_back")
            raise AssertionError(f"typed {typed}: the grid reads {rows(page)[0]!r}, the page shows "
                                 f"{summary_link(page, 'Precision@2').inner_text()!r}") from None
        wait_ready(page)
    # three seconds later it still holds, and the link carries it
    page.wait_for_timeout(3000)
    assert rows(page)[0][1] == "0" and re.search(r"= 0\.5$", summary_link(page, "Precision@2").inner_text().strip())
    shot(page, "typed_back")


@pytest.mark.parametrize("typed", ["-1", "11", "1e3", "2.5"])
def test_a_grade_the_grid_cannot_take_is_refused_with_a_message(server, page, typed):
    open_playground(server, page)
    type_grade(page, 3, typed, open_editor=typed.startswith("-"))
    page.wait_for_function("() => document.body.innerText.includes('not allowed: use a whole number from 0 to 10')",
                           timeout=TIMEOUT)
    wait_ready(page)
    message = page.locator("[data-testid='stAlert']", has_text="not allowed").first.inner_text()
    assert "position 3" in message and repr(typed) in message
    # nothing was bent: rank 3 still shows grade 0 and the metrics are unchanged
    page.wait_for_function(cell_is(2, 1, "0"), timeout=TIMEOUT)
    assert re.search(r"= 0\.5$", summary_link(page, "Precision@2").inner_text().strip())
    shot(page, f"refused_grade_{typed}")


def test_an_unjudged_grade_is_shown_as_a_question_mark(server, page):
    open_playground(server, page)
    # rank 2 (the relevant cat in a box) unjudged: P@2 = 0 / 2
    type_grade(page, 2, "?")
    page.wait_for_function(precision_at_2_is("0"), timeout=TIMEOUT)
    page.wait_for_function(cell_is(1, 1, "?"), timeout=TIMEOUT)


def test_a_row_added_at_the_bottom_gets_a_rank_and_an_id(server, page):
    open_playground(server, page)
    add_row(page)
    # the grid starts again from the example: row 9 has rank 9 and an id, never "None"
    page.wait_for_function(f"() => ({GRID_ROWS})(document.querySelector('[data-testid=\"stDataFrame\"]')).length === 9",
                           timeout=TIMEOUT)
    wait_ready(page)
    page.wait_for_function(
        f"() => {{ const r = ({GRID_ROWS})(document.querySelector('[data-testid=\"stDataFrame\"]'))[8];"
        " return r && r[0] === '9' && r[3] !== '' && r[3] !== 'None'; }", timeout=TIMEOUT)
    last = rows(page)[8]
    assert "None" not in last and last[1] == "?"   # not judged yet
    shot(page, "added_row")


# what each page shows at k: the Playground's measures (page links), a lesson's metric tiles
SHOWN_AT_K = {
    "": "() => [...document.querySelectorAll('[data-testid=\"stPageLink\"]')].map(e => e.innerText.split(' = ')[0])",
    "lesson_dcg": "() => [...document.querySelectorAll('[data-testid=\"stMetricLabel\"]')].map(e => e.innerText)",
}


@pytest.mark.parametrize(("path", "at_12"), [
    ("", "Precision@12"),
    ("lesson_dcg", "nDCG@12"),
])
def test_quick_presses_on_the_k_slider_are_all_counted(server, page, path, at_12):
    # 100 items, so a rerun is still running when the next press comes (and a run waits after
    # its values, ranklab_ui.tuning.PAINT_PAUSE): the request for it carried the address of two runs
    # ago, which was read as a permalink and took k back
    from ranklab_ui.core import codec, model

    items = tuple(model.Item(f"d{i}", f"result {i}", i % 3) for i in range(1, 101))
    example = model.Example((model.Query("100 items", items),), k=5, mode="graded")
    page.goto(f"{server}/{path}?ex={codec.encode(example)}")
    wait_ready(page)
    if not path:
        page.wait_for_selector("[data-testid='stDataFrame'] canvas", timeout=TIMEOUT)
    thumb = page.locator("[data-testid='stSlider'] input[type='range']").first
    thumb.focus()
    for _ in range(7):
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(150)
    # seven presses from k = 5 make k = 12, on the slider and in the measures
    shown = SHOWN_AT_K[path]
    try:
        page.wait_for_function(f"() => ({shown})().includes({at_12!r})", timeout=TIMEOUT)
    except Exception:
        shot(page, f"quick_presses_{path or 'playground'}")
        raise AssertionError(f"after 7 presses from k = 5 the slider shows {thumb.input_value()} and the "
                             f"page shows {page.evaluate(shown)!r}") from None
    wait_ready(page)
    page.wait_for_timeout(1500)
    assert thumb.input_value() == "12"
    at_k = page.evaluate(shown)
    if path:
        # the lesson's headline value under the slider, then its four boxes
        assert at_k == ["nDCG@12", "CG@12", "DCG@12", "IDCG@12", "nDCG@12"]
    else:
        assert at_k.count("Precision@12") == 1 and not any("@5" in m or "@11" in m for m in at_k), at_k


def test_the_k_slider_keeps_k_when_a_row_is_added(server, page):
    open_playground(server, page)
    add_row(page)
    page.wait_for_function(cell_is(8, 0, "9"), timeout=TIMEOUT)
    wait_ready(page)
    # the slider's range grew to 1..9 and it still shows k = 2, as the metrics do
    thumb = page.locator("[data-testid='stSlider'] input[type='range']").first
    assert thumb.get_attribute("max") == "9" and thumb.input_value() == "2"
    assert re.search(r"= 0\.5$", summary_link(page, "Precision@2").inner_text().strip())


CLIPPED = ("(sel) => [...document.querySelectorAll(sel)].filter(e => e.offsetParent)"
           ".filter(e => e.scrollWidth > e.clientWidth + 1).map(e => e.innerText)")


def test_nothing_is_cut_at_1024_px_with_the_sidebar_open(server, browser):
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    try:
        page = context.new_page()
        open_playground(server, page)
        assert page.locator("[data-testid='stSidebar']").first.is_visible()
        # every metric reads whole ("nDCG@2 = 0." was cut), and so does every button label ("↑…")
        links = page.locator("[data-testid='stPageLink']", has_text=" = ")
        assert links.count() >= 10
        assert page.evaluate(CLIPPED, "[data-testid='stPageLink'] a p, [data-testid='stPageLink'] a span") == []
        assert page.evaluate(CLIPPED, "[data-testid='stButton'] button p, [data-testid='stButton'] button div") == []
        nd = summary_link(page, "nDCG@2").bounding_box()
        assert nd["x"] + nd["width"] <= 1024
        assert "0.3869" in summary_link(page, "nDCG@2").inner_text()   # (1/log2 3) / (1 + 1/log2 3)
        page.get_by_role("button", name="↓ down").first.scroll_into_view_if_needed()
        shot(page, "playground_1024")
    finally:
        context.close()


def test_the_first_edit_after_loading_a_preset_is_applied(server, page):
    open_playground(server, page)
    page.locator("[data-testid='stSelectbox']", has_text="load an example").first.click()
    page.get_by_role("option", name="White cat in the box (graded)").click()
    page.wait_for_function("() => document.body.innerText.includes('Loaded: White cat')", timeout=TIMEOUT)
    wait_ready(page)
    page.wait_for_function(cell_is(0, 2, "🐈\u200d⬛ dark cat"), timeout=TIMEOUT)
    # one try, no retry: the first click and keystroke in the grid used to be swallowed
    type_grade(page, 1, "7")
    page.wait_for_function(cell_is(0, 1, "7"), timeout=TIMEOUT)
    page.wait_for_function("() => document.body.innerText.includes('(edited since)')", timeout=TIMEOUT)


def ids_and_grades(page) -> list[tuple[str, str]]:
    return [(r[3], r[1]) for r in rows(page)]


def test_a_button_clicked_at_once_after_a_grade_keeps_the_grade(server, page):
    # the grid sends an edit a moment after Enter, a button its click at once: the move reached
    # the server first and the grade typed was lost. One try each, no pause between them.
    open_playground(server, page)
    type_grade(page, 1, "1")            # rank 1, "cat" (id 1): 0 -> 1
    page.get_by_role("button", name="↓ down").first.click()   # the picker is on #1: it goes to rank 2
    # by hand: ids 2, 1 (both relevant now), the rest as they were; P@2 = 2 / 2
    expected = [("2", "1"), ("1", "1"), ("3", "0"), ("4", "1"), ("5", "1"), ("6", "0"), ("7", "1"), ("8", "0")]
    try:
        page.wait_for_function(precision_at_2_is("1"), timeout=TIMEOUT)
        wait_ready(page)
        page.wait_for_timeout(1000)
        assert ids_and_grades(page) == expected
    except Exception:
        shot(page, "click_after_grade")
        raise AssertionError(f"the grid reads {ids_and_grades(page)!r}, the page shows "
                             f"{summary_link(page, 'Precision@2').inner_text()!r}") from None


def test_undo_clicked_at_once_after_a_grade_undoes_that_grade(server, page):
    open_playground(server, page)
    page.get_by_role("button", name="↓ down").first.click()   # a first change: ids 2, 1, 3, ...
    page.wait_for_function(precision_at_2_is("0.5"), timeout=TIMEOUT)
    page.wait_for_function(cell_is(0, 3, "2"), timeout=TIMEOUT)
    wait_ready(page)
    type_grade(page, 3, "1")            # rank 3, "box" (id 3): 0 -> 1
    page.get_by_role("button", name="↶ Undo").first.click()   # undoes the grade, not the move
    expected = [("2", "1"), ("1", "0"), ("3", "0"), ("4", "1"), ("5", "1"), ("6", "0"), ("7", "1"), ("8", "0")]
    wait_ready(page)
    page.wait_for_timeout(1500)
    wait_ready(page)
    got = ids_and_grades(page)
    if got != expected:
        shot(page, "undo_after_grade")
    assert got == expected, f"the grid reads {got!r}"
    # and redo brings the grade back
    page.get_by_role("button", name="↷ Redo").first.click()
    page.wait_for_function(cell_is(2, 1, "1"), timeout=TIMEOUT)


def ndcg_at_5(grades: list[int], tray: list[int]) -> float:
    """nDCG@5 by hand: gain = grade, discount log2(rank + 1), the ideal list from every grade."""
    def dcg(gs):
        return sum(g / math.log2(i + 2) for i, g in enumerate(gs[:5]))
    return dcg(grades) / dcg(sorted(grades + tray, reverse=True))


def test_twenty_grades_typed_in_a_row_all_reach_the_measures(server, browser):
    # a 100-item list, grades typed one after another at the pace of the latency benchmark
    # (benchmarks/browser_latency.py), in its window; each must show its own nDCG@5
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        _grades_in_a_row(server, context.new_page())
    finally:
        context.close()


def _grades_in_a_row(server, page) -> None:
    grades = [4] + [(i * 7) % 4 if i % 3 == 0 else 0 for i in range(2, 101)]
    items = tuple(model.Item(f"d{i}", f"result {i}", g) for i, g in enumerate(grades, start=1))
    ex = model.Example((model.Query("100 items", items, (model.Item("x1", "missed", 3),)),), k=5, mode="graded")
    page.goto(f"{server}/?ex={codec.encode(ex)}")
    wait_ready(page)
    page.wait_for_selector("[data-testid='stDataFrame'] canvas", timeout=TIMEOUT)
    grid = page.locator("[data-testid='stDataFrame']").first
    grid.evaluate("e => e.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(800)
    for i in range(20):
        row = i % 5 + 1
        grades[row - 1] = grades[row - 1] % 9 + 1   # never the grade it has
        page.keyboard.press("Escape")
        grid.evaluate("e => e.scrollIntoView({block: 'center', behavior: 'instant'})")
        page.wait_for_timeout(100)
        box = grid.bounding_box()
        page.mouse.click(box["x"] + 60, box["y"] + 35 * row + 17)   # the rank cell
        page.wait_for_timeout(150)
        page.keyboard.press("ArrowRight")
        page.keyboard.type(str(grades[row - 1]))
        page.wait_for_timeout(150)
        page.keyboard.press("Enter")
        expected = ndcg_at_5(grades, [3])   # shown to 4 decimals, trailing zeros dropped
        try:
            page.wait_for_function(
                "(v) => [...document.querySelectorAll('[data-testid=\"stPageLink\"]')].some(a => {"
                " const m = /^nDCG@5 = ([0-9.]+)$/.exec(a.innerText.trim()); return !!m && Math.abs(+m[1] - v) < 6e-5; })",
                arg=expected, timeout=TIMEOUT)
        except Exception:
            shot(page, "grades_in_a_row")
            raise AssertionError(f"edit {i + 1} (rank {row} to {grades[row - 1]}) never showed nDCG@5 = {expected:.4f}; the "
                                 f"page reads {summary_link(page, 'nDCG@5').inner_text()!r}") from None
        wait_ready(page)
        page.wait_for_timeout(250)


def recall_at_3_is(value: str) -> str:
    return ("() => [...document.querySelectorAll('[data-testid=\"stPageLink\"]')]"
            f".some(a => /Recall@3 = {re.escape(value)}$/.test(a.innerText.trim()))")


def test_a_move_in_the_ranking_keeps_the_trays_grid_and_a_tray_edit_after_it_counts(server, page):
    # d1..d5 graded 1 0 1 0 1, the tray x (2) and y (1): R = 5. The tray's grid is not built
    # again by a move in the ranking (the same element in the page), and an edit typed in it
    # afterwards reaches the measures
    items = tuple(model.Item(f"d{i}", f"result {i}", i % 2) for i in range(1, 6))
    tray = (model.Item("x", "missed", 2), model.Item("y", "also missed", 1))
    ex = model.Example((model.Query("5 items", items, tray),), k=3, mode="graded")
    page.goto(f"{server}/?ex={codec.encode(ex)}")
    wait_ready(page)
    page.wait_for_selector("[data-testid='stDataFrame'] canvas", timeout=TIMEOUT)
    page.wait_for_function(recall_at_3_is("0.4"), timeout=TIMEOUT)      # d1, d3 of 5
    wait_ready(page)
    grids = "() => [...document.querySelectorAll('[data-testid=\"stDataFrame\"]')]"
    page.evaluate(f"() => ({grids})().forEach((g, i) => g.dataset.mark = 'before-' + i)")
    page.get_by_role("button", name="↓ down").first.click()             # d1 to rank 2
    page.wait_for_function(cell_is(0, 3, "d2"), timeout=TIMEOUT)
    wait_ready(page)
    marks = page.evaluate(f"() => ({grids})().map(g => g.dataset.mark || '')")
    assert marks == ["", "before-1"], marks    # the ranking's grid is new, the tray's the same
    # the tray: grade, label, id (no rank column); x's grade 2 -> 0 makes R = 4: 2 / 4

    type_grade(page, 1, "0", grid=1)
    try:
        page.wait_for_function(recall_at_3_is("0.5"), timeout=TIMEOUT)
    except Exception:
        shot(page, "tray_edit_lost")
        raise AssertionError(f"the tray reads {page.locator('[data-testid=stDataFrame]').nth(1).evaluate(GRID_ROWS)!r}, "
                             f"the page shows {summary_link(page, 'Recall@3').inner_text()!r}") from None
    shot(page, "tray_kept_after_move")


def test_two_tiles_that_read_the_same_swapped_by_a_drag_stay_swapped(server, page):
    # the cat in the box has "cat in a box", grade 1, at ranks 4 and 5 (ids 4 and 5): swapped,
    # every tile reads as before. The list settles with ids 5 and 4 at ranks 4 and 5, and stays
    # so: no run after it (the old list's reply, read against the new one, swapped them back on
    # every run, and the page never went idle)
    open_playground(server, page)
    frame = tiles(page)
    source, target = (frame.get_by_text(f"#{n} · ", exact=False).first for n in (5, 4))
    source.scroll_into_view_if_needed()
    b = target.bounding_box()
    drag_to(page, source, b["x"] + 40, b["y"] + 3)
    page.wait_for_function(cell_is(3, 3, "5"), timeout=TIMEOUT)
    wait_ready(page)
    grid = page.locator("[data-testid='stDataFrame']").first
    ids = [row[3] for row in grid.evaluate(GRID_ROWS)]
    key = grid.evaluate("e => e.closest('[data-testid=stElementContainer]').className")
    page.wait_for_timeout(3000)   # a run now would be one no action asked for
    assert page.evaluate(IDLE), "the page is running again with nothing asked"
    assert ids == ["1", "2", "3", "5", "4", "6", "7", "8"], ids
    assert grid.evaluate("e => e.closest('[data-testid=stElementContainer]').className") == key, \
        "the ranking's grid was made again with nothing asked"
    assert [row[3] for row in grid.evaluate(GRID_ROWS)] == ids


def test_undo_clicked_just_after_a_move_undoes_the_move_on_a_busy_server(server, page):
    # tile 1 clicked (grade 0 -> 1); then, while the server is busy (stopped a moment, as a
    # loaded machine stops it), k moved by a key, "↓ down" and "↶ Undo" just after it. The
    # requests reached the server before it started the next run: it ran the clicks as one,
    # undo's callback first (the page's order), so undo took back the tile's grade and the
    # move stayed. A click now waits until the run asked for before it has started.
    pid = SERVER_PIDS.get(server)
    if pid is None:
        pytest.skip("stops the server for a moment: needs the one this test session started")
    page.set_viewport_size({"width": 1280, "height": 2400})   # the buttons and the strip in view
    open_playground(server, page)
    click_tile(page, 1)
    page.wait_for_function(cell_is(0, 1, "1"), timeout=TIMEOUT)
    wait_ready(page)
    expected = rows(page)
    down, undo, redo = (page.get_by_role("button", name=name).first for name in ("↓ down", "↶ Undo", "↷ Redo"))
    at = [(b["x"] + b["width"] / 2, b["y"] + b["height"] / 2) for b in (down.bounding_box(), undo.bounding_box())]
    focus_slider(page)
    os.kill(pid, signal.SIGSTOP)
    try:
        page.keyboard.press("ArrowRight")
        page.wait_for_timeout(100)
        page.mouse.click(*at[0])
        page.wait_for_timeout(30)   # the person's pace between the two clicks
        page.mouse.click(*at[1])
        page.wait_for_timeout(300)   # the time the server is kept busy
    finally:
        os.kill(pid, signal.SIGCONT)
    try:
        page.wait_for_function("b => !b.disabled", arg=redo.element_handle(), timeout=TIMEOUT)
        wait_ready(page)
        grid = page.locator("[data-testid='stDataFrame']").first.element_handle()
        page.wait_for_function(f"([e, want]) => JSON.stringify(({GRID_ROWS})(e)) === JSON.stringify(want)",
                               arg=[grid, expected], timeout=TIMEOUT)
    except Exception:
        shot(page, "move_then_undo_busy")
        raise AssertionError(f"the grid reads {rows(page)}, not {expected}: the undo ran before the move") from None


def test_undo_clicked_at_once_after_a_drop_undoes_the_drop(server, page):
    # tile 1 clicked (grade 0 -> 1), then tile 6 dropped on tile 2 and "↶ Undo" clicked at
    # once: the undo takes back the drop, not the click before it. The list's reply and the
    # click reach the server in one run, and the undo's callback runs first: it went back
    # over the tile click, and the drop was applied after it. The window is tall enough to
    # show the button and the tiles at once: the click comes without a scroll.
    page.set_viewport_size({"width": 1280, "height": 1800})
    open_playground(server, page)
    click_tile(page, 1)
    page.wait_for_function(cell_is(0, 1, "1"), timeout=TIMEOUT)
    wait_ready(page)
    frame = tiles(page)
    frame.get_by_text("#1 · 🐱 cat · grade 1").wait_for(timeout=TIMEOUT)
    source, target = (frame.get_by_text(f"#{n} · ", exact=False).first for n in (6, 2))
    source.scroll_into_view_if_needed()
    b = target.bounding_box()
    undo = page.get_by_role("button", name="↶ Undo").first
    at = undo.bounding_box()
    drag_to(page, source, b["x"] + 40, b["y"] + 3)
    page.mouse.click(at["x"] + at["width"] / 2, at["y"] + at["height"] / 2)
    wait_ready(page)
    page.wait_for_timeout(1000)
    wait_ready(page)
    grid = page.locator("[data-testid='stDataFrame']").first
    rows = grid.evaluate(GRID_ROWS)
    # the cat in the box, ids 1..8 in order, with tile 1's grade 1 kept
    assert [r[3] for r in rows] == [str(n) for n in range(1, 9)], rows
    assert rows[0][1] == "1", rows


def test_a_point_of_the_curve_picked_again_sets_k_again(server, page):
    # k = 5 from a click on the curve, 6 from the slider, then the same point clicked again:
    # k = 5. The chart kept that point selected, so the second click changed no selection
    # and nothing reached the app
    open_playground(server, page)
    slider = "() => document.querySelector('[data-testid=\"stSlider\"] input[type=\"range\"]').value"
    click_curve(page, 5)
    page.wait_for_function(f"() => ({slider})() === '5'", timeout=TIMEOUT)
    wait_ready(page)
    focus_slider(page)
    page.keyboard.press("ArrowRight")
    page.wait_for_function(f"() => ({slider})() === '6'", timeout=TIMEOUT)
    wait_ready(page)
    click_curve(page, 5)
    try:
        page.wait_for_function(f"() => ({slider})() === '5'", timeout=TIMEOUT)
    except Exception:
        shot(page, "curve_picked_again")
        raise AssertionError(f"k reads {page.evaluate(slider)} after the point of k = 5 was clicked again") from None
    assert summary_link(page, "Precision@5").is_visible()


def test_undo_clicked_at_once_after_a_point_of_the_curve_keeps_both(server, page):
    # tile 1 clicked (grade 0 -> 1, the change to undo), then the curve's point of k = 5 and
    # "↶ Undo" clicked at once: k = 5 and tile 1 back to 0. A chart sends its click a moment
    # late; the undo's run drew the chart again before then, and the pick was lost
    page.set_viewport_size({"width": 1280, "height": 2400})   # the button and the curve in view
    open_playground(server, page)
    click_tile(page, 1)
    page.wait_for_function(cell_is(0, 1, "1"), timeout=TIMEOUT)
    wait_ready(page)
    undo = page.get_by_role("button", name="↶ Undo").first.bounding_box()
    click_curve(page, 5)
    page.mouse.click(undo["x"] + undo["width"] / 2, undo["y"] + undo["height"] / 2)
    slider = "() => document.querySelector('[data-testid=\"stSlider\"] input[type=\"range\"]').value"
    try:
        page.wait_for_function(f"() => ({slider})() === '5'", timeout=TIMEOUT)
        page.wait_for_function(cell_is(0, 1, "0"), timeout=TIMEOUT)
    except Exception:
        shot(page, "curve_then_undo")
        grid = page.locator("[data-testid='stDataFrame']").first
        raise AssertionError(f"k reads {page.evaluate(slider)}, rank 1's grade "
                             f"{grid.evaluate(GRID_ROWS)[0][1]}: the pick or the undo was lost") from None


SLIDER = SHOWN_SLIDER


def slider_reads(value: int) -> str:
    """A condition: the k slider shows ``value``."""
    return f"() => {{ const s = ({SLIDER})(); return !!s && s.value === '{value}'; }}"


def press_on_slider(page, key: str) -> None:
    """The k slider shown focused (as a click on its thumb or a Tab does) and ``key`` pressed, once."""
    focus_slider(page)
    page.keyboard.press(key)


def test_a_k_key_pressed_at_once_after_a_point_of_the_curve_steps_from_that_point(server, page):
    # k = 2; the curve's point of k = 5 clicked, then → on the slider at once: k = 6. A chart
    # sends its click a moment late: the key's k of 3 reached the app first, and the pick's 5
    # came after it
    page.set_viewport_size({"width": 1280, "height": 2400})   # the slider and the curve in view
    open_playground(server, page)
    click_curve(page, 5)
    press_on_slider(page, "ArrowRight")
    try:
        page.wait_for_function(slider_reads(6), timeout=TIMEOUT)
        wait_ready(page)
        page.wait_for_timeout(1000)   # still 6 a second after the page is idle: nothing came after
        assert page.evaluate(f"() => ({SLIDER})().value") == "6"
        summary_link(page, "Precision@6").wait_for(timeout=TIMEOUT)
    except Exception:
        shot(page, "curve_then_k_key")
        raise AssertionError(f"k reads {page.evaluate(f'() => ({SLIDER})().value')}, not 6") from None


def k_8_and_a_list_of_4_typed_in_the_paste_box(server, page) -> None:
    """A fresh Playground at k = 8 (End on the slider), its paste box open with 1..4 typed."""
    page.set_viewport_size({"width": 1280, "height": 2400})
    open_playground(server, page)
    press_on_slider(page, "End")
    page.wait_for_function(slider_reads(8), timeout=TIMEOUT)
    wait_ready(page)
    page.get_by_text("Paste or import a list").click()
    area = page.locator("[data-testid='stTextArea'] textarea").first
    area.wait_for(timeout=TIMEOUT)
    area.fill("1\n2\n3\n4")


def k_stays_3(page, name: str) -> None:
    """The slider reads 3, still a second after the page is idle, and the measures are @3."""
    try:
        page.wait_for_function(slider_reads(3), timeout=TIMEOUT)
        wait_ready(page)
        page.wait_for_timeout(1000)   # still 3 a second after the page is idle
        assert page.evaluate(f"() => ({SLIDER})().value") == "3"
        summary_link(page, "Precision@3").wait_for(timeout=TIMEOUT)
    except Exception:
        shot(page, name)
        raise AssertionError(f"k reads {page.evaluate(f'() => ({SLIDER})().value')}, not 3") from None


def test_a_k_key_pressed_at_once_after_a_paste_steps_from_the_pasted_lists_k(server, page):
    # k = 8 (End on the slider); then a list of 4 pasted and ← pressed at once: k = 3, one
    # below the 4 that the pasted list shows. The key acted on the slider of the list before
    # (8 → 7), a k beyond the pasted list, which went on showing 4
    k_8_and_a_list_of_4_typed_in_the_paste_box(server, page)
    page.get_by_role("button", name="Replace the ranking with this list").click()
    press_on_slider(page, "ArrowLeft")
    k_stays_3(page, "paste_then_k_key")


def test_a_k_key_pressed_on_a_slider_that_a_paste_made_anew_steps_from_the_pasted_lists_k(server, page):
    # k = 8; a list of 4 pasted while the server is busy, the slider focused before the paste's
    # run is drawn, and ← pressed once that run has drawn the slider anew (its range is 1..4
    # now): k = 3. The focused slider was taken out of the page with the focus, and the key
    # went nowhere: k stayed 8, shown as 4
    pid = SERVER_PIDS.get(server)
    if pid is None:
        pytest.skip("stops the server for a moment: needs the one this test session started")
    k_8_and_a_list_of_4_typed_in_the_paste_box(server, page)
    os.kill(pid, signal.SIGSTOP)
    try:
        page.get_by_role("button", name="Replace the ranking with this list").click()
        focus_slider(page)
        page.evaluate("() => { window.__focused = document.activeElement; }")
        page.wait_for_timeout(300)   # the time the server is kept busy
    finally:
        os.kill(pid, signal.SIGCONT)
    page.wait_for_function("() => !window.__focused.isConnected || window.__focused.offsetParent === null",
                           timeout=TIMEOUT)
    page.keyboard.press("ArrowLeft")
    k_stays_3(page, "paste_made_the_slider_anew")


def test_a_preset_picked_while_the_server_is_busy_comes_after_the_click_before_it(server, page):
    # tile 1 clicked while the server is busy (stopped a moment, as a loaded machine stops
    # it), then the DCG textbook example picked in "load an example": the preset, whole, as
    # it is. The list's option is chosen as the button is let go, not on the click, and both
    # requests reached the server before its next run: one run, callbacks in the page's order,
    # so the tile's click was applied to the preset's list
    _tile_then_preset_on_a_busy_server(server, page, pause=0)


def test_the_first_action_on_a_fresh_page_is_kept_ahead_of_the_next_on_a_busy_server(server, page):
    # as above, the box opened half a second after the tile's click, when the chart has sent
    # it: the page held nothing for the first run it asked for, as the start of the run that
    # drew the page came before the page could read it
    _tile_then_preset_on_a_busy_server(server, page, pause=500)


def _tile_then_preset_on_a_busy_server(server, page, pause: int) -> None:
    pid = SERVER_PIDS.get(server)
    if pid is None:
        pytest.skip("stops the server for a moment: needs the one this test session started")
    page.set_viewport_size({"width": 1280, "height": 2400})
    open_playground(server, page)
    box = page.locator("[data-testid='stSelectbox']", has_text="load an example").first
    box.evaluate("e => e.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(300)   # the scroll over: a menu closes on a scroll
    option = page.get_by_role("option", name="DCG textbook example").first
    os.kill(pid, signal.SIGSTOP)
    try:
        click_tile(page, 1)
        page.wait_for_timeout(pause)   # a person's pace
        box.locator("input").first.click()
        option.click(timeout=3000)
        page.wait_for_timeout(300)   # the time the server is kept busy
    finally:
        os.kill(pid, signal.SIGCONT)
    # the textbook's ranking as it is: grades 3, 2, 3, 0, 1, 2 (the tile's click came before it)
    try:
        page.wait_for_function(cell_is(3, 3, "d4"), timeout=TIMEOUT)
        wait_ready(page)
        page.wait_for_timeout(1000)
        grid = page.locator("[data-testid='stDataFrame']").first
        assert [r[1] for r in grid.evaluate(GRID_ROWS)] == ["3", "2", "3", "0", "1", "2"]
    except Exception:
        shot(page, "tile_then_preset_busy")
        raise AssertionError(f"the grid reads {rows(page)}: the tile's click came after the preset") from None


def click_tile(page, rank: int) -> None:
    """Click the strip's tile at ``rank`` where a person would: its middle, on its label."""
    tile = page.locator("[data-testid='stVegaLiteChart']").first.locator(".mark-rect path").nth(rank - 1)
    tile.scroll_into_view_if_needed()
    box = tile.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def test_a_click_on_a_tile_gives_it_the_next_grade(server, page):
    open_playground(server, page)
    # the cat in the box, binary: rank 1 (not relevant) clicked becomes relevant, P@2 = 2 / 2;
    # clicked again, not relevant: P@2 = 1 / 2; the grid follows each time
    click_tile(page, 1)
    page.wait_for_function(precision_at_2_is("1"), timeout=TIMEOUT)
    page.wait_for_function(cell_is(0, 1, "1"), timeout=TIMEOUT)
    wait_ready(page)
    click_tile(page, 1)
    page.wait_for_function(precision_at_2_is("0.5"), timeout=TIMEOUT)
    page.wait_for_function(cell_is(0, 1, "0"), timeout=TIMEOUT)
    wait_ready(page)
    shot(page, "tile_clicked")


def test_a_click_on_a_graded_tile_steps_up_and_wraps(server, page):
    # grades 2, 3, 0 (the top is 3): rank 1 becomes 3, then 0
    items = (model.Item("a", "first", 2), model.Item("b", "second", 3), model.Item("c", "third", 0))
    ex = model.Example((model.Query("3 items", items),), k=1, mode="graded")
    page.goto(f"{server}/?ex={codec.encode(ex)}")
    wait_ready(page)
    page.wait_for_selector("[data-testid='stDataFrame'] canvas", timeout=TIMEOUT)
    wait_ready(page)
    for grade in ("3", "0"):
        click_tile(page, 1)
        page.wait_for_function(cell_is(0, 1, grade), timeout=TIMEOUT)
        wait_ready(page)
    # DCG@1 = grade of rank 1 = 0 now
    assert re.search(r"= 0$", summary_link(page, "DCG@1").inner_text().strip())


def metric_is(label: str, value: str) -> str:
    return ("() => [...document.querySelectorAll('[data-testid=\"stMetric\"]')]"
            f".some(m => m.innerText.includes({label!r}) && m.innerText.includes({value!r}))")


def test_a_click_on_a_lessons_tile_gives_it_the_next_grade(server, page):
    # "What does the user do?" on the cat in the box (binary, k = 2): rank 1 made relevant
    # by a click gives P@2 = 2 / 2 and RR = 1 / 1
    page.goto(f"{server}/lesson_users")
    wait_ready(page)
    page.wait_for_function(metric_is("P@2", "0.5000"), timeout=TIMEOUT)
    wait_ready(page)
    click_tile(page, 1)
    page.wait_for_function(metric_is("P@2", "1.0000"), timeout=TIMEOUT)
    page.wait_for_function(metric_is("RR", "1.0000"), timeout=TIMEOUT)
    wait_ready(page)
    shot(page, "lesson_tile_clicked")


SWITCH_FITS = ("""() => [...document.querySelectorAll('[data-testid="stButtonGroup"]')].flatMap(g => {
  const c = g.closest('[data-testid="stColumn"]').getBoundingClientRect();
  return [...g.querySelectorAll('button')].filter(b => b.innerText.trim())
    .filter(b => { const r = b.getBoundingClientRect(); return r.left < c.left - 1 || r.right > c.right + 1; })
    .map(b => b.innerText); })""")
COPY_FITS = ("""() => { const f = [...document.querySelectorAll('iframe')].find(f => {
  try { return !!f.contentDocument.getElementById('copy'); } catch (e) { return false; } });
  if (!f) return null;
  const b = f.contentDocument.getElementById('copy');
  return b.getBoundingClientRect().bottom <= f.getBoundingClientRect().height && b.scrollWidth <= b.clientWidth + 1; }""")


@pytest.mark.parametrize(("path", "lang"), [("", "en"), ("", "fr"), ("", "ko"), ("", "zh"),
                                           ("lesson_precision_recall", "en"), ("lesson_precision_recall", "fr"),
                                           ("many_queries", "fr")])
def test_the_relevance_switch_and_the_copy_button_fit_at_1024_px(server, browser, path, lang):
    # "graded (0..10)" ran 14 px out of its column (French 17 px) on the Playground, the lessons
    # and Many queries, and "Copy link to this example" took two lines in a frame of one
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    try:
        page = context.new_page()
        page.goto(f"{server}/{path}" + ("" if lang == "en" else f"?lang={lang}"))
        wait_ready(page)
        page.wait_for_selector("[data-testid='stButtonGroup'] button", timeout=TIMEOUT)
        if path != "many_queries":   # (it has no copy button)
            page.wait_for_function(f"() => ({COPY_FITS})() !== null", timeout=TIMEOUT)
            assert page.evaluate(COPY_FITS) is True
        assert page.evaluate(SWITCH_FITS) == []
        shot(page, f"top_row_1024_{path or 'playground'}_{lang}")
    finally:
        context.close()


@pytest.mark.parametrize("to", ["graded (0..10)", "binary (0/1)"])
def test_the_first_click_in_the_grid_after_a_mode_switch_opens_its_editor(server, page, to):
    # one click on a grade cell once the switch has taken effect, then the keys: the first
    # click after a switch selected nothing and the keys were lost (a second click worked)
    open_playground(server, page)

    def switch(mode: str) -> None:
        # the switch has taken effect once the button reads as chosen and the run it started is
        # over (the grids are built again in it: a click before that lands on the old grid)
        page.locator("[data-testid='stButtonGroup'] button", has_text=mode).first.click()
        page.wait_for_function("mode => [...document.querySelectorAll('[data-testid=\"stButtonGroup\"] button')]"
                               ".some(b => b.innerText.trim() === mode && b.getAttribute('aria-checked') === 'true')",
                               arg=mode, timeout=TIMEOUT)
        drawn(page)

    if to == "binary (0/1)":
        switch("graded (0..10)")
    switch(to)
    grid = page.locator("[data-testid='stDataFrame']").first
    grid.evaluate("e => e.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(300)
    box = grid.bounding_box()
    page.mouse.click(box["x"] + 145, box["y"] + 35 + 17)   # rank 1's grade, once
    page.wait_for_timeout(300)
    page.keyboard.type("2", delay=80)
    page.wait_for_timeout(200)
    page.keyboard.press("Enter")
    # rank 1 graded 2 is relevant in both modes: P@2 = 2 / 2
    try:
        page.wait_for_function(cell_is(0, 1, "2"), timeout=TIMEOUT)
        page.wait_for_function(precision_at_2_is("1"), timeout=TIMEOUT)
    except Exception:
        shot(page, "first_click_after_switch")
        raise AssertionError(f"after the switch to {to}, one click and '2': the grid reads {rows(page)[0]!r}, "
                             f"the page shows {summary_link(page, 'Precision@2').inner_text()!r}") from None
