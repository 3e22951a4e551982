"""User-model measures: RBP, ERR, INST, and the share of judged documents (Judged@k).

Each of the first three is a model of a user who reads the ranking from the top and, after
each document, either goes on or stops (the C/W/L view of Moffat et al. 2013):
``C_i`` is the chance of continuing from rank i to rank i + 1, ``W_i`` the share of the
user's attention that rank i gets (the W_i sum to 1), and the measure is the expected gain
per document read, sum of W_i g_i.

``RBP(p=0.8)`` (Moffat & Zobel 2008): C_i = p, so W_i = (1 - p) p^(i-1) and
RBP = (1 - p) sum of p^(i-1) rel_i, relevant meaning grade >= ``rel``. ``weights='cwl'``
divides every W_i by 1 - p^D, as cwl-eval does over its D = 1000 ranks (or the cutoff), so
that they sum to 1 there (a factor 1.00004 at p = 0.99). Unjudged documents count
as non-relevant, so RBP is a lower bound; the *residual* is the weight that unjudged
documents and the ranks past the end (or past the cutoff) could still add,
sum of W_i over unjudged i plus p^d (d = the depth looked at). ``bound='upper'`` gives
RBP + residual, ``bound='residual'`` the residual itself.

``ERR(max_grade=4)@k`` (Chapelle et al. 2009): the user stops at rank i, satisfied, with
probability R_i = (2^g_i - 1) / 2^max_grade; ERR = sum of R_i / i times the chance of
reaching rank i, prod_{j<i} (1 - R_j). ``max_grade`` 4 is the TREC Web track's scale (and
gdeval's ``$MAX_JUDGMENT``). ``bound='upper'`` scores unjudged documents, and the ranks past the
end of the ranking up to k (1000 without a cutoff), at ``max_grade``; ``'residual'`` is the gap. ERR is not a C/W/L measure (Azzopardi et al. 2021): its W_i do
not come from a C_i that the gains leave alone.

``INST(T=1)`` (Moffat et al. 2015): the user wants T units of gain; after rank i with
gain G_i collected so far, T_i = T - G_i and C_i = ((i + T + T_i - 1) / (i + T + T_i))^2;
gains g_i = min(grade, max_grade) / max_grade (``max_grade=1``: binary, grade >= 1). As in
cwl_eval, W is normalised over the first 1000 ranks (or the cutoff k), gains 0 past the
end of the ranking; ``bound`` works as for RBP, with unjudged ranks and ranks past the end
given gain 1 for the upper bound.

``Judged@k`` (ir_measures): the share of the top k that has a line in the judgments (any
grade, -1 too), divided by min(k, number retrieved); 0 for an empty ranking.

Grades above ``max_grade`` count as ``max_grade``; negative grades count as 0.
"""

from __future__ import annotations

import numpy as np

from ._query import Explanation, Query, base_columns, join_terms, label, num, ratio

INST_DEPTH = 1000  # cwl_eval's default depth, over which INST's weights are normalised

DEFINITIONS = {
    "RBP": r"RBP = (1 - p) \sum_{i} p^{i-1} \, rel_i, \quad \text{residual} = "
           r"\sum_{i \text{ unjudged}} (1 - p) p^{i-1} + p^{d}",
    "ERR": r"ERR@k = \sum_{i=1}^{k} \frac{R_i}{i} \prod_{j<i} (1 - R_j), \quad R_i = "
           r"\frac{2^{g_i} - 1}{2^{g_{max}}}",
    "INST": r"INST = \sum_i W_i g_i, \quad W_i = \frac{\prod_{j<i} C_j}{\sum_{m} \prod_{j<m} C_j}, "
            r"\quad C_i = \left(\frac{i + T + T_i - 1}{i + T + T_i}\right)^2, \quad T_i = T - \sum_{j \le i} g_j",
    "Judged": r"Judged@k = \frac{|\text{judged} \cap \text{top } k|}{\min(k, n)}",
}


# --------------------------------------------------------------------------- the formulas
# Each works on arrays, so the kernels below and metrics.batch share them.

def rbp_weight(rank, p: float):
    """W_i = (1 - p) p^(i - 1), the share of attention RBP gives rank i.

    >>> round(rbp_weight(1, 0.8), 4), round(rbp_weight(3, 0.8), 4)  # 1 - 0.8; 0.2 * 0.8^2
    (0.2, 0.128)
    """
    out = (1.0 - p) * np.power(p, np.asarray(rank, dtype=np.float64) - 1.0)
    return out if out.ndim else float(out)


