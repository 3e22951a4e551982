"""The one rule that orders the ranking editor's edits (docs/editing.md), without a browser:
``snapshots.read_events`` and ``snapshots.receive`` on events written by hand, the outcomes
worked out by hand. The seeded fuzz of the same two functions is test_snapshots_fuzz.py."""

from __future__ import annotations

from dataclasses import replace

import pytest

from ranklab_ui.core.history import History
from ranklab_ui.core.model import Example, Item, Query
from ranklab_ui.core.snapshots import FORESEE, foreseen, read_events, receive

A, B, C = Item("a", "A", 1), Item("b", "B", 0), Item("c", "C", None)
X = Item("x", "X", 2)
# query 1 "q": ranking a, b, c and x in the tray; query 2 "other" is never touched by the editor of 1
EX = Example((Query("q", (A, B, C), (X,)), Query("other", (Item("o", "O", 1),))), k=2, mode="graded")

STALE = ("Not applied: this edit was made on the list as it was before another change (a preset, a paste, "
         "a link or an undo) replaced it. The list shown now is the current one.")


def rows(*items: Item) -> list[list]:
    return [[i.id, i.label, i.grade] for i in items]


def event(seq: int, base: int, op: str = "set", ranking: list | None = None, tray: list | None = None) -> dict:
    """An event as the editor sends it; a ``set`` carries the lists (by default the ones of EX)."""
    out = {"seq": seq, "base": base, "op": op}
    if op == "set" or ranking is not None or tray is not None:
        out["ranking"] = rows(A, B, C) if ranking is None else ranking
        out["tray"] = rows(X) if tray is None else tray
    return out


def with_lists(example: Example, ranking: tuple, tray: tuple = (X,), index: int = 0) -> Example:
    queries = list(example.queries)
    queries[index] = replace(queries[index], ranking=ranking, tray=tray)
    return replace(example, queries=tuple(queries))


# --------------------------------------------------------------------------- the version

def test_an_edit_is_applied_to_the_version_it_was_made_on():
    h = History()
    # c graded 3 and moved to the top; b sent to the tray after x; a new result n added
    sent = event(1, 4, ranking=[["c", "C", 3], ["a", "A", 1], ["n", "new", None]], tray=rows(X, B))
    out = receive(EX, 0, [sent], version=4, processed=0, history=h)
    assert out.example == with_lists(EX, (Item("c", "C", 3), A, Item("n", "new", None)), (X, B))
    assert out.example.queries[1] == EX.queries[1] and (out.example.k, out.example.mode) == (2, "graded")
    # the editor made it and shows it already: the version stays
    assert (out.version, out.processed, out.applied, out.refused) == (4, 1, 1, [])
    assert h.done == [EX] and h.undone == []


@pytest.mark.parametrize("base", [3, 5, 0])   # older, newer (no such version yet), the first
def test_an_edit_made_on_another_version_is_refused_with_its_reason(base):
    h = History()
    out = receive(EX, 0, [event(7, base, ranking=rows(C, A, B))], version=4, processed=6, history=h)
    assert out.example is EX
    assert (out.version, out.processed, out.applied) == (4, 7, 0)
    assert [(r.seq, r.reason) for r in out.refused] == [(7, STALE)]
    assert h.done == [] and h.undone == []


def test_an_edit_on_a_replaced_list_is_never_applied_to_the_list_that_replaced_it():
    # a paste replaced the lists (version 1 -> 2) with ids that the old list had too; an edit
    # made on version 1 (b to the top) would reorder the new list if it were applied by id
    pasted = with_lists(EX, (Item("b", "bee", 0), Item("a", "ay", 1)), ())
    out = receive(pasted, 0, [event(3, 1, ranking=rows(B, A, C))], version=2, processed=2, history=History())
    assert out.example is pasted and [r.seq for r in out.refused] == [3]


def test_an_edit_without_a_change_is_processed_and_is_no_step():
    h = History()
    out = receive(EX, 0, [event(1, 0)], version=0, processed=0, history=h)
    assert out.example is EX and (out.processed, out.applied, out.refused) == (1, 0, []) and h.done == []


# --------------------------------------------------------------------------- the sequence

A2, A3, A4 = (replace(A, grade=g) for g in (2, 3, 4))
E1, E2, E3 = (event(n, 0, ranking=rows(a, B, C)) for n, a in ((1, A2), (2, A3), (3, A4)))


