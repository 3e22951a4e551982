"""Headless Chromium: upload the sample collection through the file widgets of "Evaluate files"."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import shot

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.browser
TIMEOUT = 60_000  # a cold server on a busy machine


def test_upload_the_sample_files(server, page):
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(server + "/evaluate_files")
    page.get_by_text("Upload files").click(timeout=TIMEOUT)
    page.get_by_text("Up to 200 MB per file").wait_for(timeout=TIMEOUT)
    inputs = page.locator("input[type=file]")
    inputs.nth(0).set_input_files(str(ROOT / "assets/collection/qrels.txt"))
    inputs.nth(1).set_input_files(str(ROOT / "assets/collection/run_tf.txt"))
    page.get_by_text("run_tf.txt against qrels.txt").wait_for(timeout=TIMEOUT)
    page.get_by_text("Best queries").wait_for(timeout=TIMEOUT)
    shot(page, "evaluate_files")
    run_lines = len((ROOT / "assets/collection/run_tf.txt").read_text().splitlines())
    judgments = len((ROOT / "assets/collection/qrels.txt").read_text().splitlines())
    status = f"Read {run_lines} run lines and {judgments} judgments; evaluated 30 queries"
    assert page.get_by_text(status).count() == 1
