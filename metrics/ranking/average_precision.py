"""Average precision: the precision at each relevant rank, summed, divided by a denominator.

``denominator='R'`` (default, trec_eval ``map`` and ``map_cut_k``): all relevant documents in
the judgments, so a relevant document never retrieved contributes 0.
``denominator='retrieved'`` (sklearn ``average_precision_score``, torchmetrics): the relevant
documents retrieved in the top k. ``denominator='min(k,R)'`` (Spark, recommenders): min(k, R),
with k the cutoff (R when there is none).
``empty`` is the value when that denominator is 0 (nothing relevant): 0 (default, trec_eval),
or 1 (sklearn's ``label_ranking_average_precision_score`` for a row without a relevant label).
"""

from __future__ import annotations

import numpy as np

from ._query import (
    Explanation,
    Query,
    base_columns,
    frac,
    group_bounds,
    join_terms,
    label,
    num,
    ratio,
)

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


def tie_aware_contributions(q: Query, rel: int, n: int) -> np.ndarray:
    """Each rank's share of the sum of precisions when scores tie.

    ``ties='average'`` (McSherry & Najork 2008): the expected contribution over every order
    of each tie group. A group after c documents (h of them relevant) with t documents, r
    relevant: rank c + j is relevant with chance r / t, and then has h + 1 + (j - 1)(r - 1)/(t - 1)
    relevant documents at or above it on average. ``ties='threshold'`` (scikit-learn's
    ``average_precision_score``): a tie group is seen all at once, so every relevant document
    in it gets the precision at the group's last rank.

    >>> from metrics import prepare
    >>> tie_aware_contributions(prepare({"a": 0.5, "b": 0.5}, {"a": 1}, ties="average"), 1, 2)
    array([0.5 , 0.25])
    >>> tie_aware_contributions(prepare({"a": 0.5, "b": 0.5}, {"a": 1}, ties="threshold"), 1, 2)
    array([0. , 0.5])
    """
    relevant = q.relevant(rel).astype(np.float64)
    before, size = group_bounds(q.groups)
    in_group = np.bincount(q.groups, weights=relevant)[q.groups] if relevant.size else relevant
    above = np.cumsum(relevant) - relevant  # relevant documents strictly above each rank
    above_group = above[before] if relevant.size else above  # h: relevant before the group
    rank = np.arange(1, relevant.size + 1, dtype=np.float64)
    if q.tie_rule == "threshold":
        end = before + size
        seen = above_group + in_group
        return (relevant * seen / end)[:n]
    j = rank - before
    with np.errstate(invalid="ignore", divide="ignore"):
        extra = np.where(size > 1, (j - 1) * (in_group - 1) / np.where(size > 1, size - 1, 1), 0.0)
    chance = in_group / size
    return np.where(in_group > 0, chance * (above_group + 1 + extra) / rank, 0.0)[:n]


def trace(m, q: Query) -> Explanation:
    rel, how = m["rel"], m["denominator"]
    n = q.depth(m.cutoff)
    cols = base_columns(q, n, rel)
    R = q.num_rel(rel)
    ranks = np.arange(1, n + 1)
    hits_i = np.asarray(cols["hits"], dtype=float)
    relevant = np.asarray(cols["relevant"], dtype=float)  # a chance under ties='average'
    precision_i = hits_i / ranks if n else hits_i
    contribution = tie_aware_contributions(q, rel, n) if q.tie_rule else np.where(relevant > 0, precision_i, 0.0)
    running = np.cumsum(contribution)
    denom_i = np.broadcast_to(denominator(how, R, hits_i, ranks), (n,)).astype(float)
    if how == "retrieved" and q.tie_rule == "average" and n and n < len(q.docs) and q.groups[n - 1] == q.groups[n]:
        raise ValueError(f"measure {str(m)!r}: with ties='average', a tie group across the cutoff makes "
                         "the number of relevant retrieved uncertain; use denominator='R' or no cutoff")
    retrieved = round(float(hits_i[-1]), 9) if n else 0
    # a whole count stays an int (shown "1", not "1.0"); ties='average' can make it fractional
    denom = denominator(how, R, int(retrieved) if float(retrieved).is_integer() else retrieved, m.cutoff)
    ap_i = ratio(running, denom_i)
    cols["precision"] = precision_i.tolist()
    cols["contribution"] = contribution.tolist()
    cols["running_sum"] = running.tolist()
    cols["ap_at_i"] = ap_i.tolist()
    total = float(running[-1]) if n else 0.0
    value = ratio(total, denom) if denom else float(m["empty"])
    hit_ranks = [int(r) for r in ranks[relevant > 0]]
    terms = [(int(hits_i[r - 1]), r) for r in hit_ranks]
    show = (lambda t: frac(*t)) if not q.tie_rule else (lambda t: num(contribution[t[1] - 1]))
    lhs = label(m)
    name = DENOMINATOR_NAMES[how]
    if denom == 0:
        formula = rf"{lhs} = {m['empty']} \quad (\text{{{'no relevant document' if R == 0 else 'nothing relevant retrieved'}}}: {name} = 0)"
    else:
        formula = (rf"{lhs} = \frac{{1}}{{{name}}} \sum_{{i:\,rel_i = 1}} P@i = "
                   rf"\frac{{1}}{{{num(denom)}}}\left({join_terms(terms, show)}\right) = {frac(total, denom)} = {num(value)}")
    summary = {"R": R, "hits": len(hit_ranks), "denominator": denom, "sum": total, "hit_ranks": hit_ranks}
    return Explanation(str(m), value, cols, formula, DEFINITIONS[how], summary)
