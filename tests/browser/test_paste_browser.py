"""Paste a list in headless Chromium: the metrics and the editor follow the pasted ranking."""

import pytest

from .helpers import TIMEOUT, shot
from .pages import Playground

pytestmark = pytest.mark.browser


def paste(server, page, text: str) -> Playground:
    """A fresh Playground (cat in the box, P@2 = 0.5): open the paste box, paste ``text`` and
    replace the ranking with it, once."""
    play = Playground(page).open(server)
    assert play.measure("Precision@2") == "0.5"
    play.paste(text)
    return play


def test_pasting_a_list_changes_the_metrics(server, page):
    # two relevant results first, one not relevant: P@2 = 2/2
    play = paste(server, page, "p1\t1\tfirst\np2\t1\tsecond\np3\t0\tthird")
    try:
        play.wait_measure("Precision@2", "1")
        page.wait_for_selector("text=Read 3 results", timeout=TIMEOUT)
    finally:
        shot(page, "after_paste")
    # R = 2, both in the top 2
    play.wait_measure("Recall@2", "1")
    play.settled()
    assert [r.short for r in play.ranking()] == [(1, 1, "first", "p1"), (2, 1, "second", "p2"), (3, 0, "third", "p3")]
    assert play.exceptions() == 0


def test_a_pasted_question_mark_is_unjudged_as_in_the_editor(server, page):
    # "d3<TAB>?<TAB>unknown" was refused ("grade '?' is not a whole number") though the editor
    # takes ? as unjudged: d1 relevant, d2 not, d3 unjudged (left out of the judgments)
    play = paste(server, page, "d1\t1\tfirst\nd2\t0\tsecond\nd3\t?\tunknown")
    page.wait_for_selector("text=Read 3 results", timeout=TIMEOUT)
    play.settled()
    assert "not a whole number" not in page.inner_text("body")
    # P@2 = 1 / 2; the editor shows d3's grade as ?
    play.wait_measure("Precision@2", "0.5")
    play.wait_measure("Recall@2", "1")
    assert play.editor().grades() == [1, 0, None]
    assert play.editor().row(3).locator(".grade").text_content() == "?"
