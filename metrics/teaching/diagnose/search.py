"""The search of :mod:`metrics.teaching.diagnose`: the bounded walk through convention sets
for the smallest one that reproduces another tool's numbers (:func:`search`)."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

from ...io.theirs import Theirs
from ...measures import Measure
from ...ranking import TIE_RULES
from .. import check
from .data import Prepared
from .evaluation import Outcome, evaluate_under
from .table import CONVENTIONS, Convention, Option, available

__all__ = ["Change", "applicable", "search", "MAX_EVALUATIONS", "MAX_PAIRED", "MAX_CHANGES"]


MAX_EVALUATIONS = 400  # convention sets evaluated by one search, at most
MAX_PAIRED = 12  # single changes combined in pairs (the best by fit)
MAX_CHANGES = 5  # changes from the default in one set, at most


@dataclass(frozen=True)
class Change:
    """One row set to a value other than its default."""

    convention: Convention
    option: Option

    def __str__(self) -> str:
        return f"{self.convention.key}={self.option.value}"

    @property
    def explanation(self) -> str:
        """Why it moves the value: the explanation of the same rule in *Check my calculation*'s
        catalogue when it has one, else where the convention comes from.

        >>> from metrics.teaching.diagnose import _ROWS
        >>> c = Change(_ROWS["ideal"], _ROWS["ideal"].options[1])
        >>> c.explanation.startswith("The ideal DCG sorts every judged document")
        True
        """
        if self.option.mistake:
            return next(m.explanation for m in check.MISTAKES if m.key == self.option.mistake)
        return f"See {self.convention.source}." if self.convention.source else ""


def applicable(p: Prepared, m: Measure) -> tuple[list[Change], list[str]]:
    """The changes worth trying on this input, and notes on the rows skipped (and why).

    A row that cannot change anything here is skipped: duplicates without any duplicate in
    the run, identical ids without any, missing queries when none is missing, a convention
    of another family. An option this build of metrics lacks is skipped with a note.
    """
    changes, notes = [], []
    for c in CONVENTIONS:
        if c.families is not None and m.name not in c.families:
            continue
        options = c.values(p, m) if c.values else c.options
        inert = {
            "duplicates": not p.has_duplicates and "no document is retrieved twice",
            "identical": not p.identical.any() and "no document id equals its query id",
            "missing": bool(p.in_run.all()) and "every judged query is in the run",
            "flatten": len(p.queries) < 2 and "a single query",
        }.get(c.key)
        if inert:
            notes.append(f"{c.title}: not tried ({inert})")
            continue
        for o in options[1:]:
            rule = o.evaluation.get("ties")
            if rule is not None and m.name not in TIE_RULES.get(rule, ()):
                continue  # a tie rule this measure has no definition for would only fail
            why = available(o)
            if why:
                notes.append(f"{c.title} — {o.label}: {why}")
                continue
            changes.append(Change(c, o))
    return changes, notes


@dataclass(frozen=True)
class _Fit:
    mismatched: int
    residual: float

    def key(self) -> tuple[int, float]:
        return self.mismatched, self.residual


def _fit(outcome: Outcome, theirs: Theirs) -> _Fit:
    bad, residual = 0, 0.0
    if theirs.per_query:
        # only the queries they give: a file of one query's value is not a claim that the
        # other queries are absent (it would otherwise favour "queries flattened into one")
        for qid, their in theirs.per_query.items():
            mine = outcome.per_query.get(qid)
            if mine is None:
                bad += 1
                residual += 1.0
                continue
            r = abs(mine - their.value)
            residual += r
            bad += not their.matches(mine)
    if theirs.aggregate is not None:
        r = abs(outcome.aggregate - theirs.aggregate.value)
        residual += r
        bad += not theirs.aggregate.matches(outcome.aggregate)
    return _Fit(bad, residual)


@dataclass
class _Search:
    p: Prepared
    m: Measure
    theirs: Theirs
    evaluate: Callable[[Prepared, Measure, list[Option]], Outcome] = evaluate_under
    evaluations: int = 0
    cache: dict = field(default_factory=dict)

    def run(self, changes: tuple[Change, ...]) -> tuple[Outcome, _Fit] | None:
        key = tuple(sorted(str(c) for c in changes))
        if key in self.cache:
            return self.cache[key]
        if self.evaluations >= MAX_EVALUATIONS:
            return None
        self.evaluations += 1
        try:
            outcome = self.evaluate(self.p, self.m, [c.option for c in changes])
        except ValueError:
            result = None
        else:
            result = (outcome, _fit(outcome, self.theirs))
        self.cache[key] = result
        return result


def search(p: Prepared, m: Measure, theirs: Theirs, *,
           evaluate: Callable[[Prepared, Measure, list[Option]], Outcome] = evaluate_under,
           ) -> tuple[list[tuple[Change, ...]], tuple[Change, ...], int, list[str]]:
    """The convention sets that reproduce ``theirs`` (the smallest found), the closest set
    when none does, the number of sets evaluated, and notes on the rows skipped.

    Bounded: the default; each change alone; pairs among the :data:`MAX_PAIRED` best single
    changes; then from the best set so far, add the change that improves the fit most, up to
    :data:`MAX_CHANGES` changes; at most :data:`MAX_EVALUATIONS` sets in all. The fit is
    (numbers not reproduced, sum of absolute residuals), smaller is better.

    ``evaluate`` evaluates one set (:func:`evaluate_under` unless given):
    :func:`metrics.teaching.diagnose.diagnose` passes the one it calls itself, so that
    every set of a diagnosis goes through one function that a caller can wrap.
    """
    changes, notes = applicable(p, m)
    s = _Search(p, m, theirs, evaluate)
    base = s.run(())
    if base is not None and base[1].mismatched == 0:
        return [()], (), s.evaluations, notes

    def rank(sets):
        scored = [(r[1].key(), len(c), c) for c in sets if (r := s.run(c)) is not None]
        return sorted(scored, key=lambda t: (t[0], t[1]))

    singles = rank([(c,) for c in changes])
    hits = [c for key, _, c in singles if key[0] == 0]
    if hits:
        return hits, hits[0], s.evaluations, notes
    promising = [c[0] for key, _, c in singles][:MAX_PAIRED]
    pairs = [(a, b) for a, b in itertools.combinations(promising, 2) if a.convention.key != b.convention.key]
    ranked = rank(pairs)
    hits = [c for key, _, c in ranked if key[0] == 0]
    if hits:
        return hits, hits[0], s.evaluations, notes
    every = ranked + singles + [((base[1].key() if base else (10**9, 0.0)), 0, ())]
    best_key, _, best = min(every, key=lambda t: (t[0], t[1]))
    while len(best) < MAX_CHANGES:
        used = {c.convention.key for c in best}
        options = [tuple(best) + (c,) for c in changes if c.convention.key not in used]
        step = rank(options)
        if not step or step[0][0] >= best_key:
            break
        best_key, _, best = step[0]
        if best_key[0] == 0:
            return [best], best, s.evaluations, notes
    return [], best, s.evaluations, notes
