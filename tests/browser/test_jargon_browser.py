"""Jargon: the Conventions explorer and the example picker named conventions
"seed 004", "seed 002 (J&K)", ...; the DCG preset cited "REFERENCE.md", a file a user never
sees; the AP lesson's footnote spoke of "the third query" with one query on screen."""

import re

import pytest

from ranklab_ui.core.codec import encode
from ranklab_ui.core.presets import build_preset

from .helpers import ST, drawn

JARGON = re.compile(r"\bseed 00\d|REFERENCE\.md", re.IGNORECASE)


def settled(page, path: str) -> str:
    page.goto(path)
    page.locator(f"{ST.MAIN_BLOCK} h1").first.wait_for(timeout=60_000)
    drawn(page, timeout=60_000)
    # textContent: a table is drawn on a canvas, its cells are in the page as an accessible table
    return page.locator(ST.MAIN).evaluate("e => e.textContent")


@pytest.mark.parametrize("preset", ["cat", "dcg", "grouped"])
def test_the_example_picker_names_sources_by_name(page, server, preset):
    text = settled(page, f"{server}/?ex={encode(build_preset(preset))}")
    assert not JARGON.search(text), JARGON.search(text)


def test_the_conventions_explorer_names_each_convention_by_its_source(page, server):
    text = settled(page, f"{server}/conventions")
    assert not JARGON.search(text), JARGON.search(text)
    assert "Pinecone" in text and "Järvelin–Kekäläinen" in text


def test_the_ap_footnote_speaks_of_a_third_query_only_when_there_is_one(page, server):
    one = settled(page, f"{server}/lesson_average_precision?ex={encode(build_preset('cat'))}")
    assert "third query" not in one and not JARGON.search(one)
    three = settled(page, f"{server}/lesson_average_precision?ex={encode(build_preset('three-queries'))}")
    assert "rounds the AP of its third query" in three
