"""Interpolated precision at a recall level, and the 11-point average.

IPrec@r = the highest precision at any rank at or below the rank where recall level r is
reached (0 when it is never reached), as trec_eval's ``iprec_at_recall_*``. trec_eval turns
the level into a number of relevant documents, c = floor(r * R + 0.9) computed in doubles,
so a level counts as reached a little before recall r exactly: with R = 3, r = 0.7 gives
0.7 * 3 + 0.9 = 2.9999... and c = 2 (recall 2/3 < 0.7). Ranklab follows that rule.
The 11-point average is the mean of IPrec at r = 0.0, 0.1, ..., 1.0 (trec_eval ``11pt_avg``).
"""

from __future__ import annotations

import numpy as np

from ._query import Explanation, Query, base_columns, join_terms, label, num

LEVELS = tuple(i / 10 for i in range(11))
DEFINITIONS = {
    "IPrec": r"IPrec@r = \max\{\, P@i : \text{hits}_i \geq \lfloor r \cdot R + 0.9 \rfloor \,\}",
    "11pt": r"11pt = \frac{1}{11} \sum_{r \in \{0, 0.1, \ldots, 1\}} IPrec@r",
}


def needed_hits(level, R, version: str = "9.0.8"):
    """How many relevant documents reach recall ``level``: trec_eval 9.0.8's
    ``(long)(level * R + 0.9)`` computed in doubles, or 10.0's ``lround(level * R)`` (half
    away from zero). On numbers or arrays (one R per query).

    >>> needed_hits(0.7, 3), needed_hits(0.5, 3), needed_hits(0.0, 3)  # 2.9999.. -> 2; 2.4 -> 2; 0.9 -> 0
    (2, 2, 0)
    >>> needed_hits(0.4, 3), needed_hits(0.4, 3, "10.0"), needed_hits(0.5, 3, "10.0")  # 2.1 -> 2; 1.2 -> 1; 1.5 -> 2
    (2, 1, 2)
    """
    x = np.multiply(level, R)
    out = np.floor(x + 0.9) if version == "9.0.8" else np.floor(x + 0.5)
    return out if out.ndim else int(out)


def levels_of(m) -> tuple[float, ...]:
    """The recall levels an 11pt measure averages: 0.0, 0.1, ..., 1.0 unless ``levels`` says."""
    text = m["levels"]
    return LEVELS if text is None else tuple(float(v) for v in text.split(","))


def trace(m, q: Query) -> Explanation:
    rel = m["rel"]
    n = len(q.docs)
    cols = base_columns(q, n, rel)
    R = q.num_rel(rel)
    hits = np.asarray(cols["hits"], dtype=float)
    precision = hits / np.arange(1, n + 1) if n else hits
    recall = hits / R if R else np.zeros(n)
    # interpolated precision at each rank: the best precision at this rank or any later one
    best_after = np.maximum.accumulate(precision[::-1])[::-1] if n else precision
    cols["precision"] = precision.tolist()
    cols["recall"] = recall.tolist()
    cols["interpolated"] = best_after.tolist()

    total_hits = int(hits[-1]) if n else 0
    hit_ranks = np.flatnonzero(cols["relevant"]) if n else np.zeros(0, dtype=int)

    version = m["version"]

    def at(level: float) -> float:
        c = needed_hits(level, R, version)
        if n == 0 and c == 0 and m["empty_ranking"] == "nan":
            return float("nan")  # trec_eval: precision 0/0 at the levels that need no hit
        if R == 0 or n == 0 or c > total_hits:
            return 0.0
        start = hit_ranks[c - 1] if c > 0 else 0
        return float(precision[start:].max())

    lhs = label(m)
    if m.name == "IPrec":
        value = at(m.cutoff)
        c = needed_hits(m.cutoff, R, version)
        rule = (rf"\lfloor {num(m.cutoff)} \cdot {R} + 0.9 \rfloor" if version == "9.0.8"
                else rf"\operatorname{{round}}({num(m.cutoff)} \cdot {R})")
        formula = rf"{lhs} = \max\{{P@i : \text{{hits}}_i \geq {rule} = {c}\}} = {num(value)}"
        return Explanation(str(m), value, cols, formula, DEFINITIONS["IPrec"], {"R": R, "needed_hits": c})
    levels = levels_of(m)
    points = [at(level) for level in levels]
    value = sum(reversed(points)) / len(levels)  # trec_eval adds from the last level down
    formula = (rf"\mathrm{{11pt}} = \frac{{1}}{{{len(levels)}}}\left({join_terms(points, num, limit=11)}\right)"
               rf" = {num(value)}")
    summary = {"R": R, "levels": list(levels), "iprec": points}
    return Explanation(str(m), value, cols, formula, DEFINITIONS["11pt"], summary)
