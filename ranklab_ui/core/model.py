"""The example every page works on: queries of ranked items, the cutoff ``k`` and the mode.

An :class:`Example` holds queries; each :class:`Query` has a ranked list of :class:`Item`
and a tray of judged documents the system did not retrieve. The mode says how grades are
read (``"binary"``: every positive grade counts as 1; ``"graded"``: grades as given). The
model is immutable (frozen dataclasses) and knows nothing of Streamlit; it converts itself
to the ``(qrels, run)`` that :mod:`metrics` reads (:meth:`Example.qrels_run`).

Validation is :func:`ranklab_ui.core.validation.validate`, the link codec :mod:`ranklab_ui.core.codec`, the presets
:mod:`ranklab_ui.core.presets` and the session (which example is current) :mod:`ranklab_ui.session.state`.

>>> ex = Example((Query("q", (Item("a", "A", 2), Item("b", "B", 0))), Query("q", (Item("c", "C", 1),))))
>>> ex.qrels_run()   # two queries named "q" stay two: each has its own id
({'q1': {'a': 1, 'b': 0}, 'q2': {'c': 1}}, {'q1': ['a', 'b'], 'q2': ['c']})
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

__all__ = ["Item", "Query", "Example", "MODES", "effective_k", "item_rows", "next_id", "items_from_rows"]

MODES = ("binary", "graded")


@dataclass(frozen=True)
class Item:
    """One document: a stable ``id`` (what metrics see), a ``label`` shown to people, a grade
    (``None``: unjudged, shown as ``?``; like trec_eval's −1, it is not in the judgments)."""

    id: str
    label: str
    grade: int | None = 0


@dataclass(frozen=True)
class Query:
    """One query: its ranked ``ranking`` (best first) and the ``tray`` of judged documents
    that were not retrieved. ``groups`` (the AutoRAG study notes') optionally lists groups of ids of which
    any one satisfies the group; then :mod:`metrics.grouped` applies too."""

    name: str
    ranking: tuple[Item, ...] = ()
    tray: tuple[Item, ...] = ()
    groups: tuple[tuple[str, ...], ...] | None = None

    def inputs(self, mode: str = "graded") -> tuple[list[str], dict[str, int]]:
        """``(ranking, judgments)`` for :func:`metrics.explain`.

        Grade 0 is judged not relevant; an unjudged item (grade ``None``) is left out of the
        judgments, as a document trec_eval finds in no qrels line. In ``"binary"`` mode every
        positive grade becomes 1.

        >>> q = Query("q", (Item("a", "A", 3), Item("b", "B", 0), Item("u", "U", None)), (Item("c", "C", 2),))
        >>> q.inputs("graded")
        (['a', 'b', 'u'], {'a': 3, 'b': 0, 'c': 2})
        >>> q.inputs("binary")[1]
        {'a': 1, 'b': 0, 'c': 1}
        """
        binary = mode == "binary"
        judgments = {}
        for item in (*self.ranking, *self.tray):
            if item.grade is None:
                continue
            judgments[item.id] = (1 if item.grade > 0 else 0) if binary else item.grade
        return [item.id for item in self.ranking], judgments

    def labels(self) -> dict[str, str]:
        """Doc id → label, for tables that show what each id stands for."""
        return {item.id: item.label for item in (*self.ranking, *self.tray)}

    def group_lists(self) -> list[list[str]]:
        """The groups as lists, for :mod:`metrics.grouped` (empty when there are none)."""
        return [list(g) for g in (self.groups or ())]


@dataclass(frozen=True)
class Example:
    """The shared example: queries, the cutoff ``k``, the mode, and which query is current."""

    queries: tuple[Query, ...]
    k: int = 5
    mode: str = "binary"
    current: int = 0

    @property
    def query(self) -> Query:
        """The current query."""
        return self.queries[self.current]

    def query_ids(self) -> list[str]:
        """Each query's id in :meth:`qrels_run`: ``q1``, ``q2``, … by position (names may repeat)."""
        return [f"q{i}" for i in range(1, len(self.queries) + 1)]

    def query_names(self) -> dict[str, str]:
        """Query id → name, to show beside the ids of :meth:`qrels_run`.

        >>> Example((Query("cat"), Query("cat"))).query_names()
        {'q1': 'cat', 'q2': 'cat'}
        """
        return dict(zip(self.query_ids(), (q.name for q in self.queries), strict=True))

    def qrels_run(self) -> tuple[dict[str, dict[str, int]], dict[str, list[str]]]:
        """``(qrels, run)`` for :func:`metrics.evaluate`, read in the example's mode.

        Queries are keyed by :meth:`query_ids`, never by name, so two queries with one name
        both count; :meth:`query_names` gives the names to show.

        >>> ex = Example((Query("cat", (Item("a", "A", 3), Item("b", "B", 0))),), mode="binary")
        >>> ex.qrels_run()
        ({'q1': {'a': 1, 'b': 0}}, {'q1': ['a', 'b']})
        """
        qrels, run = {}, {}
        for qid, query in zip(self.query_ids(), self.queries, strict=True):
            run[qid], qrels[qid] = query.inputs(self.mode)
        return qrels, run


def effective_k(example: Example, query: Query | None = None) -> int:
    """``k`` clipped to the length of the query's ranking (at least 1).

    >>> q = Query("q", tuple(Item(str(i), "", 0) for i in range(8)))
    >>> effective_k(Example((q,), k=2)), effective_k(Example((q,), k=50)), effective_k(Example((Query("e"),)))
    (2, 8, 1)
    """
    q = example.query if query is None else query
    return max(1, min(example.k, len(q.ranking)))


def item_rows(items: Iterable[Item]) -> list[dict]:
    """Rows for a table of items: id, label, grade.

    >>> item_rows([Item("a", "A", 1)])
    [{'id': 'a', 'label': 'A', 'grade': 1}]
    """
    return [{"id": i.id, "label": i.label, "grade": i.grade} for i in items]


def next_id(query: Query) -> str:
    """A fresh document id for a new item of ``query`` (``d<n>``, the first free n).

    >>> next_id(Query("q", (Item("d1", "", 1), Item("d3", "", 0)), (Item("d2", "", 1),)))
    'd4'
    """
    used = {i.id for i in (*query.ranking, *query.tray)}
    n = 1
    while f"d{n}" in used:
        n += 1
    return f"d{n}"


def items_from_rows(rows: Iterable[Mapping], reserved: Iterable[str] = (), prefix: str = "n") -> tuple[Item, ...]:
    """Items from edited table rows (dicts with label, grade and maybe id).

    A row without an id (a row just added in an editor) gets ``<prefix><n>``, the first n
    not in ``reserved`` nor used by another row, so the same edits always give the same ids.
    Labels and grades are not checked here: :func:`ranklab_ui.session.state.set_example` validates them.

    >>> rows = [{"id": "d1", "label": "x", "grade": 1}, {"label": "new", "grade": 2}]
    >>> [i.id for i in items_from_rows(rows, reserved={"n1"})]
    ['d1', 'n2']
    """
    rows = list(rows)
    used = set(reserved)
    missing = set()
    for n, row in enumerate(rows):
        doc = row.get("id")
        if doc is None or (isinstance(doc, float) and math.isnan(doc)) or str(doc).strip() == "":
            missing.add(n)
        else:
            used.add(str(doc))
    out: list[Item] = []
    fresh = 1
    for n, row in enumerate(rows):
        doc = row.get("id")
        if n in missing:
            while f"{prefix}{fresh}" in used:
                fresh += 1
            doc = f"{prefix}{fresh}"
            used.add(doc)
        out.append(Item(str(doc), row.get("label"), row.get("grade")))
    return tuple(out)