def rbp_weights(rank, p: float, weights: str = "geometric", cutoff: int | None = None):
    """RBP's W_i under ``weights``: 'geometric' (Moffat & Zobel), :func:`rbp_weight`; 'cwl'
    (cwl-eval), the same divided by 1 - p^D so that the first D ranks share all the attention
    (D = 1000, or the cutoff), 0 past rank D.

    >>> round(rbp_weights(1, 0.5, "cwl", 2), 4), rbp_weights(3, 0.5, "cwl", 2)  # 0.5 / (1 - 0.25)
    (0.6667, 0.0)
    """
    out = rbp_weight(rank, p)
    if weights == "cwl":
        depth = INST_DEPTH if cutoff is None else cutoff
        out = np.where(np.asarray(rank) <= depth, np.asarray(out) / (1.0 - p ** depth), 0.0)
        return out if out.ndim else float(out)
    return out


def err_stop(grade, max_grade: int):
    """R = (2^g - 1) / 2^max_grade, the chance ERR's user is satisfied by a document of
    grade g (negative grades count as 0, grades above ``max_grade`` as ``max_grade``).

    >>> err_stop(4, 4), err_stop(1, 4), err_stop(-1, 4)  # 15/16, 1/16, 0
    (0.9375, 0.0625, 0.0)
    """
    g = np.clip(np.asarray(grade, dtype=np.float64), 0, max_grade)
    out = (np.exp2(g) - 1.0) / np.exp2(float(max_grade))
    return out if out.ndim else float(out)


def err_value(stops: np.ndarray) -> np.ndarray:
    """ERR = sum of R_i / i times prod_{j<i} (1 - R_j), per row of stop chances R.

    >>> err_value(np.array([[0.5, 0.5], [0.0, 0.75]]))  # 0.5 + 0.5 * 0.5 / 2; 0.75 / 2
    array([0.625, 0.375])
    """
    stops = np.atleast_2d(np.asarray(stops, dtype=np.float64))
    if stops.shape[1] == 0:
        return np.zeros(stops.shape[0])
    reach = np.cumprod(np.concatenate([np.ones((stops.shape[0], 1)), 1.0 - stops[:, :-1]], axis=1), axis=1)
    return (reach * stops / np.arange(1, stops.shape[1] + 1)).sum(axis=1)


def inst_gain(grade, max_grade: int):
    """INST's gain, min(max(g, 0), max_grade) / max_grade, in [0, 1].

    >>> inst_gain(np.array([-1, 0, 1, 2, 5]), 2)
    array([0. , 0. , 0.5, 1. , 1. ])
    """
    out = np.clip(np.asarray(grade, dtype=np.float64), 0, max_grade) / max_grade
    return out if out.ndim else float(out)


def inst_weights(gains: np.ndarray, T: float) -> tuple[np.ndarray, np.ndarray]:
    """C_i and W_i of INST for gains laid out as rows (one row per query, one column per rank).

    >>> c, w = inst_weights(np.array([[1.0, 0.0]]), 1.0)
    >>> c.round(4)  # T_1 = 0: ((1 + 1 + 0 - 1) / 2)^2; T_2 = 0: (2 / 3)^2
    array([[0.25  , 0.4444]])
    >>> w.round(4)  # 1 / (1 + 0.25), 0.25 / 1.25
    array([[0.8, 0.2]])
    """
    gains = np.atleast_2d(np.asarray(gains, dtype=np.float64))
    i = np.arange(1, gains.shape[1] + 1, dtype=np.float64)
    base = i + 2.0 * T - np.cumsum(gains, axis=1)  # i + T + T_i
    c = ((base - 1.0) / base) ** 2
    reach = np.cumprod(np.concatenate([np.ones((gains.shape[0], 1)), c[:, :-1]], axis=1), axis=1)
    return c, reach / reach.sum(axis=1, keepdims=True)


def inst_value(gains: np.ndarray, T: float) -> np.ndarray:
    """INST = sum of W_i g_i, per row.

    >>> inst_value(np.array([[1.0, 0.0], [0.0, 0.0]]), 1.0)  # 0.8 * 1; nothing relevant
    array([0.8, 0. ])
    """
    gains = np.atleast_2d(np.asarray(gains, dtype=np.float64))
    return (inst_weights(gains, T)[1] * gains).sum(axis=1)


