"""What the ranking editor sends, and the one rule that orders it (``docs/editing.md``).

The editor (:mod:`ranklab_ui.widgets.ranking_editor`) applies an edit in the browser at once,
then sends it as an **event**: the whole list of one query (ranking and tray: ids, labels,
grades, order), the **version** of the lists it was made on, and a **sequence number**. It
keeps every event the server has not yet said it processed, and sends them all each time, so
a request that the server reads together with the next one loses nothing.

The server (this module, without Streamlit) takes the events in sequence order, each once:

- an event whose ``base`` is not the server's version was made on a list that a change on the
  server (a preset, a paste, a link, an undo the editor could not foresee) has replaced since:
  it is **refused**, with its reason, never applied to the other list;
- ``set``: the lists are checked (:func:`read_lists`) and applied, or refused with the reason;
- ``undo`` / ``redo`` that carry lists: the editor foresaw the step (the server sent it the
  steps it can take, :func:`foreseen`); applied when history's step gives exactly those lists,
  and the version stays, so the edits made after it in the browser still apply;
- ``undo`` / ``redo`` without lists: a change on the server, which makes a new version.

An applied ``set`` keeps the version: the editor made it, and already shows it.

>>> from ranklab_ui.core.model import Example, Item, Query
>>> ex = Example((Query("q", (Item("a", "A", 1), Item("b", "B", 0))),))
>>> event = {"seq": 1, "base": 0, "op": "set", "ranking": [["b", "B", 2], ["a", "A", 1]], "tray": []}
>>> out = receive(ex, 0, [event], version=0, processed=0, history=History())
>>> [(i.id, i.grade) for i in out.example.queries[0].ranking], out.version, out.processed, out.refused
([('b', 2), ('a', 1)], 0, 1, [])
>>> late = {"seq": 2, "base": 0, "op": "set", "ranking": [["a", "A", 0]], "tray": []}
>>> receive(ex, 0, [late], version=1, processed=1, history=History()).refused[0].seq   # made before version 1
2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from numbers import Integral

from .history import History
from .i18n import N_, _
from .model import Example, Item
from .validation import LIMITS, ExampleError, shown, validate

__all__ = ["OPS", "MOST_EVENTS", "Refusal", "Outcome", "read_events", "read_lists", "receive", "foreseen",
           "FORESEE", "item_rows", "STALE"]

OPS = ("set", "undo", "redo")
MOST_EVENTS = 200       # events read from one value: more is no person's typing between two runs
FORESEE = 5             # undo and redo steps the editor is sent, to take them in the same frame

STALE = N_("Not applied: this edit was made on the list as it was before {what} replaced it. "
           "The list shown now is the current one.")
OTHER_CHANGE = N_("another change (a preset, a paste, a link or an undo)")


@dataclass(frozen=True)
class Refusal:
    """An event the server did not apply, and why (shown in the editor and above the page)."""

    seq: int
    reason: str


@dataclass
class Outcome:
    """What :func:`receive` made of a batch of events."""

    example: Example
    version: int
    processed: int
    refused: list[Refusal] = field(default_factory=list)
    applied: int = 0


def item_rows(items: Sequence[Item]) -> list[list]:
    """Items as the editor gets and sends them: ``[id, label, grade]`` (grade None: unjudged).

    >>> item_rows([Item("a", "A", None)])
    [['a', 'A', None]]
    """
    return [[i.id, i.label, i.grade] for i in items]


def _is_int(value) -> bool:
    return isinstance(value, Integral) and not isinstance(value, bool)


def read_events(value, processed: int) -> tuple[list[dict], list[Refusal]]:
    """The events of a component value (``{"events": [...]}``) not processed yet, in sequence
    order, each once; a malformed one is refused (when it has a sequence number) or left out.

    >>> read_events({"events": [{"seq": 3, "base": 0, "op": "undo"}, {"seq": 2, "base": 0, "op": "redo"},
    ...                         {"seq": 1, "base": 0, "op": "undo"}]}, processed=1)[0]
    [{'seq': 2, 'base': 0, 'op': 'redo'}, {'seq': 3, 'base': 0, 'op': 'undo'}]
    >>> read_events({"events": [{"seq": 4, "base": 0, "op": "drop"}]}, 0)[1][0].reason
    "Not applied: unknown edit 'drop'"
    >>> read_events("junk", 0)
    ([], [])
    """
    events = value.get("events") if isinstance(value, dict) else None
    if not isinstance(events, list):
        return [], []
    first: dict[int, dict] = {}   # the first event of each sequence number: a number is one edit
    for event in events[-MOST_EVENTS:]:
        if isinstance(event, dict) and _is_int(event.get("seq")) and event["seq"] > processed:
            first.setdefault(event["seq"], event)
    fresh, refused = [], []
    for seq in sorted(first):
        event = first[seq]
        if event.get("op") not in OPS:
            refused.append(Refusal(seq, _("Not applied: unknown edit {op}").format(op=shown(event.get("op")))))
        elif not _is_int(event.get("base")):
            refused.append(Refusal(seq, _("Not applied: the edit names no version of the list")))
        else:
            fresh.append(event)
    return fresh, refused


def _row(raw, where: str) -> Item:
    """One row as the editor sends it, ``[id, label, grade]``: three fields, none of them left
    to a default (a row missing its grade is refused, not read as unjudged)."""
    if not isinstance(raw, list | tuple) or len(raw) != 3:
        raise ExampleError(_("{where}: expected [id, label, grade], got {value}").format(where=where, value=shown(raw)))
    doc, label, grade = raw
    if not isinstance(doc, str):
        raise ExampleError(_("{where}: the id must be text, got {value}").format(where=where, value=shown(doc)))
    if not isinstance(label, str):
        raise ExampleError(_("{where}: the label must be text, got {value}").format(where=where, value=shown(label)))
    if grade is not None and not _is_int(grade):
        raise ExampleError(_("{where}: the grade must be a whole number or unjudged, got {value}").format(
            where=where, value=shown(grade)))
    return Item(doc, label, grade)


def read_lists(example: Example, index: int, ranking, tray) -> Example:
    """``example`` with query ``index``'s ranking and tray replaced by the lists an editor sent,
    checked as any input is: the shape of every row, then the whole example
    (:func:`ranklab_ui.core.validation.validate`: ids, labels, grades, sizes). Each id appears
    once; an id the query had may be gone (a result removed), a new one added. Raises
    :class:`~ranklab_ui.core.validation.ExampleError` naming the row.

    >>> from ranklab_ui.core.model import Example, Item, Query
    >>> ex = Example((Query("q", (Item("a", "A", 1),)),))
    >>> read_lists(ex, 0, [["a", "A", 1]], [["a", "A", 1]])
    Traceback (most recent call last):
    ...
    ranklab_ui.core.validation.ExampleError: query 1 'q', not retrieved, position 1: id 'a' appears twice
    >>> read_lists(ex, 0, [["a", "A", 11]], [])
    Traceback (most recent call last):
    ...
    ranklab_ui.core.validation.ExampleError: query 1 'q', ranking, position 1: grade 11 is not allowed: use a whole number from 0 to 10, or ? for unjudged
    """
    if not _is_int(index) or not 0 <= index < len(example.queries):
        raise ExampleError(_("query {n} does not exist").format(n=shown(index)))
    lists = []
    for name, raw in ((_("ranking"), ranking), (_("not retrieved"), tray)):
        if not isinstance(raw, list | tuple):
            raise ExampleError(_("{where}: expected a list, got {value}").format(where=name, value=shown(raw)))
        if len(raw) > LIMITS.items:
            raise ExampleError(_("{where}: {n} items is too many (at most {most})").format(
                where=name, n=f"{len(raw):,}", most=f"{LIMITS.items:,}"))
        lists.append(tuple(_row(row, _("{where}, position {pos}").format(where=name, pos=n))
                           for n, row in enumerate(raw, start=1)))
    queries = list(example.queries)
    queries[index] = replace(queries[index], ranking=lists[0], tray=lists[1])
    return validate(replace(example, queries=tuple(queries)))


def _same_but(a: Example, b: Example, index: int) -> bool:
    """Whether ``a`` and ``b`` differ at most in query ``index``'s ranking and tray."""
    if a.mode != b.mode or len(a.queries) != len(b.queries):
        return False
    return all(x == y if i != index else (x.name, x.groups) == (y.name, y.groups)
               for i, (x, y) in enumerate(zip(a.queries, b.queries, strict=True)))


