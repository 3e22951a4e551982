"""The pause after a page's values (ui.render.values_shown): how long, whatever the setting says."""

import pytest

from ui import render


@pytest.mark.parametrize(("setting", "slept"), [
    (None, [render.PAINT_PAUSE]),   # not set: one frame
    ("0", []),                      # off (the app's tests)
    ("0.02", [0.02]),
    ("5", [0.1]),                   # never more than 0.1 s, whatever the setting
    ("-1", []), ("nan", []), ("inf", []),  # not a finite, positive number: off
    ("ten", [render.PAINT_PAUSE]),  # unreadable: the default
])
def test_pause_follows_the_setting_within_bounds(monkeypatch, setting, slept):
    calls = []
    monkeypatch.setattr(render.time, "sleep", calls.append)
    if setting is None:
        monkeypatch.delenv("RANKLAB_PAINT_PAUSE", raising=False)
    else:
        monkeypatch.setenv("RANKLAB_PAINT_PAUSE", setting)
    render.values_shown()
    assert calls == slept


@pytest.mark.parametrize(("setting", "slept"), [
    (None, [0.07]),     # not set: the page's own pause (a lesson's)
    ("0", []),          # the setting overrides it: off
    ("0.02", [0.02]),
])
def test_a_page_can_ask_for_a_longer_pause_which_the_setting_overrides(monkeypatch, setting, slept):
    calls = []
    monkeypatch.setattr(render.time, "sleep", calls.append)
    if setting is None:
        monkeypatch.delenv("RANKLAB_PAINT_PAUSE", raising=False)
    else:
        monkeypatch.setenv("RANKLAB_PAINT_PAUSE", setting)
    render.values_shown(0.07)
    assert calls == slept


@pytest.mark.parametrize(("fragments", "alone"), [(["f1"], True), ([], False), (None, False)])
def test_a_fragments_run_alone_is_told_from_a_pages(monkeypatch, fragments, alone):
    from types import SimpleNamespace
    monkeypatch.setattr(render, "get_script_run_ctx", lambda: SimpleNamespace(fragment_ids_this_run=fragments))
    assert render.fragment_run() is alone


def test_outside_a_run_there_is_no_fragment(monkeypatch):
    monkeypatch.setattr(render, "get_script_run_ctx", lambda: None)
    assert render.fragment_run() is False
