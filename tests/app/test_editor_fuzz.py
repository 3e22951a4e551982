"""Hand-made states of the ranking editor sent to the running app, generated with a fixed seed:
what a websocket client that is not the editor could send as the component's value (junk, and
events almost right: rows with a field damaged, ids repeated, lists of the wrong size, versions
and sequence numbers off). The old grids raised IndexError on such deltas; now, whatever
arrives: no exception, the example kept is valid, and every event read is answered, applied
or refused with a message at the top of the page and in the editor."""

from __future__ import annotations

import random

from ranklab_ui.core.validation import validate
from tests.strength import scaled
from tests.ui.test_snapshots_fuzz import junk

from .conftest import editor_data, example, new_app, said, send_value

SEED = 20261201


DAMAGES = ["none", "none", "none", "field", "short", "twice", "long", "seq", "base", "op", "part", "junk", "before"]


def a_value(rng: random.Random, data: dict):
    """A component value made by hand from what the editor was given (``data``): the lists
    shuffled (an edit), with one kind of damage or none."""
    rows = [list(row) for row in data["ranking"]]
    rng.shuffle(rows)
    event = {"seq": data["processed"] + 1, "base": data["version"], "op": "set", "ranking": rows,
             "tray": [list(row) for row in data["tray"]]}
    damage = rng.choice(DAMAGES)
    n = rng.randrange(len(rows)) if rows else None
    if damage == "field" and rows:
        rows[n][rng.randrange(3)] = junk(rng)
    elif damage == "short" and rows:
        rows[n] = rows[n][: rng.randrange(3)]
    elif damage == "twice" and rows:
        rows.append(list(rows[n]))
    elif damage == "long" and rows:
        rows[n] = rows[n] + [junk(rng)]
    elif damage == "seq":
        event["seq"] = rng.choice([data["processed"], data["processed"] + 2, -1, junk(rng)])
    elif damage == "base":
        event["base"] = rng.choice([data["version"] + 1, data["version"] - 1, junk(rng)])
    elif damage == "op":
        event["op"] = rng.choice(["undo", "redo", "drop", junk(rng)])
    elif damage == "part":
        event[rng.choice(["ranking", "tray"])] = junk(rng)
    elif damage == "junk":
        return junk(rng)
    elif damage == "before":
        return {"events": [junk(rng), event]}
    return {"events": [event]}


def test_hand_made_editor_states_get_an_answer_never_an_exception():
    rng = random.Random(SEED)
    at = new_app()
    at.run()
    outcomes = {"applied": 0, "refused": 0}
    for _ in range(scaled(100)):
        before, data = example(at), editor_data(at)
        value = a_value(rng, data)
        send_value(at, value)
        assert not at.exception, (value, [e.value for e in at.exception])
        after = example(at)
        assert validate(after) == after
        now = editor_data(at)
        assert now["processed"] >= data["processed"]
        if now["processed"] > data["processed"]:   # an event read: applied, or refused with its reason
            assert after != before or said(at) or now["ranking"] == data["ranking"], value
            outcomes["applied"] += after != before
            outcomes["refused"] += bool(said(at))
            for text in said(at):
                assert text.startswith("Not applied"), text
                assert now["notice"] is not None
        else:                                       # nothing read: nothing changed, nothing said
            assert after == before and not said(at), value
    assert all(outcomes.values()), outcomes   # the cases reach both answers
