"""The widgets' logic without Streamlit (ranklab_ui/core/editing.py): what a move button does to the
lists, a tile click's next grade, and a grid's rows with the browser's edits applied. Values
worked out by hand."""

import pytest

from ranklab_ui.core import editing
from ranklab_ui.core.model import Item

A, B, C = Item("a", "A", 1), Item("b", "B", 0), Item("c", "C", None)
X = Item("x", "X", 2)


@pytest.mark.parametrize(("where", "n", "action", "after"), [
    ("r", 1, "up", ((B, A, C), (X,), ("r", 0))),
    ("r", 1, "down", ((A, C, B), (X,), ("r", 2))),
    ("r", 2, "top", ((C, A, B), (X,), ("r", 0))),
    ("r", 0, "move", ((B, C), (X, A), ("t", 1))),      # to the end of the tray
    ("t", 0, "move", ((A, B, C, X), (), ("r", 3))),    # back to the end of the ranking
    ("r", 1, "remove", ((A, C), (X,), None)),
    ("t", 0, "remove", ((A, B, C), (), None)),
])
def test_a_move_button(where, n, action, after):
    assert editing.move((A, B, C), (X,), where, n, action) == after


@pytest.mark.parametrize(("where", "n", "action"), [
    ("r", 0, "up"), ("r", 2, "down"), ("r", 0, "top"),   # nowhere to go
    ("t", 0, "up"),                                      # the tray has no order to change
    ("r", 3, "up"), ("t", 1, "move"),                    # no such item (a list that changed)
    ("r", 0, "jump"),
])
def test_a_move_that_changes_nothing_is_none(where, n, action):
    assert editing.move((A, B, C), (X,), where, n, action) is None


def test_a_tiles_next_grade_binary_and_graded():
    assert [editing.next_grade(g, "binary", 3) for g in (0, 1, 3, None)] == [1, 0, 0, 0]
    assert [editing.next_grade(g, "graded", 2) for g in (0, 1, 2, None)] == [1, 2, 0, 0]


def test_a_grid_shows_its_items_and_reads_back_as_rows():
    frame = editing.frame((A, B, C), ranked=True)
    assert list(frame["rank"]) == [1, 2, 3]
    assert list(frame["grade"]) == ["1", "0", "?"]       # text, "?" for unjudged
    assert editing.records(frame) == [{"id": "a", "label": "A", "grade": "1"},
                                      {"id": "b", "label": "B", "grade": "0"},
                                      {"id": "c", "label": "C", "grade": "?"}]


def test_the_rows_a_grid_shows_with_the_browsers_edits():
    delta = {"edited_rows": {"0": {"grade": "3", "id": "ignored"}}, "deleted_rows": [1],
             "added_rows": [{"label": "new", "grade": "2"}]}
    assert editing.rows_with(delta, (A, B, C), ranked=False) == [
        {"id": "a", "label": "A", "grade": "3"},          # an id is never edited
        {"id": "c", "label": "C", "grade": "?"},
        {"id": None, "label": "new", "grade": "2"},
    ]
    assert editing.has_edits(delta) and not editing.has_edits({"edited_rows": {}, "added_rows": []})


@pytest.mark.parametrize("delta", [
    {"edited_rows": {"7": {"grade": "1"}}},              # a row the base does not have
    {"edited_rows": {"0": "1"}},
    {"added_rows": ["x"]},
])
def test_a_delta_that_does_not_fit_the_grid_is_none(delta):
    assert editing.rows_with(delta, (A, B), ranked=True) is None


def test_a_drop_reads_a_new_order_and_refuses_what_does_not_fit():
    lookup = {"#1": A, "#2": B, "tray 1": X}
    assert editing.dropped([{"items": ["#2", "#1"]}, {"items": ["tray 1"]}], lookup) == ((B, A), (X,))
    assert editing.dropped([{"items": ["#2"]}, {"items": ["tray 1", "#1"]}], lookup) == ((B,), (X, A))
    for reply in (None, "state.example", [], [{"items": ["#1", "#2"]}],          # no tray part
                  [{"items": ["#1", "#1"]}, {"items": ["tray 1"]}],               # a tile twice, one gone
                  [{"items": ["#1", "#2", "#3"]}, {"items": ["tray 1"]}]):        # a tile of another list
        assert editing.dropped(reply, lookup) is None


def test_a_drop_from_the_browser_is_fuzzed():
    # the reply is whatever the browser sends: a fixed seed, never an exception, and only
    # ever the list's own items, each once
    import random

    rng = random.Random(20261128)
    lookup = {"#1": A, "#2": B, "#3": C, "tray 1": X}
    atoms = [None, 0, 1.5, "", "#1", "#2", "#3", "tray 1", "items", [], {}, ["#1"], {"items": []}, True]

    def value(depth=0):
        roll = rng.random()
        if depth > 2 or roll < .4:
            return rng.choice(atoms)
        if roll < .7:
            return [value(depth + 1) for _ in range(rng.randrange(4))]
        return {rng.choice(["items", "header", 0]): value(depth + 1) for _ in range(rng.randrange(3))}

    for _ in range(3000):
        texts = rng.sample(list(lookup), rng.randrange(5)) + [value() for _ in range(rng.randrange(2))]
        cut = rng.randrange(len(texts) + 1)
        reply = rng.choice([value(), [{"items": texts[:cut]}, {"items": texts[cut:]}]])
        got = editing.dropped(reply, lookup)
        if got is not None:
            items = got[0] + got[1]
            assert sorted(i.id for i in items) == sorted(i.id for i in lookup.values())
