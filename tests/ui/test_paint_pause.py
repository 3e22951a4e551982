"""The pause after a page's values (ranklab_ui.render.values_shown): how long, whatever the setting says."""

import pytest

from ranklab_ui import render


@pytest.mark.parametrize(("setting", "slept"), [
    (None, [render.PAINT_PAUSE]),   # not set: the app's pause
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
