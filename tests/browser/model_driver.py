"""The model check's hands and eyes on the Playground (tests/browser/test_edit_model.py).

Each ``do_*`` function is one action of a person, made once: a key, a click, a drag, an option
picked, a list pasted. What a person does before acting (bring a thing into view, open a menu
or the paste box, find the row they mean) is done first and reaches nothing in the app. What
the ranking editor saw and did with each key or pointer event is noted in the page by
``model_recorder.js`` and read with :func:`take_log`; :func:`read_page` reads what the page
shows. The editor is found by its ARIA roles and classes; Streamlit's own widgets by their
test ids (tests may, app code may not).
"""

from __future__ import annotations

import contextlib
import os
import re
import signal
import time
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .helpers import K_SLIDER, ST, TIMEOUT, st_js, stays_put

RECORDER = Path(__file__).with_name("model_recorder.js")
VIEWPORT = {"width": 1280, "height": 1500}   # the controls, the editor and its tray in view at once
RANKING = "ol.list.ranking > li.item"
TRAY = "ul.list.tray > li.item"
ROWS = {"ranking": RANKING, "tray": TRAY}

# no script run under way, none shown, the editor drawn
IDLE = st_js("""() => {
  const app = document.querySelector(ST.APP);
  return !!app && app.dataset.testScriptState === 'notRunning'
    && !document.querySelector(ST.STATUS_WIDGET) && !!window.__rle && !!window.__rle.find();
}""")

# what the page shows: the editor's lists, notice and buttons; k; the mode; the measures
SHOWN = st_js("""() => {
  const box = window.__rle.find();
  const rows = (sel) => box ? [...box.querySelector(sel).children].filter(c => c.classList.contains('item'))
    .map(r => [r.dataset.id, (r.drawn || {}).label, (r.drawn || {}).grade, r.getAttribute('aria-label')]) : null;
  const notice = box && box.querySelector('.notice');
  const slider = [...document.querySelectorAll(ST.SLIDER + ' input[type="range"]')]
    .find(i => i.offsetParent !== null);
  const mode = [...document.querySelectorAll(ST.BUTTON_GROUP + ' button')]
    .filter(b => b.getAttribute('aria-checked') === 'true').map(b => b.innerText.trim());
  const measures = {};
  for (const a of document.querySelectorAll(ST.PAGE_LINK)) {
    const m = /^(.+?) = (.+)$/.exec(a.innerText.trim());
    if (m) measures[m[1]] = m[2];
  }
  return {
    ranking: rows('ol.list.ranking'), tray: rows('ul.list.tray'),
    notice: notice && !notice.hidden ? notice.querySelector('.notice-text').textContent : null,
    undo: box ? !box.querySelector('.bar .undo').disabled : null,
    redo: box ? !box.querySelector('.bar .redo').disabled : null,
    waiting: box ? box.classList.contains('waiting') : null,
    k: slider ? [Number(slider.value), Number(slider.max)] : null,
    mode, measures, renders: window.__rle.renders, version: box ? Number(box.dataset.version) : null,
  };
}""")


def open_page(browser, url: str):
    """A new browser context with the recorder, on ``url``, drawn; returns (context, page)."""
    context = browser.new_context(viewport=VIEWPORT)
    context.add_init_script(path=str(RECORDER))
    page = context.new_page()
    page.goto(url)
    page.locator(RANKING).first.wait_for(timeout=3 * TIMEOUT)   # a first visit on a busy machine
    page.wait_for_function(st_js("() => [...document.querySelectorAll(ST.PAGE_LINK)]"
                                 ".some(a => / = /.test(a.innerText))"), timeout=3 * TIMEOUT)
    wait_idle(page)
    return context, page


def wait_idle(page, timeout: int = TIMEOUT) -> None:
    page.wait_for_function(IDLE, timeout=timeout)


def wait_editor(page) -> None:
    """The editor is in the page (a run may be drawing it anew)."""
    page.wait_for_function("() => !!window.__rle.find()", timeout=TIMEOUT)


def read_page(page) -> dict:
    return page.evaluate(SHOWN)


def told(page) -> dict:
    """What else the page says, for a failure's message: its address and every alert in it (a
    paste refused says why in its box, a change refused at the top of the page)."""
    return {"url": page.url, "alerts": page.locator(ST.ALERT).all_inner_texts()}


def take_log(page, since: int) -> list[dict]:
    """The recorder's entries after number ``since`` whose handling is over, in order (an
    event whose handling was not seen to end within two seconds is given as it is)."""
    return page.evaluate("""(since) => {
      const out = [];
      const now = performance.now();
      for (const e of window.__rle.log) {
        if (e.n <= since) continue;
        if (e.kind !== 'notice' && e.kind !== 'key-elsewhere' && e.kind !== 'mounted' && !e.done) {
          if (now - e.t < 2000) break;
          e.done = true;
          e.stuck = true;
        }
        out.push(e);
      }
      return out;
    }""", since)


# --------------------------------------------------------------------------- looking

