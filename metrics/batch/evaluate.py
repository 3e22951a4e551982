"""The entry points of :mod:`metrics.batch`: evaluate a whole run, a prepared batch, judgment
groups, preferences, Arrow tables, a stream of chunks, and merge parts evaluated apart."""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Mapping
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .. import _check
from ..core import MISSING, Evaluation, aggregate, counted_as_zero, never_scored
from ..io import keys as _keys
from ..io.arrays import as_numpy
from ..io.model import Qrels, Run, qrels_from_dict, run_from_dict
from ..measures import Measure, at_trec_eval, parse, parse_many
from ..ranking.preferences import PREF_FAMILIES
from ..ranking.preferences import count as _pref_count
from ..ranking.preferences import value as _pref_value
from .kernels import BATCH_FAMILIES
from .prepare import prepare_batch
from .segments import Batch

__all__ = ["evaluate_batch", "evaluate_prepared", "measure_columns", "evaluate_groups", "evaluate_prefs",
           "prefs_orders", "evaluate_part", "evaluate_arrow", "merge_parts", "evaluate_stream", "evaluate_chunks",
           "relstring_char", "relstrings"]


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
    columns = measure_columns(ms, b, trec_eval)
    if missing == "zero" and trec_eval == "9.0.8":
        # a query of this part without a run row is absent from the whole run (a query's rows
        # are all in one part), so 9.0.8's -c never scores it, as evaluate_batch does
        in_run = set(run.queries)
        absent = np.array([qid not in in_run for qid in b.queries], dtype=bool)
        if absent.any():
            for m in ms:
                if (value := never_scored(m)) is not None:
                    columns[str(m)] = np.where(absent, value, columns[str(m)])
    return b.queries, columns, b


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
    from ..io.columnar import qrels_from_arrow, run_from_arrow

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
    from ..io.index import QrelsIndex

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
