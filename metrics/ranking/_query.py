"""The prepared form of one query that every kernel reads."""

from __future__ import annotations

import numpy as np

from ..explain import Explanation, frac, join_terms, num

__all__ = ["Query", "Explanation", "frac", "join_terms", "num", "base_columns", "label", "ratio"]


class Query:
    """One ranking (already ordered and validated) with its judgments.

    ``grades[i]`` is the grade of the document at rank i + 1 (0 when unjudged) and
    ``judged[i]`` whether it appears in the judgments at all. A document is relevant for
    a binary measure when it is judged and its grade is at least ``rel``, so a grade of
    -1 (pooled but never judged) is never relevant.
    """

    __slots__ = ("docs", "judgments", "grades", "judged", "all_grades", "subtopics", "tie_rule", "groups", "_looked")

    def __init__(self, docs: list[str], judgments: dict[str, int],
                 subtopics: dict[str, dict[str, int]] | None = None,
                 tie_rule: str | None = None, groups: np.ndarray | None = None):
        self.docs = docs
        self.subtopics = subtopics  # doc -> {subtopic: grade}, for alpha_nDCG
        # tie-aware scoring: "average" (McSherry & Najork 2008) or "threshold" (sklearn's AP),
        # with groups[i] the tie group of rank i + 1 (0, 0, 1, 2, 2, ...); None: ties broken
        self.tie_rule = tie_rule if groups is not None else None
        self.groups = groups
        self.judgments = judgments
        n = len(docs)
        looked = list(map(judgments.get, docs))  # (map: a million lookups at C speed)
        self._looked = looked
        self.judged = np.fromiter((g is not None for g in looked), dtype=bool, count=n)
        self.grades = np.fromiter((0 if g is None else g for g in looked), dtype=np.int64, count=n)
        self.all_grades = np.fromiter(judgments.values(), dtype=np.int64, count=len(judgments))

    def averaged(self, values: np.ndarray) -> np.ndarray:
        """Per-rank values averaged within each tie group under ``ties='average'`` (the
        expected value at each rank over every order of the tied documents); as they are
        otherwise. ``values`` covers the whole ranking."""
        if self.tie_rule != "average":
            return values
        return group_mean(values, self.groups)

    def depth(self, cutoff) -> int:
        """How many ranks a measure with this cutoff looks at."""
        return len(self.docs) if cutoff is None else min(int(cutoff), len(self.docs))

    def relevant(self, rel: int) -> np.ndarray:
        return self.judged & (self.grades >= rel)

    def num_rel(self, rel: int) -> int:
        return int(np.count_nonzero(self.all_grades >= rel))

    def grade_column(self, n: int) -> list:
        """Grades of the top n as Python values, None for unjudged documents."""
        return self._looked[:n]


def base_columns(q: Query, n: int, rel: int | None = None) -> dict:
    """rank, doc, grade (and relevant, hits when ``rel`` is given) for the top n."""
    cols = {"rank": list(range(1, n + 1)), "doc": q.docs[:n], "grade": q.grade_column(n)}
    if rel is not None:
        relevant = q.relevant(rel)
        if q.tie_rule == "average":  # the chance that rank i holds a relevant document
            relevant = q.averaged(relevant.astype(np.float64))
        relevant = relevant[:n]
        cols["relevant"] = relevant.tolist()
        cols["hits"] = np.cumsum(relevant).tolist()
    return cols


def group_mean(values: np.ndarray, groups: np.ndarray) -> np.ndarray:
    """Each value replaced by the mean of its group.

    >>> group_mean(np.array([1.0, 0.0, 0.0, 1.0]), np.array([0, 0, 1, 2]))
    array([0.5, 0.5, 0. , 1. ])
    """
    values = np.asarray(values, dtype=np.float64)
    if values.size == 0:
        return values
    sums = np.bincount(groups, weights=values)
    return (sums / np.bincount(groups))[groups]


def group_bounds(groups: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each rank, how many documents come before its tie group, and the group's size.

    >>> group_bounds(np.array([0, 0, 1, 2, 2, 2]))
    (array([0, 0, 2, 3, 3, 3]), array([2, 2, 1, 3, 3, 3]))
    """
    if groups.size == 0:
        return groups.copy(), groups.copy()
    sizes = np.bincount(groups)
    starts = np.cumsum(sizes) - sizes
    return starts[groups], sizes[groups]


def label(measure) -> str:
    """The measure as a LaTeX left-hand side: ``nDCG(dcg='exp-log2')@3`` → ``\\mathrm{nDCG}@3``."""
    head = r"\mathrm{" + measure.name + "}"
    if measure.cutoff is None:
        return head
    cutoff = measure.cutoff
    return head + "@" + (f"{cutoff:g}" if isinstance(cutoff, float) else str(cutoff))


def ratio(a, b):
    """a / b, and 0 where b is 0 (a measure whose denominator is 0 scores 0).

    On numbers or elementwise on arrays, for the kernels and the batch path alike.

    >>> ratio(1, 4), ratio(3, 0)
    (0.25, 0.0)
    >>> ratio(np.array([1.0, 2.0]), np.array([2, 0]))
    array([0.5, 0. ])
    """
    a = np.asarray(a, dtype=np.float64)
    b = np.asarray(b, dtype=np.float64)
    out = np.divide(a, b, out=np.zeros(np.broadcast(a, b).shape), where=b != 0)
    return out if out.ndim else float(out)
