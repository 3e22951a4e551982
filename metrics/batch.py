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

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import numpy as np
import pyarrow.compute as pc

from . import _check
from .core import MISSING, Evaluation, aggregate
from .io import keys as _keys
from .io.arrays import as_numpy
from .io.model import Qrels, Run, qrels_from_dict, run_from_dict
from .measures import Measure, parse_many
from .ranking import ratio
from .ranking.average_precision import denominator as _ap_denominator
from .ranking.dcg import discount as _discount
from .ranking.dcg import gains as _gains
from .ranking.interpolation import LEVELS, needed_hits
from .ranking.precision_recall import f1, precision
from .ranking.rprec_bpref import bpref_term

__all__ = ["evaluate_batch", "evaluate_chunks", "BATCH_FAMILIES", "Batch", "prepare_batch",
           "measure_columns"]

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

    @property
    def size(self) -> int:
        return len(self.queries)

    def count(self, q: np.ndarray, weights=None) -> np.ndarray:
        return np.bincount(q, weights=weights, minlength=self.size).astype(np.float64)

    def num_rel(self, rel: int) -> np.ndarray:
        return self.count(self.qrels_q[self.qrels_grade >= rel])

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
        return f1(p, r)
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
    return ratio(total, _ap_denominator(how, b.num_rel(rel), retrieved, k))


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
        needed = needed_hits(level, R)
        ok = hits >= needed[q]
        np.maximum.at(out, q[ok], precision[ok])
        return np.where((R > 0) & (b.n_ret > 0), out, 0.0)

    if m.name == "IPrec":
        return at(m.cutoff)
    total = np.zeros(b.size)
    for level in LEVELS:
        total = total + at(level)
    return total / 11


def _dcg_family(m: Measure, b: Batch) -> np.ndarray:
    dcg, rel, k = m["dcg"], m["rel"], m.cutoff
    within = b.rank <= k if k is not None else np.ones(b.q.size, dtype=bool)
    gain = _gains(b.grade, None, dcg, rel)
    if m.name == "CG":
        return b.count(b.q[within], gain[within])
    value = b.count(b.q[within], (gain / _discount(b.rank, dcg))[within])
    if m.name == "DCG":
        return value
    if m["ideal"] == "qrels":
        iq, ig = b.qrels_q, _gains(b.qrels_grade, None, dcg, rel)
    else:
        iq, ig = b.q, gain
    keep = ig > 0
    iq, ig = iq[keep], ig[keep]
    order = np.lexsort((-ig, iq))
    iq, ig = iq[order], ig[order]
    irank = _cumcount(iq) + 1
    inside = irank <= k if k is not None else np.ones(iq.size, dtype=bool)
    ideal = b.count(iq[inside], (ig / _discount(irank, dcg))[inside])
    if m.name == "IDCG":
        return ideal
    return ratio(value, ideal)


BATCH_FAMILIES = {
    "P": _counts_family, "R": _counts_family, "F1": _counts_family, "Success": _counts_family,
    "NumRet": _counts_family, "NumRel": _counts_family, "NumRelRet": _counts_family,
    "NumQ": _counts_family, "RR": _reciprocal_rank, "AP": _average_precision,
    "CG": _dcg_family, "DCG": _dcg_family, "IDCG": _dcg_family, "nDCG": _dcg_family,
    "Rprec": _rprec, "Bpref": _bpref, "IPrec": _interpolated, "11pt": _interpolated,
}


# --------------------------------------------------------------------------- preparation

