r"""trec_eval 10.0's own measures: ``rbp``, ``rbp_resid`` and ``unj_k``, as its source computes them.

Ranklab's ``RBP`` (Moffat & Zobel's binary RBP, p = 0.8, with bounds) stays as it is; these
are trec_eval 10.0's, under names of their own so that neither is read as the other:

- ``TrecRBP(p=0.9)`` (``rbp``, m_rbp.c): graded, (1 - p) sum of g_i p^(i-1), g_i the gain of
  the grade (the grade itself, or ``gains='1=3.5,2=7'``). When a gain of the query's levels
  (0 up to its top grade, and every level of the gain map) lies outside [0, 1], every gain is
  scaled to (g - min) / (max - min). m_rbp.c starts min and max uninitialised; Ranklab starts
  them at 0, which is what a build that finds them zeroed prints.
- ``TrecRBPResid`` (``rbp_resid``, m_rbp_resid.c): p = 0.9 fixed; with u the ranks (from 1)
  whose document has no grade >= 0 and n the ranks retrieved, p^n + (1 - p) sum of p^(i-1)
  over u; 0 when no retrieved document lacks a grade (trec_eval leaves it unset).
- ``Unj@k`` (``unj_k``, m_unjudged.c): the share of the top k (divided by k, even when fewer
  are retrieved) with no grade >= 0: absent from the qrels, or graded negative.

>>> import metrics
>>> metrics.score("TrecRBP", ["a", "x"], {"a": 1}), metrics.score("RBP", ["a", "x"], {"a": 1})
(0.09999999999999998, 0.19999999999999996)
>>> metrics.score("Unj@5", ["a", "x", "y"], {"a": 1})  # x, y unjudged; divided by 5
0.4
"""

from __future__ import annotations

import numpy as np

from ..measures import gain_map
from ._query import Explanation, Query, base_columns, join_terms, label, num

RESID_P = 0.9  # m_rbp_resid.c's constant

DEFINITIONS = {
    "TrecRBP": r"\mathrm{rbp} = (1 - p) \sum_{i} p^{i-1} g_i, \quad g \text{ scaled to } [0, 1] "
               r"\text{ when a gain lies outside}",
    "TrecRBPResid": r"\mathrm{rbp\_resid} = p^{n} + (1 - p) \sum_{i \text{ without a grade} \geq 0} p^{i-1}, "
                    r"\quad p = 0.9",
    "Unj": r"\mathrm{unj}@k = \frac{|\{i \le k : \text{no grade} \ge 0\}|}{k}",
}


def powers(n: int, p: float) -> np.ndarray:
    """p^0, p^1, ..., p^(n-1), each the previous times p, as trec_eval multiplies them (the same bits).

    >>> powers(3, 0.5).tolist()
    [1.0, 0.5, 0.25]
    """
    out = np.full(max(n, 0), p, dtype=np.float64)
    if n:
        out[0] = 1.0
    return np.cumprod(out)


def level_scale(top_grade: int, gains_text: str | None) -> tuple[float, float]:
    """(min, max) of trec_eval 10.0's rbp gain table: levels 0..top_grade (their own value or the
    map's) and every level the map names, with min and max starting at 0.

    >>> level_scale(3, None), level_scale(1, "0=-1,1=0.5"), level_scale(-1, None)
    ((0.0, 3.0), (-1.0, 0.5), (0.0, 0.0))
    """
    mapped = gain_map(gains_text)
    values = [0.0, *mapped.values(), *(float(g) for g in range(top_grade + 1) if g not in mapped)]
    return min(values), max(values)


def scaled_gains(grades: np.ndarray, top_grade: int, gains_text: str | None) -> np.ndarray:
    """The gain of each grade in trec_eval 10.0's rbp (0 for a negative grade: it has no level).

    >>> scaled_gains(np.array([0, 1, 2, -1]), 2, None).tolist()  # max 2 > 1: divided by 2
    [0.0, 0.5, 1.0, 0.0]
    """
    grades = np.asarray(grades)
    mapped = gain_map(gains_text)
    gains = np.where(grades >= 0, grades, 0).astype(np.float64)
    for level, value in mapped.items():
        gains[grades == level] = value
    low, high = level_scale(top_grade, gains_text)
    if low < 0 or high > 1:
        gains = (gains - low) / (high - low)
    return np.where(grades >= 0, gains, 0.0)


