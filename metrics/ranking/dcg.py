"""Cumulative gain, DCG, ideal DCG and nDCG, with every convention named.

``dcg='log2'`` (default, trec_eval): gain = grade, discount log2(i + 1).
``dcg='exp-log2'`` (Burges et al. 2005; ranx ``ndcg_burges``): gain 2^grade - 1, discount log2(i + 1).
``dcg='jarvelin'`` (Järvelin & Kekäläinen 2002, b = 2, as in the IR course lab): gain = grade, rank 1
undiscounted, rank i >= 2 divided by log2(i) — i.e. discount max(1, log2 i).

``ideal='qrels'`` (default, trec_eval): the ideal ordering sorts every judged document;
``ideal='ranking'`` (sklearn ``ndcg_score``, the Pinecone notebook): it sorts only the
retrieved list, so relevant documents that were never retrieved do not count.

``rel=None`` (default, trec_eval ignores ``-l`` for nDCG): every positive grade is a gain;
``rel=N`` (ranx's ``-lN``) gives grades below N a gain of 0. Negative grades and unjudged
documents always have gain 0.
"""

from __future__ import annotations

import numpy as np

from ..measures import gain_map
from ._query import Explanation, Query, base_columns, join_terms, label, num, ratio

MAX_EXP_GRADE = 1023  # 2^1024 overflows a double

DEFINITIONS = {
    "CG": r"CG@k = \sum_{i=1}^{k} g_i",
    "DCG": r"DCG@k = \sum_{i=1}^{k} \frac{g_i}{d_i}",
    "IDCG": r"IDCG@k = \sum_{i=1}^{k} \frac{g^*_i}{d_i}",
    "nDCG": r"nDCG@k = \frac{DCG@k}{IDCG@k}",
}
GAIN_TEXT = {"log2": "g_i = grade_i", "exp-log2": "g_i = 2^{grade_i} - 1", "jarvelin": "g_i = grade_i"}
DISCOUNT_TEXT = {"log2": r"d_i = \log_2(i + 1)", "exp-log2": r"d_i = \log_2(i + 1)",
                 "jarvelin": r"d_i = \max(1, \log_2 i)"}


def gain(grade, dcg: str = "log2"):
    """The gain of a grade: the grade itself, or 2^grade - 1 under ``dcg='exp-log2'``.

    Works on a number or elementwise on an array; the one definition the kernel, the batch
    path and the checker use (:func:`gains` adds the rules for which grades count).

    >>> gain(3), gain(3, "exp-log2")  # 2^3 - 1 = 7
    (3.0, 7.0)
    >>> gain(np.array([0, 1, 2]), "exp-log2")  # 2^0 - 1, 2^1 - 1, 2^2 - 1
    array([0., 1., 3.])
    """
    g = np.asarray(grade, dtype=np.float64)
    out = np.exp2(g) - 1.0 if dcg == "exp-log2" else g
    return out if out.ndim else float(out)


def discount(rank, dcg: str = "log2", base: float = 2):
    """The discount at a rank (1 = the top): log2(rank + 1), or max(1, log2 rank) under
    ``dcg='jarvelin'``. Works on a number or elementwise on an array of ranks.

    >>> discount(1), discount(3), discount(4, "jarvelin")  # log2 2, log2 4, log2 4
    (1.0, 2.0, 2.0)
    >>> discount(np.array([1, 2, 8]), "jarvelin")  # ranks 1 and 2 undiscounted, log2 8 = 3
    array([1., 1., 3.])

    ``base`` is the logarithm's base (sklearn's ``log_base``; Järvelin & Kekäläinen's b, below
    which ranks go undiscounted):

    >>> discount(9, base=10), discount(np.array([2, 3, 9]), "jarvelin", base=3)  # log10 10; max(1, log3 i)
    (1.0, array([1., 1., 2.]))
    """
    r = np.asarray(rank, dtype=np.float64)
    scale = 1.0 if base == 2 else float(np.log2(base))  # log_b x = log2 x / log2 b
    out = np.maximum(1.0, np.log2(r) / scale) if dcg == "jarvelin" else np.log2(r + 1.0) / scale
    return out if out.ndim else float(out)