def prepare_batch(qrels: Qrels, run: Run, *, missing: str = "skip", depth: int | None = None) -> Batch:
    """Match a run to its judgments and rank the judged documents (see the module notes)."""
    _check.choice(missing, "missing", MISSING)
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
    qrels_keys = _keys.pair_keys(qe_all, _keys.doc_hashes(qrels.doc))
    dups = _keys.duplicate_groups(qe_all, qrels.doc, qrels_keys)
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
    counts = np.bincount(run.query, minlength=nq)
    evaluated_code = e_of_run[:nq] >= 0
    n_ret = np.zeros(size, dtype=np.int64)
    n_ret[e_of_run[:nq][evaluated_code]] = counts[evaluated_code]
    filtered = bool(counts[~evaluated_code].any())
    kept_rows = np.flatnonzero(evaluated_code[run.query]) if filtered else None
    c = run.query if kept_rows is None else run.query[kept_rows]
    s = run.score if kept_rows is None else run.score[kept_rows]
    n = len(c)
    query_starts = _ordered_starts(c, s)
    perm = None
    if query_starts is None:  # not grouped by query with scores descending: sort once
        perm = np.lexsort((-s, c))
        c, s = c[perm], s[perm]
        query_starts = np.r_[0, np.flatnonzero(c[1:] != c[:-1]) + 1] if n else np.zeros(0, np.int64)

    def rows_of(pos: np.ndarray) -> np.ndarray:
        rows = pos if perm is None else perm[pos]
        return rows if kept_rows is None else kept_rows[rows]

    # judged rows: original row -> position in trec_eval order
    matched_docs = _keys.take(qrels.doc, matchable)
    run_rows, judged = _keys.lookup(
        run.pair_keys(), run.doc, run.query,
        _keys.pair_keys(qrc[matchable], _keys.doc_hashes(matched_docs)), matched_docs, qrc[matchable])
    judged = matchable[judged]
    grade = qrels.grade[judged]
    pos = run_rows if kept_rows is None else np.searchsorted(kept_rows, run_rows)
    if perm is not None:
        inverse = np.empty(n, dtype=np.int64)
        inverse[perm] = np.arange(n)
        pos = inverse[pos]
        del inverse

    # rank of each judged row: rows with a higher score, plus tied rows with a larger doc id
    qi = np.searchsorted(query_starts, pos, side="right") - 1
    query_start = query_starts[qi]
    query_end = np.append(query_starts, n)[qi + 1]
    tie_start, tie_end = _tie_bounds(s, pos, query_start, query_end)
    rank = tie_start - query_start + 1
    tied = np.flatnonzero(tie_end - tie_start > 1)
    if tied.size:
        rank = rank + _larger_ids_in_tie(tied, pos, tie_start, tie_end, rows_of, run.doc)
    q = e_of_run[c[pos]] if pos.size else pos
    if depth is not None:
        inside = rank <= depth
        q, rank, grade = q[inside], rank[inside], grade[inside]
        n_ret = np.minimum(n_ret, depth)
    order = np.lexsort((rank, q))
    return Batch(evaluated, n_ret, q[order], rank[order], grade[order], qrels_q, qrels_grade,
                 missing_from_run, missing_from_qrels)


def _ordered_starts(c: np.ndarray, s: np.ndarray) -> np.ndarray | None:
    """Where each query starts, if the rows are grouped by query with scores descending."""
    n = len(c)
    if n == 0:
        return np.zeros(0, dtype=np.int64)
    change = c[1:] != c[:-1]
    starts = np.r_[0, np.flatnonzero(change) + 1]
    if len(starts) != len(np.unique(c[starts])):
        return None  # a query's rows come in more than one block
    rising = s[1:] > s[:-1]
    rising &= ~change
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
        larger = pc.greater(_keys.take(docs, others), _keys.take(docs, mine))
        larger = as_numpy(larger)
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


def evaluate_batch(qrels, run, measures, *, missing: str = "skip", depth: int | None = None) -> Evaluation:
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
    ms = parse_many(measures) if not isinstance(measures, Measure) else [measures]
    qrels, run = _as_tables(qrels, run)
    b = prepare_batch(qrels, run, missing=missing, depth=depth)
    return _finish(ms, b)


def measure_columns(ms: list[Measure], b: Batch) -> dict[str, np.ndarray]:
    """One float64 array per measure (canonical name), one entry per query of ``b.queries``.

    >>> b = prepare_batch(qrels_from_dict({"q1": {"a": 1}}), run_from_dict({"q1": ["b", "a"]}))
    >>> measure_columns(parse_many("RR P@1"), b)["RR"].tolist()  # a at rank 2
    [0.5]
    """
    return {str(m): np.asarray(BATCH_FAMILIES[m.name](m, b), dtype=np.float64) for m in ms}


def _finish(ms: list[Measure], b: Batch) -> Evaluation:
    columns = {key: values.tolist() for key, values in measure_columns(ms, b).items()}
    names = [str(m) for m in ms]
    per_query = {qid: {key: columns[key][i] for key in names} for i, qid in enumerate(b.queries)}
    return Evaluation(names, aggregate(ms, per_query), per_query, b.missing_from_run, b.missing_from_qrels)


def evaluate_chunks(pairs: Iterable[tuple[Qrels, Run]], measures, *, depth: int | None = None) -> Evaluation:
    """Evaluate a run given as chunks of whole queries (each query in exactly one chunk).

    Each chunk is evaluated with the same batch formulas and the per-query values merged,
    so memory is bounded by the largest chunk. Queries judged but absent from every chunk's
    run are skipped (trec_eval 9.0.8).

    >>> chunks = [({"q1": {"a": 1}}, {"q1": ["a"]}), ({"q2": {"b": 1}}, {"q2": ["c", "b"]})]
    >>> e = evaluate_chunks([(qrels_from_dict(q), run_from_dict(r)) for q, r in chunks], "RR")
    >>> e.aggregate["RR"]  # (1 + 1/2) / 2
    0.75
    """
    ms = parse_many(measures) if not isinstance(measures, Measure) else [measures]
    per_query: dict[str, dict[str, float]] = {}
    missing_run: list[str] = []
    missing_qrels: list[str] = []
    for qrels, run in pairs:
        e = _finish(ms, prepare_batch(qrels, run, depth=depth))
        per_query.update(e.per_query)
        missing_run += e.missing_from_run
        missing_qrels += e.missing_from_qrels
    missing_run = [q for q in missing_run if q not in per_query]
    return Evaluation([str(m) for m in ms], aggregate(ms, per_query), per_query, missing_run,
                      missing_qrels)
