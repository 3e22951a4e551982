"""Average precision: the precision at each relevant rank, summed, divided by a denominator.

``denominator='R'`` (default, trec_eval ``map`` and ``map_cut_k``): all relevant documents in
the judgments, so a relevant document never retrieved contributes 0.
``denominator='retrieved'`` (sklearn ``average_precision_score``, torchmetrics): the relevant
documents retrieved in the top k. ``denominator='min(k,R)'`` (Spark, recommenders): min(k, R),
with k the cutoff (R when there is none).
"""

from __future__ import annotations

import numpy as np

from ._query import Explanation, Query, base_columns, frac, join_terms, label, num, ratio

DEFINITIONS = {
    "R": r"AP@k = \frac{1}{R} \sum_{i=1}^{k} P@i \cdot rel_i",
    "retrieved": r"AP@k = \frac{1}{|\text{relevant} \cap \text{top } k|} \sum_{i=1}^{k} P@i \cdot rel_i",
    "min(k,R)": r"AP@k = \frac{1}{\min(k, R)} \sum_{i=1}^{k} P@i \cdot rel_i",
}
DENOMINATOR_NAMES = {"R": "R", "retrieved": r"\text{relevant retrieved}", "min(k,R)": r"\min(k, R)"}


def denominator(how: str, R, relevant_retrieved, cutoff=None):
    """What the sum of precisions is divided by: ``R``, the ``retrieved`` relevant documents,
    or ``min(k,R)`` (R without a cutoff). On numbers or arrays (per query, or per rank with
    the rank as the cutoff).

    >>> denominator("R", 3, 1), denominator("retrieved", 3, 1), denominator("min(k,R)", 3, 1, 2)
    (3, 1, 2)
    """
    if how == "R":
        return R
    if how == "retrieved":
        return relevant_retrieved
    if cutoff is None:
        return R
    out = np.minimum(cutoff, R)
    return out if out.ndim else int(out)


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
    denom_i = np.broadcast_to(denominator(how, R, hits_i, ranks), (n,)).astype(float)
    denom = denominator(how, R, int(hits_i[-1]) if n else 0, m.cutoff)
    ap_i = ratio(running, denom_i)
    cols["precision"] = precision_i.tolist()
    cols["contribution"] = contribution.tolist()
    cols["running_sum"] = running.tolist()
    cols["ap_at_i"] = ap_i.tolist()
    total = float(running[-1]) if n else 0.0
    value = ratio(total, denom)
    hit_ranks = [int(r) for r in ranks[relevant]]
    terms = [(int(hits_i[r - 1]), r) for r in hit_ranks]
    lhs = label(m)
    name = DENOMINATOR_NAMES[how]
    if denom == 0:
        formula = rf"{lhs} = 0 \quad (\text{{{'no relevant document' if R == 0 else 'nothing relevant retrieved'}}}: {name} = 0)"
    else:
        formula = (rf"{lhs} = \frac{{1}}{{{name}}} \sum_{{i:\,rel_i = 1}} P@i = "
                   rf"\frac{{1}}{{{denom}}}\left({join_terms(terms, lambda t: frac(*t))}\right) = {frac(total, denom)} = {num(value)}")
    summary = {"R": R, "hits": len(hit_ranks), "denominator": denom, "sum": total, "hit_ranks": hit_ranks}
    return Explanation(str(m), value, cols, formula, DEFINITIONS[how], summary)
