"""The formulas of :mod:`metrics.batch`: one function per measure family, on a :class:`Batch`.

Each takes a parsed :class:`~metrics.measures.Measure` and a :class:`Batch` and returns one
value per query of ``b.queries``. The formulas themselves (gain, discount, P@k, AP's
denominator ...) come from :mod:`metrics.ranking`; what is written here is the segment
arithmetic that applies them to every query at once. :data:`BATCH_FAMILIES` maps each
family name to its function (a test checks that none is missing).
"""

from __future__ import annotations

import numpy as np

from ..measures import Measure, parse
from ..ranking import ratio, trec_eval_10
from ..ranking.average_precision import denominator as _ap_denominator
from ..ranking.dcg import discount as _discount
from ..ranking.dcg import gains as _gains
from ..ranking.dcg import level_gains, trec_eval_idcg
from ..ranking.inferred import geometric_log, infap_term, yaap
from ..ranking.interpolation import levels_of, needed_hits
from ..ranking.judgment_groups import base_measure
from ..ranking.precision_recall import f1, precision
from ..ranking.preferences import PREF_FAMILIES
from ..ranking.rprec_bpref import bpref_term
from ..ranking.set_counts import relative_precision, utility
from ..ranking.user_models import (
    INST_DEPTH,
    bounded,
    err_stop,
    err_value,
    inst_gain,
    inst_value,
    rbp_weights,
)
from .segments import Batch, cumcount

__all__ = ["BATCH_FAMILIES"]


def _counts_family(m: Measure, b: Batch) -> np.ndarray:
    rel = m["rel"] if "rel" in m.family.params else 1
    k = m.cutoff
    R = b.num_rel(rel)
    n = b.n_ret.astype(np.float64) if k is None else np.minimum(b.n_ret, k).astype(np.float64)
    hits = b.count(b.q[b.relevant(rel, k)])
    p = precision(hits, n, k)
    r = ratio(hits, R)
    name = m.name
    if name == "P":
        return p
    if name == "R":
        return r
    if name == "F1":
        return f1(p, r, m["beta"])
    if name == "Success":
        return (hits > 0).astype(np.float64)
    if name == "NumRet":
        return n
    if name == "NumRel":
        return R
    if name == "NumRelRet":
        return hits
    return np.ones(b.size)  # NumQ


def _reciprocal_rank(m: Measure, b: Batch) -> np.ndarray:
    mask = b.relevant(m["rel"], m.cutoff)
    q, rank = b.q[mask], b.rank[mask]
    out = np.zeros(b.size)
    if q.size:
        first = np.r_[True, q[1:] != q[:-1]]
        out[q[first]] = 1.0 / rank[first]
    return out


def _hit_positions(b: Batch, rel: int, cutoff=None):
    """Relevant judged rows (query, rank, hits so far) within the cutoff."""
    mask = b.relevant(rel, cutoff)
    q, rank = b.q[mask], b.rank[mask]
    return q, rank, (cumcount(q) + 1).astype(np.float64)


def _average_precision(m: Measure, b: Batch) -> np.ndarray:
    rel, how, k = m["rel"], m["denominator"], m.cutoff
    q, rank, hits = _hit_positions(b, rel, k)
    total = b.count(q, hits / rank)
    retrieved = b.count(q) if how == "retrieved" else None
    denom = np.broadcast_to(_ap_denominator(how, b.num_rel(rel), retrieved, k), (b.size,))
    return np.where(denom > 0, ratio(total, denom), float(m["empty"]))


def _rprec(m: Measure, b: Batch) -> np.ndarray:
    rel = m["rel"]
    R = b.num_rel(rel)
    mask = b.relevant(rel) & (b.rank <= R[b.q])
    return ratio(b.count(b.q[mask]), R)


def _bpref(m: Measure, b: Batch) -> np.ndarray:
    rel = m["rel"]
    R = b.num_rel(rel)
    N = b.count(b.qrels_q[(b.qrels_grade >= 0) & (b.qrels_grade < rel)])
    nonrel = (b.grade >= 0) & (b.grade < rel)
    # judged non-relevant rows strictly above each row, within its query
    cum = np.cumsum(nonrel)
    starts = np.r_[True, b.q[1:] != b.q[:-1]] if b.q.size else np.zeros(0, bool)
    before = np.maximum.accumulate(np.where(starts, cum - nonrel, 0)) if b.q.size else cum
    above = (cum - nonrel - before).astype(np.float64)
    relevant = b.relevant(rel)
    q, above = b.q[relevant], above[relevant]
    return ratio(b.count(q, bpref_term(above, R[q], N[q])), R)