def trace(m, q: Query) -> Explanation:
    n = q.depth(m.cutoff if m.name != "Unj" else None)
    cols = base_columns(q, n)
    graded = q.judged[:n] & (q.grades[:n] >= 0)
    lhs = label(m)
    if m.name == "Unj":
        k = m.cutoff
        top = min(k, n)
        unjudged = ~graded[:top]
        cols = base_columns(q, top)
        cols["unjudged"] = unjudged.tolist()
        count = int(unjudged.sum())
        value = count / k
        formula = rf"{lhs} = \frac{{{count}}}{{{k}}} = {num(value)}"
        return Explanation(str(m), value, cols, formula, DEFINITIONS["Unj"], {"unjudged": count, "k": k})
    if m.name == "TrecRBPResid":
        p = RESID_P
        weight = powers(n + 1, p)
        unjudged = ~graded
        cols["unjudged"] = unjudged.tolist()
        total = 0.0
        for w in weight[:n][unjudged]:  # in rank order, as m_rbp_resid.c adds
            total += float(w)
        value = float(weight[n] + (1 - p) * total) if unjudged.any() else 0.0
        terms = join_terms((np.flatnonzero(unjudged) + 1).tolist(), lambda r: f"{num(p)}^{{{r - 1}}}")
        formula = (rf"{lhs} = {num(p)}^{{{n}}} + (1 - {num(p)})\left({terms}\right) = {num(value)}"
                   if unjudged.any() else rf"{lhs} = 0 \quad (\text{{every retrieved document graded}})")
        return Explanation(str(m), value, cols, formula, DEFINITIONS["TrecRBPResid"],
                           {"p": p, "depth": n, "unjudged": int(unjudged.sum())})
    p = m["p"]
    all_grades = q.all_grades
    top_grade = int(all_grades[all_grades >= 0].max()) if (all_grades >= 0).any() else -1
    grades = np.where(graded, q.grades[:n], -1)
    gains = scaled_gains(grades, top_grade, m["gains"])
    weight = powers(n, p)
    total = 0.0
    for g, w in zip(gains.tolist(), weight.tolist(), strict=True):  # m_rbp.c's order
        if g != 0:
            total += g * w
    value = (1.0 - p) * total
    cols["gain"] = gains.tolist()
    cols["weight"] = weight.tolist()
    cols["contribution"] = ((1.0 - p) * gains * weight).tolist()
    hits = np.flatnonzero(gains != 0)
    terms = join_terms(hits.tolist(), lambda i: rf"{num(gains[i])} \cdot {num(p)}^{{{i}}}")
    formula = rf"{lhs} = (1 - {num(p)})\left({terms}\right) = {num(value)}"
    low, high = level_scale(top_grade, m["gains"])
    return Explanation(str(m), value, cols, formula, DEFINITIONS["TrecRBP"],
                       {"p": p, "depth": n, "gain_min": low, "gain_max": high})


# --------------------------------------------------------------------------- the batch path
# On a metrics.batch.Batch (its judged rows: q, rank, grade; n_ret; qrels_q, qrels_grade).

def _graded_rows(b, cutoff=None) -> np.ndarray:
    """The rows with a grade >= 0 (the documents trec_eval does not count as unjudged)."""
    mask = b.grade >= 0
    return mask if cutoff is None else mask & (b.rank <= cutoff)


def batch_unj(m, b) -> np.ndarray:
    k = m.cutoff
    return (np.minimum(b.n_ret, k) - b.count(b.q[_graded_rows(b, k)])) / k


def batch_rbp_resid(m, b) -> np.ndarray:
    p = RESID_P
    pw = powers(int(b.n_ret.max(initial=0)) + 1, p)
    graded = _graded_rows(b)
    # every rank's p^(i-1), less the graded ranks' (m_rbp_resid.c adds the others)
    all_ranks = np.cumsum(pw)[np.maximum(b.n_ret - 1, 0)] * (b.n_ret > 0)
    unjudged = all_ranks - b.count(b.q[graded], pw[b.rank[graded] - 1])
    has = b.n_ret > b.count(b.q[graded])
    return np.where(has, pw[b.n_ret] + (1 - p) * unjudged, 0.0)


def batch_rbp(m, b) -> np.ndarray:
    p = m["p"]
    graded = _graded_rows(b)
    top = np.full(b.size, -1, dtype=np.int64)
    judged = b.qrels_grade >= 0
    np.maximum.at(top, b.qrels_q[judged], b.qrels_grade[judged])
    q, rank, grade = b.q[graded], b.rank[graded], b.grade[graded]
    gains = np.zeros(q.size)
    for t in np.unique(top[q]).tolist():  # the scale depends on the query's top grade only
        rows = top[q] == t
        gains[rows] = scaled_gains(grade[rows], t, m["gains"])
    pw = powers(int(rank.max(initial=0)), p)
    keep = gains != 0
    return (1.0 - p) * b.count(q[keep], gains[keep] * pw[rank[keep] - 1])
