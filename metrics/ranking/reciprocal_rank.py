"""Reciprocal rank: 1 / rank of the first relevant document.

trec_eval's ``recip_rank`` has no cutoff; ``RR@k`` (ranx ``mrr@k``, ir_measures ``RR@k``)
is 0 when the first relevant document is below rank k.
"""

from __future__ import annotations

from ._query import Explanation, Query, base_columns, frac, label, num

DEFINITION = r"RR = \frac{1}{\text{rank of the first relevant document}}"


def trace(m, q: Query) -> Explanation:
    n = q.depth(m.cutoff)
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