def level_gains(grades, gains_text: str | None) -> np.ndarray:
    """The gain of each grade (the grade, or its value in the gain map); 0 for grades < 0.

    On an array; the one rule the kernels and the batch path share.

    >>> level_gains(np.array([2, 1, 0, -1]), "1=3.5")
    array([2. , 3.5, 0. , 0. ])
    """
    grades = np.asarray(grades)
    out = np.where(grades >= 0, grades, 0).astype(np.float64)
    for level, value in gain_map(gains_text).items():
        out[grades == level] = value
    return out


def gains(grades: np.ndarray, mask: np.ndarray | None, dcg: str, rel: int | None,
          gain_map_text: str | None = None) -> np.ndarray:
    """The :func:`gain` of each grade, 0 where it does not count: a grade <= 0, below
    ``rel``, or ``mask`` False (unjudged).

    With a gain map (``gains='1=3.5,2=7'``, trec_eval's ``ndcg.1=3.5,2=7``) each grade >= 0
    takes its mapped gain (its own value when not named), which may be 0 or negative.

    >>> gains(np.array([3, 1, -1, 2]), np.array([True, True, True, False]), "exp-log2", 2)
    array([7., 0., 0., 0.])
    >>> gains(np.array([0, 1, 2, -1]), None, "log2", None, "0=0.5,2=-1")
    array([ 0.5,  1. , -1. ,  0. ])
    """
    if gain_map_text is not None:
        keep = grades >= 0
        if rel is not None:
            keep &= grades >= rel
        if mask is not None:
            keep &= mask
        return np.where(keep, level_gains(grades, gain_map_text), 0.0)
    g = grades.astype(np.float64)
    keep = g > 0
    if rel is not None:
        keep &= g >= rel
    if mask is not None:
        keep &= mask
    if dcg == "exp-log2":
        if keep.any() and g[keep].max() > MAX_EXP_GRADE:
            raise ValueError(f"judgments: grade {int(g[keep].max())} is too large for the 2^grade - 1 gain "
                             f"(at most {MAX_EXP_GRADE})")
        g = gain(np.where(keep, g, 0.0), dcg)
    return np.where(keep, g, 0.0)


def discounts(n: int, dcg: str, base: float = 2) -> np.ndarray:
    """The :func:`discount` of ranks 1..n.

    >>> discounts(3, "log2")  # log2 2, log2 3, log2 4
    array([1.       , 1.5849625, 2.       ])
    """
    return discount(np.arange(1, n + 1, dtype=np.float64), dcg, base)


def _glibc_merge_sort(items: list, compare) -> list:
    """glibc's qsort (a top-down merge sort, first half n // 2) with a C comparator, so an
    inconsistent comparator gives the order trec_eval gets."""
    if len(items) <= 1:
        return list(items)
    half = len(items) // 2
    left, right = _glibc_merge_sort(items[:half], compare), _glibc_merge_sort(items[half:], compare)
    out, i, j = [], 0, 0
    while i < len(left) and j < len(right):
        if compare(left[i], right[j]) <= 0:
            out.append(left[i])
            i += 1
        else:
            out.append(right[j])
            j += 1
    return out + left[i:] + right[j:]


def trec_eval_ideal_levels(counts, gains_text: str | None) -> list[tuple[int, float]]:
    """The ideal list as trec_eval builds it: (grade, gain) per ideal rank, best first.

    ``counts[i]``: the judged documents graded i (i >= 0). trec_eval sorts its gain levels with
    ``comp_rel_gain``, which returns the difference of two gains as an int: gains less than 1
    apart compare equal and keep their place, so the ideal may start with a worse level, and it
    stops at the first level whose gain is not positive. Gain-map levels come first, ascending
    (trec_eval takes them in command-line order), then the grades the map does not name.

    Gains 0.5 for grade 1, 0 for grade 0: 0.5 - 0 truncates to 0, grade 0 stays last and is
    walked first; its gain is 0, so the ideal is empty (trec_eval's ndcg.1=0.5 prints 0):

    >>> trec_eval_ideal_levels([1, 1], "1=0.5"), trec_eval_ideal_levels([1, 1], "1=2")
    ([], [(1, 2.0)])
    """
    table = [[level, gain, 0] for level, gain in gain_map(gains_text).items()]
    for level, count in enumerate(counts):
        row = next((r for r in table if r[0] == level), None)
        if row is None:
            table.append([level, float(level), int(count)])
        else:
            row[2] = int(count)
    table = _glibc_merge_sort(table, lambda a, b: int(a[1] - b[1]))  # C: (int)(gain1 - gain2)
    out: list[tuple[int, float]] = []
    cur = len(table) - 1
    gain = table[cur][1] if cur >= 0 else 0.0
    at_level = 0
    while gain > 0:  # m_ndcg.c's walk down the sorted levels
        at_level += 1
        while cur >= 0 and at_level > table[cur][2]:
            at_level, cur = 1, cur - 1
            gain = table[cur][1] if cur >= 0 else 0.0
        if gain > 0:
            out.append((table[cur][0], gain))
    return out


