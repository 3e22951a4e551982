"""The chart callbacks that read a selection the browser sends (ranklab_ui.render): a point of
the curve sets k, a tile of a ranking strip gives its rank. Whatever arrives, nothing raises and
only whole numbers >= 1 are passed on. A seeded fuzz."""

import math
import random

from ranklab_ui import render
from ranklab_ui.core import charts
from ranklab_ui.session import state
from tests.strength import scaled


def test_the_strip_reads_only_a_whole_rank_from_the_browser(monkeypatch):
    # the selection comes from the browser: anything but a whole number >= 1 is ignored
    picked = []
    callback = render._picked_tile("strip", picked.append)
    bad_ranks = (0, -1, 1.5, float("nan"), float("inf"), "2", True, None, [1])
    events = [None, {}, {"selection": {}}, {"selection": {charts.TILE: []}}, {"selection": {charts.TILE: [5]}}]
    events += [{"selection": {charts.TILE: [{"rank": v}]}} for v in bad_ranks]
    for event in events:
        monkeypatch.setattr(render.st, "session_state", {"strip": event})
        callback()
    assert picked == []
    monkeypatch.setattr(render.st, "session_state", {"strip": {"selection": {charts.TILE: [{"rank": 3.0}]}}})
    callback()
    assert picked == [3]


def test_chart_clicks_from_the_browser_are_fuzzed(monkeypatch):
    # both chart callbacks (a point of the curve sets k, a tile gives its rank) read a
    # value the browser sends: random events never raise and pass on only whole numbers >= 1
    rng = random.Random(11)
    atoms = [0, 1, 2, 7, -3, 1.0, 2.5, float("nan"), float("inf"), -float("inf"), 1e308, 10**40, True, False,
             None, "", "3", "k", [], {}, [1], {"k": 2}]

    def value(depth: int = 0):
        if depth > 2 or rng.random() < .5:
            return rng.choice(atoms)
        if rng.random() < .5:
            return [value(depth + 1) for _ in range(rng.randrange(3))]
        return {rng.choice(["selection", "k", "rank", charts.PICK, charts.TILE]): value(depth + 1)
                for _ in range(rng.randrange(3))}

    picked, ks = [], []
    monkeypatch.setattr(state, "update", lambda **changes: ks.append(changes["k"]) or False)
    tile, k = render._picked_tile("c", picked.append), render._pick_k("c", "c.picks")
    for _ in range(scaled(3000)):
        name = rng.choice([charts.PICK, charts.TILE])
        field = "k" if name == charts.PICK else "rank"
        shape = rng.randrange(3)
        event = (value() if shape == 0 else {"selection": value()} if shape == 1
                 else {"selection": {name: [{field: value()}]}})
        monkeypatch.setattr(render.st, "session_state", {"c": event})
        tile()
        k()
    for got in picked + ks:
        assert type(got) is int and got >= 1 and math.isfinite(got)
    assert picked and ks   # some events were well formed
