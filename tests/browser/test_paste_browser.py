"""Paste a list in headless Chromium: the metrics follow the pasted ranking."""

import pytest

from .helpers import TIMEOUT, link_reads, shot, wait_ready

pytestmark = pytest.mark.browser


def paste(server, page, text: str) -> None:
    """A fresh Playground (cat in the box, P@2 = 0.5): open the paste box, paste ``text`` and
    replace the ranking with it, once."""
    page.goto(server)
    wait_ready(page)
    page.wait_for_function(link_reads("Precision@2", "0.5"), timeout=TIMEOUT)
    page.get_by_text("Paste or import a list").click()
    area = page.locator("[data-testid='stTextArea'] textarea").first
    area.wait_for(timeout=TIMEOUT)
    area.fill(text)
    page.get_by_role("button", name="Replace the ranking with this list").click()


def test_pasting_a_list_changes_the_metrics(server, page):
    # two relevant results first, one not relevant: P@2 = 2/2
    paste(server, page, "p1\t1\tfirst\np2\t1\tsecond\np3\t0\tthird")
    try:
        page.wait_for_function(link_reads("Precision@2", "1"), timeout=TIMEOUT)
        page.wait_for_selector("text=Read 3 results", timeout=TIMEOUT)
    finally:
        shot(page, "after_paste")
    # R = 2, both in the top 2
    page.wait_for_function(link_reads("Recall@2", "1"), timeout=TIMEOUT)
    assert page.locator("[data-testid='stException']").count() == 0


def test_a_pasted_question_mark_is_unjudged_as_in_the_grid(server, page):
    # "d3<TAB>?<TAB>unknown" was refused ("grade '?' is not a whole number") though the grid
    # takes ? as unjudged: d1 relevant, d2 not, d3 unjudged (left out of the judgments)
    paste(server, page, "d1\t1\tfirst\nd2\t0\tsecond\nd3\t?\tunknown")
    page.wait_for_selector("text=Read 3 results", timeout=TIMEOUT)
    wait_ready(page)
    assert "not a whole number" not in page.inner_text("body")
    # P@2 = 1 / 2; the grid shows d3's grade as ?
    page.wait_for_function(link_reads("Precision@2", "0.5"), timeout=TIMEOUT)
    page.wait_for_function(link_reads("Recall@2", "1"), timeout=TIMEOUT)
    page.wait_for_function(
        "() => { const g = document.querySelector('[data-testid=\"stDataFrame\"]'); return !!g && "
        "JSON.stringify([...g.querySelectorAll('tr')].map(r => [...r.querySelectorAll('td')].map(c => c.innerText))"
        ".filter(r => r.length).map(r => r[1])) === JSON.stringify(['1', '0', '?']); }", timeout=TIMEOUT)
