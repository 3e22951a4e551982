r"""trec_eval's experimental gain measures: G, binG, Rndcg and ndcg_rel.

Each walks the ranking beside the ideal ordering. The gain of a grade is the grade itself
unless ``gains='1=3.5,2=7'`` maps it to another value (trec_eval ``-m G.1=3.5,2=7``);
unjudged documents and grade -1 have gain 0. The ideal ordering sorts the gains of every
judged document (grade >= 0), best first, and keeps the positive ones (``P`` of them).

- **G** (trec_eval 9.0.8 ``G``): a document at rank i adds
  g_i / log2(2 + C_i - S_i), where S_i is the gain retrieved up to i and C_i the sum of
  max(1, ideal gain) over ranks 1..i (1 for each rank past the ideal list); divided by the
  total ideal gain.
- **binG**: each relevant retrieved document adds 1 / log2(2 + non-relevant above it);
  divided by R (0 if nothing relevant is retrieved).
- **Rndcg**: nDCG averaged at the "R levels": the ranks j (1..P) where the ideal gain
  changes, each giving DCG@min(j, n) / IDCG@j (n documents retrieved), plus the point
  DCG@n / IDCG when the list goes on past rank P + 1; 0 when R = 0 (binary, ``rel``).
- **nDCG_rel**: nDCG averaged over the positive-gain documents: each one retrieved at rank
  i gives DCG@i / IDCG@min(i, P); each one not retrieved gives DCG@n / IDCG; divided by P.

Examples
--------
Grades a=2, b=1; run b, x, a (x unjudged). G walks: ideal gains 2, 1, cost so far
max(1, 2), +max(1, 1), +1 = 2, 3, 4; gains so far 1, 1, 3; total ideal gain 3:

>>> import metrics
>>> round(metrics.score("G", ["b", "x", "a"], {"a": 2, "b": 1}), 4)  # (1/log2(2+2-1) + 2/log2(2+4-3)) / 3
0.6309
"""

from __future__ import annotations

import numpy as np

from ._query import Explanation, Query, base_columns, join_terms, label, num, ratio
from .dcg import level_gains

DEFINITIONS = {
    "G": r"G = \frac{1}{\sum_j g^*_j} \sum_{i} \frac{g_i}{\log_2(2 + C_i - S_i)}, \quad "
         r"C_i = \sum_{j \le i} \max(1, g^*_j), \; S_i = \sum_{j \le i} g_j",
    "binG": r"binG = \frac{1}{R} \sum_{i:\,rel_i} \frac{1}{\log_2(2 + \text{nonrel above } i)}",
    "Rndcg": r"Rndcg = \operatorname{mean}_{j \in \text{R levels}} \frac{DCG@\min(j, n)}{IDCG@j}",
    "nDCG_rel": r"nDCG_{rel} = \frac{1}{P} \sum_{d:\,g_d > 0} \frac{DCG@\mathrm{rank}_d}{IDCG@\min(\mathrm{rank}_d, P)}",
}


def ideal_gains(all_grades, gains_text: str | None) -> np.ndarray:
    """The positive gains of every judged document, best first (the ideal ordering)."""
    g = level_gains(all_grades, gains_text)
    g = g[(np.asarray(all_grades) >= 0) & (g > 0)]
    return np.sort(g)[::-1]


def g_cost(rank, ideal_cum_cost, P):
    """C_i: the sum of max(1, ideal gain) over ranks 1..rank (1 per rank past the ideal list).

    ``ideal_cum_cost`` holds that sum over the P ideal ranks. On numbers or arrays.

    >>> g_cost(np.array([1, 2, 4]), np.array([3.0, 4.0]), 2)  # 3; 3 + 1; 4 + 2 ranks past P
    array([3., 4., 6.])
    """
    rank = np.asarray(rank)
    inside = np.minimum(rank, P)
    base = np.where(inside > 0, np.take(ideal_cum_cost, np.maximum(inside - 1, 0), mode="clip")
                    if np.size(ideal_cum_cost) else 0.0, 0.0)
    return base + np.maximum(rank - P, 0)


def _run_gains(m, q: Query) -> np.ndarray:
    return np.where(q.judged & (q.grades >= 0), level_gains(q.grades, m["gains"]), 0.0)


