"""What the browser tests share: the app server and Chromium's settings, screenshots, and a
person's ways of waiting for the page and acting on it. The fixtures built on these live in
``conftest.py``; a test module imports its helpers from here, never from another test module."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))   # the serving script's own port and health check

from serve import free_port, wait_healthy  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARTIFACTS = ROOT / "test-artifacts"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
TIMEOUT = 30_000  # ms: a page run on a busy machine, not a figure of how fast it should be
GRADE_X = {"ranking": 145, "tray": 70}   # the middle of the grade column: after the row markers (and rank)


def need_browser() -> None:
    """Skip without Debian's Chromium, or fail where RANKLAB_REQUIRE_BROWSER=1 (CI)."""
    if not Path(CHROMIUM).exists():
        reason = f"{CHROMIUM} is missing (apt-get install chromium) — the browser tests need it"
        if os.environ.get("RANKLAB_REQUIRE_BROWSER") == "1":
            pytest.fail(reason + "; RANKLAB_REQUIRE_BROWSER=1 forbids skipping")
        pytest.skip(reason)


# the process behind each URL that app_server serves: a test that must make the server busy
# stops it for a moment (SIGSTOP), as a loaded machine does
SERVER_PIDS: dict[str, int] = {}


@contextlib.contextmanager
def app_server(env: dict[str, str] | None = None, drop: tuple[str, ...] = ()):
    """``streamlit run app.py`` on a free port, with ``env`` added to the environment and the
    variables in ``drop`` removed; yields its URL and stops it afterwards."""
    need_browser()
    port = free_port()
    # PYTHONPATH: this checkout's metrics/ and ranklab_ui/, not an editable install of another one
    full = {**os.environ, "PYTHONPATH": str(ROOT), **(env or {})}
    for name in drop:
        full.pop(name, None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1", "--server.fileWatcherType", "none",
         "--browser.gatherUsageStats", "false"],
        cwd=ROOT, env=full, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    SERVER_PIDS[url] = proc.pid
    try:
        try:
            wait_healthy(url, 60, proc)
        except SystemExit as err:   # the serving script's way to say it did not start
            pytest.fail(f"streamlit did not start: {err}")
        yield url
    finally:
        SERVER_PIDS.pop(url, None)
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()


def shot(page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"browser_{name}.png"))