def test_events_are_taken_in_sequence_order_each_once():
    # sent out of order, and a second event numbered 2: the first one sent with a number counts
    value = {"events": [E3, E1, E2, event(2, 0, ranking=rows(C, B, A))]}
    events, refused = read_events(value, processed=0)
    assert [e["seq"] for e in events] == [1, 2, 3] and events[1] is E2 and refused == []
    h = History()
    out = receive(EX, 0, events, version=0, processed=0, history=h)
    assert out.example == with_lists(EX, (A4, B, C))           # 1 -> 2 -> 3 -> 4, the last one wins
    assert (out.processed, out.applied) == (3, 3)


def test_a_batch_of_several_edits_records_one_step_each():
    h = History()
    out = receive(EX, 0, [E1, E2, E3], version=0, processed=0, history=h)
    assert h.done == [EX, with_lists(EX, (A2, B, C)), with_lists(EX, (A3, B, C))]
    # and undo takes them back one at a time, as the editor did
    now = out.example
    for grade in (3, 2, 1):
        now = h.undo(now)
        assert now.queries[0].ranking[0].grade == grade


def test_a_log_sent_again_is_applied_once():
    h = History()
    first = receive(EX, 0, read_events({"events": [E1, E2]}, 0)[0], version=0, processed=0, history=h)
    assert first.processed == 2
    # the reply had not reached the browser when it made its next edit: it sends all three
    events, refused = read_events({"events": [E1, E2, E3]}, first.processed)
    assert [e["seq"] for e in events] == [3] and refused == []
    second = receive(first.example, 0, events, version=0, processed=first.processed, history=h)
    assert second.example == with_lists(EX, (A4, B, C)) and second.processed == 3 and len(h.done) == 3
    # once more with nothing new: nothing to do, and receive skips what it is handed again
    assert read_events({"events": [E1, E2, E3]}, 3) == ([], [])
    again = receive(second.example, 0, [E1, E2, E3], version=0, processed=3, history=h)
    assert again.example is second.example and (again.processed, again.applied, again.refused) == (3, 0, [])
    assert len(h.done) == 3


def test_only_the_last_events_of_a_long_log_are_read():
    # a log of 500 events is no person's typing between two runs: the newest 200 are read
    log = [event(n, 0) for n in range(1, 501)]
    events, _ = read_events({"events": log}, 0)
    assert [e["seq"] for e in events] == list(range(301, 501))


# --------------------------------------------------------------------------- undo and redo

def test_undo_and_redo_foreseen_by_the_editor_keep_the_version_and_move_history():
    h = History()
    edited = receive(EX, 0, [event(1, 3, ranking=rows(C, A, B))], version=3, processed=0, history=h).example
    now = replace(edited, k=5)                   # k changed since: not a step
    assert foreseen(now, h.done, 0) == [[rows(A, B, C), rows(X)]]
    assert foreseen(now, h.undone, 0) == []
    # the editor took the step in the browser and sends it with its lists; an edit made right
    # after it, on the same version, is applied after it
    back = event(2, 3, "undo", rows(A, B, C), rows(X))
    after = event(3, 3, ranking=rows(A, B), tray=rows(X, C))  # c sent to the tray
    out = receive(now, 0, [back, after], version=3, processed=1, history=h)
    assert (out.version, out.processed, out.applied, out.refused) == (3, 3, 2, [])
    assert out.example == replace(with_lists(EX, (A, B), (X, C)), k=5)
    assert h.done == [replace(EX, k=5)] and h.undone == []    # the new edit cleared the redo
    # undo again, then redo, both foreseen: the version stays 3 throughout
    out = receive(out.example, 0, [event(4, 3, "undo", rows(A, B, C), rows(X))], version=3, processed=3, history=h)
    assert out.example == replace(EX, k=5) and out.version == 3
    assert foreseen(out.example, h.undone, 0) == [[rows(A, B), rows(X, C)]]
    out = receive(out.example, 0, [event(5, 3, "redo", rows(A, B), rows(X, C))], version=3, processed=4, history=h)
    assert out.example == replace(with_lists(EX, (A, B), (X, C)), k=5) and out.version == 3
    assert h.done == [replace(EX, k=5)] and h.undone == []


def test_an_undo_the_editor_could_not_foresee_makes_a_new_version():
    binary = replace(EX, mode="binary")
    h = History()
    h.record(EX, binary)                         # the mode switch: a change of more than the lists
    assert foreseen(binary, h.done, 0) == []     # so the editor is not sent it
    ask = {"seq": 5, "base": 2, "op": "undo"}
    out = receive(binary, 0, [ask], version=2, processed=4, history=h)
    assert out.example == EX and (out.version, out.processed, out.applied, out.refused) == (3, 5, 1, [])
    assert h.done == [] and h.undone == [binary]
    # an edit made on version 2 and sent with the undo is refused: it was made on the list the undo replaced
    h = History()
    h.record(EX, binary)
    out = receive(binary, 0, [ask, event(6, 2, ranking=rows(C, A, B))], version=2, processed=4, history=h)
    assert out.example == EX and (out.version, out.processed, out.applied) == (3, 6, 1)
    assert [(r.seq, r.reason) for r in out.refused] == [(6, STALE)]


