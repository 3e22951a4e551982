"""Average precision: the precision at each relevant rank, summed, divided by a denominator.

``denominator='R'`` (default, trec_eval ``map`` and ``map_cut_k``): all relevant documents in
the judgments, so a relevant document never retrieved contributes 0.
``denominator='retrieved'`` (sklearn ``average_precision_score``, torchmetrics): the relevant
documents retrieved in the top k. ``denominator='min(k,R)'`` (Spark, recommenders): min(k, R),
with k the cutoff (R when there is none).
"""

from __future__ import annotations

import numpy as np

from ._query import Explanation, Query, base_columns, frac, join_terms, label, value_text

DEFINITIONS = {
    "R": r"AP@k = \frac{1}{R} \sum_{i=1}^{k} P@i \cdot rel_i",
    "retrieved": r"AP@k = \frac{1}{|\text{relevant} \cap \text{top } k|} \sum_{i=1}^{k} P@i \cdot rel_i",
    "min(k,R)": r"AP@k = \frac{1}{\min(k, R)} \sum_{i=1}^{k} P@i \cdot rel_i",
}
DENOMINATOR_NAMES = {"R": "R", "retrieved": r"\text{relevant retrieved}", "min(k,R)": r"\min(k, R)"}


def trace(m, q: Query) -> Explanation:
    rel, how = m["rel"], m["denominator"]
    n = q.depth(m.cutoff)
    cols = base_columns(q, n, rel)
    R = q.num_rel(rel)
    ranks = np.arange(1, n + 1)
    hits_i = np.asarray(cols["hits"], dtype=float)
    relevant = np.asarray(cols["relevant"], dtype=bool)
    precision_i = hits_i / ranks if n else hits_i
    contribution = np.where(relevant, precision_i, 0.0)
    running = np.cumsum(contribution)
    if how == "R":
        denom_i = np.full(n, float(R))
        denom = R
    elif how == "retrieved":
        denom_i = hits_i
        denom = int(hits_i[-1]) if n else 0
    else:
        denom_i = np.minimum(ranks, R).astype(float)
        denom = min(m.cutoff, R) if m.cutoff is not None else R
    with np.errstate(invalid="ignore", divide="ignore"):
        ap_i = np.where(denom_i > 0, running / np.where(denom_i > 0, denom_i, 1), 0.0)
    cols["precision"] = precision_i.tolist()
    cols["contribution"] = contribution.tolist()
    cols["running_sum"] = running.tolist()
    cols["ap_at_i"] = ap_i.tolist()
    total = float(running[-1]) if n else 0.0
    value = total / denom if denom else 0.0
    hit_ranks = [int(r) for r in ranks[relevant]]
    terms = [(int(hits_i[r - 1]), r) for r in hit_ranks]
    lhs = label(m)
    name = DENOMINATOR_NAMES[how]
    if denom == 0:
        formula = rf"{lhs} = 0 \quad (\text{{{'no relevant document' if R == 0 else 'nothing relevant retrieved'}}}: {name} = 0)"
    else:
        formula = (rf"{lhs} = \frac{{1}}{{{name}}} \sum_{{i:\,rel_i = 1}} P@i = "
                   rf"\frac{{1}}{{{denom}}}\left({join_terms(terms, lambda t: frac(*t))}\right) = {frac(total, denom)} = {value_text(value)}")
    summary = {"R": R, "hits": len(hit_ranks), "denominator": denom, "sum": total, "hit_ranks": hit_ranks}
    return Explanation(str(m), value, cols, formula, DEFINITIONS[how], summary)
