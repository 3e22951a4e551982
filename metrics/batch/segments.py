"""The judged rows of a run as one :class:`Batch`, and the array helpers over its segments.

This is the interface the vectorised engines share: :mod:`metrics.batch` builds a
:class:`Batch` from a run and its judgments, :mod:`metrics.teaching.diagnose` builds one per
convention set from a transformed input, and both hand it to the formulas of
:data:`metrics.batch.BATCH_FAMILIES`. Every array here is sorted by query, so each query's
rows form one contiguous *segment*; the helpers work within segments without a Python loop
over queries.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

__all__ = ["Batch", "cumcount"]


@dataclass
class Batch:
    """The judged part of a run, ready for the measure formulas.

    ``queries``: evaluated query ids (qrels order). ``n_ret[i]``: documents retrieved for
    query i (after ``depth``). ``q``, ``rank``, ``grade``: one entry per judged retrieved
    document, sorted by query then rank. ``qrels_q``, ``qrels_grade``: every judgment of an
    evaluated query.
    """

    queries: list[str]
    n_ret: np.ndarray
    q: np.ndarray
    rank: np.ndarray
    grade: np.ndarray
    qrels_q: np.ndarray
    qrels_grade: np.ndarray
    missing_from_run: list[str]
    missing_from_qrels: list[str]
    _num_rel: dict = field(default_factory=dict, repr=False, compare=False)  # rel -> counts (read-only)

    @property
    def size(self) -> int:
        return len(self.queries)

    def count(self, q: np.ndarray, weights=None) -> np.ndarray:
        return np.bincount(q, weights=weights, minlength=self.size).astype(np.float64)

    def num_rel(self, rel: int) -> np.ndarray:
        if rel not in self._num_rel:  # (several measures ask for the same counts)
            counts = self.count(self.qrels_q[self.qrels_grade >= rel])
            counts.flags.writeable = False
            self._num_rel[rel] = counts
        return self._num_rel[rel]

    def relevant(self, rel: int, cutoff=None) -> np.ndarray:
        mask = self.grade >= rel
        if cutoff is not None:
            mask &= self.rank <= cutoff
        return mask

def cumcount(q: np.ndarray) -> np.ndarray:
    """0, 1, 2, ... within each run of equal values of a sorted array.

    Parameters
    ----------
    q : numpy.ndarray
        Query numbers (or any keys), equal values adjacent.

    Returns
    -------
    numpy.ndarray
        Each entry's position in its segment, as int64.

    Examples
    --------
    >>> cumcount(np.array([0, 0, 0, 2, 2, 5])).tolist()  # segments of 3, 2 and 1 rows
    [0, 1, 2, 0, 1, 0]
    """
    n = len(q)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.r_[True, q[1:] != q[:-1]]
    first = np.maximum.accumulate(np.where(starts, np.arange(n), 0))
    return np.arange(n) - first
