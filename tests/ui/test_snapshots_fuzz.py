"""A seeded fuzz of what the ranking editor's server side reads (``snapshots.read_events``, then
``snapshots.receive``): component values made by hand, as a websocket client that is not the
editor could send them (anything JSON can hold, nested junk, events almost right), fed one
after the other to one session. Whatever arrives: no exception; the example kept is always
one ``validate`` accepts as it is; the last sequence number processed never goes down; an
event is applied only when it was made on the version it finds, and one made on a version
the server never reached in that request is refused, saying why."""

from __future__ import annotations

import copy
import random
from dataclasses import replace

from ranklab_ui.core import presets
from ranklab_ui.core.history import History
from ranklab_ui.core.model import Example, Item, Query
from ranklab_ui.core.snapshots import OTHER_CHANGE, STALE, foreseen, read_events, receive
from ranklab_ui.core.validation import validate
from tests.strength import scaled

SEED = 20261201
STALE_TEXT = STALE.format(what=OTHER_CHANGE)

ATOMS = [None, True, False, 0, 1, 2, 3, 10, 11, -1, 1.5, 2.0, float("nan"), float("inf"), 10**400, -(10**30),
         2**63, "", "0", "3", "?", "set", "undo", "redo", "drop", "a", "b", "x", "ranking", "tray", "events",
         "doc#1", "a/b c", "\u200b", "\u05e9\u05dc\u05d5\u05dd", "<script>alert(1)</script>", "\x00", "\ud800",
         "x" * 1000, "🐈\u200d⬛", [], {}]
KEYS = ["seq", "base", "op", "ranking", "tray", "events", "id", "label", "grade", 0, "1"]


