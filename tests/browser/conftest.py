"""Browser fixtures: one `streamlit run app.py` server and one Debian Chromium for the whole
test session (per pytest-xdist worker), and a fresh browser context for each test.

Without /usr/bin/chromium the browser tests are skipped with the reason, unless
RANKLAB_REQUIRE_BROWSER=1 (CI sets it): then they fail. The helpers the tests share are in
``helpers.py``.
"""

import os

import pytest

from .helpers import ARGS, CHROMIUM, app_server, need_browser


@pytest.fixture(scope="session")
def server():
    # RANKLAB_TEST_SERVER: a Ranklab someone started, to test it while something else loads
    # it (benchmarks/class_load.py --url); its settings are the tester's
    if os.environ.get("RANKLAB_TEST_SERVER"):
        need_browser()
        yield os.environ["RANKLAB_TEST_SERVER"].rstrip("/")
        return
    with app_server() as url:
        yield url


@pytest.fixture(scope="session")
def browser():
    # one sync Playwright per process: a test that needs another server or more contexts
    # (the class poll) takes this browser, it never starts a Playwright of its own
    need_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 720})
    pg = context.new_page()
    yield pg
    context.close()


@pytest.fixture
def watched(page):
    """The page, with every request and dialog recorded (in its frames too)."""
    requests: list[str] = []
    dialogs: list[str] = []
    page.context.on("request", lambda r: requests.append(r.url))

    def dismiss(dialog):
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", dismiss)
    page.set_viewport_size({"width": 1400, "height": 1000})
    return page, requests, dialogs
