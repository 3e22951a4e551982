"""Precision, recall, F1, success and the counts (NumRet, NumRel, NumRelRet, NumQ) at k.

P@k divides by k even when fewer than k documents were retrieved, as trec_eval does
(2 retrieved, both relevant: P@5 = 2/5). Without a cutoff, P is trec_eval's ``set_P``:
relevant retrieved divided by the number retrieved.
"""

from __future__ import annotations

import numpy as np

from ._query import Explanation, Query, base_columns, frac, label, num, ratio

DEFINITIONS = {
    "P": r"P@k = \frac{|\text{relevant} \cap \text{top } k|}{k}",
    "R": r"R@k = \frac{|\text{relevant} \cap \text{top } k|}{R}",
    "F1": r"F_1@k = \frac{2 \cdot P@k \cdot R@k}{P@k + R@k}",
    "Success": r"Success@k = [\,|\text{relevant} \cap \text{top } k| > 0\,]",
    "NumRet": r"NumRet = |\text{top } k|",
    "NumRel": r"NumRel = R = |\{d : grade(d) \geq rel\}|",
    "NumRelRet": r"NumRelRet = |\text{relevant} \cap \text{top } k|",
    "NumQ": r"NumQ = 1 \text{ per query}",
}


def precision(hits, retrieved, cutoff: int | None = None):
    """P@k = hits / k, k even when fewer than k were retrieved; without a cutoff, hits /
    retrieved (trec_eval's ``set_P``). On numbers or arrays (one entry per query).

    >>> precision(2, 2, 5), precision(2, 4)  # 2/5 (only 2 retrieved); set_P: 2/4
    (0.4, 0.5)
    """
    return ratio(hits, retrieved if cutoff is None else cutoff)


def f1(p, r, beta=1):
    """The harmonic mean 2PR / (P + R), 0 unless P + R > 0. On numbers or arrays.

    ``beta`` weighs precision over recall as trec_eval's ``set_F.beta`` does:
    (1 + beta) P R / (R + beta P) — beta itself, not beta squared.

    >>> round(f1(0.5, 0.25), 4), f1(0.0, 0.0)  # 2 * 0.5 * 0.25 / 0.75 = 1/3
    (0.3333, 0.0)
    >>> round(f1(2 / 3, 1.0, beta=0.5), 4)  # 1.5 * 2/3 / (1 + 1/3)
    0.75
    """
    p, r = np.asarray(p, dtype=np.float64), np.asarray(r, dtype=np.float64)
    total = r + beta * p
    return ratio((1 + beta) * p * r, np.where(total > 0, total, 0.0))


def trace(m, q: Query) -> Explanation:
    rel = m["rel"] if "rel" in m.family.params else 1
    n = q.depth(m.cutoff)
    cols = base_columns(q, n, rel)
    hits = cols["hits"][-1] if n else 0
    R = q.num_rel(rel)
    ranks = np.arange(1, n + 1)
    cum = np.asarray(cols["hits"], dtype=float)
    precision_i = cum / ranks if n else cum
    recall_i = ratio(cum, R)
    f1_i = f1(precision_i, recall_i)
    cols["precision"] = precision_i.tolist()
    cols["recall"] = recall_i.tolist()
    cols["f1"] = f1_i.tolist()
    k = m.cutoff if m.cutoff is not None else n  # P@k divides by k; set_P by the number retrieved
    p = precision(hits, n, m.cutoff)
    r = ratio(hits, R)
    lhs = label(m)
    kk = num(k)
    summary = {"hits": hits, "R": R, "k": k, "retrieved": n, "P": p, "R_value": r}
    name = m.name
    top = r"\text{relevant in top " + kk + "}"
    if name == "P":
        value = p
        formula = rf"{lhs} = {frac(top, kk)} = {frac(hits, k)} = {num(value)}"
    elif name == "R":
        value = r
        formula = rf"{lhs} = {frac(top, 'R')} = {frac(hits, R)} = {num(value)}"
    elif name == "F1" and m["beta"] != 1:
        beta = m["beta"]
        value = f1(p, r, beta)
        formula = (rf"{lhs} = \frac{{(1 + \beta) P R}}{{R + \beta P}} = "
                   rf"\frac{{{num(1 + beta)} \cdot {num(p)} \cdot {num(r)}}}{{{num(r)} + {num(beta)} \cdot {num(p)}}}"
                   rf" = {num(value)}")
    elif name == "F1":
        value = f1(p, r)
        formula = (rf"{lhs} = \frac{{2 \cdot P \cdot R}}{{P + R}} = "
                   rf"\frac{{2 \cdot {num(p)} \cdot {num(r)}}}{{{num(p)} + {num(r)}}} = {num(value)}")
        summary["P"], summary["R_value"] = p, r
    elif name == "Success":
        value = 1.0 if hits > 0 else 0.0
        first = cols["relevant"].index(True) + 1 if hits else None
        why = rf"\text{{first relevant at rank {first}}}" if first else rf"\text{{no relevant document in the top {kk}}}"
        formula = rf"{lhs} = {num(value)} \quad ({why})"
    elif name == "NumRet":
        value = float(n)
        formula = rf"{lhs} = {n}"
    elif name == "NumRel":
        value = float(R)
        formula = rf"\mathrm{{NumRel}} = R = {R}"
    elif name == "NumRelRet":
        value = float(hits)
        formula = rf"{lhs} = {hits}"
    else:  # NumQ
        value = 1.0
        formula = r"\mathrm{NumQ} = 1"
    return Explanation(str(m), float(value), cols, formula, DEFINITIONS[name], summary)
