r"""trec_eval's set and count measures beyond P and recall: set_map, relative_P, utility,
num_nonrel_judged_ret, and Rprec_mult.

With ``hits`` relevant documents among the ``n`` retrieved (or the top k), R relevant in the
judgments:

- **SetAP** (``set_map``): P · R = (hits / n) · (hits / R).
- **RelP@k** (``relative_P_k``; ``set_relative_P`` without k): hits / min(k, R), with k = n
  without a cutoff, so a query with fewer relevant documents than k can still reach 1.
- **Utility** (``utility``): a · hits + b · (n − hits) + c · (R − hits); trec_eval's default
  a = 1, b = −1, c = 0. (trec_eval's fourth coefficient needs the collection size, ``-N``,
  and is not offered.) Unjudged documents count as non-relevant.
- **NumNonRelJudgedRet** (``num_nonrel_judged_ret``): retrieved documents judged with a
  grade from 0 to rel − 1 (grade −1 and unjudged documents are not counted).
- **RprecMult@m** (``Rprec_mult_m``): precision at rank c = ⌊m·R + 0.9⌋, dividing by c even
  when fewer are retrieved; 0 when c = 0.

>>> import metrics
>>> run, grades = ["a", "b", "c", "d"], {"a": 1, "c": 1, "e": 1, "b": 0}
>>> metrics.score("SetAP", run, grades)  # (2/4) * (2/3)
0.3333333333333333
>>> metrics.score("RelP@2", run, grades), metrics.score("Utility", run, grades)  # 1 / min(2, 3); 2 - 2
(0.5, 0.0)
>>> metrics.score("RprecMult@0.5", run, grades)  # c = floor(1.5 + 0.9) = 2: P@2 = 1/2
0.5
"""

from __future__ import annotations

import numpy as np

from ._query import Explanation, Query, base_columns, frac, label, num, ratio
from .interpolation import needed_hits

DEFINITIONS = {
    "SetAP": r"SetAP = P \cdot R = \frac{\text{hits}}{n} \cdot \frac{\text{hits}}{R}",
    "RelP": r"RelP@k = \frac{\text{hits in top } k}{\min(k, R)}",
    "Utility": r"U = a \cdot \text{hits} + b \cdot (n - \text{hits}) + c \cdot (R - \text{hits})",
    "NumNonRelJudgedRet": r"\#\{i \le n : 0 \le grade_i < rel\}",
    "RprecMult": r"RprecMult@m = P@c, \quad c = \lfloor m \cdot R + 0.9 \rfloor",
}


def relative_precision(hits, k, R):
    """hits / min(k, R), 0 when that is 0. On numbers or arrays.

    >>> relative_precision(2, 10, 3), relative_precision(0, 5, 0)
    (0.6666666666666666, 0.0)
    """
    return ratio(hits, np.minimum(k, R))


def utility(hits, n, R, a=1, b=-1, c=0):
    """a · hits + b · (n − hits) + c · (R − hits). On numbers or arrays.

    >>> utility(3, 10, 4), utility(3, 10, 4, c=-1)  # 3 - 7; 3 - 7 - 1
    (-4, -5)
    """
    return a * hits + b * (n - hits) + c * (R - hits)


def trace(m, q: Query) -> Explanation:
    rel = m["rel"]
    R = q.num_rel(rel)
    lhs = label(m)
    if m.name == "RprecMult":
        c = needed_hits(m.cutoff, R)
        n = min(c, len(q.docs))
        cols = base_columns(q, n, rel)
        hits = cols["hits"][-1] if n else 0
        value = ratio(hits, c)
        formula = (rf"{lhs} = P@\lfloor {num(m.cutoff)} \cdot {R} + 0.9 \rfloor = P@{c} = {frac(hits, c)} = {num(value)}"
                   if c else rf"{lhs} = 0 \quad (\lfloor {num(m.cutoff)} \cdot {R} + 0.9 \rfloor = 0)")
        return Explanation(str(m), value, cols, formula, DEFINITIONS["RprecMult"], {"R": R, "c": c, "hits": hits})
    n = q.depth(m.cutoff)
    cols = base_columns(q, n, rel)
    hits = int(cols["hits"][-1]) if n else 0
    summary = {"R": R, "hits": hits, "retrieved": n}
    if m.name == "SetAP":
        value = ratio(hits * hits, n * R)  # one division, as trec_eval: the same last digit
        formula = rf"{lhs} = {frac(hits, n)} \cdot {frac(hits, R)} = {num(value)}"
    elif m.name == "RelP":
        k = n if m.cutoff is None else m.cutoff
        value = relative_precision(hits, k, R)
        formula = rf"{lhs} = \frac{{{hits}}}{{\min({k}, {R})}} = {num(value)}"
    elif m.name == "Utility":
        a, b, c = m["a"], m["b"], m["c"]
        value = float(utility(hits, n, R, a, b, c))
        formula = (rf"{lhs} = {num(a)} \cdot {hits} + ({num(b)}) \cdot {n - hits} + ({num(c)}) \cdot {R - hits}"
                   rf" = {num(value)}")
    else:  # NumNonRelJudgedRet
        nonrel = q.judged[:n] & (q.grades[:n] >= 0) & (q.grades[:n] < rel)
        cols["judged_nonrel"] = nonrel.tolist()
        value = float(nonrel.sum())
        formula = rf"{lhs} = {num(value)}"
    return Explanation(str(m), value, cols, formula, DEFINITIONS[m.name], summary)
