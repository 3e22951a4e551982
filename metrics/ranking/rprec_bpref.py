"""R-precision and bpref.

R-precision: precision at rank R (R = number of relevant documents); 0 when R = 0.

Bpref (Buckley & Voorhees 2004, as trec_eval computes it): for each relevant retrieved
document r, 1 - min(n_r, R) / min(R, N), where n_r counts the judged non-relevant documents
ranked above r and N is the number of judged non-relevant documents; summed, divided by R.
Unjudged documents, and documents graded -1 (pooled, never judged), are skipped.
"""

from __future__ import annotations

import numpy as np

from ._query import Explanation, Query, base_columns, frac, join_terms, label, num, ratio

DEFINITIONS = {
    "Rprec": r"Rprec = P@R = \frac{|\text{relevant} \cap \text{top } R|}{R}",
    "Bpref": r"bpref = \frac{1}{R} \sum_{r} \left(1 - \frac{\min(n_r, R)}{\min(R, N)}\right)",
}


def bpref_term(above, R, N):
    """One relevant document's bpref term, 1 - min(n_r, R) / min(R, N), with n_r = ``above``
    judged non-relevant documents ranked above it (1 when n_r = 0). On numbers or arrays.

    >>> bpref_term(0, 2, 3), bpref_term(1, 2, 3)  # nothing above: 1; one above: 1 - 1/min(2, 3)
    (1.0, 0.5)
    >>> bpref_term(np.array([0, 1]), 2, 1)  # N = 1: one non-relevant above costs 1/min(2, 1)
    array([1., 0.])
    """
    denom = np.minimum(R, N)
    above = np.asarray(above)
    out = 1.0 - np.where(above > 0, np.minimum(above, R) / np.where(denom > 0, denom, 1), 0.0)
    return out if out.ndim else float(out)


def trace(m, q: Query) -> Explanation:
    rel = m["rel"]
    R = q.num_rel(rel)
    if m.name == "Rprec":
        n = min(R, len(q.docs))
        cols = base_columns(q, n, rel)
        hits = cols["hits"][-1] if n else 0
        cols["precision"] = [h / (i + 1) for i, h in enumerate(cols["hits"])]
        value = ratio(hits, R)
        formula = (rf"\mathrm{{Rprec}} = P@{R} = {frac(hits, R)} = {num(value)}" if R
                   else r"\mathrm{Rprec} = 0 \quad (R = 0)")
        return Explanation(str(m), value, cols, formula, DEFINITIONS["Rprec"], {"R": R, "hits": hits})

    n = len(q.docs)
    cols = base_columns(q, n, rel)
    judged = q.judged & (q.grades >= 0)
    nonrel = judged & (q.grades < rel)
    relevant = np.asarray(cols["relevant"], dtype=bool)
    N = int(np.count_nonzero((q.all_grades >= 0) & (q.all_grades < rel)))
    above = np.cumsum(nonrel) - nonrel  # judged non-relevant strictly above each rank
    denom = min(R, N)
    contrib = np.where(relevant, bpref_term(above, R, N), 0.0)
    cols["judged"] = judged.tolist()
    cols["nonrel_above"] = above.tolist()
    cols["contribution"] = contrib.tolist()
    cols["running_sum"] = np.cumsum(contrib).tolist()
    total = float(contrib.sum())
    value = ratio(total, R)
    terms = above[relevant].tolist()

    def term(a: int) -> str:
        return rf"\left(1 - {frac(min(a, R), denom)}\right)" if a else "1"
    lhs = label(m)
    formula = (rf"{lhs} = \frac{{1}}{{{R}}}\left({join_terms(terms, term)}\right) = {frac(total, R)} = {num(value)}"
               if R else rf"{lhs} = 0 \quad (R = 0)")
    summary = {"R": R, "N": N, "sum": total}
    return Explanation(str(m), value, cols, formula, DEFINITIONS["Bpref"] + rf", \quad N = {num(N)}", summary)
