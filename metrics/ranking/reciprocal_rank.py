"""Reciprocal rank: 1 / rank of the first relevant document.

trec_eval's ``recip_rank`` has no cutoff; ``RR@k`` (ranx ``mrr@k``, ir_measures ``RR@k``)
is 0 when the first relevant document is below rank k.
"""

from __future__ import annotations

import numpy as np

from ._query import Explanation, Query, base_columns, frac, group_bounds, join_terms, label, num

DEFINITION = r"RR = \frac{1}{\text{rank of the first relevant document}}"


def first_relevant_chances(q: Query, rel: int) -> np.ndarray:
    """Under ``ties='average'``, the chance that each rank holds the first relevant document,
    over every order of the tied documents: in the first tie group with r relevant out of t
    documents, position j comes first with chance C(t - j, r - 1) / C(t, r).

    >>> from metrics import prepare
    >>> first_relevant_chances(prepare({"a": 1, "b": 1, "c": 1}, {"a": 1}, ties="average"), 1)
    array([0.33333333, 0.33333333, 0.33333333])
    """
    relevant = q.relevant(rel)
    out = np.zeros(len(relevant))
    if not relevant.any():
        return out
    group = q.groups[int(np.argmax(relevant))]
    before, size = group_bounds(q.groups)
    c, t = int(before[np.argmax(relevant)]), int(size[np.argmax(relevant)])
    r = int(relevant[q.groups == group].sum())
    chance = r / t
    for j in range(1, t - r + 2):
        out[c + j - 1] = chance
        chance *= (t - j - r + 1) / (t - j) if t > j else 0.0
    return out


def trace(m, q: Query) -> Explanation:
    n = q.depth(m.cutoff)
    if q.tie_rule == "average":
        return _expected(m, q, n)
    cols = base_columns(q, n, m["rel"])
    first = cols["relevant"].index(True) + 1 if True in cols["relevant"] else None
    cols["first_relevant"] = [r == first for r in cols["rank"]]
    cols["reciprocal"] = [1.0 / r if r == first else 0.0 for r in cols["rank"]]
    lhs = label(m)
    if first is None:
        value = 0.0
        where = f"in the top {m.cutoff}" if m.cutoff is not None else "retrieved"
        formula = rf"{lhs} = 0 \quad (\text{{no relevant document {where}}})"
    else:
        value = 1.0 / first
        formula = rf"{lhs} = {frac(1, first)} = {num(value)}"
    return Explanation(str(m), value, cols, formula, DEFINITION, {"first_relevant_rank": first})


def _expected(m, q: Query, n: int) -> Explanation:
    cols = base_columns(q, n, m["rel"])
    chance = first_relevant_chances(q, m["rel"])[:n]
    ranks = np.arange(1, n + 1)
    cols["first_relevant"] = chance.tolist()
    cols["reciprocal"] = (chance / ranks).tolist() if n else []
    value = float((chance / ranks).sum()) if n else 0.0
    terms = [(float(chance[i]), i + 1) for i in range(n) if chance[i] > 0]
    body = join_terms(terms, lambda t: rf"{num(t[0])} \cdot {frac(1, t[1])}")
    formula = rf"{label(m)} = {body} = {num(value)} \quad (\text{{expected over the orders of tied documents}})"
    return Explanation(str(m), value, cols, formula, DEFINITION, {"first_relevant_rank": None})
