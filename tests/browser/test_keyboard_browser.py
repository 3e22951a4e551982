"""Every Playground edit has a keyboard path with a visible focus: Tab reaches the ranking
editor (one stop for the whole list), the focused result shows a focus ring, Alt+↓ moves it and
the focus follows it, Delete sends it to the tray, where the focus still shows."""

from .helpers import shot
from .pages import Playground

FOCUS_RING = """(e) => { const s = getComputedStyle(e);
  return e.matches(':focus-visible') && ((s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none'); }"""


def test_tab_reaches_the_ranking_and_the_keys_move_a_result_into_the_tray(server, page):
    play = Playground(page).open(server)
    editor = play.editor()
    # the last button before the lists, then Tab: the list's one tab stop, rank 1
    editor.box.get_by_role("button", name="+ add a result").focus()
    page.keyboard.press("Tab")
    assert editor.focused() == "1"
    assert editor.row(1).evaluate(FOCUS_RING)
    page.keyboard.press("Alt+ArrowDown")              # cat in a box first: RR@2 = 1
    assert editor.ids()[:2] == ["2", "1"] and editor.focused() == "1"
    play.wait_measure("RR@2", "1")
    play.settled()
    page.keyboard.press("ArrowUp")                    # the focus to cat in a box, rank 1
    page.keyboard.press("Delete")                     # into the tray: RR@2 = 0
    assert [r.id for r in editor.tray()] == ["2"] and editor.focused() == "2"
    assert editor.row("2").evaluate(FOCUS_RING)
    play.wait_measure("RR@2", "0")
    shot(page, "keyboard_focus_tray")
