"""The ranking editor in Chromium, one test per way a person edits (docs/editing.md's table):
the keys, a click, a mouse drag, a finger's drag on a phone; what a screen reader hears; a
refused edit shown; quick actions in a row; Many queries and a lesson; and a list of a thousand
results (the presenter view's keys: test_presenter_browser.py). Each test starts from a fresh
page, and every value it expects is worked out by hand in its comment.

The default example is the cat in the box (binary, k = 2): ids 1..8, labels cat, cat in a box,
box, cat in a box, cat in a box, cat, cat in a box, dog in a box; grades 0 1 0 1 1 0 1 0 (R = 4).
"""

from __future__ import annotations

import os
import signal

import pytest

from ranklab_ui.core import model, validation
from ranklab_ui.core.presets import build_preset

from .helpers import SERVER_PIDS, shot
from .layout import CUT_TEXT
from .pages import Lesson, ManyQueries, Playground

pytestmark = pytest.mark.browser

CAT = ["1", "2", "3", "4", "5", "6", "7", "8"]
LABELS = {"1": "🐱 cat", "2": "🐱📦 cat in a box", "3": "📦 box", "4": "🐱📦 cat in a box",
          "5": "🐱📦 cat in a box", "6": "🐱 cat", "7": "🐱📦 cat in a box", "8": "🐶📦 dog in a box"}


def example(grades: list[int | None], *, tray: tuple = (), k: int = 2, mode: str = "graded") -> model.Example:
    """One query, results a, b, c... with ``grades``; ``tray``: (id, grade) pairs."""
    items = tuple(model.Item(chr(ord("a") + i), f"result {chr(ord('a') + i)}", g) for i, g in enumerate(grades))
    return validation.validate(model.Example(
        (model.Query("q", items, tuple(model.Item(d, f"missed {d}", g) for d, g in tray)),), k=k, mode=mode))


# ---------------------------------------------------------------------- the keys


def test_the_arrows_move_the_focus_through_the_ranking_then_the_tray(server, page):
    play = Playground(page).open(server, example([1, 0, 1], tray=(("x", 2),)))
    editor = play.editor()
    editor.focus(1)
    seen = [editor.focused()]
    for key in ["ArrowDown"] * 4 + ["ArrowUp"] * 2:   # a, b, c, then the tray's x, then back
        page.keyboard.press(key)
        seen.append(editor.focused())
    assert seen == ["a", "b", "c", "x", "x", "c", "b"]
    # the focused result is the one Tab reaches, and its focus is drawn
    row = editor.row("b")
    assert row.get_attribute("tabindex") == "0" and editor.row("a").get_attribute("tabindex") == "-1"
    ring = row.evaluate("e => { const s = getComputedStyle(e); return e.matches(':focus-visible') && "
                        "s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 2; }")
    assert ring
    # nothing was changed by moving the focus
    assert play.measure("Precision@2") == "0.5" and [r.id for r in editor.ranking()] == ["a", "b", "c"]


def test_a_digit_and_a_question_mark_set_the_grade(server, page):
    # grades 0 1 0, binary... graded: rank 1 typed 3 makes P@2 = 2 / 2; "?" makes it unjudged:
    # not relevant as trec_eval reads it, P@2 = 1 / 2 again
    play = Playground(page).open(server, example([0, 1, 0]))
    play.grade(1, 3)
    assert play.ranking()[0].short == (1, 3, "result a", "a")   # shown in the frame of the key
    assert play.ranking()[0].name == "rank 1, grade 3, result a, id a"
    play.wait_measure("Precision@2", "1")
    play.settled()
    play.grade(1, None)
    assert play.ranking()[0].grade is None and play.editor().row(1).locator(".grade").text_content() == "?"
    assert play.ranking()[0].name == "rank 1, grade ?, result a, id a"
    play.wait_measure("Precision@2", "0.5")
    # DCG@2 = 0 (unjudged) + 1 / log2(3) = 0.6309
    assert play.measure("DCG@2") == "0.6309"