def trace(m, q: Query) -> Explanation:
    if m.name == "binG":
        return _bin_g(m, q)
    n = len(q.docs)
    cols = base_columns(q, n)
    g = _run_gains(m, q)
    ideal = ideal_gains(q.all_grades, m["gains"])
    P = len(ideal)
    ranks = np.arange(1, n + 1)
    dcg_i = np.cumsum(g / np.log2(ranks + 1.0)) if n else np.zeros(0)
    ideal_dcg = np.cumsum(ideal / np.log2(np.arange(2, P + 2))) if P else np.zeros(0)
    idcg_at = np.concatenate([[0.0], ideal_dcg])  # IDCG@j for j = 0..P
    dcg_at = np.concatenate([[0.0], dcg_i])  # DCG@i for i = 0..n
    cols["gain"] = g.tolist()
    summary = {"P": P, "ideal_gains": ideal.tolist()}
    lhs = label(m)
    if m.name == "G":
        cost = g_cost(ranks, np.cumsum(np.maximum(ideal, 1.0)), P)
        so_far = np.cumsum(g)
        with np.errstate(divide="ignore", invalid="ignore"):
            contrib = np.where(g != 0, g / np.log2(2.0 + cost - so_far), 0.0)
        total_ideal = float(ideal.sum())
        total = float(contrib.sum())
        value = ratio(total, total_ideal)
        cols.update(cost=cost.tolist(), gain_so_far=so_far.tolist(), contribution=contrib.tolist())
        terms = [(gi, c - s) for gi, c, s in zip(g.tolist(), cost.tolist(), so_far.tolist(), strict=True) if gi]
        formula = (rf"{lhs} = \frac{{1}}{{{num(total_ideal)}}}\left({join_terms(terms, _g_term)}\right)"
                   rf" = {num(value)}")
        return Explanation(str(m), value, cols, formula, DEFINITIONS["G"], summary | {"sum": total})
    cols["dcg"] = dcg_i.tolist()
    if m.name == "Rndcg":
        points = rndcg_points(ideal, n)
        values = [ratio(dcg_at[min(j, n)], idcg_at[min(j, P)]) for j in points if idcg_at[min(j, P)] > 0]
        value = float(np.mean(values)) if values and q.num_rel(m["rel"]) else 0.0
        summary |= {"levels": points, "ndcg_at_levels": values}
        formula = (rf"{lhs} = \frac{{1}}{{{len(values)}}}\left({join_terms(values, num)}\right) = {num(value)}"
                   if value or values else rf"{lhs} = 0")
        return Explanation(str(m), value, cols, formula, DEFINITIONS["Rndcg"], summary)
    # nDCG_rel
    positive = g > 0
    idcg_i = idcg_at[np.minimum(ranks, P)] if n else np.zeros(0)
    with np.errstate(divide="ignore", invalid="ignore"):
        point = np.where(positive & (idcg_i > 0), dcg_i / np.where(idcg_i > 0, idcg_i, 1.0), 0.0)
    missing = P - int(positive.sum())
    last = ratio(dcg_at[-1], idcg_at[-1])
    total = float(point.sum()) + missing * last
    value = total / P if total > 0 and P else 0.0
    cols["idcg"] = idcg_i.tolist()
    cols["ndcg_here"] = point.tolist()
    terms = point[positive].tolist() + [last] * missing
    formula = rf"{lhs} = \frac{{1}}{{{P}}}\left({join_terms(terms, num)}\right) = {num(value)}" if P else rf"{lhs} = 0"
    return Explanation(str(m), value, cols, formula, DEFINITIONS["nDCG_rel"],
                       summary | {"not_retrieved": missing})


def _g_term(pair) -> str:
    gain, gap = pair
    return rf"\frac{{{num(gain)}}}{{\log_2(2 + {num(gap)})}}"


def _bin_term(above) -> str:
    return rf"\frac{{1}}{{\log_2(2 + {above})}}"


def rndcg_points(ideal: np.ndarray, n: int) -> list[int]:
    """The ranks where Rndcg takes nDCG: where the ideal gain changes (1..P), and n when the
    list goes on past rank P + 1 (there the ideal is complete).

    >>> rndcg_points(np.array([3.0, 3.0, 1.0]), 10)  # 3 -> 1 after rank 2, 1 -> 0 after 3, then n
    [2, 3, 10]
    """
    P = len(ideal)
    padded = np.append(ideal, 0.0)
    points = (np.flatnonzero(padded[1:] != padded[:-1]) + 1).tolist() if P else []
    if P + 1 < n:
        points.append(n)
    return points


def _bin_g(m, q: Query) -> Explanation:
    rel = m["rel"]
    n = len(q.docs)
    cols = base_columns(q, n, rel)
    relevant = np.asarray(cols["relevant"], dtype=bool)
    above = np.arange(1, n + 1) - np.asarray(cols["hits"], dtype=np.int64)
    contrib = np.where(relevant, 1.0 / np.log2(2.0 + above), 0.0)
    R = q.num_rel(rel)
    total = float(contrib.sum())
    value = ratio(total, R) if relevant.any() else 0.0
    cols["nonrel_above"] = above.tolist()
    cols["contribution"] = contrib.tolist()
    terms = above[relevant].tolist()
    formula = (rf"{label(m)} = \frac{{1}}{{{R}}}\left({join_terms(terms, _bin_term)}"
               rf"\right) = {num(value)}" if R else rf"{label(m)} = 0 \quad (R = 0)")
    return Explanation(str(m), value, cols, formula, DEFINITIONS["binG"], {"R": R, "sum": total})