@pytest.mark.parametrize("op", ["undo", "redo"])
def test_a_foreseen_step_that_is_not_the_one_history_holds_is_refused_and_history_stays(op):
    h = History()
    edited = with_lists(EX, (C, A, B))
    h.record(EX, edited)
    if op == "redo":
        h.undone, h.done = [edited], []
        now = EX
    else:
        now = edited
    done, undone = list(h.done), list(h.undone)
    wrong = event(2, 0, op, rows(B, A, C), rows(X))   # the editor foresaw b, a, c: history holds another step
    out = receive(now, 0, [wrong], version=0, processed=1, history=h)
    assert out.example is now and (out.version, out.processed, out.applied) == (0, 2, 0)
    assert [(r.seq, r.reason) for r in out.refused] == [(2, STALE)]
    assert h.done == done and h.undone == undone
    assert all(a is b for a, b in zip(h.done + h.undone, done + undone, strict=True))   # the very same steps


def test_a_foreseen_step_of_a_change_of_more_than_the_lists_is_refused():
    # history's step is the mode switch (same lists): an undo carrying lists cannot be it
    binary = replace(EX, mode="binary")
    h = History()
    h.record(EX, binary)
    out = receive(binary, 0, [event(1, 0, "undo", rows(A, B, C), rows(X))], version=0, processed=0, history=h)
    assert out.example is binary and [r.reason for r in out.refused] == [STALE]
    assert h.done == [EX] and h.undone == []


@pytest.mark.parametrize(("op", "reason"), [("undo", "Not applied: there is nothing to undo"),
                                            ("redo", "Not applied: there is nothing to redo")])
@pytest.mark.parametrize("lists", [True, False])
def test_nothing_to_undo_or_redo_is_said(op, reason, lists):
    h = History()
    sent = event(1, 0, op, rows(A, B, C), rows(X)) if lists else {"seq": 1, "base": 0, "op": op}
    out = receive(EX, 0, [sent], version=0, processed=0, history=h)
    assert out.example is EX and out.version == 0 and [(r.seq, r.reason) for r in out.refused] == [(1, reason)]


def test_foreseen_stops_at_a_step_that_changes_more_than_the_querys_lists():
    s1 = with_lists(EX, (B, A, C))
    s2 = with_lists(EX, (B, A), (X, C))
    now = with_lists(EX, (A,), ())
    # history, oldest first: the mode switch, then two edits of query 1's lists
    assert foreseen(now, [replace(s1, mode="binary"), s1, s2], 0) == [[rows(B, A), rows(X, C)],
                                                                     [rows(B, A, C), rows(X)]]
    other = replace(s1, queries=(s1.queries[0], Query("other", (Item("o", "O", 0),))))   # query 2 graded
    renamed = replace(s1, queries=(replace(s1.queries[0], name="renamed"), s1.queries[1]))
    added = replace(s1, queries=(*s1.queries, Query("third")))
    for more in (other, renamed, added):
        assert foreseen(now, [more, s2], 0) == [[rows(B, A), rows(X, C)]], more
        assert foreseen(now, [s2, more], 0) == []
    # k and the query shown are no part of a step; the editor of query 2 sees query 2's lists only
    assert foreseen(now, [replace(s2, k=9, current=1)], 0) == [[rows(B, A), rows(X, C)]]
    assert foreseen(now, [s2], 1) == []          # s2 changed query 1: for the editor of 2, more
    # at most FORESEE steps, newest first
    many = [with_lists(EX, (Item("a", f"A{n}", 0),), ()) for n in range(FORESEE + 3)]
    got = foreseen(now, many, 0)
    assert [steps[0][0][1] for steps in got] == [f"A{n}" for n in range(FORESEE + 2, 2, -1)]
    assert len(foreseen(now, many, 0, most=2)) == 2


# --------------------------------------------------------------------------- what is refused

def refusals(value) -> list[tuple[int, str]]:
    """(seq, reason) of every refusal for the component value ``value`` sent to the editor of
    query 1 of EX at version 0; checks that nothing was applied and nothing raised."""
    h = History()
    events, refused = read_events(value, 0)
    out = receive(EX, 0, events, version=0, processed=0, history=h)
    assert out.example is EX and out.applied == 0 and h.done == [] and out.version == 0
    return sorted((r.seq, r.reason) for r in refused + out.refused)


