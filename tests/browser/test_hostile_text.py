"""Hostile text in real Chromium: a permalink whose query names, labels and document ids are
Markdown links, images and HTML, opened on every page, and a file uploaded under such a name.

Nothing of it may become markup: no ``<a>`` or ``<img>`` whose address came from the text, no
request to the addresses in it, no script run (an ``alert`` dialog), no traceback.
"""

from __future__ import annotations

import re

import pytest

from ranklab_ui.core import codec

from .helpers import ST, drawn, shot, upload
from .hostile import IDS, LABELS, NAME, TIMEOUT, assert_inert, hostile_example, wait_heading
from .pages import EDITOR, AppPage

pytestmark = pytest.mark.browser
PAGES = {
    "": "Playground",
    "many_queries": "Many queries",
    "lesson_precision_recall": "Precision, recall and F1 at k",
    "lesson_reciprocal_rank": "Reciprocal rank and MRR",
    "lesson_average_precision": "Average precision and MAP",
    "lesson_dcg": "CG → DCG → IDCG → nDCG",
    "lesson_pr_curve": "The precision–recall curve",
    "check_calculation": "Check my calculation",
    "practice": "Practice",
    "conventions": "Conventions explorer",
    "pitfalls": "Pitfall gallery",
    "compare": "Compare systems",
    "swap_map": "Swap map",
}

def test_a_hostile_permalink_is_plain_text_on_every_page(server, watched):
    page, requests, dialogs = watched
    code = codec.encode(hostile_example())
    for path, heading in PAGES.items():
        page.goto(f"{server}/{path}?{codec.PARAM}={code}")
        wait_heading(page, heading)
        assert_inert(page, requests, dialogs, path or "playground")
        # the ranking editor (inside its component, which the page-wide check does not see):
        # every label and id as typed, and nothing of them made markup
        shown = AppPage(page)
        if page.locator(EDITOR).count():
            editor = shown.editor()
            assert [r.id for r in editor.ranking()] == IDS, path
            assert [r.label for r in editor.ranking()] == LABELS, path
            assert [(r.id, r.label) for r in editor.tray()] == [("[t](http://evil.example/t)",
                                                                  "![tray](http://evil.example/tray.png)")], path
            assert editor.box.locator("a, img, script, strong, b, em").count() == 0, path
        if path == "":
            shot(page, "hostile_permalink_playground")
            # the name reads as typed, as text
            heading_md = page.locator(ST.MARKDOWN, has_text="Ranked results").first
            assert NAME[:70] in heading_md.inner_text().replace("\u200b", "")   # cut at 80 characters
        if path == "many_queries":
            tab = page.get_by_role("tab").first
            assert tab.inner_text().replace("\u200b", "").startswith("1. [Fix it](http")
            shot(page, "hostile_permalink_many_queries")


def test_a_damaged_link_quoting_a_hostile_name_is_plain_text(server, watched):
    page, requests, dialogs = watched
    import base64
    import json
    import zlib

    payload = {"v": 1, "k": 2, "m": "b", "q": [{"n": NAME, "r": [["1", "a", 99]]}]}
    code = "1." + base64.urlsafe_b64encode(zlib.compress(json.dumps(payload).encode())).decode().rstrip("=")
    page.goto(f"{server}/?{codec.PARAM}={code}")
    wait_heading(page, "Playground")
    alert = page.locator(ST.ALERT, has_text="this link is invalid").first
    alert.wait_for(timeout=TIMEOUT)
    text = alert.inner_text().replace("\u200b", "")
    assert "query 1 '[Fix it](http://evil.example/x" in text and "example was not changed" in text
    assert alert.locator("a, img").count() == 0
    shot(page, "hostile_damaged_link")
    assert_inert(page, requests, dialogs, "damaged link")
    # the default example is kept: the cat in the box
    assert page.locator(ST.PAGE_LINK, has_text="Precision@2 = ").first.inner_text().strip().endswith("0.5")


def test_an_uploaded_file_with_a_hostile_name(server, watched):
    page, requests, dialogs = watched
    page.goto(f"{server}/evaluate_files")
    page.get_by_text("Upload files").click(timeout=TIMEOUT)
    page.get_by_text("Up to 200 MB per file").wait_for(timeout=TIMEOUT)
    name = "[Fix it](http:evil.example) ![i](https:evil.example) <img src=x onerror=alert(1)> **b**.txt"
    qrels = b"101 0 doc#D001 1\n101 0 doc#D002 0\n102 0 <img/src=y/onerror=alert(2)> 1\n"
    run = b"101 Q0 doc#D001 1 0.9 t\n101 Q0 doc#D002 2 0.8 t\n102 Q0 <img/src=y/onerror=alert(2)> 1 0.5 t\n"
    upload(page, page.locator("input[type=file]"), [{"name": name, "mimeType": "text/plain", "buffer": qrels}],
           [{"name": "run.txt", "mimeType": "text/plain", "buffer": run}])
    heading = page.get_by_role("heading", name=re.compile("^run.txt against")).first
    heading.wait_for(timeout=TIMEOUT)
    page.get_by_text("Best queries").wait_for(timeout=TIMEOUT)
    drawn(page)
    assert heading.inner_text().replace("\u200b", "").strip() == f"run.txt against {name}"
    # the heading's own anchor ("#run-txt-against...") is the only link in it
    assert heading.locator("img, strong, a:not([href^='#'])").count() == 0
    shot(page, "hostile_upload")
    assert_inert(page, requests, dialogs, "evaluate files")