# no script run: the app says so (the status widget shows a run only after a while, so a fresh
# page's late second run was missed when only the widget was read), and no run is shown
IDLE = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return !!app && app.dataset.testScriptState === 'notRunning'
    && !document.querySelector('[data-testid="stStatusWidget"]');
}"""

# every chart drawn, every frame and image loaded, the fonts in: what a person sees is final
DRAWN = """() => {
  if (!(IDLE)() || document.querySelector('[data-testid="stApp"]').dataset.testConnectionState !== 'CONNECTED') return false;
  if (document.fonts.status !== 'loaded') return false;
  for (const c of document.querySelectorAll('[data-testid="stVegaLiteChart"]'))
    if (!c.querySelector('canvas, svg')) return false;
  for (const f of document.querySelectorAll('iframe')) {
    try { if (f.contentDocument && f.contentDocument.readyState !== 'complete') return false; } catch (e) {}
  }
  return [...document.querySelectorAll('img')].every(i => i.complete);
}""".replace("IDLE", IDLE)

# resolves once nothing in the page has changed for ``quiet`` ms (charts and frames lay out
# after they load), or after ``most`` ms
QUIET = """([quiet, most]) => new Promise(done => {
  let timer = setTimeout(finish, quiet);
  const watch = new MutationObserver(() => { clearTimeout(timer); timer = setTimeout(finish, quiet); });
  const cap = setTimeout(finish, most);
  function finish() { watch.disconnect(); clearTimeout(cap); clearTimeout(timer); done(); }
  watch.observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
})"""


def wait_ready(page) -> None:
    """The page is drawn and idle: no script run under way, none shown."""
    page.wait_for_selector("[data-testid='stAppViewContainer']", timeout=TIMEOUT)
    page.wait_for_function(IDLE, timeout=TIMEOUT)


def drawn(page, timeout: int = TIMEOUT) -> None:
    """The page is idle and finished: charts drawn, frames and images loaded, fonts in, and
    nothing changing any more (for screenshots and for measuring what a person sees)."""
    wait_ready(page)
    page.wait_for_function(DRAWN, timeout=timeout)
    page.evaluate(QUIET, [300, 10_000])
    page.wait_for_function(DRAWN, timeout=timeout)


def tiles(page):
    """The drag list's frame. A changed list is a new component: while the page is drawn
    again the old one stays beside it until the run ends, so this is the newest of them
    (a locator looked up again on every try, so a wait outlasts the old one)."""
    return page.frame_locator("iframe[title='streamlit_sortables.sortable_items'] >> nth=-1")


def drag_to(page, source, x: float, y: float, until=None) -> None:
    """Drag the tile ``source`` (a locator in :func:`tiles`) to the page's point (x, y) as a
    person does: pressed, moved a little (the list starts a drag only then), carried there and
    let go once the list has made room under it. ``until``: a condition on the list (read in
    its frame) that a person sees before letting go, such as the tile shown at its place; the
    pointer is held there, moved a pixel now and then, for up to 5 s while it is not met."""
    a = source.bounding_box()
    page.mouse.move(a["x"] + 40, a["y"] + a["height"] / 2)
    page.mouse.down()
    page.mouse.move(a["x"] + 40, a["y"] + a["height"] / 2 - 8, steps=4)
    page.mouse.move(x, y, steps=12)
    page.wait_for_timeout(300)
    for n in range(50 if until else 0):
        try:
            if until():
                break
        except Exception:
            pass   # the list's frame went away: nothing to see; let go as a person would
        page.mouse.move(x + (n % 3) - 1, y, steps=2)
        page.wait_for_timeout(100)
    page.mouse.up()


POINTS = """e => { const r = e.getBoundingClientRect();
  return [...e.querySelectorAll('.role-mark.mark-symbol path')].map(p => { const b = p.getBoundingClientRect();
    return [Math.round(b.left + b.width / 2 - r.left), Math.round(b.top + b.height / 2 - r.top)]; }); }"""


def click_curve(page, k: int) -> None:
    """Click a point of the curve over k (the chart with lines) at ``k``, as a person clicks
    the point they see: the points of one k share an x, the k-th from the left."""
    curve = page.locator("[data-testid='stVegaLiteChart']", has=page.locator(".mark-line")).first
    curve.evaluate("e => e.scrollIntoView({block: 'center'})")
    before = None
    for _ in range(20):   # read, not done: the scroll is over when the chart stays where it is
        at = curve.bounding_box()
        if at == before:
            break
        before = at
        page.wait_for_timeout(100)
    points = curve.evaluate(POINTS)
    xs = sorted({x for x, _ in points})
    assert len(xs) >= k and at, f"the curve shows {len(xs)} values of k"
    x, y = next(p for p in points if p[0] == xs[k - 1])
    page.mouse.click(at["x"] + x, at["y"] + y)


def summary_link(page, name: str):
    return page.locator("[data-testid='stPageLink']", has_text=f"{name} = ").first


def link_reads(name: str, value: str) -> str:
    """JavaScript: the summary link ``name`` shows ``value``."""
    return ("() => [...document.querySelectorAll('[data-testid=\"stPageLink\"]')]"
            f".some(a => a.innerText.trim() === '{name} = {value}')")


def select_cell(page, grid, x: float, row: int, column: int) -> None:
    """Click the cell of ``row`` (1-based; header and rows are 35 px) at ``x`` px from the
    grid's left edge, and see it selected.

    The one retry kept in these tests: a click that selected no cell never reached the app
    (the grid, drawn again by a run, was not taking clicks yet; the accessible table then
    marks no cell ``aria-selected``). Nothing was typed yet, so nothing can be lost; a person
    sees no selection, waits for the page to stop drawing and clicks again. Once the cell is
    selected, nothing is ever repeated."""
    cell = f"[data-testid='glide-cell-{column}-{row - 1}'][aria-selected='true']"
    for attempt in range(3):
        if attempt:
            page.wait_for_function(IDLE, timeout=TIMEOUT)
        box = grid.bounding_box()
        for _ in range(40):   # no box while a run draws the grid again: looked at again, nothing done
            if box:
                break
            page.wait_for_timeout(250)
            box = grid.bounding_box()
        y = box["y"] + 35 * row + 17
        height = page.viewport_size["height"]
        if not 20 < y < height - 20:   # off the screen: scrolled to, as a person does, before the click
            grid.evaluate("e => e.scrollIntoView({block: 'center'})")
            page.wait_for_timeout(200)
            box = grid.bounding_box() or box
            y = box["y"] + 35 * row + 17
        page.mouse.click(box["x"] + x, y)
        try:
            grid.locator(cell).wait_for(state="attached", timeout=3000)
            return
        except Exception:
            if attempt == 2:
                raise AssertionError(f"three clicks on row {row} of the grid selected no cell") from None


def type_grade(page, row: int, text: str, *, grid: int = 0, open_editor: bool = False) -> None:
    """Type ``text`` into the grade cell of ``row`` (1-based) as a person does: click the
    cell, type onto it (that opens its editor), Enter. The keys are sent once, never again.

    ``open_editor``: open the editor with Enter and select its text first, as a person must
    for a value that starts with "-" (typed onto a selected cell, a "-" opens no editor)."""
    locator = page.locator("[data-testid='stDataFrame']").nth(grid)
    locator.evaluate("e => e.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(300)
    ranked = grid == 0
    select_cell(page, locator, GRADE_X["ranking" if ranked else "tray"], row, 2 if ranked else 1)
    if open_editor:
        page.keyboard.press("Enter")
        page.wait_for_timeout(200)
        page.keyboard.press("Control+A")
    # at a quick typist's pace: keys sent in one frame reach the grid before the editor the
    # first one opens, which then starts from the second ("2.5" became ".5")
    page.keyboard.type(text, delay=80)
    page.wait_for_timeout(200)
    page.keyboard.press("Enter")


def precision_at_2_is(value: str) -> str:
    return ("() => [...document.querySelectorAll('[data-testid=\"stPageLink\"]')]"
            f".some(a => /Precision@2 = {re.escape(value)}$/.test(a.innerText.trim()))")


# The k slider a person sees. A run that changes its range makes it anew, and for a moment the
# one before stays in the page, hidden: a locator or a query that takes the first may take it.
K_SLIDER = "[data-testid='stSlider'] input[type='range']:visible"
SHOWN_SLIDER = ("() => [...document.querySelectorAll('[data-testid=\"stSlider\"] input[type=\"range\"]')]"
                ".find(i => i.offsetParent !== null)")


def focus_slider(page) -> None:
    """The k slider shown focused, as a click on its thumb or a Tab does. A focus given to the
    one a run hides at that moment lands nowhere, and nothing reaches the app: it is given again
    only when the page shows that no slider has it (read before each try)."""
    for _ in range(5):
        page.locator(K_SLIDER).first.focus()
        if page.evaluate("() => !!document.activeElement && !!document.activeElement.closest('[data-testid=\"stSlider\"]')"):
            return
    raise AssertionError("the k slider shown could not be focused")


def open_playground(server, page) -> None:
    page.goto(server)
    wait_ready(page)
    page.wait_for_selector("[data-testid='stDataFrame'] canvas", timeout=TIMEOUT)
    page.wait_for_function(precision_at_2_is("0.5"), timeout=TIMEOUT)
    wait_ready(page)  # the measures come first, the rest of the page after them


def upload(page, inputs, qrels, run, timeout: int = 2 * TIMEOUT) -> None:
    """The qrels, then the run: the second file only once the first is uploaded (its chip shown,
    the rerun it starts done). Set at once, the two uploads raced on a loaded machine and the
    page went on waiting for a file."""
    inputs.nth(0).set_input_files(qrels)
    page.locator("[data-testid='stFileChipName']").first.wait_for(timeout=timeout)
    wait_ready(page)
    inputs.nth(1).set_input_files(run)