def refusal_of(**changes) -> str:
    """The reason the one event ``event(1, 0)`` with ``changes`` is refused."""
    got = refusals({"events": [{**event(1, 0), **changes}]})
    assert [seq for seq, _ in got] == [1], got
    return got[0][1]


def ranked(second) -> list:
    """The ranking a, <second>, c: a bad row at position 2."""
    return [rows(A)[0], second, rows(C)[0]]


Q1 = "query 1 'q', ranking, position 2"
GRADES = "is not allowed: use a whole number from 0 to 10, or ? for unjudged"


@pytest.mark.parametrize(("row", "reason"), [
    (["b", "B", 11], f"{Q1}: grade 11 {GRADES}"),
    (["b", "B", -1], f"{Q1}: grade -1 {GRADES}"),
    (["b", "B", 10**400], f"{Q1}: grade a 401-digit number {GRADES}"),
    (["b", "B", 2**64], f"{Q1}: grade a 20-digit number {GRADES}"),
    (["b", "B", 1.5], "ranking, position 2: the grade must be a whole number or unjudged, got 1.5"),
    (["b", "B", 2.0], "ranking, position 2: the grade must be a whole number or unjudged, got 2.0"),
    (["b", "B", True], "ranking, position 2: the grade must be a whole number or unjudged, got True"),
    (["b", "B", "3"], "ranking, position 2: the grade must be a whole number or unjudged, got '3'"),
    (["b", "B", float("nan")], "ranking, position 2: the grade must be a whole number or unjudged, got nan"),
    (["b", "B", float("inf")], "ranking, position 2: the grade must be a whole number or unjudged, got inf"),
    (["b", "B", [1]], "ranking, position 2: the grade must be a whole number or unjudged, got a list"),
    (["b", "x" * 1000, 0], f"{Q1}: label: 1,000 characters is too long (at most 200)"),
    (["b", "a\x00b", 0], f"{Q1}: label: a control character (U+0000) at character 2; only printable text is accepted"),
    (["b", "\x1b[31m", 0], f"{Q1}: label: a control character (U+001B) at character 1; only printable text is accepted"),
    (["b", "a\ud800", 0], f"{Q1}: label: a lone surrogate (U+D800) at character 2; only printable text is accepted"),
    (["b", None, 0], "ranking, position 2: the label must be text, got None"),
    (["b", 7, 0], "ranking, position 2: the label must be text, got 7"),
    (["b\x07", "B", 0], f"{Q1}: id: a control character (U+0007) at character 2; only printable text is accepted"),
    (["", "B", 0], f"{Q1}: id: empty text"),
    (["x" * 201, "B", 0], f"{Q1}: id: 201 characters is too long (at most 200)"),
    ([5, "B", 0], "ranking, position 2: the id must be text, got 5"),
    ([None, "B", 0], "ranking, position 2: the id must be text, got None"),
    (["a", "A again", 0], "query 1 'q', ranking, position 2: id 'a' appears twice"),
    (["b", "B"], "ranking, position 2: expected [id, label, grade], got a list"),
    (["b", "B", 0, "extra"], "ranking, position 2: expected [id, label, grade], got a list"),
    ({"id": "b", "label": "B", "grade": 0}, "ranking, position 2: expected [id, label, grade], got a dict"),
    ({"id": "b", "label": "B"}, "ranking, position 2: expected [id, label, grade], got a dict"),
    ("b", "ranking, position 2: expected [id, label, grade], got 'b'"),
    (None, "ranking, position 2: expected [id, label, grade], got None"),
])
def test_a_bad_row_is_refused_naming_its_place(row, reason):
    assert refusal_of(ranking=ranked(row)) == "Not applied: " + reason


@pytest.mark.parametrize(("changes", "reason"), [
    ({"tray": rows(X, A)}, "query 1 'q', not retrieved, position 2: id 'a' appears twice"),   # in both lists
    ({"ranking": None}, "ranking: expected a list, got None"),
    ({"ranking": "a,b,c"}, "ranking: expected a list, got 'a,b,c'"),
    ({"ranking": {"a": 1}}, "ranking: expected a list, got a dict"),
    ({"tray": 3}, "not retrieved: expected a list, got 3"),
    ({"ranking": [["n", "N", 0]] * 1001}, "ranking: 1,001 items is too many (at most 1,000)"),
    ({"tray": [[f"t{n}", "T", 0] for n in range(1001)]}, "not retrieved: 1,001 items is too many (at most 1,000)"),
])
def test_bad_lists_are_refused(changes, reason):
    assert refusal_of(**changes) == "Not applied: " + reason