def bounded(lower, upper, bound: str):
    """The lower bound, the upper bound, or the residual (upper - lower), as ``bound`` asks.

    >>> bounded(0.25, 0.75, "residual")
    0.5
    """
    return lower if bound == "lower" else upper if bound == "upper" else upper - lower


# --------------------------------------------------------------------------- kernels

def _lhs(m) -> str:
    bound = m["bound"] if "bound" in m.family.params else "lower"
    return label(m) + ("" if bound == "lower" else rf"_{{\text{{{bound}}}}}")


def trace(m, q: Query) -> Explanation:
    return {"RBP": _rbp, "ERR": _err, "INST": _inst, "Judged": _judged}[m.name](m, q)


def _rbp(m, q: Query) -> Explanation:
    p, rel, bound = m["p"], m["rel"], m["bound"]
    n = q.depth(m.cutoff)
    cols = base_columns(q, n, rel)
    ranks = np.arange(1, n + 1)
    weight = rbp_weights(ranks, p, m["weights"], m.cutoff) if n else np.zeros(0)
    relevant = np.asarray(cols["relevant"], dtype=np.float64)  # a chance under ties='average'
    judged = q.averaged(q.judged.astype(np.float64))[:n]
    contrib = relevant * weight
    cols["judged"] = judged.tolist()
    cols["continue"] = [p] * n
    cols["weight"] = weight.tolist()
    cols["contribution"] = contrib.tolist()
    cols["rbp"] = np.cumsum(contrib).tolist()
    lower = float(contrib.sum())
    unjudged = float((weight * (1.0 - judged)).sum())
    if m["weights"] == "cwl":  # the ranks n+1..D of the D that share the attention
        depth = INST_DEPTH if m.cutoff is None else m.cutoff
        tail = float((p ** min(n, depth) - p ** depth) / (1.0 - p ** depth))
    else:
        tail = float(p ** n)
    residual = unjudged + tail
    upper = lower + residual
    value = bounded(lower, upper, bound)
    lhs = _lhs(m)
    hit_ranks = ranks[relevant > 0].tolist()
    pp = num(p)
    def power(r: int, share: float) -> str:
        return f"{pp}^{{{r - 1}}}" if share == 1 else rf"{num(share)} \cdot {pp}^{{{r - 1}}}"
    terms = join_terms(hit_ranks, lambda r: power(r, relevant[r - 1]))
    front = (rf"\frac{{1 - {pp}}}{{1 - {pp}^{{{INST_DEPTH if m.cutoff is None else m.cutoff}}}}}"
             if m["weights"] == "cwl" else rf"(1 - {pp})")
    lines = [rf"\mathrm{{RBP}} &= {front}\left({terms}\right) = {num(lower)}"]
    miss = ranks[judged < 1].tolist()
    miss_terms = join_terms(miss, lambda r: power(r, 1.0 - judged[r - 1]))
    tail_tex = num(tail) if m["weights"] == "cwl" else f"{pp}^{{{n}}}"
    lines.append(rf"\text{{residual}} &= {front}\left({miss_terms}\right) + {tail_tex} = {num(residual)}")
    if bound == "upper":
        lines.append(rf"{lhs} &= {num(lower)} + {num(residual)} = {num(value)}")
    elif bound == "residual":
        lines.append(rf"{lhs} &= {num(value)}")
    formula = r"\begin{aligned}" + r" \\ ".join(lines) + r"\end{aligned}"
    summary = {"p": p, "lower": lower, "residual": residual, "upper": upper, "depth": n,
               "unjudged_weight": unjudged, "tail_weight": tail}
    return Explanation(str(m), value, cols, formula, DEFINITIONS["RBP"], summary)


