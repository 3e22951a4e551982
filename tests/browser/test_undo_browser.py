"""Undo in headless Chromium: a move changes a metric, ↶ Undo brings the value back."""

import pytest

from .helpers import shot
from .pages import Playground

pytestmark = pytest.mark.browser


def test_a_move_then_undo_restores_the_metric(server, page):
    # cat in the box, k = 2: the first relevant result is at rank 2, RR@2 = 1/2
    play = Playground(page).open(server)
    assert play.measure("RR@2") == "0.5"
    editor = play.editor()
    assert editor.undo_button().is_disabled()
    # the cat (rank 1, not relevant) one down puts the cat in a box first: RR@2 = 1
    editor.move(1, 2)
    try:
        play.wait_measure("RR@2", "1")
        play.settled()
        play.undo()
        play.wait_measure("RR@2", "0.5")
    finally:
        shot(page, "after_undo")
    play.settled()
    assert editor.ids() == ["1", "2", "3", "4", "5", "6", "7", "8"]
    assert editor.redo_button().is_enabled()
    assert play.exceptions() == 0