def in_editor(page, script: str, arg=None):
    """``script`` evaluated on the editor; looked for again while a run draws the editor anew
    (the script returns 'no editor' then; nothing is done yet)."""
    for _ in range(20):
        out = page.evaluate(script, arg)
        if out != "no editor":
            return out
        wait_editor(page)
    raise AssertionError("the editor is not in the page")


# a row of the list the editor shows now, brought into view: the row at ``pos`` (the last when
# the list is shorter now than when the action was planned); what the caller asks of it
ROW = """([where, pos, part, focus]) => {
  const box = window.__rle.find();
  if (!box) return 'no editor';
  const items = [...box.querySelector(where === 'tray' ? 'ul.list.tray' : 'ol.list.ranking').children]
    .filter(c => c.classList.contains('item'));
  if (!items.length) return null;
  const row = items[Math.min(pos, items.length - 1)];
  row.scrollIntoView({block: 'nearest'});
  if (focus) row.focus();
  const r = (part ? row.querySelector(part) : row).getBoundingClientRect();
  return {id: row.dataset.id, x: r.left + r.width / 2, y: r.top + r.height / 2};
}"""


def _at(page, where: str, pos: int, part: str | None = None, focus: bool = False) -> dict | None:
    return in_editor(page, ROW, [where, pos, part, focus])


# --------------------------------------------------------------------------- the actions

def do_key(page, where: str, pos: int, key: str) -> bool:
    """Focus a row (as Tab and the arrows do) and press ``key`` on it; False when the list is empty."""
    if _at(page, where, pos, focus=True) is None:
        return False
    page.keyboard.press(key)
    return True


def do_click_grade(page, where: str, pos: int) -> bool:
    at = _at(page, where, pos, ".grade")
    if at is None:
        return False
    page.mouse.click(at["x"], at["y"])
    return True


def do_button(page, which: str) -> None:
    """Click the editor's Undo or Redo button (where it is, enabled or not: a click on a
    disabled button does nothing, as for a person)."""
    at = in_editor(page, """(which) => { const box = window.__rle.find();
      if (!box) return 'no editor';
      const b = box.querySelector('.bar .' + which);
      b.scrollIntoView({block: 'nearest'}); const r = b.getBoundingClientRect();
      return {x: r.left + r.width / 2, y: r.top + r.height / 2}; }""", which)
    page.mouse.click(at["x"], at["y"])


DRAG_STATE = """([id, where]) => {
  const box = window.__rle.find();
  if (!box) return 'no editor';
  const list = box.querySelector(where === 'tray' ? 'ul.list.tray' : 'ol.list.ranking');
  const row = box.querySelector(`li.item[data-id="${CSS.escape(id)}"]`);
  const others = [...list.children].filter(c => c.classList.contains('item') && c !== row)
    .map(c => { const r = c.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; });
  const r = list.getBoundingClientRect();
  const items = [...list.children].filter(c => c.classList.contains('item'));
  return {others, list: [r.left, r.top, r.width, r.height], at: row && row.parentNode === list ? items.indexOf(row) : -1};
}"""


def do_drag(page, where: str, pos: int, to_where: str, to_pos: int) -> bool:
    """Drag a row with the mouse to place ``to_pos`` of list ``to_where`` (counted without the
    row), as a person does: pressed, moved until the row follows, carried there, and let go
    once the list shows the row at that place (the pointer is moved a little while it does
    not, for up to two seconds). Nothing reaches the app before the row is let go, once."""
    at = _at(page, where, pos, ".text")
    if at is None:
        return False
    x, y = at["x"], at["y"]
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x, y - 10, steps=3)
    for attempt in range(20):
        state = in_editor(page, DRAG_STATE, [at["id"], to_where])   # the row is still held, nothing sent
        others = state["others"]
        n = min(to_pos, len(others))
        if state["at"] == n:
            break
        left, top, width, height = state["list"]
        if not others:
            tx, ty = left + width / 2, top + height / 2
        elif n < len(others):   # just above the middle of the row that is to follow it
            o = others[n]
            tx, ty = o[0] + o[2] / 2, o[1] + min(6, o[3] / 4)
        else:                   # just below the middle of the last row
            o = others[-1]
            tx, ty = o[0] + o[2] / 2, o[1] + o[3] - min(6, o[3] / 4)
        page.mouse.move(tx + (attempt % 3) - 1, ty, steps=4 if attempt == 0 else 1)
        page.wait_for_timeout(0 if attempt == 0 else 100)
    page.mouse.up()
    return True


def _center(locator) -> tuple[float, float]:
    """Where ``locator`` is once in view. A run may draw the widget anew while it is brought into
    view (the one found leaves the page): it is found again; nothing has reached the app yet."""
    for _ in range(20):
        try:
            locator.scroll_into_view_if_needed(timeout=TIMEOUT)
            box = locator.bounding_box(timeout=TIMEOUT)
        except Exception as err:   # Playwright's Error: not attached to the DOM
            if "not attached" not in str(err):
                raise
            continue
        if box is not None:
            return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    raise AssertionError("the widget kept leaving the page before it could be clicked")


def visible_slider(page):
    return page.locator(K_SLIDER).first