def trec_eval_idcg(qrels_q: np.ndarray, qrels_grade: np.ndarray, size: int, k: int | None, dcg: str,
                   base: float, gains_text: str | None) -> np.ndarray:
    """Each query's ideal DCG (@k) with :func:`trec_eval_ideal_levels`'s ideal, for the batch
    path (``qrels_q``: query codes 0..size-1). A loop over queries: a convention asked for by
    name, not the fast path."""
    out = np.zeros(size)
    judged = qrels_grade >= 0
    q, grade = qrels_q[judged], qrels_grade[judged]
    order = np.argsort(q, kind="stable")
    q, grade = q[order], grade[order]
    bounds = np.searchsorted(q, np.arange(size + 1))
    for i in range(size):
        counts = np.bincount(grade[bounds[i]:bounds[i + 1]]).tolist()
        gains = np.asarray([g for _, g in trec_eval_ideal_levels(counts, gains_text)][:k], dtype=np.float64)
        if gains.size:
            out[i] = float(np.sum(gains / discount(np.arange(1, gains.size + 1, dtype=np.float64), dcg, base)))
    return out


def ideal_order(m, q: Query) -> tuple[list[str], np.ndarray, np.ndarray]:
    """Documents, grades and gains of the ideal ordering (positive gains only, best first)."""
    dcg, rel = m["dcg"], m["rel"]
    if m["ideal"] == "trec_eval":
        grades = q.all_grades
        counts = np.bincount(grades[grades >= 0]) if (grades >= 0).any() else np.zeros(0, np.int64)
        walk = trec_eval_ideal_levels(counts.tolist(), m["gains"])
        docs_of = {}
        for d, g in q.judgments.items():
            docs_of.setdefault(g, []).append(d)
        taken = {g: 0 for g in docs_of}
        docs = []
        for level, _ in walk:
            docs.append(docs_of[level][taken[level]])
            taken[level] += 1
        return docs, np.array([lv for lv, _ in walk], np.int64), np.array([g for _, g in walk], np.float64)
    if m["ideal"] == "qrels":
        docs = list(q.judgments)
        grades = q.all_grades
    else:
        docs = list(q.docs)
        grades = np.where(q.judged, q.grades, 0)
    g = gains(grades, None, dcg, rel, m["gains"])
    order = np.lexsort((np.arange(len(docs)), -g))  # by gain descending, stable
    order = order[g[order] > 0]
    return [docs[i] for i in order], grades[order], g[order]


