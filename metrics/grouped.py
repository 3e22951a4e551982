"""Grouped ground truth, as in the AutoRAG study notes.

The ground truth is a list of groups of ids: any id of a group satisfies that group, and
every group should be satisfied. Their example: retrieved ``test-1, Prod-1, test-2,
Prod-2`` against groups ``[[test-1, test-2], [test-3]]``.

>>> ranking = ["test-1", "Prod-1", "test-2", "Prod-2"]
>>> groups = [["test-1", "test-2"], ["test-3"]]
>>> recall(ranking, groups), precision(ranking, groups), f1(ranking, groups)
(0.5, 0.5, 0.5)
>>> round(map(ranking, groups), 4)  # ((1 + 2/3) / 2 + 0) / 2 = 5/12
0.4167
"""

from __future__ import annotations

from . import _check
from .ranking import ratio
from .ranking.dcg import discounts

__all__ = ["precision", "recall", "f1", "mrr", "map", "ndcg"]


def _clean(ranking, groups, k):
    docs = _check.ranking(ranking, "ranking")
    k = _check.positive_int(k, "k")
    if isinstance(groups, str) or not isinstance(groups, list | tuple):
        raise TypeError(f"groups must be a list of lists of ids, got {type(groups).__name__}")
    clean = []
    for i, g in enumerate(groups):
        if isinstance(g, str) or not isinstance(g, list | tuple | set | frozenset):
            raise TypeError(f"groups[{i}] must be a list of ids, got {type(g).__name__}")
        if not g:
            raise ValueError(f"groups[{i}] is empty: a group needs at least one id")
        clean.append(frozenset(_check.doc_id(d, f"groups[{i}]") for d in g))
    return (docs if k is None else docs[:k]), clean


def recall(ranking, groups, *, k: int | None = None) -> float:
    """Share of groups with at least one of their ids retrieved (0 when there are no groups).

    >>> recall(["a", "x"], [["a", "b"], ["c"]])  # the first group found, the second not
    0.5
    """
    docs, gs = _clean(ranking, groups, k)
    found = set(docs)
    return sum(1 for g in gs if g & found) / len(gs) if gs else 0.0


def precision(ranking, groups, *, k: int | None = None) -> float:
    """Share of retrieved ids that belong to some group (0 for an empty ranking).

    >>> precision(["a", "x", "c", "y"], [["a", "b"], ["c"]])  # a and c are in groups
    0.5
    """
    docs, gs = _clean(ranking, groups, k)
    every = frozenset().union(*gs)
    return sum(1 for d in docs if d in every) / len(docs) if docs else 0.0


def f1(ranking, groups, *, k: int | None = None) -> float:
    """Harmonic mean of :func:`precision` and :func:`recall` (0 when both are 0).

    >>> round(f1(["a", "x"], [["a"], ["c"]]), 4)  # P = 1/2, R = 1/2
    0.5
    """
    p, r = precision(ranking, groups, k=k), recall(ranking, groups, k=k)
    return 2 * p * r / (p + r) if p + r else 0.0


def mrr(ranking, groups, *, k: int | None = None) -> float:
    """Mean over groups of 1 / rank of the group's first retrieved id (0 if none).

    The AutoRAG study notes' MRR example: ID-2 at rank 2 and ID-4 at rank 4, each its own group: (1/2 + 1/4) / 2.

    >>> mrr(["ID-1", "ID-2", "ID-3", "ID-4"], [["ID-2"], ["ID-4"]])
    0.375
    """
    docs, gs = _clean(ranking, groups, k)
    total = 0.0
    for g in gs:
        for i, d in enumerate(docs, start=1):
            if d in g:
                total += 1 / i
                break
    return total / len(gs) if gs else 0.0


def map(ranking, groups, *, k: int | None = None) -> float:  # noqa: A001 - the seed's name
    """Mean over groups of the group's average precision.

    A group's AP is the precision at each rank holding one of its ids (counting only that
    group's ids), averaged over the ids found (AutoRAG's reading; 0 if none is found).

    >>> round(map(["t1", "p1", "t2", "p2"], [["t1", "t2"], ["t3"]]), 4)  # (5/6 + 0) / 2
    0.4167
    """
    docs, gs = _clean(ranking, groups, k)
    total = 0.0
    for g in gs:
        hits, precisions = 0, []
        for i, d in enumerate(docs, start=1):
            if d in g:
                hits += 1
                precisions.append(hits / i)
        total += sum(precisions) / len(precisions) if precisions else 0.0
    return total / len(gs) if gs else 0.0


def ndcg(ranking, groups, *, k: int | None = None) -> float:
    """nDCG with binary gains: an id is relevant if it belongs to any group.

    The ideal list puts min(number of ids in all groups, length of the ranking) relevant
    ids first (AutoRAG's reading).

    >>> round(ndcg(["x", "a"], [["a"]]), 4)  # DCG = 1/log2(3), IDCG = 1
    0.6309
    """
    docs, gs = _clean(ranking, groups, k)
    every = frozenset().union(*gs)
    dcg = sum(1 / d for d, doc in zip(discounts(len(docs), "log2").tolist(), docs, strict=True) if doc in every)
    ideal = min(sum(len(g) for g in gs), len(docs))
    idcg = sum(1 / d for d in discounts(ideal, "log2").tolist())
    return ratio(dcg, idcg)