def test_space_and_a_click_cycle_a_binary_grade(server, page):
    # the cat in the box (binary): rank 1 (0) -> 1 makes P@2 = 2 / 2, then back to 0: 1 / 2
    play = Playground(page).open(server)
    play.editor().next_grade(1)
    assert play.ranking()[0].grade == 1
    play.wait_measure("Precision@2", "1")
    play.settled()
    play.click_grade(1)
    assert play.ranking()[0].grade == 0
    play.wait_measure("Precision@2", "0.5")
    play.settled()
    play.click_grade(2)   # rank 2 (1) -> 0: P@2 = 0 / 2
    assert play.ranking()[1].grade == 0
    play.wait_measure("Precision@2", "0")


def test_space_and_a_click_cycle_a_graded_grade_up_to_the_highest_then_0(server, page):
    # grades 2, 3, 0 and an unjudged one: the highest is 3, so rank 1 goes 2 -> 3 -> 0 -> 1;
    # DCG@1 is rank 1's grade each time. The unjudged rank 4 goes ? -> 0.
    play = Playground(page).open(server, example([2, 3, 0, None], k=1))
    editor = play.editor()
    steps = [(editor.next_grade, 3), (play.click_grade, 0), (editor.next_grade, 1)]
    for act, grade in steps:
        act(1)
        assert play.ranking()[0].grade == grade
        play.wait_measure("DCG@1", str(grade))
        play.settled()
    play.click_grade(4)
    assert play.ranking()[3].grade == 0


def test_alt_arrows_move_a_result_and_the_focus_stays_on_it(server, page):
    play = Playground(page).open(server)
    editor = play.editor()
    editor.focus(1)
    page.keyboard.press("Alt+ArrowDown")           # cat to rank 2: cat in a box first, RR@2 = 1
    assert editor.ids() == ["2", "1", *CAT[2:]] and editor.focused() == "1"
    page.keyboard.press("Alt+ArrowDown")           # and on to rank 3
    assert editor.ids() == ["2", "3", "1", *CAT[3:]] and editor.focused() == "1"
    # ranks 1 and 2 are ids 2 (relevant) and 3 (box, not): RR@2 = 1 (it was 1 / 2)
    play.wait_measure("RR@2", "1")
    play.settled()
    page.keyboard.press("Alt+ArrowUp")             # back to rank 2: ids 2, 1: still RR@2 = 1
    assert editor.ids() == ["2", "1", *CAT[2:]] and editor.focused() == "1"
    page.keyboard.press("Alt+ArrowUp")             # rank 1 again: RR@2 = 1 / 2
    assert editor.ids() == CAT and editor.focused() == "1"
    play.wait_measure("RR@2", "0.5")


def test_home_and_end_send_a_result_to_the_top_and_the_bottom(server, page):
    play = Playground(page).open(server)
    editor = play.editor()
    editor.bottom(2)                               # cat in a box to rank 8: ranks 1, 2 are cat, box
    assert editor.ids() == ["1", "3", "4", "5", "6", "7", "8", "2"] and editor.focused() == "2"
    play.wait_measure("Precision@2", "0")
    play.settled()
    page.keyboard.press("Home")                    # the focus stayed on it: back to the top
    assert editor.ids() == ["2", "1", "3", "4", "5", "6", "7", "8"]
    play.wait_measure("RR@2", "1")


def test_delete_sends_a_result_to_the_tray_and_back(server, page):
    # cat in a box (rank 2, relevant) to the tray: still judged relevant, not retrieved. The
    # ranking 1, 3, 4...: P@2 = 0 / 2, and R stays 4: R-precision = P@4 = (4, 5) 2 / 4 = 0.5
    play = Playground(page).open(server)
    editor = play.editor()
    editor.to_tray(2)
    assert editor.ids() == ["1", "3", "4", "5", "6", "7", "8"]
    assert [r.short for r in editor.tray()] == [(None, 1, LABELS["2"], "2")]
    assert editor.tray()[0].name == f"not retrieved, grade 1, {LABELS['2']}, id 2"
    assert editor.focused() == "2"
    play.wait_measure("Precision@2", "0")
    assert play.measure("R-precision") == "0.5"
    play.settled()
    page.keyboard.press("Delete")                  # from the tray: back at the ranking's end
    back = ["1", "3", "4", "5", "6", "7", "8", "2"]
    assert editor.ids() == back and editor.tray() == []
    play.wait_link(lambda ex: [i.id for i in ex.query.ranking] == back and not ex.query.tray)


