"""What the browser tests share: the app server and Chromium's settings, screenshots, the
waits for a page to be drawn, and the few acts on Streamlit's own widgets (a point of a curve,
the k slider's focus, an upload). The fixtures built on these live in ``conftest.py``; what a
person does on each page, the ranking editor included, is in the page objects of ``pages.py``.
A test module imports from these, never from another test module."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import time
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


class ST:
    """Streamlit's own elements as the tests find them, by Streamlit's test ids, each named once
    here: allowed in tests (the app never depends on them), and a renamed id is fixed in one
    place. The page objects (``pages.py``) build on these."""

    ATTRIBUTE = "data-testid"   # the attribute itself, read to tell what an element is
    ANY = "[data-testid]"   # any element Streamlit gave a test id
    APP = "[data-testid='stApp']"
    APP_VIEW = "[data-testid='stAppViewContainer']"
    HEADER = "[data-testid='stHeader']"
    STATUS_WIDGET = "[data-testid='stStatusWidget']"
    MAIN = "[data-testid='stMain']"
    MAIN_BLOCK = "[data-testid='stMainBlockContainer']"
    SIDEBAR = "[data-testid='stSidebar']"
    SIDEBAR_NAV = "[data-testid='stSidebarNav']"
    COLUMN = "[data-testid='stColumn']"
    EXPANDER = "[data-testid='stExpander']"
    HEADING = "[data-testid='stHeading']"
    MARKDOWN = "[data-testid='stMarkdownContainer']"
    MARKDOWN_ELEMENT = "[data-testid='stMarkdown']"
    TEXT = "[data-testid='stText']"
    IMAGE = "[data-testid='stImage']"
    EXCEPTION = "[data-testid='stException']"
    ALERT = "[data-testid='stAlert']"
    WARNING = "[data-testid='stAlertContentWarning']"
    ERROR = "[data-testid='stAlertContentError']"
    METRIC = "[data-testid='stMetric']"
    METRIC_LABEL = "[data-testid='stMetricLabel']"
    METRIC_VALUE = "[data-testid='stMetricValue']"
    PAGE_LINK = "[data-testid='stPageLink']"
    NAV_LINK = "[data-testid='stPageLink-NavLink']"
    CHART = "[data-testid='stVegaLiteChart']"
    TABLE = "[data-testid='stTable']"
    DATAFRAME = "[data-testid='stDataFrame']"
    BUTTON = "[data-testid='stButton']"
    BUTTON_GROUP = "[data-testid='stButtonGroup']"
    DOWNLOAD_BUTTON = "[data-testid='stDownloadButton']"
    SELECTBOX = "[data-testid='stSelectbox']"
    RADIO = "[data-testid='stRadio']"
    RADIO_OPTION = "[data-testid='stRadioOption']"
    SLIDER = "[data-testid='stSlider']"
    TEXT_AREA = "[data-testid='stTextArea']"
    FILE_CHIP_NAME = "[data-testid='stFileChipName']"


def st_js(code: str) -> str:
    """JavaScript for the page, each ``ST.NAME`` in it written out as that selector in a string
    literal (``document.querySelector(ST.APP)``): the scripts, too, find Streamlit's elements
    by the names of ``ST``."""
    return re.sub(r"\bST\.([A-Z][A-Z0-9_]*)\b", lambda m: json.dumps(getattr(ST, m.group(1))), code)


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
IDLE = st_js("""() => {
  const app = document.querySelector(ST.APP);
  return !!app && app.dataset.testScriptState === 'notRunning'
    && !document.querySelector(ST.STATUS_WIDGET);
}""")

# every chart drawn, every frame and image loaded, the fonts in: what a person sees is final
DRAWN = st_js("""() => {
  if (!(IDLE)() || document.querySelector(ST.APP).dataset.testConnectionState !== 'CONNECTED') return false;
  if (document.fonts.status !== 'loaded') return false;
  for (const c of document.querySelectorAll(ST.CHART))
    if (!c.querySelector('canvas, svg')) return false;
  for (const f of document.querySelectorAll('iframe')) {
    try { if (f.contentDocument && f.contentDocument.readyState !== 'complete') return false; } catch (e) {}
  }
  return [...document.querySelectorAll('img')].every(i => i.complete);
}""").replace("IDLE", IDLE)

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
    page.wait_for_selector(ST.APP_VIEW, timeout=TIMEOUT)
    page.wait_for_function(IDLE, timeout=TIMEOUT)


def drawn(page, timeout: int = TIMEOUT) -> None:
    """The page is idle and finished: charts drawn, frames and images loaded, fonts in, and
    nothing changing any more (for screenshots and for measuring what a person sees)."""
    wait_ready(page)
    page.wait_for_function(DRAWN, timeout=timeout)
    page.evaluate(QUIET, [300, 10_000])
    page.wait_for_function(DRAWN, timeout=timeout)


def stays_put(locator, most: float = 3.0) -> None:
    """Wait until ``locator`` stays where it is, as a person sees a box that opened and then
    reaches for its button: the box's content moves for a moment after it opens, and a press
    and release made meanwhile land on different elements, which is no click."""
    deadline = time.monotonic() + most
    last = None
    while time.monotonic() < deadline:
        box = locator.bounding_box()
        if box is not None and box == last:
            return
        last = box
        locator.page.wait_for_timeout(150)


POINTS = """e => { const r = e.getBoundingClientRect();
  return [...e.querySelectorAll('.role-mark.mark-symbol path')].map(p => { const b = p.getBoundingClientRect();
    return [Math.round(b.left + b.width / 2 - r.left), Math.round(b.top + b.height / 2 - r.top)]; }); }"""


def click_curve(page, k: int) -> None:
    """Click a point of the curve over k (the chart with lines) at ``k``, as a person clicks
    the point they see: the points of one k share an x, the k-th from the left."""
    curve = page.locator(ST.CHART, has=page.locator(".mark-line")).first
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


# The k slider a person sees. A run that changes its range makes it anew, and for a moment the
# one before stays in the page, hidden: a locator or a query that takes the first may take it.
K_SLIDER = f"{ST.SLIDER} input[type='range']:visible"
SHOWN_SLIDER = st_js("() => [...document.querySelectorAll(ST.SLIDER + ' input[type=\"range\"]')]"
                     ".find(i => i.offsetParent !== null)")


def focus_slider(page) -> None:
    """The k slider shown focused, as a click on its thumb or a Tab does. A focus given to the
    one a run hides at that moment lands nowhere, and nothing reaches the app: it is given again
    only when the page shows that no slider has it (read before each try)."""
    for _ in range(5):
        page.locator(K_SLIDER).first.focus()
        if page.evaluate(st_js("() => !!document.activeElement && !!document.activeElement.closest(ST.SLIDER)")):
            return
    raise AssertionError("the k slider shown could not be focused")


def upload(page, inputs, qrels, run, timeout: int = 2 * TIMEOUT) -> None:
    """The qrels, then the run: the second file only once the first is uploaded (its chip shown,
    the rerun it starts done). Set at once, the two uploads raced on a loaded machine and the
    page went on waiting for a file."""
    inputs.nth(0).set_input_files(qrels)
    page.locator(ST.FILE_CHIP_NAME).first.wait_for(timeout=timeout)
    wait_ready(page)
    inputs.nth(1).set_input_files(run)
