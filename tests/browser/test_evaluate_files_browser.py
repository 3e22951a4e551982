"""Headless Chromium: upload the sample collection through the file widgets of "Evaluate files"."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian's chromium is not installed (apt-get install -y chromium)"),
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "streamlit", "run", "app.py", "--server.port", str(port),
                             "--server.headless", "true", "--browser.gatherUsageStats", "false"],
                            cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    while time.time() < deadline:
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                break
        time.sleep(0.3)
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    proc.wait(timeout=20)


def test_upload_the_sample_files(server, tmp_path):
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        page.goto(server + "/")
        page.get_by_text("Evaluate files").first.click()
        page.get_by_text("Upload files").click()
        page.get_by_text("Up to 200 MB per file").wait_for(timeout=30000)
        inputs = page.locator("input[type=file]")
        inputs.nth(0).set_input_files(str(ROOT / "assets/collection/qrels.txt"))
        inputs.nth(1).set_input_files(str(ROOT / "assets/collection/run_tf.txt"))
        page.get_by_text("run_tf.txt against qrels.txt").wait_for(timeout=60000)
        page.get_by_text("Best queries").wait_for(timeout=30000)
        page.screenshot(path=str(tmp_path / "evaluate_files.png"))
        run_lines = len((ROOT / "assets/collection/run_tf.txt").read_text().splitlines())
        judgments = len((ROOT / "assets/collection/qrels.txt").read_text().splitlines())
        status = f"Read {run_lines} run lines and {judgments} judgments; evaluated 30 queries"
        assert page.get_by_text(status).count() == 1
        browser.close()