def _interpolated(m: Measure, b: Batch) -> np.ndarray:
    rel = m["rel"]
    R = b.num_rel(rel)
    q, rank, hits = _hit_positions(b, rel)
    precision = hits / rank

    def at(level: float) -> np.ndarray:
        out = np.zeros(b.size)
        needed = needed_hits(level, R, m["version"])
        ok = hits >= needed[q]
        np.maximum.at(out, q[ok], precision[ok])
        out = np.where((R > 0) & (b.n_ret > 0), out, 0.0)
        if m["empty_ranking"] == "nan":  # trec_eval: precision 0/0 at the levels that need no hit
            out[(b.n_ret == 0) & (needed == 0)] = np.nan
        return out

    if m.name == "IPrec":
        return at(m.cutoff)
    levels = levels_of(m)
    total = np.zeros(b.size)
    for level in reversed(levels):  # trec_eval adds from the last level down: the same last digit
        total = total + at(level)
    return total / len(levels)


def _dcg_family(m: Measure, b: Batch) -> np.ndarray:
    dcg, rel, k = m["dcg"], m["rel"], m.cutoff
    within = b.rank <= k if k is not None else np.ones(b.q.size, dtype=bool)
    gain = _gains(b.grade, None, dcg, rel, m["gains"])
    if m.name == "CG":
        return b.count(b.q[within], gain[within])
    value = b.count(b.q[within], gain[within] / _discount(b.rank[within], dcg, m["base"]))
    if m.name == "DCG":
        return value
    if m["ideal"] == "trec_eval":
        ideal = trec_eval_idcg(b.qrels_q, b.qrels_grade, b.size, k, dcg, m["base"], m["gains"])
        return ideal if m.name == "IDCG" else ratio(value, ideal)
    if m["ideal"] == "qrels":
        iq, igrade = b.qrels_q, b.qrels_grade
        ig = _gains(igrade, None, dcg, rel, m["gains"])
    else:
        iq, igrade, ig = b.q, b.grade, gain
    keep = ig > 0
    iq, ig = iq[keep], ig[keep]
    order = _ideal_order(iq, ig, igrade[keep] if m["gains"] is None else None)
    iq, ig = iq[order], ig[order]
    irank = cumcount(iq) + 1
    inside = irank <= k if k is not None else np.ones(iq.size, dtype=bool)
    ideal = b.count(iq[inside], ig[inside] / _discount(irank[inside], dcg, m["base"]))
    if m.name == "IDCG":
        return ideal
    return ratio(value, ideal)


def _ideal_order(q: np.ndarray, gain: np.ndarray, grade: np.ndarray | None) -> np.ndarray:
    """An order by query, then gain descending (``np.lexsort((-gain, q))``, up to rows of equal
    gain, which give the same ideal DCG in any order).

    Without a gain map the gain grows with the grade, and a stable sort of one 64-bit key
    (query, grade descending) is cheaper than the two sorts of a lexsort.

    >>> q, grade = np.array([1, 0, 0, 1]), np.array([1, 1, 3, 2])
    >>> _ideal_order(q, grade.astype(float), grade).tolist(), _ideal_order(q, grade.astype(float), None).tolist()
    ([2, 1, 3, 0], [2, 1, 3, 0])
    """
    if grade is None or not grade.size or int(grade.min()) < 1 or int(grade.max()) >= 2**31:
        return np.lexsort((-gain, q))
    key = q.astype(np.int64) << 32
    key |= 2**31 - grade.astype(np.int64)
    return np.argsort(key, kind="stable")


def _segment_cumsum(q: np.ndarray, values: np.ndarray) -> np.ndarray:
    """Running sum of ``values`` within each run of equal ``q`` (sorted), inclusive."""
    total = np.cumsum(values, dtype=np.float64)
    if not q.size:
        return total
    starts = np.r_[True, q[1:] != q[:-1]]
    first = np.maximum.accumulate(np.where(starts, np.arange(q.size), 0))
    return total - (total - values)[first]


