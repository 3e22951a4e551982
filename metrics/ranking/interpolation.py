"""Interpolated precision at a recall level, and the 11-point average.

IPrec@r = the highest precision at any rank whose recall is at least r (0 when recall r is
never reached), as trec_eval's ``iprec_at_recall_*``. "Recall at least r" is counted as
trec_eval 9.0.8 counts it: at least ``int(r * R + 0.9)`` relevant documents retrieved. The 11-point average is the mean of
IPrec at r = 0.0, 0.1, ..., 1.0 (trec_eval ``11pt_avg``).
"""

from __future__ import annotations

import numpy as np

from ._query import Explanation, Query, base_columns, join_terms, label, num, value_text

LEVELS = tuple(i / 10 for i in range(11))
DEFINITIONS = {
    "IPrec": r"IPrec@r = \max\{\, P@i : R@i \geq r \,\}",
    "11pt": r"11pt = \frac{1}{11} \sum_{r \in \{0, 0.1, \ldots, 1\}} IPrec@r",
}


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

    def at(level: float) -> float:
        if R == 0 or n == 0:
            return 0.0
        # trec_eval 9.0.8 (and pytrec_eval) turn the level into a number of relevant
        # documents as (long)(level * R + 0.9), in double arithmetic: with R = 3, level 0.7
        # needs 2 relevant documents (2.1 + 0.9 rounds down to 2.9999...), level 0.8 needs 3
        needed = int(level * R + 0.9)
        reached = hits >= needed
        return float(precision[reached].max()) if reached.any() else 0.0

    lhs = label(m)
    if m.name == "IPrec":
        value = at(m.cutoff)
        formula = rf"{lhs} = \max\{{P@i : R@i \geq {num(m.cutoff)}\}} = {value_text(value)}"
        return Explanation(str(m), value, cols, formula, DEFINITIONS["IPrec"], {"R": R})
    points = [at(level) for level in LEVELS]
    value = sum(points) / 11
    formula = rf"\mathrm{{11pt}} = \frac{{1}}{{11}}\left({join_terms([num(p) for p in points], limit=11)}\right) = {value_text(value)}"
    summary = {"R": R, "levels": list(LEVELS), "iprec": points}
    return Explanation(str(m), value, cols, formula, DEFINITIONS["11pt"], summary)
