"""Vectorised evaluation of many queries at once, for files of millions of lines.

:func:`evaluate_batch` returns the same :class:`metrics.Evaluation` as
:func:`metrics.evaluate`, but it never builds a Python object per run line, so it does not
call the per-query kernels of ``metrics/ranking``. It shares their formulas instead: the
gain and discount (:mod:`metrics.ranking.dcg`), P@k and F1, AP's denominator, the bpref term,
the recall levels and trec_eval's hits-needed rule, and the "0 when the denominator is 0"
division, each written once there and applied here to arrays with one entry per query or per
judged row. What is left here is bookkeeping: ranks, counts and sums within each query.
The plan:

1. Keep the run rows of evaluated queries; check whether they already come grouped by
   query with scores descending (what every TREC run writer produces) — otherwise sort
   them once with ``np.lexsort`` on (query, -score).
2. Find the judged rows by a hash join on (query, document) (:mod:`metrics.io.keys`).
   Every measure here depends only on the ranks of *judged* documents and on the number
   retrieved, so only judged rows get a rank; where a judged row's score ties with others,
   the tie is broken by document id descending (trec_eval), comparing those strings only.
3. Each measure is a few segment operations (``np.bincount`` with weights, cumulative
   counts within a query) over the judged rows and the judgments. Every measure family has
   one (:data:`BATCH_FAMILIES`; a test checks that none is missing).

Because the work per query is independent, a run too large for memory can be evaluated
in chunks of whole queries (see :func:`evaluate_chunks`) and the per-query values merged.

Examples
--------
>>> qrels = {"q1": {"a": 1, "c": 1}, "q2": {"x": 2}}
>>> run = {"q1": {"a": 3.0, "b": 2.0, "c": 1.0}, "q2": {"y": 1.0, "x": 1.0}}
>>> e = evaluate_batch(qrels, run, "P@2 RR")
>>> e.per_query["q1"]["P@2"], e.per_query["q2"]["RR"]  # y and x tie: y ranks first
(0.5, 0.5)
>>> round(e.aggregate["P@2"], 4)  # (1/2 + 1/2) / 2
0.5
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from . import _check
from .core import MISSING, Evaluation, aggregate, counted_as_zero
from .io import keys as _keys
from .io.arrays import as_numpy
from .io.model import Qrels, Run, qrels_from_dict, run_from_dict
from .measures import Measure, at_trec_eval, parse, parse_many
from .ranking import ratio, trec_eval_10
from .ranking.average_precision import denominator as _ap_denominator
from .ranking.dcg import discount as _discount
from .ranking.dcg import gains as _gains
from .ranking.dcg import level_gains, trec_eval_idcg
from .ranking.inferred import geometric_log, infap_term, yaap
from .ranking.interpolation import levels_of, needed_hits
from .ranking.judgment_groups import base_measure
from .ranking.precision_recall import f1, precision
from .ranking.preferences import PREF_FAMILIES
from .ranking.preferences import count as _pref_count
from .ranking.preferences import value as _pref_value
from .ranking.rprec_bpref import bpref_term
from .ranking.set_counts import relative_precision, utility
from .ranking.user_models import (
    INST_DEPTH,
    bounded,
    err_stop,
    err_value,
    inst_gain,
    inst_value,
    rbp_weights,
)

__all__ = ["evaluate_batch", "evaluate_chunks", "evaluate_groups", "evaluate_prepared", "evaluate_stream",
           "evaluate_part", "evaluate_arrow", "merge_parts", "measure_columns", "BATCH_FAMILIES", "Batch",
           "prepare_batch", "relstrings"]

PAIR_BLOCK = 4_000_000  # tie comparisons per block


@dataclass
class Batch:
    """The judged part of a run, ready for the measure formulas.

    ``queries``: evaluated query ids (qrels order). ``n_ret[i]``: documents retrieved for
    query i (after ``depth``). ``q``, ``rank``, ``grade``: one entry per judged retrieved
    document, sorted by query then rank. ``qrels_q``, ``qrels_grade``: every judgment of an
    evaluated query.
    """

    queries: list[str]
    n_ret: np.ndarray
    q: np.ndarray
    rank: np.ndarray
    grade: np.ndarray
    qrels_q: np.ndarray
    qrels_grade: np.ndarray
    missing_from_run: list[str]
    missing_from_qrels: list[str]
    _num_rel: dict = field(default_factory=dict, repr=False, compare=False)  # rel -> counts (read-only)

    @property
    def size(self) -> int:
        return len(self.queries)

    def count(self, q: np.ndarray, weights=None) -> np.ndarray:
        return np.bincount(q, weights=weights, minlength=self.size).astype(np.float64)

    def num_rel(self, rel: int) -> np.ndarray:
        if rel not in self._num_rel:  # (several measures ask for the same counts)
            counts = self.count(self.qrels_q[self.qrels_grade >= rel])
            counts.flags.writeable = False
            self._num_rel[rel] = counts
        return self._num_rel[rel]

    def relevant(self, rel: int, cutoff=None) -> np.ndarray:
        mask = self.grade >= rel
        if cutoff is not None:
            mask &= self.rank <= cutoff
        return mask


def _cumcount(q: np.ndarray) -> np.ndarray:
    """0, 1, 2, ... within each run of equal values of a sorted array."""
    n = len(q)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    starts = np.r_[True, q[1:] != q[:-1]]
    first = np.maximum.accumulate(np.where(starts, np.arange(n), 0))
    return np.arange(n) - first


# --------------------------------------------------------------------------- formulas

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
    return q, rank, (_cumcount(q) + 1).astype(np.float64)


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
    irank = _cumcount(iq) + 1
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
    return iq, ig, _cumcount(iq) + 1, b.count(iq).astype(np.int64)


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


# --------------------------------------------------------------------------- preparation

def prepare_batch(qrels: Qrels, run: Run, *, missing: str = "skip", depth: int | None = None,
                  judged_only: bool = False, trec_eval: str = "9.0.8") -> Batch:
    """Match a run to its judgments and rank the judged documents (see the module notes).

    ``judged_only`` (trec_eval ``-J``) drops the documents without a grade >= 0 after
    ``depth``, closing up the ranks; ``trec_eval='9.0.8'`` compares scores as float32.
    """
    _check.choice(missing, "missing", MISSING)
    _check.choice(trec_eval, "trec_eval", _check.TREC_EVAL_VERSIONS)
    depth = _check.positive_int(depth, "depth")
    run_index = {qid: i for i, qid in enumerate(run.queries)}
    qrels_set = set(qrels.queries)
    evaluated = [qid for qid in qrels.queries if qid in run_index or missing == "zero"]
    missing_from_run = [qid for qid in qrels.queries if qid not in run_index] if missing == "skip" else []
    missing_from_qrels = [qid for qid in run.queries if qid not in qrels_set]
    size = len(evaluated)
    e_of_run = np.full(len(run.queries) + 1, -1, dtype=np.int64)
    e_of_qrels = np.full(len(qrels.queries) + 1, -1, dtype=np.int64)
    qrels_index = {qid: i for i, qid in enumerate(qrels.queries)}
    for i, qid in enumerate(evaluated):
        if qid in run_index:
            e_of_run[run_index[qid]] = i
        e_of_qrels[qrels_index[qid]] = i

    # judgments of the evaluated queries; a document judged twice is an error
    qe_all = e_of_qrels[qrels.query]
    # qrels rows keyed with the run's query codes, so the run's own keys can be reused
    run_code_of_qrels = np.array([run_index.get(qid, -1) for qid in qrels.queries] + [-1], dtype=np.int64)
    qrc = run_code_of_qrels[qrels.query]
    qrels_hashes = qrels._cache.get("doc_hashes")  # (kept by read_qrels and QrelsIndex.subset)
    if qrels_hashes is None:
        qrels_hashes = _keys.doc_hashes(qrels.doc)
    dups = []
    if not qrels._cache.get("unique"):  # (read_qrels checked every query already)
        dups = _keys.duplicate_groups(qe_all, qrels.doc, _keys.pair_keys(qe_all, qrels_hashes))
        dups = [g for g in dups if qe_all[g[0]] >= 0]
    if dups:
        g = dups[0]
        raise ValueError(f"{qrels.source}: query {qrels.queries[qrels.query[g[0]]]}: document "
                         f"{qrels.doc[int(g[0])].as_py()!r} is judged {len(g)} times")
    qmask = qe_all >= 0
    qrels_q, qrels_grade = qe_all[qmask], qrels.grade[qmask]
    matchable = np.flatnonzero(qrc >= 0)

    # run rows of evaluated queries, in trec_eval order; codes stay the run's own
    nq = len(run.queries)
    run_starts = _starts(run.query)  # (a bincount over every row costs more: the codes' int64 copy)
    counts = np.bincount(run.query[run_starts], weights=np.diff(np.append(run_starts, len(run.query))),
                         minlength=nq).astype(np.int64)
    evaluated_code = e_of_run[:nq] >= 0
    n_ret = np.zeros(size, dtype=np.int64)
    n_ret[e_of_run[:nq][evaluated_code]] = counts[evaluated_code]
    filtered = bool(counts[~evaluated_code].any())
    kept_rows = np.flatnonzero(evaluated_code[run.query]) if filtered else None
    c = run.query if kept_rows is None else run.query[kept_rows]
    s = run.score if kept_rows is None else run.score[kept_rows]
    if trec_eval == "9.0.8":  # 9.0.8 stores scores as float32: scores equal there tie
        with np.errstate(over="ignore"):
            s = s.astype(np.float32)
    n = len(c)
    query_starts = _ordered_starts(c, s, run_starts if kept_rows is None else _starts(c))
    perm = None
    if query_starts is None:  # not grouped by query with scores descending: sort once
        perm = np.lexsort((-s, c))
        c, s = c[perm], s[perm]
        query_starts = np.r_[0, np.flatnonzero(c[1:] != c[:-1]) + 1] if n else np.zeros(0, np.int64)

    def rows_of(pos: np.ndarray) -> np.ndarray:
        rows = pos if perm is None else perm[pos]
        return rows if kept_rows is None else kept_rows[rows]

    # judged rows: original row -> position in trec_eval order
    every = matchable.size == len(qrels)  # (a streamed chunk's judgments: all of its queries)
    matched_docs = qrels.doc if every else _keys.take(qrels.doc, matchable)
    run_rows, judged = _keys.lookup(
        run.pair_keys(), run.doc, run.query,
        _keys.pair_keys(qrc[matchable], qrels_hashes if every else qrels_hashes[matchable]), matched_docs,
        qrc[matchable])
    judged = matchable[judged]
    grade = qrels.grade[judged]
    pos = run_rows if kept_rows is None else np.searchsorted(kept_rows, run_rows)
    if perm is not None:
        inverse = np.empty(n, dtype=np.int64)
        inverse[perm] = np.arange(n)
        pos = inverse[pos]
        del inverse

    # rank of each judged row: rows with a higher score, plus tied rows with a larger doc id;
    # each query's rows are one block of c by now, so a row's code gives its block
    code = c[pos]
    start_of, end_of = np.zeros(nq, np.int64), np.zeros(nq, np.int64)
    start_of[c[query_starts]] = query_starts
    end_of[c[query_starts]] = np.append(query_starts[1:], n)
    query_start, query_end = start_of[code], end_of[code]
    tie_start, tie_end = _tie_bounds(s, pos, query_start, query_end)
    rank = tie_start - query_start + 1
    tied = np.flatnonzero(tie_end - tie_start > 1)
    if tied.size:
        rank = rank + _larger_ids_in_tie(tied, pos, tie_start, tie_end, rows_of, run.doc)
    q = e_of_run[code] if pos.size else pos
    if depth is not None:
        inside = rank <= depth
        q, rank, grade = q[inside], rank[inside], grade[inside]
        n_ret = np.minimum(n_ret, depth)
    if q.size > 1 and not _in_order(q, rank):  # run order is usually (query, rank) order already
        order = _query_rank_order(q, rank)
        q, rank, grade = q[order], rank[order], grade[order]
    if judged_only:  # the condensed list: only documents graded >= 0, ranks closed up
        keep = grade >= 0
        q, grade = q[keep], grade[keep]
        rank = _cumcount(q) + 1
        n_ret = np.bincount(q, minlength=size).astype(np.int64)
    return Batch(evaluated, n_ret, q, rank, grade, qrels_q, qrels_grade, missing_from_run, missing_from_qrels)


def _in_order(q: np.ndarray, rank: np.ndarray) -> bool:
    """Whether rows are sorted by query, then rank (what ``np.lexsort((rank, q))`` would give).

    >>> _in_order(np.array([0, 0, 1]), np.array([1, 3, 2])), _in_order(np.array([0, 0]), np.array([2, 1]))
    (True, False)
    """
    later = q[1:] > q[:-1]
    later |= (q[1:] == q[:-1]) & (rank[1:] > rank[:-1])
    return bool(later.all())


def _query_rank_order(q: np.ndarray, rank: np.ndarray) -> np.ndarray:
    """The order ``np.lexsort((rank, q))`` gives, for non-negative codes and ranks.

    Judged rows come almost in order (only tied rows out of place), and a stable sort of one
    64-bit key (timsort: it finds the sorted runs) costs a fraction of a lexsort there.

    >>> _query_rank_order(np.array([1, 0, 0, 1]), np.array([2, 5, 3, 1])).tolist()
    [2, 1, 3, 0]
    """
    if rank.size and int(rank.max()) >= 2**32:
        return np.lexsort((rank, q))
    key = q.astype(np.int64) << 32
    key |= rank
    return np.argsort(key, kind="stable")


def _starts(c: np.ndarray) -> np.ndarray:
    """Where each block of equal codes starts.

    >>> _starts(np.array([4, 4, 1, 4])).tolist()
    [0, 2, 3]
    """
    if len(c) == 0:
        return np.zeros(0, dtype=np.int64)
    return np.r_[0, np.flatnonzero(c[1:] != c[:-1]) + 1]


def _ordered_starts(c: np.ndarray, s: np.ndarray, starts: np.ndarray) -> np.ndarray | None:
    """``starts`` (:func:`_starts` of ``c``), if the rows are grouped by query with scores descending."""
    if len(c) == 0:
        return starts
    first = c[starts]
    if not (first[1:] > first[:-1]).all() and len(starts) != len(np.unique(first)):
        return None  # a query's rows come in more than one block
    rising = s[1:] > s[:-1]
    rising[starts[1:] - 1] = False  # (a new query may start with a higher score)
    return None if rising.any() else starts


def _tie_bounds(s, pos, lo_limit, hi_limit):
    """[start, end) of the run of equal scores around each position, within its query."""
    start, end = pos.copy(), pos + 1
    value = s[pos]
    active = np.flatnonzero(start > lo_limit)
    while active.size:
        active = active[s[start[active] - 1] == value[active]]
        start[active] -= 1
        active = active[start[active] > lo_limit[active]]
    active = np.flatnonzero(end < hi_limit)
    while active.size:
        active = active[s[end[active]] == value[active]]
        end[active] += 1
        active = active[end[active] < hi_limit[active]]
    return start, end


def _larger_ids_in_tie(tied, pos, tie_start, tie_end, rows_of, docs) -> np.ndarray:
    """For each judged row in a tie, how many tied rows have a larger document id."""
    extra = np.zeros(len(pos), dtype=np.int64)
    sizes = (tie_end - tie_start)[tied]
    fixed = _keys._fixed_width(docs)  # ids of one width: compared as numpy bytes (unsigned, as Arrow does)
    ids = None if fixed is None else fixed.view(np.dtype(f"S{fixed.shape[1]}"))[:, 0]
    bounds = np.searchsorted(np.cumsum(sizes), np.arange(PAIR_BLOCK, sizes.sum() + PAIR_BLOCK, PAIR_BLOCK))
    lo = 0
    for hi in np.unique(np.append(bounds + 1, len(tied))).tolist():
        hi = min(hi, len(tied))
        if hi <= lo:
            continue
        block, counts = tied[lo:hi], sizes[lo:hi]
        owners = np.repeat(block, counts)
        within = np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts)
        others = rows_of(tie_start[owners] + within)
        mine = rows_of(pos[owners])
        if ids is not None:
            larger = ids[others] > ids[mine]
        else:
            larger = as_numpy(pc.greater(_keys.take(docs, others), _keys.take(docs, mine)))
        extra += np.bincount(owners[larger], minlength=len(pos))
        lo = hi
    return extra


# --------------------------------------------------------------------------- entry points

def _as_tables(qrels, run) -> tuple[Qrels, Run]:
    if isinstance(qrels, Mapping):
        qrels = qrels_from_dict(qrels)
    if isinstance(run, Mapping):
        run = run_from_dict(run)
    if not isinstance(qrels, Qrels):
        raise TypeError(f"qrels must be a mapping or metrics.io.Qrels, got {type(qrels).__name__}")
    if not isinstance(run, Run):
        raise TypeError(f"run must be a mapping or metrics.io.Run, got {type(run).__name__}")
    return qrels, run


def evaluate_batch(qrels, run, measures, *, missing: str = "skip", depth: int | None = None,
                   judged_only: bool = False, trec_eval: str = "9.0.8") -> Evaluation:
    """Evaluate a whole run at once; the same result as :func:`metrics.evaluate`.

    Parameters
    ----------
    qrels : metrics.io.Qrels or mapping qid -> {doc: grade}
    run : metrics.io.Run or mapping qid -> ({doc: score} or [doc, ...] best first)
    measures : str or list
        ``"P@10 nDCG@10"``, trec_eval names accepted.
    missing : {"skip", "zero"}
        A judged query absent from the run is skipped (trec_eval 9.0.8) or scores 0 (``-c``).
    depth : int, optional
        Keep only the first ``depth`` documents of each ranking (trec_eval ``-M``).
    judged_only : bool
        Drop the documents without a grade >= 0 before scoring (trec_eval ``-J``).
    trec_eval : {"9.0.8", "10.0"}
        Compare scores as float32 (9.0.8, the default) or as doubles (10.0).

    Examples
    --------
    Relevant documents at ranks 2 and 4 of q1; q2's only relevant document never retrieved:

    >>> qrels = {"q1": {"b": 1, "d": 1}, "q2": {"z": 1}}
    >>> run = {"q1": ["a", "b", "c", "d"], "q2": ["x"]}
    >>> e = evaluate_batch(qrels, run, ["AP", "NumRelRet"])
    >>> e.per_query["q1"]["AP"]  # (1/2 + 2/4) / 2
    0.5
    >>> e.aggregate["AP"], e.aggregate["NumRelRet"]  # mean of 0.5 and 0; sum of 2 and 0
    (0.25, 2.0)
    """
    ms = _measures(measures)
    qrels, run = _as_tables(qrels, run)
    b = prepare_batch(qrels, run, missing=missing, depth=depth, judged_only=judged_only, trec_eval=trec_eval)
    in_run = set(run.queries)
    absent = [qid for qid in b.queries if qid not in in_run] if missing == "zero" else []
    return counted_as_zero(evaluate_prepared(b, ms, trec_eval=trec_eval), ms, absent, trec_eval)


def measure_columns(ms: list[Measure], b: Batch, trec_eval: str = "9.0.8") -> dict[str, np.ndarray]:
    """One float64 array per measure (canonical name), one value per query of ``b.queries``;
    each computed as :func:`metrics.measures.at_trec_eval` says, keyed as asked.

    >>> b = prepare_batch(qrels_from_dict({"q1": {"a": 1}}), run_from_dict({"q1": ["b", "a"]}))
    >>> measure_columns(parse_many("RR P@1"), b)["RR"].tolist()  # a at rank 2
    [0.5]
    """
    return {str(m): np.asarray(BATCH_FAMILIES[m.name](v, b), dtype=np.float64)
            for m, v in zip(ms, at_trec_eval(ms, trec_eval), strict=True)}


def evaluate_prepared(b: Batch, measures, trec_eval: str = "9.0.8") -> Evaluation:
    """Evaluate measures on a prepared :class:`Batch` (see :func:`prepare_batch`); an empty
    list gives the queries with no values (``relstring`` alone)."""
    if isinstance(measures, list | tuple):
        ms = [parse(m) for m in measures]
    else:
        ms = parse_many(measures) if not isinstance(measures, Measure) else [measures]
    columns = {key: values.tolist() for key, values in measure_columns(ms, b, trec_eval).items()}
    names = [str(m) for m in ms]
    per_query = {qid: {key: columns[key][i] for key in names} for i, qid in enumerate(b.queries)}
    return Evaluation(names, aggregate(ms, per_query), per_query, b.missing_from_run, b.missing_from_qrels)


GROUP_FAMILIES = ("AP_avgjg", "P_avgjg", "RprecMult_avgjg", "NumQ")


def evaluate_groups(groups: Mapping[str, Qrels], run, measures, *, missing: str = "skip",
                    depth: int | None = None, judged_only: bool = False, trec_eval: str = "9.0.8") -> Evaluation:
    """Evaluate against several judgment groups (trec_eval ``-R qrels_jg``): each measure is
    computed with each group's judgments and averaged over the groups that judged the query.

    Only the judgment-group measures (``map_avgjg``, ``P_avgjg_k``, ``Rprec_mult_avgjg_m``) and
    NumQ are offered, as in trec_eval.

    >>> groups = {"u1": qrels_from_dict({"q1": {"a": 1}}), "u2": qrels_from_dict({"q1": {"b": 1}})}
    >>> e = evaluate_groups(groups, {"q1": ["a", "b"]}, "map_avgjg")
    >>> e.per_query["q1"]["AP_avgjg"]  # (AP 1 for u1 + AP 1/2 for u2) / 2
    0.75
    """
    ms = parse_many(measures) if not isinstance(measures, Measure) else [measures]
    other = [str(m) for m in ms if m.name not in GROUP_FAMILIES]
    if other:
        raise ValueError(f"measures: with judgment groups (qrels_jg) only map_avgjg, P_avgjg_k, "
                         f"Rprec_mult_avgjg_m and num_q are computed, as in trec_eval; not {', '.join(other)}")
    if isinstance(run, Mapping):
        run = run_from_dict(run)
    sums: dict[str, dict[str, float]] = {}
    counts: dict[str, int] = {}
    missing_run: set[str] = set()
    missing_qrels: set[str] = set(run.queries)
    for qrels in groups.values():
        b = prepare_batch(qrels, run, missing=missing, depth=depth, judged_only=judged_only, trec_eval=trec_eval)
        e = evaluate_prepared(b, ms)
        for qid, values in e.per_query.items():
            total = sums.setdefault(qid, dict.fromkeys(values, 0.0))
            for key, v in values.items():
                total[key] += v
            counts[qid] = counts.get(qid, 0) + 1
        missing_run.update(e.missing_from_run)
        missing_qrels.intersection_update(e.missing_from_qrels)
    per_query = {qid: {k: (1.0 if k == "NumQ" else v / counts[qid]) for k, v in values.items()}
                 for qid, values in sums.items()}
    names = [str(m) for m in ms]
    per_query = {qid: {k: values[k] for k in names} for qid, values in per_query.items()}
    return Evaluation(names, aggregate(ms, per_query), per_query, sorted(missing_run - set(per_query)),
                      [q for q in run.queries if q in missing_qrels])


PREF_MEASURES = (*PREF_FAMILIES, "NumQ")


def prefs_orders(run: Run, queries, *, depth: int | None = None, trec_eval: str = "9.0.8",
                 judged=None) -> dict[str, list[str]]:
    """Each query's retrieved documents in the order trec_eval's preference measures use:
    score descending (as float32 for 9.0.8), ties by document id **ascending** (byte order),
    cut at ``depth`` (``-M``). Only the ``queries`` asked for are listed, and with ``judged``
    (a set of document ids) only those documents (ranks still counted over all).

    >>> r = run_from_dict({"q1": {"b": 1.0, "a": 1.0, "c": 2.0}})
    >>> prefs_orders(r, {"q1"}), prefs_orders(r, {"q1"}, depth=2)
    ({'q1': ['c', 'a', 'b']}, {'q1': ['c', 'a']})
    >>> prefs_orders(r, {"q1"}, depth=2, judged={"a", "b"})  # b is cut at depth 2
    {'q1': ['a']}
    """
    wanted = np.fromiter((q in queries for q in run.queries), dtype=bool, count=len(run.queries))
    rows = np.flatnonzero(wanted[run.query]) if len(run.query) else np.zeros(0, np.int64)
    if rows.size == 0:
        return {}
    out = {run.queries[q]: [] for q in np.unique(run.query[rows]).tolist()}
    if judged is not None and depth is None:  # no ranks to count: keep the judged documents first
        listed = pc.is_in(_keys.take(run.doc, rows), value_set=pa.array(sorted(judged), pa.string()))
        rows = rows[as_numpy(listed).astype(bool)]
        judged = None
    s = run.score[rows]
    if trec_eval == "9.0.8":
        with np.errstate(over="ignore"):
            s = s.astype(np.float32)
    docs = _keys.take(run.doc, rows)
    doc_rank = np.empty(len(rows), dtype=np.int64)
    doc_rank[as_numpy(pc.sort_indices(docs)).astype(np.int64)] = np.arange(len(rows))
    c = run.query[rows]
    order = np.lexsort((doc_rank, -s.astype(np.float64), c))
    c = c[order]
    starts = np.r_[0, np.flatnonzero(c[1:] != c[:-1]) + 1]
    keep = np.ones(len(c), dtype=bool)
    if depth is not None:  # rank within the query
        keep &= np.arange(len(c)) - np.repeat(starts, np.diff(np.r_[starts, len(c)])) < depth
    if judged is not None:  # only judged documents matter: the others are never listed
        keep &= as_numpy(pc.is_in(docs, value_set=pa.array(sorted(judged), pa.string()))).astype(bool)[order]
    c, order = c[keep], order[keep]
    names = docs.take(pa.array(order)).to_pylist()
    bounds = np.r_[0, np.flatnonzero(c[1:] != c[:-1]) + 1, len(c)] if len(c) else np.zeros(1, np.int64)
    for a, b in zip(bounds[:-1].tolist(), bounds[1:].tolist(), strict=True):
        out[run.queries[c[a]]] = names[a:b]
    return out


def evaluate_prefs(prefs, run, measures, *, missing: str = "skip", depth: int | None = None,
                   trec_eval: str = "9.0.8") -> Evaluation:
    """Evaluate a run against preference judgments (trec_eval ``-R prefs`` / ``-R qrels_prefs``).

    ``prefs``: a :class:`metrics.io.prefs.Prefs` (:func:`~metrics.io.prefs.read_prefs`,
    :func:`~metrics.io.prefs.read_qrels_prefs`, :func:`~metrics.io.prefs.prefs_from_dict`).
    Only the ``prefs_*`` measures and NumQ are computed, as in trec_eval; the run is ordered
    by :func:`prefs_orders`. ``missing='zero'`` (``-c``) scores a judged query absent from
    the run as an empty ranking.

    >>> from metrics.io.prefs import prefs_from_dict
    >>> p = prefs_from_dict({"q1": [("u1", "s", "a", 2), ("u1", "s", "b", 1), ("u2", "s", "b", 1),
    ...                             ("u2", "s", "a", 0)]})
    >>> e = evaluate_prefs(p, {"q1": ["a", "b"]}, "prefs_simp prefs_avgjg")
    >>> e.per_query["q1"]  # u1's a > b kept, u2's b > a broken: 1/2, and (1/1 + 0/1) / 2
    {'prefs_simp': 0.5, 'prefs_avgjg': 0.5}
    """
    ms = _measures(measures)
    _check.choice(missing, "missing", MISSING)
    depth = _check.positive_int(depth, "depth")
    other = [str(m) for m in ms if m.name not in PREF_MEASURES]
    if other:
        raise ValueError(f"measures: with preference judgments (prefs, qrels_prefs) only the prefs_* measures "
                         f"and num_q are computed, as in trec_eval; not {', '.join(other)}")
    if isinstance(run, Mapping):
        run = run_from_dict(run)
    judged = {p.doc for lines in prefs.queries.values() for p in lines}
    orders = prefs_orders(run, prefs.queries.keys(), depth=depth, trec_eval=trec_eval, judged=judged)
    per_query: dict[str, dict[str, float]] = {}
    missing_run = []
    for qid, lines in prefs.queries.items():
        if qid not in orders and missing != "zero":
            missing_run.append(qid)
            continue
        counts = _pref_count(orders.get(qid, []), lines, query=qid)
        per_query[qid] = {str(m): 1.0 if m.name == "NumQ" else _pref_value(m.name, counts) for m in ms}
    names = [str(m) for m in ms]
    return Evaluation(names, aggregate(ms, per_query), per_query, missing_run,
                      [q for q in run.queries if q not in prefs.queries])


def evaluate_part(qrels: Qrels, run: Run, measures, *, missing: str = "skip", depth: int | None = None,
                  judged_only: bool = False, trec_eval: str = "9.0.8") -> tuple[list[str], dict[str, np.ndarray], Batch]:
    """Per-query values of one part of a run holding whole queries (the unit of streaming).

    Returns ``(queries, columns, batch)``: the evaluated query ids (in ``qrels`` order),
    one float64 array per measure with a value per query, and the :class:`Batch` (whose
    ``missing_from_run`` / ``missing_from_qrels`` say which queries did not match). A query
    must have all its rows in one part; parts are merged with :func:`merge_parts`. This is
    what a distributed engine calls on each group of queries.

    >>> q = qrels_from_dict({"q1": {"a": 1}, "q2": {"b": 1}})
    >>> queries, columns, _ = evaluate_part(q, run_from_dict({"q2": ["c", "b"]}), "RR")
    >>> queries, columns["RR"].tolist()  # q1 is not in this part of the run
    (['q2'], [0.5])
    """
    ms = _measures(measures)
    b = prepare_batch(qrels, run, missing=missing, depth=depth, judged_only=judged_only, trec_eval=trec_eval)
    return b.queries, measure_columns(ms, b, trec_eval), b


def evaluate_arrow(qrels: pa.Table, run: pa.Table, measures, *, missing: str = "skip",
                   depth: int | None = None, judged_only: bool = False, trec_eval: str = "9.0.8") -> pa.Table:
    """:func:`evaluate_part` on Arrow tables, returning an Arrow table: what a distributed
    engine's per-group function needs (e.g. Spark's ``cogroup(...).applyInArrow``).

    ``qrels``: columns ``qid``, ``docid``, ``grade``; ``run``: ``qid``, ``docid``, ``score``
    (the schema of :mod:`metrics.io.columnar`; an empty table is a query with no rows). The
    result has a ``qid`` column and one float64 column per measure (canonical names), one row
    per evaluated query, in qrels order. Merge groups with :func:`merge_parts`.

    >>> q = pa.table({"qid": ["7", "7"], "docid": ["a", "b"], "grade": [1, 1]})
    >>> r = pa.table({"qid": ["7", "7", "7"], "docid": ["x", "a", "b"], "score": [3.0, 2.0, 1.0]})
    >>> evaluate_arrow(q, r, "RR AP").to_pylist()  # relevant at ranks 2 and 3: AP = (1/2 + 2/3) / 2
    [{'qid': '7', 'RR': 0.5, 'AP': 0.5833333333333333}]
    """
    from .io.columnar import qrels_from_arrow, run_from_arrow

    ms = _measures(measures)
    queries, columns, _ = evaluate_part(_from_arrow(qrels, qrels_from_arrow, "<qrels>"),
                                        _from_arrow(run, run_from_arrow, "<run>"), ms, missing=missing, depth=depth,
                                        judged_only=judged_only, trec_eval=trec_eval)
    return pa.table({"qid": pa.array(queries, pa.string()), **{k: pa.array(v) for k, v in columns.items()}})


def _from_arrow(table: pa.Table, convert, source: str):
    if table.num_rows:
        return convert(table, source)
    empty = Qrels if source == "<qrels>" else Run
    return empty([], np.zeros(0, np.int32), pa.chunked_array([], pa.string()),
                 np.zeros(0, np.int64 if empty is Qrels else np.float64), source)


def _measures(measures) -> list[Measure]:
    return parse_many(measures) if not isinstance(measures, Measure) else [measures]


def merge_parts(measures, parts: Iterable[tuple[list[str], Mapping[str, np.ndarray]]], order: Iterable[str],
                missing_from_run: list[str] | None = None, missing_from_qrels: list[str] | None = None) -> Evaluation:
    """One :class:`Evaluation` from the per-query values of parts (see :func:`evaluate_part`).

    ``order`` is the judged queries in qrels order: per-query values are listed and
    aggregated in that order, as :func:`evaluate_batch` does, so the means are the same to
    the last bit whatever the parts. A query in two parts is an error.

    >>> parts = [(["q2"], {"RR": np.array([0.5])}), (["q1"], {"RR": np.array([1.0])})]
    >>> e = merge_parts("RR", parts, ["q1", "q2"])
    >>> list(e.per_query), e.aggregate["RR"]  # (1 + 1/2) / 2
    (['q1', 'q2'], 0.75)
    """
    ms = _measures(measures)
    names = [str(m) for m in ms]
    found: dict[str, dict[str, float]] = {}
    for queries, columns in parts:
        lists = [columns[key].tolist() for key in names]
        for i, qid in enumerate(queries):
            if qid in found:
                raise ValueError(f"query {qid!r} is in two parts of the run")
            found[qid] = {key: values[i] for key, values in zip(names, lists, strict=True)}
    per_query = {qid: found[qid] for qid in order if qid in found}
    if len(per_query) != len(found):
        raise ValueError("merge_parts: a part holds a query that is not in `order`")
    return Evaluation(names, aggregate(ms, per_query), per_query, list(missing_from_run or []),
                      list(missing_from_qrels or []))


def evaluate_stream(qrels: Qrels, chunks: Iterable[Run], measures, *, missing: str = "skip",
                    depth: int | None = None, judged_only: bool = False, trec_eval: str = "9.0.8",
                    threads: int = 1) -> Evaluation:
    """Evaluate a run given as a stream of :class:`Run` chunks (each query in one chunk).

    ``threads`` > 1 evaluates that many chunks at once on a thread pool (numpy and pyarrow
    release the GIL on whole arrays), at most ``threads`` chunks held at a time; each chunk's
    values are its own, and they are merged in the stream's order, so the numbers are those of
    one thread exactly.

    The judgments stay in memory, indexed by query (:class:`metrics.io.index.QrelsIndex`);
    each chunk is matched against its own queries' judgments only, so the work is linear in
    the run and memory is bounded by the largest chunk. The result equals
    :func:`evaluate_batch` on the whole run exactly (same values, same order, same means),
    ``missing="zero"`` (``-c``) included. A query seen in two chunks is an error (a run must
    come grouped by query; :mod:`metrics.io.stream` reports where).

    >>> q = qrels_from_dict({"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1}})
    >>> chunks = [run_from_dict({"q2": ["c", "b"]}), run_from_dict({"q1": ["a"], "q9": ["a"]})]
    >>> e = evaluate_stream(q, chunks, "RR", missing="zero")
    >>> e.per_query  # qrels order; q3 (absent from the run) scores 0 with missing="zero"
    {'q1': {'RR': 1.0}, 'q2': {'RR': 0.5}, 'q3': {'RR': 0.0}}
    >>> e.aggregate["RR"], e.missing_from_qrels  # (1 + 1/2 + 0) / 3
    (0.5, ['q9'])
    """
    from .io.index import QrelsIndex

    _check.choice(missing, "missing", MISSING)
    depth = _check.positive_int(depth, "depth")
    ms = _measures(measures)
    threads = _check.positive_int(threads, "threads", allow_none=False)
    index = qrels if isinstance(qrels, QrelsIndex) else QrelsIndex(qrels)
    seen: set[str] = set()
    parts = []
    missing_from_qrels: list[str] = []

    def evaluate_chunk(chunk: Run, judged):
        queries, columns, b = evaluate_part(judged, chunk, ms, depth=depth, judged_only=judged_only,
                                            trec_eval=trec_eval)
        return queries, columns, b.missing_from_qrels

    def taken(result) -> None:
        queries, columns, not_judged = result
        parts.append((queries, columns))
        missing_from_qrels.extend(not_judged)

    pool = ThreadPoolExecutor(threads, thread_name_prefix="ranklab-eval") if threads > 1 else None
    pending: deque = deque()  # chunks being evaluated, in stream order
    try:
        for chunk in chunks:
            repeated = seen.intersection(chunk.queries)
            if repeated:
                raise ValueError(f"{chunk.source}: query {min(repeated)!r} comes in two separate parts of the "
                                 "run (a streamed run must be grouped by query)")
            seen.update(chunk.queries)
            judged = index.subset(chunk.queries)  # (in this thread: the index is not shared across threads)
            if pool is None:
                taken(evaluate_chunk(chunk, judged))
                continue
            pending.append(pool.submit(evaluate_chunk, chunk, judged))
            del chunk, judged
            while len(pending) >= threads:  # bounded memory: at most `threads` chunks held
                taken(pending.popleft().result())
        while pending:
            taken(pending.popleft().result())
    finally:
        if pool is not None:
            for future in pending:
                future.cancel()
            pool.shutdown(wait=True)
    absent = [qid for qid in index.queries if qid not in seen]
    missing_from_run = absent if missing == "skip" else []
    if missing == "zero" and absent:
        empty = Run([], np.zeros(0, np.int32), pa.chunked_array([], pa.string()), np.zeros(0), index.source)
        queries, columns, _ = evaluate_part(index.subset(absent), empty, ms, missing="zero", depth=depth,
                                            judged_only=judged_only, trec_eval=trec_eval)
        parts.append((queries, columns))
    e = merge_parts(ms, parts, index.queries, missing_from_run, missing_from_qrels)
    return counted_as_zero(e, ms, absent if missing == "zero" else [], trec_eval)


def evaluate_chunks(pairs: Iterable[tuple[Qrels, Run]], measures, *, depth: int | None = None) -> Evaluation:
    """Evaluate a run given as chunks of whole queries (each query in exactly one chunk).

    Each chunk is evaluated with the same batch formulas and the per-query values merged,
    so memory is bounded by the largest chunk. Queries judged but absent from every chunk's
    run are skipped (trec_eval 9.0.8). For a run streamed against one set of judgments,
    :func:`evaluate_stream` is the simpler call.

    >>> chunks = [({"q1": {"a": 1}}, {"q1": ["a"]}), ({"q2": {"b": 1}}, {"q2": ["c", "b"]})]
    >>> e = evaluate_chunks([(qrels_from_dict(q), run_from_dict(r)) for q, r in chunks], "RR")
    >>> e.aggregate["RR"]  # (1 + 1/2) / 2
    0.75
    """
    ms = _measures(measures)
    per_query: dict[str, dict[str, float]] = {}
    missing_run: list[str] = []
    missing_qrels: list[str] = []
    for qrels, run in pairs:
        e = evaluate_prepared(prepare_batch(qrels, run, depth=depth), ms)
        per_query.update(e.per_query)
        missing_run += e.missing_from_run
        missing_qrels += e.missing_from_qrels
    missing_run = [q for q in missing_run if q not in per_query]
    return Evaluation([str(m) for m in ms], aggregate(ms, per_query), per_query, missing_run,
                      missing_qrels)


def relstring_char(grade: int | None) -> str:
    """How trec_eval's ``relstring`` shows one retrieved document: the digit for a grade 0-9,
    '>' above 9, '.' for any negative grade (in the pool but not judged) and '-' for ``None``,
    a document absent from the qrels. Absence is ``None``, never a grade value, because every
    integer is a grade someone's qrels may hold.

    >>> "".join(relstring_char(g) for g in (1, 0, 12, -1, -2, -5, None))
    '10>...-'
    """
    if grade is None:
        return "-"
    if grade > 9:
        return ">"
    return str(grade) if grade >= 0 else "."


def relstrings(b: Batch, length: int = 10) -> dict[str, str]:
    """trec_eval's ``relstring.N``: the grades of each query's first ``length`` documents.

    >>> b = prepare_batch(qrels_from_dict({"q1": {"a": 2, "c": 0}}), run_from_dict({"q1": ["a", "b", "c"]}))
    >>> relstrings(b)
    {'q1': '2-0'}
    """
    length = _check.positive_int(length, "length") if length else 0
    rows = {i: [relstring_char(None)] * min(length, int(n)) for i, n in enumerate(b.n_ret)}
    inside = np.flatnonzero(b.rank <= length)
    for q, rank, grade in zip(b.q[inside].tolist(), b.rank[inside].tolist(), b.grade[inside].tolist(), strict=True):
        rows[q][rank - 1] = relstring_char(grade)
    return {qid: "".join(rows[i]) for i, qid in enumerate(b.queries)}