def _set_counts(m: Measure, b: Batch) -> np.ndarray:
    rel = m["rel"]
    R = b.num_rel(rel)
    k = m.cutoff if m.name == "RelP" else None
    n = b.n_ret.astype(np.float64) if k is None else np.minimum(b.n_ret, k).astype(np.float64)
    if m.name == "RprecMult":
        c = needed_hits(m.cutoff, R)
        mask = b.relevant(rel) & (b.rank <= c[b.q])
        return ratio(b.count(b.q[mask]), c)
    if m.name == "NumNonRelJudgedRet":
        return b.count(b.q[(b.grade >= 0) & (b.grade < rel)])
    hits = b.count(b.q[b.relevant(rel, k)])
    if m.name == "SetAP":
        return ratio(hits * hits, n * R)  # one division, as trec_eval (m_set_map.c)
    if m.name == "RelP":
        return relative_precision(hits, n if k is None else k, R)
    return utility(hits, n, R, m["a"], m["b"], m["c"]).astype(np.float64)  # Utility


def _geometric(m: Measure, b: Batch) -> np.ndarray:
    inner = parse("AP" if m.name == "GMAP" else "Bpref").with_params(rel=m["rel"])
    return geometric_log(BATCH_FAMILIES[inner.name](inner, b))


def _judgment_group(m: Measure, b: Batch) -> np.ndarray:
    """One group's judgments: the plain measure (:func:`evaluate_groups` averages the groups)."""
    base = base_measure(m)
    return BATCH_FAMILIES[base.name](base, b)


def _yaap(m: Measure, b: Batch) -> np.ndarray:
    q, rank, hits = _hit_positions(b, m["rel"])
    return yaap(b.count(q, hits / rank), b.num_rel(m["rel"]))


def _infap(m: Measure, b: Batch) -> np.ndarray:
    rel = m["rel"]
    pooled = b.grade < 0  # every negative grade: pooled but unjudged (b holds judged rows only)
    nonrel = (b.grade >= 0) & (b.grade < rel)
    relevant = b.grade >= rel  # rel >= 1
    r_above = _segment_cumsum(b.q, relevant.astype(np.float64)) - relevant
    u_above = _segment_cumsum(b.q, nonrel.astype(np.float64)) - nonrel
    p_above = _segment_cumsum(b.q, pooled.astype(np.float64)) - pooled
    term = infap_term(b.rank[relevant], r_above[relevant], u_above[relevant], p_above[relevant])
    return ratio(b.count(b.q[relevant], term), b.num_rel(rel))


def _ideal(b: Batch, gains_text):
    """The ideal gains of each query, best first: (query, gain, rank, P per query)."""
    g = level_gains(b.qrels_grade, gains_text)
    keep = (b.qrels_grade >= 0) & (g > 0)
    iq, ig = b.qrels_q[keep], g[keep]
    order = np.lexsort((-ig, iq))
    iq, ig = iq[order], ig[order]
    return iq, ig, cumcount(iq) + 1, b.count(iq).astype(np.int64)


def _at_rank(q_sorted, ranks_sorted, cum, want_q, want_rank):
    """The running value ``cum`` of the last row of query want_q at rank <= want_rank (0 if none)."""
    if not q_sorted.size:
        return np.zeros(len(want_q))
    scale = int(max(ranks_sorted.max(initial=0), np.max(want_rank, initial=0))) + 2
    keys = q_sorted.astype(np.int64) * scale + ranks_sorted
    pos = np.searchsorted(keys, want_q.astype(np.int64) * scale + want_rank, side="right") - 1
    ok = (pos >= 0) & (q_sorted[np.maximum(pos, 0)] == want_q)
    return np.where(ok, cum[np.maximum(pos, 0)], 0.0)


