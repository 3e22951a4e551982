"""The latency tuning changes when things reach the browser, never what they are: with it
switched off (ranklab_ui.tuning.ON = False) the Playground shows the same, before and after an
edit, and in the same places."""

import pytest

from ranklab_ui import tuning

from .conftest import edit, example, links_shown, new_app


def _shown(at) -> tuple:
    # every element's kind and text, in page order: the measures, the grid, the charts' places
    return tuple((type(e).__name__, str(getattr(e, "value", "")), str(getattr(e, "label", "")))
                 for e in at.main)


def _session(on: bool, monkeypatch) -> list:
    monkeypatch.setattr(tuning, "ON", on)
    at = new_app().run()
    seen = [(_shown(at), links_shown(at))]
    edit(at, edited_rows={0: {"grade": "1"}})           # rank 1: 0 -> 1, applied by the grid
    assert example(at).query.ranking[0].grade == 1
    seen.append((_shown(at), links_shown(at)))
    at.button(key="playground.pick.0.down").click().run()   # a move: the grids start afresh
    seen.append((_shown(at), links_shown(at)))
    return seen


def test_the_playground_shows_the_same_with_the_tuning_off(monkeypatch):
    on = _session(True, monkeypatch)
    with pytest.MonkeyPatch.context() as mp:
        off = _session(False, mp)
    assert off == on
    # and the edit shows in the measures either way: P@2 = 2 / 2 once rank 1 is relevant
    assert on[1][1]["Precision@2"] == "1"
