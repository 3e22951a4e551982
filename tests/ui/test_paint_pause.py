"""The latency tuning (ranklab_ui.tuning): the pause after a page's values, how long whatever the
setting says, and all of it off in one line."""

import pytest

from ranklab_ui import tuning


@pytest.mark.parametrize(("setting", "slept"), [
    (None, [tuning.PAINT_PAUSE]),   # not set: the app's pause
    ("0", []),                      # off (the app's tests)
    ("0.02", [0.02]),
    ("5", [0.1]),                   # never more than 0.1 s, whatever the setting
    ("-1", []), ("nan", []), ("inf", []),  # not a finite, positive number: off
    ("ten", [tuning.PAINT_PAUSE]),  # unreadable: the default
])
def test_pause_follows_the_setting_within_bounds(monkeypatch, setting, slept):
    calls = []
    monkeypatch.setattr(tuning.time, "sleep", calls.append)
    if setting is None:
        monkeypatch.delenv("RANKLAB_PAINT_PAUSE", raising=False)
    else:
        monkeypatch.setenv("RANKLAB_PAINT_PAUSE", setting)
    tuning.values_shown()
    assert calls == slept


def test_tuning_off_means_no_pause_and_the_measures_after_the_grids(monkeypatch):
    calls = []
    monkeypatch.setattr(tuning.time, "sleep", calls.append)
    monkeypatch.delenv("RANKLAB_PAINT_PAUSE", raising=False)
    monkeypatch.setattr(tuning, "ON", False)
    tuning.values_shown()
    assert calls == []
    # decided before any grid is asked about: off, it needs no session at all
    assert tuning.measures_first("playground") is False