def junk(rng: random.Random, depth: int = 0):
    """Anything JSON can hold, nested a few levels."""
    roll = rng.random()
    if depth > 3 or roll < 0.5:
        return copy.deepcopy(rng.choice(ATOMS))
    if roll < 0.75:
        return [junk(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(KEYS): junk(rng, depth + 1) for _ in range(rng.randrange(4))}


def a_row(rng: random.Random, ids: list[str]) -> list:
    roll = rng.random()
    if roll < 0.97:   # a good row, most of the time of an id the lists have
        doc = rng.choice(ids) if ids and rng.random() < 0.9 else rng.choice(["n1", "n2", "doc#1", "a/b c"])
        return [doc, rng.choice(["A", "B", "", "label <b>"]), rng.choice([None, 0, 1, 2, 3, 10])]
    if roll < 0.99:   # one field damaged
        row = [rng.choice(ids or ["a"]), "L", 1]
        row[rng.randrange(3)] = junk(rng)
        return row
    return junk(rng)


def some_lists(rng: random.Random, ids: list[str]) -> tuple[list, list]:
    """A ranking and a tray made of the query's ids (some dropped, the rest shuffled and split
    between the two), at times with a row added or a list replaced by junk."""
    picked = rng.sample(ids, rng.randrange(len(ids) + 1)) if ids else []
    cut = rng.randrange(len(picked) + 1)
    lists = [[a_row(rng, [doc]) for doc in picked[:cut]], [a_row(rng, [doc]) for doc in picked[cut:]]]
    for _ in range(rng.choice([0, 0, 0, 1])):
        part = lists[rng.randrange(2)]
        part.insert(rng.randrange(len(part) + 1), a_row(rng, ids))
    if rng.random() < 0.05:
        lists[rng.randrange(2)] = junk(rng)
    return lists[0], lists[1]


def an_event(rng: random.Random, seq: int, version: int, example: Example, history: History, index: int):
    """An event the editor could send (right, or made on another version), damaged at times."""
    # an undo the server took may have removed the query (the page then draws no editor for
    # it; a late request can still name it)
    there = index < len(example.queries)
    q = example.queries[index] if there else Query("gone")
    ids = [i.id for i in (*q.ranking, *q.tray)]
    op = rng.choices(["set", "undo", "redo"], [6, 2, 1])[0]
    base = version if rng.random() < 0.7 else rng.choice([version - 1, version + 1, 0, 10**30])
    out = {"seq": seq, "base": base, "op": op}
    if op == "set":
        out["ranking"], out["tray"] = some_lists(rng, ids)
    elif rng.random() < 0.7:   # foreseen: the step history holds, or another one
        steps = foreseen(example, history.done if op == "undo" else history.undone, index) if there else []
        if steps and rng.random() < 0.7:
            out["ranking"], out["tray"] = copy.deepcopy(steps[0])
        else:
            out["ranking"], out["tray"] = some_lists(rng, ids)
    for _ in range(rng.choice([0] * 9 + [1])):   # one part of it damaged
        out[rng.choice(KEYS)] = junk(rng)
    return out


def a_value(rng: random.Random, processed: int, version: int, example: Example, history: History, index: int):
    roll = rng.random()
    if roll < 0.1:
        return junk(rng)
    if roll < 0.2:
        return {"events": junk(rng)}
    events = [an_event(rng, processed + n, version, example, history, index) for n in range(1, rng.randrange(1, 5))]
    if rng.random() < 0.3:   # the log sent again, or an older event again
        events = [an_event(rng, rng.randrange(0, processed + 1), version, example, history, index)] + events
    if rng.random() < 0.2:
        events.insert(rng.randrange(len(events) + 1), junk(rng))
    rng.shuffle(events)
    return {"events": events}


def start(rng: random.Random) -> tuple[Example, History]:
    """A preset (at times with a second query, which the editor of the first must never touch),
    and a history that holds, half the time, the change of preset that led to it: a step the
    editor cannot foresee."""
    names = sorted(presets.PRESETS)
    example = presets.build_preset(rng.choice(names))
    if rng.random() < 0.3:
        example = replace(example, queries=(*example.queries, Query("other", (Item("o", "O", 1),))))
    history = History()
    if rng.random() < 0.5:
        history.record(replace(presets.build_preset(rng.choice(names)), mode="graded" if example.mode == "binary"
                               else "binary"), example)
    return example, history


def test_random_component_values_never_break_the_rule():
    rng = random.Random(SEED)
    outcomes = {"applied": 0, "refused": 0, "stale": 0, "version": 0}
    for _session in range(scaled(1000)):
        (example, history), version, processed = start(rng), 0, 0
        index = rng.randrange(len(example.queries))
        for _run in range(rng.randrange(1, 12)):
            value = a_value(rng, processed, version, example, history, index)
            done, undone = list(history.done), list(history.undone)
            events, refused = read_events(value, processed)
            seqs = [e["seq"] for e in events]
            assert seqs == sorted(set(seqs)) and all(s > processed for s in seqs + [r.seq for r in refused])
            out = receive(example, index, events, version=version, processed=processed, history=history)
            # the example kept is one validate takes as it is; it changed only where the editor edits
            assert validate(out.example) == out.example
            for i, (before, after) in enumerate(zip(example.queries, out.example.queries, strict=False)):
                if i != index and len(example.queries) == len(out.example.queries) and out.version == version:
                    assert before == after
            # processed never goes down, and covers every event answered
            assert out.processed >= processed and all(s <= out.processed for s in seqs)
            # the version moves only up, one step for each undo the server took itself
            assert version <= out.version <= version + len(events)
            # an event made on a version the server did not hold during this request: refused, stale
            never = {e["seq"] for e in events if not version <= e["base"] <= out.version}
            stale = {r.seq for r in out.refused if r.reason == STALE_TEXT}
            assert never <= stale, (never, stale)
            # applied only on the version it found: no more than the events made on one it held
            assert out.applied <= len(events) - len(never)
            if out.version == version:   # nothing taken by the server: every event on another version stale
                assert {e["seq"] for e in events if e["base"] != version} <= stale
            if out.applied == 0:
                assert out.example is example and history.done == done and history.undone == undone
            for r in refused + out.refused:
                assert isinstance(r.reason, str) and r.reason.startswith("Not applied") and len(r.reason) < 600
            outcomes["applied"] += out.applied
            outcomes["refused"] += len(refused) + len(out.refused)
            outcomes["stale"] += len(stale)
            outcomes["version"] += out.version - version
            example, version, processed = out.example, out.version, max(out.processed, *[r.seq for r in refused], processed)
    # the cases reach every path: edits applied, refused as malformed, refused as stale, undos the server took
    assert all(outcomes.values()), outcomes