def foreseen(now: Example, steps: Sequence[Example], index: int, most: int = FORESEE) -> list[list]:
    """The ``[ranking, tray]`` of query ``index`` after each of the next ``steps`` of history
    (newest first), as long as each step changes nothing else: the editor takes those in the
    same frame. Stops at the first that changes more (a preset, the mode): that one is the
    server's to take.

    >>> from ranklab_ui.core.model import Example, Item, Query
    >>> a, b = (Example((Query("q", (Item("x", "X", g),)),)) for g in (0, 1))
    >>> foreseen(b, [a], 0)
    [[[['x', 'X', 0]], []]]
    >>> foreseen(b, [replace(a, mode="graded")], 0)
    []
    """
    out: list[list] = []
    if not 0 <= index < len(now.queries):
        return out
    for step in list(reversed(steps))[:most]:
        if not _same_but(step, now, index):
            break
        q = step.queries[index]
        out.append([item_rows(q.ranking), item_rows(q.tray)])
        now = step
    return out


def receive(example: Example, index: int, events: Sequence[dict], *, version: int, processed: int,
            history: History) -> Outcome:
    """Apply the ``events`` (from :func:`read_events`) of the editor of query ``index`` to
    ``example``, at the server's ``version``, after the ``processed`` sequence number.

    Each applied event is one step of ``history`` (recorded, undone or redone here), as each
    was one step in the editor. The outcome's version is one more for each change the editor
    did not make itself (an undo it could not foresee); its example is validated.

    >>> from ranklab_ui.core.model import Example, Item, Query
    >>> ex = Example((Query("q", (Item("a", "A", 0),)),))
    >>> bad = {"seq": 5, "base": 3, "op": "set", "ranking": [["a", "A", "x"]], "tray": []}
    >>> out = receive(ex, 0, [bad], version=3, processed=4, history=History())
    >>> out.example is ex, out.processed, out.refused[0].reason.endswith("got 'x'")
    (True, 5, True)
    >>> h = History()
    >>> one = {"seq": 6, "base": 3, "op": "set", "ranking": [["a", "A", 1]], "tray": []}
    >>> back = {"seq": 7, "base": 3, "op": "undo", "ranking": [["a", "A", 0]], "tray": []}
    >>> out = receive(ex, 0, [one, back], version=3, processed=5, history=h)
    >>> out.example == ex, out.version, h.can_redo   # foreseen by the editor: the version stays
    (True, 3, True)
    """
    out = Outcome(example, version, processed)
    for event in events:
        seq = event["seq"]
        if seq <= out.processed:
            continue
        out.processed = seq
        if event["base"] != out.version:
            out.refused.append(Refusal(seq, _(STALE).format(what=_(OTHER_CHANGE))))
            continue
        op = event["op"]
        sent = op == "set" or "ranking" in event or "tray" in event
        try:
            lists = read_lists(out.example, index, event.get("ranking"), event.get("tray")) if sent else None
        except ExampleError as err:
            out.refused.append(Refusal(seq, _("Not applied: {error}").format(error=err)))
            continue
        if op == "set":
            if lists != out.example:
                history.record(out.example, lists)
                out.example = lists
                out.applied += 1
            continue
        source = history.done if op == "undo" else history.undone
        if not source:
            out.refused.append(Refusal(seq, _("Not applied: there is nothing to undo") if op == "undo"
                                       else _("Not applied: there is nothing to redo")))
            continue
        step = source[-1]   # looked at before it is taken: a refused step leaves history as it was
        if lists is not None and not (_same_but(step, out.example, index)
                                      and step.queries[index] == lists.queries[index]):
            # the editor foresaw another step than the one history holds
            out.refused.append(Refusal(seq, _(STALE).format(what=_(OTHER_CHANGE))))
            continue
        out.example = (history.undo if op == "undo" else history.redo)(out.example)
        out.applied += 1
        if lists is None:
            out.version += 1   # the server's step: the editor takes it from the reply
    return out
