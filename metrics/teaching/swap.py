"""The swap map: how much each measure changes if the documents at ranks i and j swap.

``delta[i - 1][j - 1]`` is the measure after swapping ranks i and j, minus its value now;
the matrix is symmetric with a zero diagonal. A measure that ignores order within the
top k (P@k) shows zeros inside the k×k block; a top-heavy measure (RR, nDCG) shows its
largest changes in the first rows.

>>> s = swap_matrix("P@2", ["a", "b", "c"], {"a": 1})
>>> s.delta.tolist()  # a leaves the top 2 only when it swaps with c
[[0.0, 0.0, -0.5], [0.0, 0.0, 0.0], [-0.5, 0.0, 0.0]]
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import core
from ..measures import parse_many

__all__ = ["SwapMap", "swap_matrix", "swap_matrices", "MAX_POSITIONS"]

MAX_POSITIONS = 30


@dataclass(frozen=True)
class SwapMap:
    """One measure's swap matrix over the first ``len(docs)`` ranks.

    ``truncated`` is True when the ranking was longer and only its top was mapped.
    """

    measure: str
    docs: tuple[str, ...]
    base: float
    delta: np.ndarray
    truncated: bool = False

    def cells(self) -> list[dict]:
        """Long form for charts: one dict per (i, j) with both documents and the change."""
        n = len(self.docs)
        return [{"i": i + 1, "j": j + 1, "doc_i": self.docs[i], "doc_j": self.docs[j],
                 "delta": float(self.delta[i, j])} for i in range(n) for j in range(n)]

    def largest(self) -> tuple[int, int, float]:
        """The swap (i, j) with the largest absolute change (1-based), first found on ties."""
        n = len(self.docs)
        if n < 2:
            return (1, 1, 0.0)
        upper = np.triu_indices(n, 1)
        k = int(np.argmax(np.abs(self.delta[upper])))
        i, j = int(upper[0][k]), int(upper[1][k])
        return (i + 1, j + 1, float(self.delta[i, j]))


def _positions(n_docs: int, depth) -> tuple[int, bool]:
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
        raise ValueError(f"depth must be a positive integer, got {depth!r}")
    limit = MAX_POSITIONS if depth is None else min(depth, MAX_POSITIONS)
    return min(n_docs, limit), n_docs > limit


def swap_matrices(measures, ranking, judgments, *, depth: int | None = None) -> dict[str, SwapMap]:
    """Swap matrices of several measures over the first ``depth`` ranks (at most 30).

    >>> m = swap_matrices("RR", ["x", "a"], {"a": 1})["RR"]
    >>> m.base, float(m.delta[0, 1])  # a moves from rank 2 to rank 1: RR 1/2 -> 1
    (0.5, 0.5)
    """
    ms = [str(m) for m in parse_many(measures)]
    q = core.prepare(ranking, judgments)
    docs, judged = q.docs, q.judgments
    n, truncated = _positions(len(docs), depth)
    base = core.explain_many(ms, docs, judged)
    deltas = {m: np.zeros((n, n)) for m in ms}
    for i in range(n):
        for j in range(i + 1, n):
            swapped = list(docs)
            swapped[i], swapped[j] = swapped[j], swapped[i]
            after = core.explain_many(ms, swapped, judged)
            for m in ms:
                d = after[m].value - base[m].value
                deltas[m][i, j] = deltas[m][j, i] = 0.0 if abs(d) < 1e-12 else d
    return {m: SwapMap(m, tuple(docs[:n]), base[m].value, deltas[m], truncated) for m in ms}


def swap_matrix(measure, ranking, judgments, *, depth: int | None = None) -> SwapMap:
    """The swap matrix of one measure (see :func:`swap_matrices`)."""
    maps = swap_matrices(measure, ranking, judgments, depth=depth)
    if len(maps) != 1:
        raise ValueError(f"measure: give one measure, got {len(maps)}")
    return next(iter(maps.values()))