def _err(m, q: Query) -> Explanation:
    gmax, bound = m["max_grade"], m["bound"]
    n = q.depth(m.cutoff)
    cols = base_columns(q, n)
    stop = err_stop(np.where(q.judged[:n], q.grades[:n], 0), gmax) if n else np.zeros(0)
    reach = np.cumprod(np.r_[1.0, 1.0 - stop[:-1]]) if n else np.zeros(0)
    ranks = np.arange(1, n + 1)
    contrib = reach * stop / ranks if n else np.zeros(0)
    cols["stop"] = stop.tolist()
    cols["reach"] = reach.tolist()
    cols["contribution"] = contrib.tolist()
    cols["err"] = np.cumsum(contrib).tolist()
    lower = float(err_value(stop[None, :])[0]) if n else 0.0
    # upper bound: unjudged ranks, and ranks past the end up to the depth, at the top grade
    depth = INST_DEPTH if m.cutoff is None else m.cutoff
    top = err_stop(gmax, gmax)
    high = np.full(depth, top)
    high[:n] = np.where(q.judged[:n], stop, top)
    upper = float(err_value(high[None, :])[0])
    value = bounded(lower, upper, bound)
    terms = [(float(reach[i]), float(stop[i]), i + 1) for i in range(n) if stop[i] > 0]
    lhs = _lhs(m)
    body = join_terms(terms, lambda t: rf"{num(t[0])} \cdot \frac{{{num(t[1])}}}{{{t[2]}}}")
    if bound == "lower":
        formula = rf"{lhs} = {body} = {num(value)}"
    else:
        formula = (r"\begin{aligned}"
                   rf"\mathrm{{ERR}} &= {body} = {num(lower)} \\ "
                   rf"\text{{upper}} &= {num(upper)} \quad (\text{{unjudged and the ranks past the end up to "
                   rf"{depth} at grade {gmax}}}) \\ "
                   rf"{lhs} &= {num(value)}\end{{aligned}}")
    summary = {"max_grade": gmax, "satisfied": float(1.0 - reach[-1] * (1.0 - stop[-1])) if n else 0.0,
               "lower": lower, "upper": upper, "residual": upper - lower}
    return Explanation(str(m), value, cols, formula,
                       DEFINITIONS["ERR"] + rf", \quad g_{{max}} = {gmax}", summary)


def _inst(m, q: Query) -> Explanation:
    T, gmax, bound = m["T"], m["max_grade"], m["bound"]
    depth = INST_DEPTH if m.cutoff is None else m.cutoff
    n = min(depth, len(q.docs))
    judged = q.judged[:n]
    low = np.zeros(depth)
    low[:n] = np.where(judged, inst_gain(q.grades[:n], gmax), 0.0)
    high = np.ones(depth)
    high[:n] = np.where(judged, low[:n], 1.0)
    c, w = inst_weights(low[None, :], T)
    c, w = c[0], w[0]
    lower = float((w * low).sum())
    upper = float(inst_value(high[None, :], T)[0])
    value = bounded(lower, upper, bound)
    cols = base_columns(q, n)
    contrib = w[:n] * low[:n]
    cols["judged"] = judged.tolist()
    cols["gain"] = low[:n].tolist()
    cols["continue"] = c[:n].tolist()
    cols["weight"] = w[:n].tolist()
    cols["contribution"] = contrib.tolist()
    cols["inst"] = np.cumsum(contrib).tolist()
    lhs = _lhs(m)
    hits = [(float(w[i]), float(low[i])) for i in range(n) if low[i] > 0]
    body = join_terms(hits, lambda t: rf"{num(t[0])} \cdot {num(t[1])}")
    lines = [rf"\mathrm{{INST}} &= {body} = {num(lower)} \quad (T = {num(T)}, W \text{{ over {depth} ranks}})"]
    if bound != "lower":
        lines.append(rf"\text{{residual}} &= {num(upper)} - {num(lower)} = {num(upper - lower)}")
        lines.append(rf"{lhs} &= {num(value)}")
    formula = r"\begin{aligned}" + r" \\ ".join(lines) + r"\end{aligned}"
    summary = {"T": T, "depth": depth, "lower": lower, "upper": upper, "residual": upper - lower,
               "expected_depth": float(1.0 / w[0])}
    return Explanation(str(m), value, cols, formula, DEFINITIONS["INST"], summary)


def _judged(m, q: Query) -> Explanation:
    n = q.depth(m.cutoff)
    cols = base_columns(q, n)
    judged = q.averaged(q.judged.astype(np.float64))[:n]
    cols["judged"] = judged.tolist()
    cols["judged_so_far"] = np.cumsum(judged).tolist()
    count = float(judged.sum())
    value = ratio(count, n)
    lhs = label(m)
    formula = (rf"{lhs} = \frac{{{count}}}{{\min({m.cutoff}, {len(q.docs)})}} = {num(value)}"
               if m.cutoff is not None else rf"{lhs} = \frac{{{count}}}{{{n}}} = {num(value)}")
    if n == 0:
        formula = rf"{lhs} = 0 \quad (\text{{nothing retrieved}})"
    return Explanation(str(m), value, cols, formula, DEFINITIONS["Judged"], {"judged": count, "depth": n})