def trace(m, q: Query) -> Explanation:
    dcg, rel = m["dcg"], m["rel"]
    n = q.depth(m.cutoff)
    cols = base_columns(q, n)
    gain = q.averaged(gains(q.grades, q.judged, dcg, rel, m["gains"]))[:n]  # ties='average': the group's mean
    base = m["base"] if "base" in m.family.params else 2
    disc = discounts(n, dcg, base)
    contrib = gain / disc
    running = np.cumsum(contrib)
    cols["gain"] = gain.tolist()
    cols["discount"] = disc.tolist()
    cols["contribution"] = contrib.tolist()
    cols["cg"] = np.cumsum(gain).tolist()
    cols["dcg"] = running.tolist()
    summary: dict = {"CG": float(gain.sum()), "DCG": float(running[-1]) if n else 0.0}
    lhs = label(m)
    dcg_terms = list(zip(gain.tolist(), disc.tolist(), strict=True))
    if m.name == "CG":
        value = summary["CG"]
        formula = rf"{lhs} = {join_terms(gain.tolist(), num)} = {num(value)}"
        return Explanation(str(m), value, cols, formula, DEFINITIONS["CG"], summary)
    if m.name == "DCG":
        value = summary["DCG"]
        formula = rf"{lhs} = {join_terms(dcg_terms, _term)} = {num(value)}"
        return Explanation(str(m), value, cols, formula, _definition("DCG", dcg, m["gains"], base), summary)

    ideal_docs, ideal_grades, ideal_gains = ideal_order(m, q)
    depth = len(ideal_gains) if m.cutoff is None else min(m.cutoff, len(ideal_gains))
    ideal_gains, ideal_grades, ideal_docs = ideal_gains[:depth], ideal_grades[:depth], ideal_docs[:depth]
    ideal_disc = discounts(depth, dcg, base)
    ideal_contrib = ideal_gains / ideal_disc
    ideal_running = np.cumsum(ideal_contrib)
    idcg = float(ideal_running[-1]) if depth else 0.0
    ideal = {"rank": list(range(1, depth + 1)), "doc": ideal_docs, "grade": ideal_grades.tolist(),
             "gain": ideal_gains.tolist(), "discount": ideal_disc.tolist(),
             "contribution": ideal_contrib.tolist(), "idcg": ideal_running.tolist()}
    # the ideal beside the actual, rank by rank (0 past the end of the ideal list)
    pad = max(0, n - depth)
    cols["ideal_grade"] = (ideal_grades[:n].tolist() + [None] * pad)
    cols["ideal_gain"] = np.concatenate([ideal_gains[:n], np.zeros(pad)]).tolist()
    idcg_i = np.concatenate([ideal_running[:n], np.full(pad, idcg)]) if n else np.zeros(0)
    cols["idcg"] = idcg_i.tolist()
    with np.errstate(invalid="ignore", divide="ignore"):
        cols["ndcg"] = np.where(idcg_i > 0, running / np.where(idcg_i > 0, idcg_i, 1), 0.0).tolist()
    summary["IDCG"] = idcg
    ideal_terms = list(zip(ideal_gains.tolist(), ideal_disc.tolist(), strict=True))
    k = "" if m.cutoff is None else f"@{m.cutoff}"
    if m.name == "IDCG":
        value = idcg
        formula = rf"{lhs} = {join_terms(ideal_terms, _term)} = {num(value)}"
        return Explanation(str(m), value, cols, formula, _definition("IDCG", dcg, m["gains"], base), summary, ideal)
    value = ratio(summary["DCG"], idcg)
    ndcg_line = (rf"\mathrm{{nDCG}}{k} &= \frac{{{num(summary['DCG'])}}}{{{num(idcg)}}} = {num(value)}"
                 if idcg > 0 else rf"\mathrm{{nDCG}}{k} &= 0 \quad (\text{{IDCG}} = 0\text{{: nothing relevant}})")
    formula = (r"\begin{aligned}"
               rf"\mathrm{{DCG}}{k} &= {join_terms(dcg_terms, _term)} = {num(summary['DCG'])} \\ "
               rf"\mathrm{{IDCG}}{k} &= {join_terms(ideal_terms, _term)} = {num(idcg)} \\ "
               rf"{ndcg_line}"
               r"\end{aligned}")
    return Explanation(str(m), value, cols, formula, _definition("nDCG", dcg, m["gains"], base), summary, ideal)


def _term(pair) -> str:
    gain, discount = pair
    return rf"\frac{{{num(gain)}}}{{{num(discount)}}}"


def _definition(name: str, dcg: str, gains_text: str | None = None, base: float = 2) -> str:
    gain_text = GAIN_TEXT[dcg] if gains_text is None else (
        r"g_i = \text{gain}(grade_i)\;(" + gains_text.replace(",", r",\;") + r"\text{, else the grade})")
    disc = DISCOUNT_TEXT[dcg] if base == 2 else DISCOUNT_TEXT[dcg].replace(r"\log_2", rf"\log_{{{num(base)}}}")
    return rf"{DEFINITIONS[name]}, \quad {gain_text}, \quad {disc}"