def _gain_walk(m: Measure, b: Batch) -> np.ndarray:
    if m.name == "binG":
        rel = m["rel"]
        q, rank, hits = _hit_positions(b, rel)
        total = b.count(q, 1.0 / np.log2(2.0 + rank - hits))
        return np.where(b.count(q) > 0, ratio(total, b.num_rel(rel)), 0.0)
    gains_text = m["gains"]
    g = np.where(b.grade >= 0, level_gains(b.grade, gains_text), 0.0)
    iq, ig, irank, P = _ideal(b, gains_text)
    if m.name == "G":
        cost_cum = _segment_cumsum(iq, np.maximum(ig, 1.0))
        ideal_cost = _at_rank(iq, irank, cost_cum, b.q, np.minimum(b.rank, P[b.q]))
        cost = ideal_cost + np.maximum(b.rank - P[b.q], 0)
        so_far = _segment_cumsum(b.q, g)
        nz = g != 0
        with np.errstate(divide="ignore", invalid="ignore"):
            terms = g[nz] / np.log2(2.0 + cost[nz] - so_far[nz])
        return ratio(b.count(b.q[nz], terms), b.count(iq, ig))
    dcg_cum = _segment_cumsum(b.q, g / np.log2(b.rank + 1.0))
    idcg_cum = _segment_cumsum(iq, ig / np.log2(irank + 1.0))
    dcg_total = b.count(b.q, g / np.log2(b.rank + 1.0))
    idcg_total = b.count(iq, ig / np.log2(irank + 1.0))
    if m.name == "nDCG_rel":
        pos = g > 0
        pq = b.q[pos]
        idcg_here = _at_rank(iq, irank, idcg_cum, pq, np.minimum(b.rank[pos], P[pq]))
        points = b.count(pq, ratio(dcg_cum[pos], idcg_here))
        missing = P - b.count(pq)
        total = points + missing * ratio(dcg_total, idcg_total)
        return np.where(total > 0, ratio(total, P), 0.0)
    # Rndcg: nDCG where the ideal gain changes (ranks 1..P), and at n past rank P + 1
    nxt = np.r_[ig[1:], 0.0]
    last = np.r_[iq[1:] != iq[:-1], True] if iq.size else np.zeros(0, bool)
    change = last | (nxt != ig)
    cq, cj = iq[change], irank[change]
    n = b.n_ret
    dcg_here = _at_rank(b.q, b.rank, dcg_cum, cq, np.minimum(cj, n[cq]))
    idcg_here = _at_rank(iq, irank, idcg_cum, cq, cj)
    total = b.count(cq, ratio(dcg_here, idcg_here))
    count = b.count(cq)
    tail = (P + 1 < n) & (idcg_total > 0)
    total = total + np.where(tail, ratio(dcg_total, idcg_total), 0.0)
    count = count + tail
    return np.where(b.num_rel(m["rel"]) > 0, ratio(total, count), 0.0)
def _depth(m: Measure, b: Batch) -> np.ndarray:
    """Ranks looked at per query: the number retrieved, or the cutoff if smaller."""
    return b.n_ret.astype(np.float64) if m.cutoff is None else np.minimum(b.n_ret, m.cutoff).astype(np.float64)


def _within(m: Measure, b: Batch) -> np.ndarray:
    return b.rank <= m.cutoff if m.cutoff is not None else np.ones(b.q.size, dtype=bool)


def _rbp(m: Measure, b: Batch) -> np.ndarray:
    p, within = m["p"], _within(m, b)
    weight = rbp_weights(b.rank, p, m["weights"], m.cutoff)
    lower = b.count(b.q[within & b.relevant(m["rel"])], weight[within & b.relevant(m["rel"])])
    # every rank's weight plus the tail p^d sums to 1; what judged ranks do not take is residual
    residual = 1.0 - b.count(b.q[within], weight[within])
    return bounded(lower, lower + residual, m["bound"])


def _err(m: Measure, b: Batch) -> np.ndarray:
    within = _within(m, b)
    q, rank = b.q[within], b.rank[within]
    stop = err_stop(b.grade[within], m["max_grade"])
    # reach = prod over earlier judged rows of (1 - R): a running sum of logs within each query
    logs = np.log1p(-stop)
    cum = np.cumsum(logs)
    starts = np.r_[True, q[1:] != q[:-1]] if q.size else np.zeros(0, bool)
    before = np.maximum.accumulate(np.where(starts, np.arange(q.size), 0)) if q.size else cum
    offset = (cum - logs)[before] if q.size else cum
    reach = np.exp(cum - logs - offset)
    lower = b.count(q, reach * stop / rank)
    if m["bound"] == "lower":
        return lower
    # upper bound: ranks without a judgment (unjudged, or past the end) at the top grade
    depth = INST_DEPTH if m.cutoff is None else m.cutoff
    top = err_stop(m["max_grade"], m["max_grade"])
    upper = np.zeros(b.size)
    for lo, hi, low_q, col, value in _dense_blocks(b, depth, q, rank - 1, stop):
        high = np.full((hi - lo, depth), top)
        high[low_q, col] = value
        upper[lo:hi] = err_value(high)
    return bounded(lower, upper, m["bound"])