def do_k_key(page, key: str) -> bool:
    """Focus the k slider shown (as a Tab does) and press an arrow key once; False when there
    is none (a ranking of one result has no slider)."""
    if not page.locator(f"{ST.SLIDER} input[type='range']").count():
        return False
    slider = visible_slider(page)
    for _ in range(20):   # as in _center: a slider a run draws anew is found again; focus sends nothing
        try:
            slider.scroll_into_view_if_needed(timeout=TIMEOUT)
            slider.focus(timeout=TIMEOUT)
            break
        except Exception as err:   # Playwright's Error: not attached to the DOM
            if "not attached" not in str(err):
                raise
    else:
        raise AssertionError("the k slider kept leaving the page before it could be focused")
    page.keyboard.press(key)
    return True


MODE_LABELS = {"binary": "binary (0/1)", "graded": "graded (0..10)"}


def clicks_so_far(page) -> int:
    """How many clicks on a button, an option or a label the recorder has seen."""
    return page.evaluate("window.__rle.clicks.length")


def clicked(page, since: int, text: str) -> bool:
    """Whether the page got a click on an element showing ``text`` after the first ``since``
    clicks. A press and a release that land on two elements (one moved under the pointer, as a
    box being drawn moves its content) make no click: the person's action was not made, and a
    person would see that nothing happened."""
    return page.evaluate("([since, text]) => window.__rle.clicks.slice(since).some((t) => t.includes(text))",
                         [since, text])


def last_press(page) -> str:
    """Where the mouse's last press and release were, for a click the page never got."""
    where = page.evaluate("window.__rle.pointer")
    return f"pressed on {where.get('pointerdown')}, released on {where.get('pointerup')}"


def do_switch(page) -> str | None:
    """Click the relevance option that is not selected (as a person switches); returns its mode."""
    buttons = page.locator(f"{ST.BUTTON_GROUP} button")
    for mode, label in MODE_LABELS.items():
        button = buttons.filter(has_text=label).first
        if button.get_attribute("aria-checked", timeout=TIMEOUT) != "true":
            x, y = _center(button)
            since = clicks_so_far(page)
            page.mouse.click(x, y)
            return mode if clicked(page, since, label) else None
    return None


def do_preset(page, title: str) -> bool:
    """Pick a preset in "load an example": open the box, and click the option once. A run that
    draws the box again closes its menu: the menu is opened again (that reaches nothing in the
    app) until the option can be clicked; a click that finds no option is not made. Whether the
    page got the click (see :func:`clicked`)."""
    box = page.locator(ST.SELECTBOX, has_text="load an example").first
    option = page.locator("[role='listbox'] [role='option']", has_text=re.compile(f"^{re.escape(title)}$")).first
    for _ in range(10):
        if not option.is_visible():
            box.scroll_into_view_if_needed(timeout=TIMEOUT)
            box.locator("input").first.click(timeout=TIMEOUT)
        try:
            since = clicks_so_far(page)
            option.click(timeout=3000)
            return clicked(page, since, title)
        except PlaywrightTimeout:
            continue
    raise AssertionError("the menu of 'load an example' never stayed open")


def do_paste(page, text: str) -> bool:
    """Open "Paste or import a list" when it is closed, put the list in, click the button once
    (a run that closes the box first: it is opened again and the same list put in). Whether the
    page got the click (see :func:`clicked`)."""
    head = page.locator(f"{ST.EXPANDER} summary", has_text="Paste or import a list").first
    area = page.locator(f"{ST.EXPANDER} textarea").first
    apply = "Replace the ranking with this list"
    button = page.get_by_role("button", name=apply).first
    for _ in range(10):
        if not area.is_visible():
            head.click(timeout=TIMEOUT)
            stays_put(button)
        try:
            area.fill(text, timeout=3000)
            since = clicks_so_far(page)
            button.click(timeout=3000)
            return clicked(page, since, apply)
        except PlaywrightTimeout:
            continue
    raise AssertionError("the paste box never stayed open")


# --------------------------------------------------------------------------- a busy server

def server_pid(url: str) -> int | None:
    """The process of the ``streamlit run`` serving ``url`` (from /proc), or None."""
    port = str(urlsplit(url).port).encode()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            args = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"streamlit" in b" ".join(args) and port in args:
            return int(entry.name)
    return None


@contextlib.contextmanager
def stopped(url: str):
    """The server stopped (SIGSTOP) while the block runs, as a busy machine holds it: what the
    page sends meanwhile reaches it together when it goes on."""
    pid = server_pid(url)
    if pid is None:
        raise RuntimeError(f"no streamlit process serves {url}")
    os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(pid, signal.SIGCONT)


def wait_shown(page, condition, timeout: float = TIMEOUT / 1000) -> dict:
    """What the page shows once ``condition(shown)`` holds and the page is idle (the last read
    when it never does)."""
    deadline = time.monotonic() + timeout
    while True:
        wait_idle(page)
        shown = read_page(page)
        if shown["ranking"] is not None and condition(shown) or time.monotonic() > deadline:
            return shown
        page.wait_for_timeout(200)
