"""Diagnose a discrepancy: which conventions make Ranklab print another tool's numbers.

*Check my calculation* (:mod:`.check`) names the mistake behind one learner's number on one
ranking. This module does the same for whole runs: given qrels, a run and the numbers
another tool printed (one aggregate, per-query values, or only the tool's name), it
searches the named conventions of :data:`CONVENTIONS` for the set that reproduces those
numbers, and names per query the convention that moved the value.

:data:`CONVENTIONS` is one declarative table. Each row is a convention with the values to
try; each value says how it is applied — measure parameters (``dcg='exp-log2'``), a
transform of the input (scores kept as doubles, duplicates kept, identical ids dropped,
queries flattened into one list ...) or a keyword of :func:`metrics.evaluate`
(``ties='average'``, used only when this build of :mod:`metrics` accepts it). Adding a
convention is adding a row.

Every evaluation goes through the vectorised formulas of :mod:`metrics.batch` (one
:class:`~metrics.batch.Batch` per convention set, built here from the transformed input),
so nothing here recomputes a measure by hand; a value applied through
:func:`metrics.evaluate` uses the per-query kernels.

The search is bounded (:func:`search`): the default set (trec_eval's), then each value of
each row alone, then pairs of the :data:`MAX_PAIRED` most promising single changes, then a
greedy walk adding one change at a time (at most :data:`MAX_CHANGES` changes), and never
more than :data:`MAX_EVALUATIONS` evaluations in all.

One module per step: :mod:`.table` (the conventions and the tools), :mod:`.data` (the input
joined once, :func:`prepare`), :mod:`.evaluation` (one set's numbers, :func:`evaluate_under`),
:mod:`.search` (:func:`search`); the verdict (:func:`diagnose`, :class:`Diagnosis`) is here,
and every name is imported from here.

Examples
--------
pytrec_eval#56: two documents tie on score; trec_eval ranks ``b`` above ``a`` (doc id
descending), a tool keeping the input order ranks ``a`` first. Their RR of 1 is reproduced
by the input order:

>>> qrels = {"q1": {"a": 1}}
>>> run = {"q1": {"a": 0.5, "b": 0.5}}
>>> d = diagnose(qrels, run, "RR", theirs=Theirs(aggregate=number("1.0")))
>>> d.matched, [c.option.value for c in d.changes]
(True, ['input'])
>>> d.baseline.aggregate, d.found.aggregate  # 1/2 under trec_eval, 1/1 in input order
(0.5, 1.0)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ...batch import BATCH_FAMILIES
from ...io.theirs import EXACT, Number, Theirs, number
from ...measures import Measure, parse
from .data import Prepared, prepare
from .evaluation import Outcome, evaluate_under
from .evaluation import _settings as _settings
from .evaluation import _via_evaluate as _via_evaluate
from .search import MAX_CHANGES, MAX_EVALUATIONS, MAX_PAIRED, Change, search
from .search import applicable as applicable
from .table import _ROWS, CONVENTIONS, TOOL_NOTES, TOOLS, Convention, Option, available, tool_name
from .table import _o as _o

__all__ = ["Option", "Convention", "CONVENTIONS", "TOOLS", "Change", "Outcome", "QueryRow", "Diagnosis",
           "Prepared", "prepare", "diagnose", "search", "evaluate_under", "available", "Theirs", "number",
           "MAX_EVALUATIONS", "MAX_PAIRED", "MAX_CHANGES", "tool_name", "to_dict"]


@dataclass(frozen=True)
class QueryRow:
    """One query: Ranklab's default value, theirs (if given), the value under the conventions
    found, the residual (theirs - found), whether it matches, and the changes that moved it."""

    qid: str
    ours: float | None
    theirs: Number | None
    found: float | None
    moved_by: tuple[str, ...]

    @property
    def residual(self) -> float | None:
        if self.theirs is None or self.found is None:
            return None
        return self.theirs.value - self.found

    @property
    def matches(self) -> bool | None:
        if self.theirs is None:
            return None
        return self.found is not None and self.theirs.matches(self.found)


@dataclass(frozen=True)
class Diagnosis:
    """The verdict: the measure, the changes found (from trec_eval's defaults), whether they
    reproduce their numbers, other sets that do as well, per-query rows, and notes."""

    measure: str
    tool: str | None
    matched: bool
    changes: tuple[Change, ...]
    alternatives: tuple[tuple[Change, ...], ...]
    baseline: Outcome
    found: Outcome
    theirs: Theirs | None
    rows: tuple[QueryRow, ...]
    evaluations: int
    notes: tuple[str, ...]

    @property
    def rounding(self) -> float | None:
        """The widest printed precision a match needed (their numbers rounded), or None when
        every number matched exactly.

        >>> d = diagnose({"q": {"a": 1, "b": 1, "c": 1}}, {"q": ["a", "x", "b"]}, "AP",
        ...              theirs=Theirs(aggregate=number("0.5556")))  # (1 + 2/3) / 3 = 0.55555...
        >>> d.rounding, d.verdict
        (5e-05, "Ranklab's default conventions (trec_eval's) already reproduce their numbers, within the precision they were printed with (±5e-05).")
        """
        if self.theirs is None or not self.matched:
            return None
        pairs = [(n, self.found.per_query.get(q)) for q, n in self.theirs.per_query.items()]
        if self.theirs.aggregate is not None:
            pairs.append((self.theirs.aggregate, self.found.aggregate))
        needed = [n.tolerance for n, x in pairs if x is not None and abs(x - n.value) > EXACT]
        return max(needed) if needed else None

    @property
    def verdict(self) -> str:
        """One plain sentence."""
        def names(changes):
            return "; ".join(f"{c.convention.title}: {c.option.label}" for c in changes)

        if self.tool is not None and self.theirs is None:
            moving = {name for r in self.rows for name in r.moved_by}
            effective = [c for c in self.changes if str(c) in moving]
            idle = [c for c in self.changes if str(c) not in moving]
            if not effective:
                text = f"{self.tool} gives the same {self.measure} as Ranklab's default (trec_eval) on this input."
            else:
                text = f"{self.tool} differs from trec_eval here through {names(effective)}."
            if idle:
                text += f" It also uses {names(idle)} (no effect on this input)."
            return text
        rounded = self.rounding
        within = f", within the precision they were printed with (±{rounded:g})" if rounded else ""
        if self.matched and not self.changes:
            return f"Ranklab's default conventions (trec_eval's) already reproduce their numbers{within}."
        if self.matched:
            others = len(self.alternatives) - 1
            more = f" ({others} other set{'s' if others > 1 else ''} reproduce{'' if others > 1 else 's'} them too)" \
                if others else ""
            return f"Reproduced with {names(self.changes)}{more}{within}."
        text = "No set of conventions tried reproduces their numbers. Closest: " + (names(self.changes) or
                                                                                    "the defaults") + "."
        if self.theirs.aggregate is not None:
            residual = self.theirs.aggregate.value - self.found.aggregate
            text += f" Their aggregate minus the closest: {residual:+.4g}."
        if self.theirs.per_query:
            differ = sum(1 for r in self.rows if r.matches is False)
            text += f" {differ} of {len(self.theirs.per_query)} per-query values still differ."
        return text


def diagnose(qrels, run, measure, *, theirs: Theirs | None = None, tool: str | None = None,
             prepared: Prepared | None = None) -> Diagnosis:
    """Find the conventions behind another tool's numbers, or show a named tool's conventions.

    Parameters
    ----------
    qrels, run
        As for :func:`prepare` (ignored when ``prepared`` is given).
    measure : str or Measure
    theirs : Theirs, optional
        Their numbers: per-query values and/or the aggregate.
    tool : str, optional
        A name of :data:`TOOLS`: without ``theirs``, the tool's conventions are applied and
        every query the tool would score differently is listed with the conventions that
        move it; with ``theirs``, the search starts as usual and the tool is only named.

    Examples
    --------
    beir#91, in small: with ``ignore_identical_ids`` BEIR drops the document whose id is the
    query id. Query ``q1`` retrieves itself first, then its relevant document ``a``:
    RR = 1/2 for trec_eval, 1 for BEIR.

    >>> d = diagnose({"q1": {"a": 1}}, {"q1": ["q1", "a"]}, "RR", tool="BEIR")
    >>> d.verdict.split(" (BEIR")[0]
    'BEIR differs from trec_eval here through documents whose id is the query id: ignored'
    >>> [(r.qid, r.ours, r.found, r.moved_by) for r in d.rows]
    [('q1', 0.5, 1.0, ('identical=ignored',))]
    """
    m = parse(measure)
    if m.name not in BATCH_FAMILIES:
        raise ValueError(f"measure: cannot diagnose {m}")
    p = prepared if prepared is not None else prepare(qrels, run)
    name = None
    if tool is not None:
        name = tool_name(tool)
        if name is None:
            raise ValueError(f"tool must be one of {', '.join(TOOLS)}, got {str(tool)[:40]!r}")
    baseline = evaluate_under(p, m, [])
    if theirs is None:
        if name is None:
            raise ValueError("give their numbers or a tool name")
        return _tool_diagnosis(p, m, name, baseline)
    if theirs.empty:
        raise ValueError("their numbers are empty")
    sets, best, evaluations, notes = search(p, m, theirs, evaluate=evaluate_under)
    found = evaluate_under(p, m, [c.option for c in best])
    rows = _rows_of(p, m, best, baseline, found, theirs)
    return Diagnosis(str(m), name, bool(sets), tuple(best), tuple(sets), baseline, found, theirs, rows,
                     evaluations, tuple(notes))


def _tool_diagnosis(p: Prepared, m: Measure, name: str, baseline: Outcome) -> Diagnosis:
    changes, notes = [], []
    for key, value in TOOLS[name]:
        if isinstance(value, Mapping):  # a rule that depends on the measure
            value = value.get(m.name, value["*"])
        c = _ROWS[key]
        if c.families is not None and m.name not in c.families:
            continue
        option = next(o for o in c.options if o.value == value)
        why = available(option)
        if why:
            notes.append(f"{name} uses {c.title} — {option.label}: {why}; its numbers can differ on tied "
                         "scores" if key == "ties" else f"{name} uses {option.label}: {why}")
            continue
        changes.append(Change(c, option))
    if name in TOOL_NOTES:
        notes.append(TOOL_NOTES[name])
    found = evaluate_under(p, m, [c.option for c in changes])
    rows = _rows_of(p, m, tuple(changes), baseline, found, None)
    return Diagnosis(str(m), name, True, tuple(changes), (tuple(changes),), baseline, found, None, rows, 1 + len(changes),
                     tuple(notes))


def _rows_of(p, m, changes, baseline: Outcome, found: Outcome, theirs: Theirs | None) -> tuple[QueryRow, ...]:
    """Per query: which change moved the value (leave each change out: did the value move?)."""
    without = {}
    for c in changes:
        rest = [x.option for x in changes if x is not c]
        try:
            without[str(c)] = evaluate_under(p, m, rest).per_query
        except ValueError:
            without[str(c)] = {}
    qids = list(found.per_query) + [q for q in baseline.per_query if q not in found.per_query]
    if theirs is not None:
        qids += [q for q in theirs.per_query if q not in found.per_query and q not in baseline.per_query]
    rows = []
    for qid in qids:
        mine, new = baseline.per_query.get(qid), found.per_query.get(qid)
        moved = tuple(name for name, values in without.items() if values.get(qid) != new)
        their = theirs.per_query.get(qid) if theirs is not None else None
        if theirs is None and mine == new:
            continue  # a tool's view lists the queries it scores differently
        rows.append(QueryRow(qid, mine, their, new, moved if mine != new else ()))
    return tuple(rows)


def explain_convention(key: str) -> Convention:
    """The row called ``key`` (ValueError listing the rows otherwise)."""
    try:
        return _ROWS[key]
    except KeyError:
        raise ValueError(f"convention must be one of {', '.join(_ROWS)}, got {key!r}") from None


def to_dict(d: Diagnosis) -> dict:
    """A diagnosis as plain JSON-ready data (``ranklab diagnose --format json``)."""
    def change(c: Change) -> dict:
        return {"convention": c.convention.key, "value": c.option.value, "title": c.convention.title,
                "label": c.option.label, "why": c.explanation}

    def num(n: Number | None):
        return None if n is None else {"value": n.value, "printed": n.text, "tolerance": n.tolerance}

    return {
        "measure": d.measure, "tool": d.tool, "verdict": d.verdict, "reproduced": d.matched if d.theirs else None,
        "changes": [change(c) for c in d.changes],
        "alternatives": [[change(c) for c in alt] for alt in d.alternatives[1:]],
        "aggregate": {"ranklab": d.baseline.aggregate, "found": d.found.aggregate,
                      "theirs": num(d.theirs.aggregate) if d.theirs else None},
        "per_query": [{"query": r.qid, "ranklab": r.ours, "theirs": num(r.theirs), "found": r.found,
                       "residual": r.residual, "matches": r.matches, "moved_by": list(r.moved_by)}
                      for r in d.rows],
        "evaluations": d.evaluations, "notes": list(d.notes),
    }