def _dense_blocks(b: Batch, depth: int, q: np.ndarray, col: np.ndarray, value: np.ndarray):
    """Blocks of whole queries laid out as rows of ``depth`` ranks (at most INST_BLOCK cells):
    (first query, end, row of each entry, its column, its value)."""
    inside = col < depth
    q, col, value = q[inside], col[inside], value[inside]
    step = max(1, INST_BLOCK // depth)
    for lo in range(0, b.size, step):
        hi = min(b.size, lo + step)
        rows = slice(np.searchsorted(q, lo), np.searchsorted(q, hi))
        yield lo, hi, q[rows] - lo, col[rows], value[rows]


INST_BLOCK = 2_000_000  # ranks laid out at once (queries x depth)


def _inst(m: Measure, b: Batch) -> np.ndarray:
    T, gmax, bound = m["T"], m["max_grade"], m["bound"]
    depth = INST_DEPTH if m.cutoff is None else m.cutoff
    out = np.zeros(b.size)
    for lo, hi, row, col, gain in _dense_blocks(b, depth, b.q, b.rank - 1, inst_gain(b.grade, gmax)):
        low = np.zeros((hi - lo, depth))
        low[row, col] = gain
        lower = inst_value(low, T)
        if bound == "lower":
            out[lo:hi] = lower
            continue
        # upper bound: unjudged ranks and ranks past the end get gain 1
        high = np.ones((hi - lo, depth))
        high[row, col] = gain
        out[lo:hi] = bounded(lower, inst_value(high, T), bound)
    return out


def _judged(m: Measure, b: Batch) -> np.ndarray:
    return ratio(b.count(b.q[_within(m, b)]), _depth(m, b))


def _preferences(m: Measure, b: Batch) -> np.ndarray:
    raise ValueError(f"{m}: preference measures need preference judgments: metrics.batch.evaluate_prefs, "
                     "or ranklab evaluate -R prefs / -R qrels_prefs (as trec_eval)")


def _per_subtopic(m: Measure, b: Batch) -> np.ndarray:
    raise ValueError(f"{m}: judgments per subtopic are evaluated query by query (metrics.evaluate, "
                     "or ranklab evaluate --subtopics), not by the batch path")


BATCH_FAMILIES = {
    "P": _counts_family, "R": _counts_family, "F1": _counts_family, "Success": _counts_family,
    "NumRet": _counts_family, "NumRel": _counts_family, "NumRelRet": _counts_family,
    "NumQ": _counts_family, "RR": _reciprocal_rank, "AP": _average_precision,
    "CG": _dcg_family, "DCG": _dcg_family, "IDCG": _dcg_family, "nDCG": _dcg_family,
    "Rprec": _rprec, "Bpref": _bpref, "IPrec": _interpolated, "11pt": _interpolated,
    "GMAP": _geometric, "GMBpref": _geometric, "infAP": _infap, "YAAP": _yaap,
    "G": _gain_walk, "binG": _gain_walk, "Rndcg": _gain_walk, "nDCG_rel": _gain_walk,
    "SetAP": _set_counts, "RelP": _set_counts, "Utility": _set_counts, "NumNonRelJudgedRet": _set_counts,
    "RprecMult": _set_counts,
    "AP_avgjg": _judgment_group, "P_avgjg": _judgment_group, "RprecMult_avgjg": _judgment_group,
    "RBP": _rbp, "ERR": _err, "INST": _inst, "Judged": _judged, "alpha_nDCG": _per_subtopic,
    "TrecRBP": trec_eval_10.batch_rbp, "TrecRBPResid": trec_eval_10.batch_rbp_resid, "Unj": trec_eval_10.batch_unj,
    **dict.fromkeys(PREF_FAMILIES, _preferences),
}

