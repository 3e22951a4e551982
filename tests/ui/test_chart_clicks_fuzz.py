"""The chart callback that reads a selection the browser sends (ranklab_ui.render.charts): a
point of the curve gives its k to the chart's caller. Whatever arrives, nothing raises and only
whole numbers >= 1 are passed on. A seeded fuzz."""

import math
import random

from ranklab_ui.core import charts
from ranklab_ui.render import charts as drawn
from tests.strength import scaled


def test_chart_clicks_from_the_browser_are_fuzzed(monkeypatch):
    # a point of the curve: its k is a value the browser sends; random events never raise and
    # pass on only whole numbers >= 1
    rng = random.Random(11)
    atoms = [0, 1, 2, 7, -3, 1.0, 2.5, float("nan"), float("inf"), -float("inf"), 1e308, 10**40, True, False,
             None, "", "3", "k", [], {}, [1], {"k": 2}]

    def value(depth: int = 0):
        if depth > 2 or rng.random() < .5:
            return rng.choice(atoms)
        if rng.random() < .5:
            return [value(depth + 1) for _ in range(rng.randrange(3))]
        return {rng.choice(["selection", "k", "rank", charts.PICK]): value(depth + 1)
                for _ in range(rng.randrange(3))}

    ks = []
    k = drawn._picked("c", "c.picks", ks.append)
    for _ in range(scaled(3000)):
        shape = rng.randrange(3)
        event = (value() if shape == 0 else {"selection": value()} if shape == 1
                 else {"selection": {charts.PICK: [{"k": value()}]}})
        monkeypatch.setattr(drawn.st, "session_state", {"c": event})
        k()
    for got in ks:
        assert type(got) is int and got >= 1 and math.isfinite(got)
    assert ks   # some events were well formed
