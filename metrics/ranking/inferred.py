r"""Inferred AP (Yilmaz & Aslam 2006, as trec_eval 9.0.8's ``infAP``), the geometric
means of AP and bpref (``gm_map``, ``gm_bpref``) and YAAP (``yaap``, Robertson 2012).

infAP reads grade −1 as "in the judging pool, but not judged" (a random sample of the pool
was judged). Unjudged documents absent from the judgments are outside the pool and skipped.
For the relevant document at rank i (rank 1 adds 1), with r relevant, u non-relevant and p
pooled-but-unjudged documents above it:

    1/i + ((i − 1)/i) · ((r + u + p)/(i − 1)) · ((r + ε)/(r + u + 2ε)),   ε = 0.00001

summed and divided by R.

GMAP and GMBpref keep, per query, log(max(v, 0.00001)) of AP or bpref — what trec_eval
prints with ``-q`` — and average them over queries as exp(mean), the geometric mean.

>>> import metrics
>>> round(metrics.score("infAP", ["a", "x", "b"], {"a": 1, "b": 1, "x": -1}), 4)  # (1 + (1/3 + 2/3 * 2/2 * 1)) / 2
1.0
>>> round(metrics.score("GMAP", ["x", "a"], {"a": 1}), 4)  # log(AP) = log(1/2)
-0.6931

YAAP ("yet another AP", trec_eval's ``yaap``) smooths AP for averaging: with S the sum of
the precisions at the relevant ranks (S / R = AP), log((1 + S) / (1 + R − S)):

>>> round(metrics.score("YAAP", ["x", "a"], {"a": 1, "b": 1}), 4)  # S = 1/2, R = 2: log(1.5 / 2.5)
-0.5108
"""

from __future__ import annotations

import numpy as np

from ..measures import parse
from . import average_precision, rprec_bpref
from ._query import Explanation, Query, base_columns, join_terms, label, num, ratio

INFAP_EPSILON = 0.00001
GEO_MIN = 0.00001
DEFINITIONS = {
    "infAP": r"infAP = \frac{1}{R} \sum_{i:\,rel_i} \left(\frac{1}{i} + \frac{i-1}{i} \cdot "
             r"\frac{r + u + p}{i - 1} \cdot \frac{r + \epsilon}{r + u + 2\epsilon}\right)",
    "GMAP": r"GMAP = \exp\left(\frac{1}{|Q|} \sum_q \log \max(AP_q, 10^{-5})\right)",
    "YAAP": r"YAAP = \log \frac{1 + S}{1 + R - S}, \quad S = \sum_{i:\,rel_i} P@i",
    "GMBpref": r"GMBpref = \exp\left(\frac{1}{|Q|} \sum_q \log \max(bpref_q, 10^{-5})\right)",
}


def infap_term(i, r, u, p):
    """The term of a relevant document at rank i (1-based) with r relevant, u non-relevant
    and p pooled-unjudged judged documents above it. On numbers or arrays.

    >>> infap_term(1, 0, 0, 0), round(infap_term(3, 1, 0, 1), 4)
    (1.0, 1.0)
    """
    i = np.asarray(i, dtype=np.float64)
    j = i - 1.0
    safe = np.where(j > 0, j, 1.0)
    rest = 1.0 / i + (j / i) * ((r + u + p) / safe) * ((r + INFAP_EPSILON) / (r + u + 2 * INFAP_EPSILON))
    out = np.where(j > 0, rest, 1.0)
    return out if out.ndim else float(out)


def geometric_log(value):
    """log(max(value, 0.00001)): what GMAP and GMBpref keep per query.

    >>> round(geometric_log(0.5), 4), round(geometric_log(0.0), 4)
    (-0.6931, -11.5129)
    """
    out = np.log(np.maximum(value, GEO_MIN))
    return out if np.ndim(out) else float(out)


def yaap(S, R):
    """log((1 + S) / (1 + R − S)) for a sum S of precisions at the relevant ranks. On numbers or arrays.

    >>> round(yaap(1.0, 1), 4), round(yaap(0.0, 3), 4)  # log(2 / 1); log(1 / 4)
    (0.6931, -1.3863)
    """
    out = np.log((1.0 + np.asarray(S, dtype=np.float64)) / (1.0 + np.asarray(R, dtype=np.float64) - S))
    return out if np.ndim(out) else float(out)


def trace(m, q: Query) -> Explanation:
    if m.name == "YAAP":
        e = average_precision.trace(parse("AP").with_params(rel=m["rel"]), q)
        S, R = e.summary["sum"], e.summary["R"]
        value = yaap(S, R)
        formula = rf"{label(m)} = \log \frac{{1 + {num(S)}}}{{1 + {R} - {num(S)}}} = {num(value)}"
        return Explanation(str(m), value, e.columns, formula, DEFINITIONS["YAAP"], dict(e.summary))
    if m.name in ("GMAP", "GMBpref"):
        inner = "AP" if m.name == "GMAP" else "Bpref"
        base = parse(inner).with_params(rel=m["rel"])
        e = (average_precision if inner == "AP" else rprec_bpref).trace(base, q)
        value = geometric_log(e.value)
        formula = (rf"{label(m)}_q = \log \max({num(e.value)}, 10^{{-5}}) = {num(value)} \quad "
                   rf"(\text{{over queries: }} \exp \text{{ of the mean}})")
        return Explanation(str(m), value, e.columns, formula, DEFINITIONS[m.name],
                           dict(e.summary) | {inner: e.value})
    rel = m["rel"]
    n = len(q.docs)
    cols = base_columns(q, n, rel)
    R = q.num_rel(rel)
    grades, judged = q.grades[:n], q.judged[:n]
    # every negative grade is pooled but unjudged (trec_eval's form_res_rels); rel >= 1
    pooled_unjudged = judged & (grades < 0)
    nonrel = judged & (grades >= 0) & (grades < rel)
    relevant = judged & (grades >= rel)
    r_above = np.cumsum(relevant) - relevant
    u_above = np.cumsum(nonrel) - nonrel
    p_above = np.cumsum(pooled_unjudged) - pooled_unjudged
    ranks = np.arange(1, n + 1)
    contrib = np.where(relevant, infap_term(ranks, r_above, u_above, p_above), 0.0) if n else np.zeros(0)
    total = float(contrib.sum())
    value = ratio(total, R)
    cols.update(rel_above=r_above.tolist(), nonrel_above=u_above.tolist(), pooled_unjudged_above=p_above.tolist(),
                contribution=contrib.tolist())
    formula = (rf"{label(m)} = \frac{{1}}{{{R}}}\left({join_terms(contrib[relevant].tolist(), num)}\right) = {num(value)}"
               if R else rf"{label(m)} = 0 \quad (R = 0)")
    return Explanation(str(m), value, cols, formula, DEFINITIONS["infAP"], {"R": R, "sum": total, "epsilon": INFAP_EPSILON})