def test_an_event_missing_its_lists_is_refused():
    for missing in ("ranking", "tray"):
        sent = event(1, 0)
        del sent[missing]
        where = "ranking" if missing == "ranking" else "not retrieved"
        assert refusals({"events": [sent]}) == [(1, f"Not applied: {where}: expected a list, got None")]
    # an undo or redo that carries one list but not the other
    assert refusals({"events": [{"seq": 1, "base": 0, "op": "undo", "ranking": rows(A, B, C)}]}) == [
        (1, "Not applied: not retrieved: expected a list, got None")]


@pytest.mark.parametrize(("changes", "reason"), [
    ({"op": "drop"}, "Not applied: unknown edit 'drop'"),
    ({"op": None}, "Not applied: unknown edit None"),
    ({"op": ["set"]}, "Not applied: unknown edit a list"),
    ({"op": "SET"}, "Not applied: unknown edit 'SET'"),
    ({"base": None}, "Not applied: the edit names no version of the list"),
    ({"base": "0"}, "Not applied: the edit names no version of the list"),
    ({"base": 0.0}, "Not applied: the edit names no version of the list"),
    ({"base": False}, "Not applied: the edit names no version of the list"),
    ({"base": float("nan")}, "Not applied: the edit names no version of the list"),
    ({"base": 10**400}, STALE),
    ({"base": -1}, STALE),
])
def test_a_bad_operation_or_version_is_refused(changes, reason):
    assert refusal_of(**changes) == reason


def test_an_event_missing_its_operation_or_version_is_refused():
    for missing, reason in (("op", "Not applied: unknown edit None"),
                            ("base", "Not applied: the edit names no version of the list")):
        sent = event(1, 0)
        del sent[missing]
        assert refusals({"events": [sent]}) == [(1, reason)]


@pytest.mark.parametrize("value", [
    None, "junk", 3, [], [event(1, 0)], {"events": None}, {"events": "x"}, {"events": {"1": event(1, 0)}},
    {"other": [event(1, 0)]},
    # events without a sequence number of their own: nothing to answer them with, so left out
    {"events": [None, 1, "x", [], [event(1, 0)], {}]},
    {"events": [{**event(1, 0), "seq": s} for s in (None, "1", 1.0, True, float("nan"), [1])]},
    {"events": [{**event(1, 0), "seq": s} for s in (0, -5)]},   # at or below what was processed
])
def test_a_value_without_readable_events_changes_nothing(value):
    assert read_events(value, 0) == ([], [])
    assert refusals(value) == []


def test_refused_and_applied_events_of_one_request_each_get_their_answer():
    value = {"events": [event(1, 0, ranking=ranked(["b", "B", 11])), {**event(2, 0), "op": "drop"},
                        event(3, 0, ranking=rows(B, A, C)), event(4, 9)]}
    events, refused = read_events(value, 0)
    h = History()
    out = receive(EX, 0, events, version=0, processed=0, history=h)
    assert out.example == with_lists(EX, (B, A, C)) and out.processed == 4 and out.applied == 1
    assert sorted(r.seq for r in refused + out.refused) == [1, 2, 4]


@pytest.mark.parametrize("doc", [
    "doc#1", "a/b", "two words", " leading space", "\u05e9\u05dc\u05d5\u05dd", "\u200fmarked rtl", "zero\u200bwidth",
    "<script>alert(1)</script>", "[x](http://evil.example)", "🐈\u200d⬛", "文書-1",
])
def test_ids_in_the_wild_are_kept_exactly(doc):
    # any printable text is an id (ranklab_ui.core.validation): kept as sent, never stripped or escaped
    h = History()
    out = receive(EX, 0, [event(1, 0, ranking=[[doc, "label <b>", 1], *rows(B, C)])], version=0, processed=0, history=h)
    assert out.refused == [] and out.example.queries[0].ranking[0] == Item(doc, "label <b>", 1)


def test_huge_numbers_never_raise():
    h = History()
    big = 10**400
    events, refused = read_events({"events": [{**event(1, 0), "seq": big}, {**event(2, 0), "seq": big, "base": big}]}, 0)
    out = receive(EX, 0, events, version=0, processed=0, history=h)
    assert out.processed == big and refused == [] and out.refused == []   # the first with that number: no change
    assert read_events({"events": [event(5, 0)]}, big) == ([], [])         # and nothing below it counts again
