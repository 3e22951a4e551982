"""Every Playground action has a keyboard path with a visible focus: Tab reaches
the move buttons, Enter moves the item, the focused button shows a focus ring."""

from .helpers import IDLE, drawn, shot

FOCUS_RING = """() => { const e = document.activeElement; const s = getComputedStyle(e);
  return [e.innerText, e.matches(':focus-visible'),
          (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) || s.boxShadow !== 'none']; }"""


def test_tab_and_enter_move_an_item_down_and_into_the_tray(server, page):
    page.goto(server)
    up = page.get_by_role("button", name="↑ up").first
    up.wait_for(timeout=60_000)
    for _ in range(3):  # a first visit's runs can still redraw the buttons: once more, settled
        drawn(page, timeout=60_000)
        up.focus()
        page.keyboard.press("Tab")                     # ↑ up → ↓ down
        label, visible, ring = page.evaluate(FOCUS_RING)
        if "down" in label:
            break
    assert "down" in label and visible and ring  # a wrong tab order fails all three tries
    page.keyboard.press("Enter")
    page.wait_for_function(  # the pick followed the item to rank 2
        "() => [...document.querySelectorAll('[data-testid=\"stSelectbox\"] input')]"
        ".some(i => i.value.startsWith('#2 · '))", timeout=30_000)
    page.wait_for_function(IDLE, timeout=30_000)
    page.get_by_role("button", name="⤒ top").first.focus()
    page.keyboard.press("Tab")                         # ⤒ top → → tray
    label, visible, ring = page.evaluate(FOCUS_RING)
    assert "tray" in label and visible and ring
    shot(page, "keyboard_focus_tray")
    page.keyboard.press("Enter")
    page.get_by_role("button", name="← retrieve").first.wait_for(timeout=30_000)
