"""Headless Chromium: upload the sample collection through the file widgets of "Evaluate files"."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import shot, tiles, upload

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.browser
TIMEOUT = 60_000  # a cold server on a busy machine


def open_upload_form(server, page):
    """The Evaluate files page with its two file inputs (qrels, run) shown."""
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(server + "/evaluate_files")
    page.get_by_text("Upload files").click(timeout=TIMEOUT)
    page.get_by_text("Up to 200 MB per file").wait_for(timeout=TIMEOUT)
    return page.locator("input[type=file]")


def test_upload_the_sample_files(server, page):
    inputs = open_upload_form(server, page)
    upload(page, inputs, str(ROOT / "assets/collection/qrels.txt"), str(ROOT / "assets/collection/run_tf.txt"))
    page.get_by_text("run_tf.txt against qrels.txt").wait_for(timeout=TIMEOUT)
    page.get_by_text("Best queries").wait_for(timeout=TIMEOUT)
    shot(page, "evaluate_files")
    run_lines = len((ROOT / "assets/collection/run_tf.txt").read_text().splitlines())
    judgments = len((ROOT / "assets/collection/qrels.txt").read_text().splitlines())
    status = f"Read {run_lines} run lines and {judgments} judgments; evaluated 30 queries"
    assert page.get_by_text(status).count() == 1


# ids as real collections write them
WILD_QRELS = "101 0 doc#D001 1\n101 0 doc#D002 0\n101 0 http://x.org/a?b=1#c 2\n102 0 文書/3 1\n102 0 doc#D004 1\n"
WILD_RUN = ("101 Q0 doc#D001 1 0.9 t\n101 Q0 doc#D002 2 0.8 t\n101 Q0 http://x.org/a?b=1#c 3 0.7 t\n"
            "102 Q0 doc#D004 1 0.9 t\n102 Q0 文書/3 2 0.5 t\n")


def test_pasted_ids_with_hash_are_evaluated(server, page):
    page.set_viewport_size({"width": 1400, "height": 1000})
    page.goto(server + "/evaluate_files")
    page.get_by_text("Paste text").click(timeout=TIMEOUT)
    areas = page.locator("textarea")
    areas.nth(0).wait_for(timeout=TIMEOUT)
    areas.nth(0).fill(WILD_QRELS)
    areas.nth(1).fill(WILD_RUN)
    areas.nth(1).press("Control+Enter")
    page.get_by_text("pasted run against pasted qrels").wait_for(timeout=TIMEOUT)
    page.get_by_text("Best queries").wait_for(timeout=TIMEOUT)
    shot(page, "evaluate_files_hash_ids")
    assert page.locator("[data-testid='stException']").count() == 0
    assert page.get_by_text("could not be evaluated").count() == 0
    assert page.get_by_text("Read 5 run lines and 5 judgments; evaluated 2 queries").count() == 1
    # the grids are canvases; the worst and best queries are text: P@10 = 2 / 10 for both queries
    assert page.get_by_text("0.2000").count() >= 2
    links = page.get_by_role("link", name="open in the playground")
    assert links.count() >= 2
    href = links.first.get_attribute("href")
    assert href.startswith("./?ex=1.")


def test_uploaded_ids_with_hash_are_evaluated_and_open_in_the_playground(server, page):
    inputs = open_upload_form(server, page)
    upload(page, inputs, [{"name": "qrels.txt", "mimeType": "text/plain", "buffer": WILD_QRELS.encode()}],
           [{"name": "run.txt", "mimeType": "text/plain", "buffer": WILD_RUN.encode()}])
    page.get_by_text("run.txt against qrels.txt").wait_for(timeout=TIMEOUT)
    page.get_by_text("Best queries").wait_for(timeout=TIMEOUT)
    assert page.locator("[data-testid='stException']").count() == 0
    assert page.get_by_text("Read 5 run lines and 5 judgments; evaluated 2 queries").count() == 1
    # the worst query on P@10 is 101 or 102 with 0.2000 (2 relevant in the top 10)
    assert page.get_by_text("0.2000").count() >= 1
    # its playground link (Markdown links open a new tab: follow it here) opens with the ids as they are
    href = page.get_by_role("link", name="open in the playground").first.get_attribute("href")
    assert href.startswith("./?ex=1.")
    page.goto(f"{server}/{href[2:]}")
    page.get_by_role("heading", name="Playground").wait_for(timeout=TIMEOUT)
    page.wait_for_function("() => !document.querySelector('[data-testid=\"stStatusWidget\"]')", timeout=TIMEOUT)
    assert page.locator("[data-testid='stException']").count() == 0
    assert page.locator("[data-testid='stAlert']").count() == 0
    page.locator("[data-testid='stDataFrame']").first.wait_for(timeout=TIMEOUT)
    shot(page, "evaluate_files_hash_ids_playground")
    # the worst query on P@10 (a tie at 0.2: 101 comes first) as tiles: its ids, as they are
    frame = tiles(page)
    frame.get_by_text("#1 · doc#D001 · grade 1").wait_for(timeout=TIMEOUT)
    frame.get_by_text("#3 · http://x.org/a?b=1#c · grade 2").wait_for(timeout=TIMEOUT)
