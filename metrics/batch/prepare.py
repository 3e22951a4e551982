"""Preparation for :mod:`metrics.batch`: match a run to its judgments and rank the judged rows.

:func:`prepare_batch` keeps the run rows of evaluated queries, sorts them by (query, -score)
unless they already come that way, finds the judged rows by a hash join on (query, document),
and ranks them; where a judged row's score ties with others, the tie is broken by document id
descending (trec_eval), comparing those strings only.
"""

from __future__ import annotations

import numpy as np
import pyarrow.compute as pc

from .. import _check
from ..core import MISSING
from ..io import keys as _keys
from ..io.arrays import as_numpy
from ..io.model import Qrels, Run
from .segments import Batch, cumcount

__all__ = ["prepare_batch"]

PAIR_BLOCK = 4_000_000  # tie comparisons per block


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
        rank = cumcount(q) + 1
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