def test_shift_delete_removes_a_result(server, page):
    # cat in a box (rank 2) removed: R = 3 (ids 4, 5, 7); ranks 1..3 are ids 1, 3, 4:
    # R-precision = 1 / 3 = 0.3333 (it was P@4 = 2 / 4 = 0.5)
    play = Playground(page).open(server)
    assert play.measure("R-precision") == "0.5"
    editor = play.editor()
    editor.remove(2)
    assert editor.ids() == ["1", "3", "4", "5", "6", "7", "8"] and editor.tray() == []
    assert editor.said() == f"removed: {LABELS['2']}"
    play.wait_measure("R-precision", "0.3333")


HOSTILE = {
    "script": "<script>alert(1)</script>",
    "markdown": "**bold** [x](http://evil.example/x)",
    "rtl": "مرحبا",
    "zero_width": "a\u200bb",
    "long": ("long label " * 100)[:1000],   # 1,000 characters
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_enter_edits_a_label_shown_as_text_never_as_html(server, watched, name):
    page, requests, dialogs = watched
    typed = HOSTILE[name]
    kept = typed[:validation.LIMITS.label_chars]   # the label box takes at most this many
    play = Playground(page).open(server)
    editor = play.editor()
    editor.edit_label(1, typed)
    row = editor.row(1)
    assert editor.ranking()[0].label == kept
    assert editor.ranking()[0].name == f"rank 1, grade 0, {kept}, id 1"
    # text only: no element inside the label, no link, image or script made of it
    assert row.locator(".label").evaluate("e => e.children.length") == 0
    assert editor.box.locator("a, img, script, strong, b").count() == 0
    # the server has it: the address carries the label
    play.wait_link(lambda ex: ex.query.ranking[0].label == kept)
    play.settled()
    # the layout holds: rank, grade, label and handle side by side in that order inside the
    # row, nothing past the editor's right edge, no text cut
    parts = row.evaluate("""r => ['.rank', '.grade', '.text', '.handle'].map(s => {
        const b = r.querySelector(s).getBoundingClientRect(); return [b.left, b.right]; })""")
    assert [p[0] for p in parts] == sorted(p[0] for p in parts), parts
    box = row.bounding_box()
    assert parts[-1][1] <= box["x"] + box["width"] + 1
    assert editor.box.evaluate("b => b.scrollWidth <= b.clientWidth + 1")
    assert editor.box.evaluate(CUT_TEXT) == []
    assert dialogs == [] and not [u for u in requests if "evil.example" in u]
    shot(page, f"editor_label_{name}")


def test_escape_cancels_a_label_being_edited(server, page):
    play = Playground(page).open(server)
    editor = play.editor()
    editor.edit_label(3, "not kept", keep=False)
    assert editor.ranking()[2].label == LABELS["3"] and editor.focused() == "3"
    assert editor.undo_button().is_disabled()   # no edit was made


def test_ctrl_z_and_ctrl_shift_z_undo_and_redo(server, page):
    play = Playground(page).open(server)
    editor = play.editor()
    editor.grade(1, 1)                       # P@2 = 2 / 2
    play.wait_measure("Precision@2", "1")
    play.settled()
    page.keyboard.press("Control+z")         # undone at once, in the editor: P@2 = 1 / 2
    assert editor.grades()[0] == 0 and editor.said() == "undone"
    play.wait_measure("Precision@2", "0.5")
    play.settled()
    page.keyboard.press("Control+Shift+z")
    assert editor.grades()[0] == 1 and editor.said() == "redone"
    play.wait_measure("Precision@2", "1")
    play.settled()
    page.keyboard.press("Control+z")
    page.keyboard.press("Control+y")         # Ctrl+Y redoes too
    assert editor.grades()[0] == 1
    play.wait_measure("Precision@2", "1")
    play.settled()
    assert editor.redo_button().is_disabled() and not editor.undo_button().is_disabled()


# ---------------------------------------------------------------------- the pointer


def test_a_mouse_drag_reorders_the_ranking(server, page):
    play = Playground(page).open(server)
    play.drag(2, 1)                           # cat in a box first: RR@2 = 1, P@2 still 1 / 2
    assert play.editor().ids() == ["2", "1", *CAT[2:]]
    play.wait_measure("RR@2", "1")
    assert play.measure("Precision@2") == "0.5"
    play.settled()
    play.drag(1, 4)                           # and down to rank 4: ids 1, 3, 4, 2
    assert play.editor().ids() == ["1", "3", "4", "2", *CAT[4:]]
    play.wait_measure("RR@2", "0")


def test_a_mouse_drag_moves_a_result_into_the_tray_and_out_of_it(server, page):
    play = Playground(page).open(server)
    editor = play.editor()
    play.drag(2, "tray")                      # as Delete does: P@2 = 0 / 2
    assert editor.ids() == ["1", "3", "4", "5", "6", "7", "8"] and [r.id for r in editor.tray()] == ["2"]
    play.wait_measure("Precision@2", "0")
    play.settled()
    play.drag("2", 1)                         # from the tray to the top: RR@2 = 1
    assert editor.ids() == CAT[1:2] + ["1", *CAT[2:]] and editor.tray() == []
    play.wait_measure("RR@2", "1")


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    yield context.new_page()
    context.close()


def test_a_finger_drags_a_result_by_its_handle_on_a_phone(server, phone):
    play = Playground(phone).open(server)
    editor = play.editor()
    phone.evaluate("() => { window.kinds = []; addEventListener('pointerdown', e => kinds.push(e.pointerType), true); }")
    editor.touch_drag(2, 1)                   # cat in a box first: RR@2 = 1
    assert phone.evaluate("() => kinds") == ["touch"]
    assert editor.ids() == ["2", "1", *CAT[2:]]
    play.wait_measure("RR@2", "1")
    play.settled()
    editor.touch_drag(3, "tray")              # box (not relevant) into the tray
    assert [r.id for r in editor.tray()] == ["3"]
    play.settled()
    shot(phone, "editor_touch_drag")


def test_a_finger_on_a_label_scrolls_and_moves_nothing(server, phone):
    from .pages import touch

    play = Playground(phone).open(server)
    editor = play.editor()
    row = editor.row(3)
    row.scroll_into_view_if_needed()
    box = row.locator(".label").bounding_box()
    x, y = box["x"] + 5, box["y"] + box["height"] / 2
    touch(phone, [(x, y)] + [(x, y - 10 * i) for i in range(1, 8)])
    assert editor.ids() == CAT and editor.undo_button().is_disabled()


def test_on_a_phone_the_rank_and_grade_read_whole_and_targets_are_44_px(server, phone):
    play = Playground(phone).open(server, example([1, 0, 2, None, 10], tray=(("x", 3),)))
    editor = play.editor()
    editor.row(1).scroll_into_view_if_needed()
    width = phone.viewport_size["width"]
    rows = editor.box.locator("[role=option]")
    for i in range(rows.count()):
        row = rows.nth(i)
        row.scroll_into_view_if_needed()
        for part in (".rank", ".grade"):
            cell = row.locator(part)
            box = cell.bounding_box()
            assert box and box["x"] >= 0 and box["x"] + box["width"] <= width, (i, part, box)
            assert cell.evaluate("e => e.scrollWidth <= e.clientWidth + 1 && e.scrollHeight <= e.clientHeight + 1"), (i, part)
        for part in (".grade", ".handle"):
            box = row.locator(part).bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44, (i, part, box)
    for button in editor.box.get_by_role("button").all():
        if button.is_visible():
            box = button.bounding_box()
            assert box["height"] >= 44, (button.inner_text(), box)
    assert editor.box.evaluate(CUT_TEXT) == []
    assert [r.grade for r in editor.ranking()] == [1, 0, 2, None, 10]
    shot(phone, "editor_phone")


# ---------------------------------------------------------------------- what is said, what is refused


def test_the_live_region_says_what_changed(server, page):
    play = Playground(page).open(server)
    editor = play.editor()
    status = editor.box.get_by_role("status")
    assert status.get_attribute("aria-live") == "polite"
    editor.grade(2, 0)
    assert editor.said() == f"rank 2, grade 0, {LABELS['2']}"
    editor.press(1, "Alt+ArrowDown")
    assert editor.said() == f"rank 2, grade 0, {LABELS['1']}"
    editor.to_tray(2)
    assert editor.said() == f"not retrieved, grade 0, {LABELS['1']}"
    play.settled()
    editor.undo()
    assert editor.said() == "undone"


def test_an_edit_made_on_a_list_a_preset_replaced_is_refused_where_it_was_made(server, page):
    # the server busy (stopped, as a loaded machine stops it): the DCG textbook example picked,
    # then rank 1 graded on the list still shown, the cat in the box. The grade was made on the
    # list the preset replaces: refused, with its reason in the editor and above the page, and
    # the preset is shown whole (grades 3, 2, 3, 0, 1, 2), the grade applied to neither list
    pid = SERVER_PIDS.get(server)
    if pid is None:
        pytest.skip("stops the server for a moment: needs the one this test session started")
    play = Playground(page).open(server)
    editor = play.editor()
    os.kill(pid, signal.SIGSTOP)
    try:
        play.load_preset("DCG textbook example")
        editor.grade(1, 1)
        assert editor.grades()[0] == 1        # applied here, at once
    finally:
        os.kill(pid, signal.SIGCONT)
    editor.box.get_by_role("alert").wait_for(state="visible")
    play.settled()
    assert "Not applied: this edit was made on the list as it was before" in editor.notice()
    assert any("Not applied" in m for m in play.messages())
    assert editor.grades() == [3, 2, 3, 0, 1, 2]
    assert play.link().query.ranking[0].grade == 3
    shot(page, "editor_refused")


@pytest.mark.parametrize("pause", [0, 50, 100])
def test_a_grade_typed_just_after_a_preset_is_applied_or_visibly_refused(server, page, pause):
    # the White cat preset picked, then rank 1 graded 7 ``pause`` ms later: either the grade
    # reached the preset's list (the editor had it), or it was made on the list before and is
    # refused with its reason. Never applied to the cat in the box, never silently lost.
    play = Playground(page).open(server)
    editor = play.editor()
    play.load_preset("White cat in the box (graded)")
    page.wait_for_timeout(pause)   # the person's pace, the quantity under test
    editor.grade(1, 7)
    play.shows("Loaded: White cat")
    play.settled()
    preset = build_preset("white-cat").query
    assert [r.label for r in editor.ranking()] == [i.label for i in preset.ranking]
    refused = editor.notice()
    if refused:        # made on the cat in the box: refused with its reason, the preset as it is
        assert "Not applied" in refused
        assert editor.grades() == [i.grade for i in preset.ranking]
    else:              # made on the preset's list: applied there
        assert editor.grades() == [7] + [i.grade for i in preset.ranking[1:]]
    assert [i.grade for i in play.link().query.ranking] == editor.grades()


@pytest.mark.parametrize("pause", [0, 50, 100])
def test_a_grade_typed_as_soon_as_a_pasted_list_shows_is_kept(server, page, pause):
    # a list of 3 pasted; as soon as the editor shows it, rank 3 graded 1 ``pause`` ms later
    # (the page may still be running): p1 1, p2 0, p3 1: P@2 = 1 / 2, R = 2, Recall@2 = 1 / 2
    play = Playground(page).open(server)
    play.paste("p1\t1\tfirst\np2\t0\tsecond\np3\t0\tthird")
    page.wait_for_function("b => [...b.querySelectorAll('[role=option] .ident')].map(e => e.textContent).join() === 'p1,p2,p3'",
                           arg=play.editor().box.element_handle())
    page.wait_for_timeout(pause)
    play.grade(3, 1)
    play.wait_measure("Recall@2", "0.5")
    play.settled()
    assert play.editor().grades() == [1, 0, 1] and play.editor().notice() is None
    assert [i.grade for i in play.link().query.ranking] == [1, 0, 1]


def test_a_k_key_pressed_right_after_a_drop_keeps_both(server, page):
    # cat in a box dragged to rank 1, then → on the k slider at once: k = 3 and the new order.
    # P@3 = (2, 3 no, 1 no)... ids 2, 1, 3: one relevant in 3, 0.3333; RR@3 = 1
    page.set_viewport_size({"width": 1280, "height": 1400})   # the slider and the editor in view
    play = Playground(page).open(server)
    play.drag(2, 1)
    play.press_k("ArrowRight")
    play.wait_k(3)
    play.wait_measure("RR@3", "1")
    play.settled()
    assert play.measure("Precision@3") == "0.3333" and play.k == 3
    assert play.editor().ids() == ["2", "1", *CAT[2:]]


# ---------------------------------------------------------------------- the other pages


def test_many_queries_edits_two_queries(server, page):
    # query 1: a b (grades 0 1), query 2: c d (0 0) and e in its tray (1). RR: 1/2 and 0,
    # AP: 1/2 and 0; MRR = MAP = 0.25. Rank 1 of query 1 graded 1: RR 1, AP (1 + 1) / 2 = 1;
    # rank 2 of query 2 graded 1: RR 1/2, AP (1/2) / 2 (R = 2 with e) = 0.25.
    # MRR = (1 + 0.5) / 2 = 0.75, MAP = (1 + 0.25) / 2 = 0.625
    q1 = model.Query("first", (model.Item("a", "A", 0), model.Item("b", "B", 1)))
    q2 = model.Query("second", (model.Item("c", "C", 0), model.Item("d", "D", 0)), (model.Item("e", "E", 1),))
    many = ManyQueries(page).open(server, validation.validate(model.Example((q1, q2), k=2, mode="binary")))
    first = many.query(1)
    first.grade(1, 1)
    assert first.grades() == [1, 1]
    second = many.query(2)
    second.grade(2, 1)
    assert second.grades() == [0, 1]
    link = many.wait_link(lambda ex: [i.grade for i in ex.queries[0].ranking] == [1, 1]
                          and [i.grade for i in ex.queries[1].ranking] == [0, 1])
    assert [q.name for q in link.queries] == ["first", "second"]
    many.wait_mean("MAP", "0.625")
    many.settled()
    assert many.mean("MRR") == (["1", "0.5"], "0.75")
    assert many.mean("MAP") == (["1", "0.25"], "0.625")
    shot(page, "editor_many_queries")


def test_a_lessons_editor_grades_and_moves(server, page):
    # AP and MAP on the cat in the box, k = 2: AP@2 = (1/2) / 4 = 0.125. Rank 1 graded 1:
    # (1/1 + 2/2) / 5 = 0.4. Then rank 1 moved to rank 3 (Alt+↓ twice): ids 2, 3, 1:
    # (1/1) / 5 = 0.2
    lesson = Lesson(page, "lesson_average_precision").open(server)
    assert lesson.measure("AP@2") == "0.125"
    lesson.grade(1, 1)
    lesson.wait_measure("AP@2", "0.4")
    lesson.settled()
    lesson.move(1, 3)
    assert lesson.editor().ids() == ["2", "3", "1", *CAT[3:]]
    lesson.wait_measure("AP@2", "0.2")


# ---------------------------------------------------------------------- the largest list


# the frames drawn from a key's press until the row shows ``want``: the editor changes the page
# in the key's own handler, so the first frame after the key already shows it
FRAMES_UNTIL = """(row, want) => { window.framesUntil = new Promise(done => {
  row.addEventListener('keydown', () => {
    let frames = 0;
    const tick = () => { frames += 1;
      if (row.querySelector('.grade').textContent === want) done(frames);
      else if (frames < 30) requestAnimationFrame(tick); else done(null); };
    requestAnimationFrame(tick);
  }, {once: true, capture: true});
}); }"""


def test_a_thousand_results_pasted_stay_quick_to_edit(server, browser):
    # the most a list holds, pasted: every result shown, and an edit drawn in the first frame
    # after its key; its measure follows: d1..d1000 graded i % 2, rank 500 (0) graded 1:
    # P@2 stays 1 / 2 (d1 1, d2 0), R goes from 500 to 501
    most = validation.LIMITS.items
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        play = Playground(page).open(server)
        play.paste("\n".join(f"d{i}\t{i % 2}\tresult {i}" for i in range(1, most + 1)), timeout=120_000)
        editor = play.editor()
        editor.ranking_list().get_by_role("option").nth(most - 1).wait_for(state="attached", timeout=120_000)
        play.settled()
        assert play.measure("Recall@2") == "0.002"   # 1 / 500
        row = editor.row(500)
        row.evaluate(FRAMES_UNTIL, "1")
        editor.grade(500, 1)
        assert page.evaluate("() => window.framesUntil") == 1
        row = editor.row(999)
        row.evaluate(FRAMES_UNTIL, "0")
        editor.grade(999, 0)
        assert page.evaluate("() => window.framesUntil") == 1
        # R = 500 + 1 - 1: Recall@2 = 1 / 500 still; R-precision = P@500 with d500 now relevant:
        # 250 odd ids + d500 = 251 / 500 = 0.502
        play.wait_measure("R-precision", "0.502", timeout=120_000)
        play.settled()
        assert len(editor.ranking()) == most
    finally:
        context.close()
