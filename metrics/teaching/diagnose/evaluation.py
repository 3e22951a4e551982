"""One evaluation of :mod:`metrics.teaching.diagnose`: the numbers of one measure under one
set of conventions (:func:`evaluate_under`), through the vectorised formulas of
:mod:`metrics.batch` on a :class:`~metrics.batch.Batch` built from the transformed input."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from ... import core
from ...batch import BATCH_FAMILIES, Batch
from ...batch.segments import cumcount
from ...measures import FAMILIES, Measure
from ...ranking import ratio
from ...ranking.dcg import discount as dcg_discount
from ...ranking.dcg import gains as dcg_gains
from ...ranking.inferred import geometric_log
from .data import Prepared
from .table import _DCG, Option

__all__ = ["Outcome", "evaluate_under"]


MAX_CACHED_BATCHES = 32  # ranked inputs kept by one Prepared (one per set of input transforms)
ALL = "all"  # the one query of a flattened evaluation


@dataclass(frozen=True)
class Outcome:
    """One convention set's numbers: ``per_query`` (qid -> value, evaluated queries only,
    or ``{"all": v}`` when flattened) and the ``aggregate``."""

    per_query: dict[str, float]
    aggregate: float


def _settings(options: list[Option]) -> tuple[dict, dict, dict]:
    measure, transform, evaluation = {}, {}, {}
    for o in options:
        measure.update(o.measure)
        transform.update(o.transform)
        evaluation.update(o.evaluation)
    return measure, transform, evaluation


def _rows(p: Prepared, t: Mapping) -> tuple[np.ndarray, np.ndarray]:
    """The run rows kept under the input transforms ``t``, and their scores."""
    rows = np.arange(len(p.q))
    if t.get("identical") == "drop":
        rows = rows[~p.identical[rows]]
    score = p.score[rows]
    if t.get("scores", "float32") == "float32":  # trec_eval 9.0.8, as metrics' default
        with np.errstate(over="ignore"):
            score = score.astype(np.float32).astype(np.float64)
    how = t.get("dedup", "first")
    if p.has_duplicates and how != "kept" and rows.size:
        pair = p.pair[rows]
        if how == "max":  # highest score, then the first line
            order = np.lexsort((p.pos[rows], -score, pair))
        elif how == "last":
            order = np.lexsort((-p.pos[rows], pair))
        else:
            order = np.lexsort((p.pos[rows], pair))
        sp = pair[order]
        first = order[np.r_[True, sp[1:] != sp[:-1]]]
        first.sort()
        rows, score = rows[first], score[first]
    return rows, score


def evaluate_under(p: Prepared, measure: Measure, options: list[Option]) -> Outcome:
    """The measure under a set of options (one per row at most), from the prepared input.

    Input transforms, in order: documents whose id is the query id dropped
    (``identical='drop'``), scores compared as float32 as trec_eval 9.0.8 does, unless
    ``scores='double'`` (trec_eval 10.0, sklearn, ranx), duplicates
    resolved (``dedup``: first, last, max, or ``'kept'``), queries without a relevant
    document skipped (``no_relevant='skip'``, gdeval), missing queries scored 0
    (``missing='zero'``), every query flattened into one (``flatten``), then each ranking
    ordered by score with ties broken as ``ties`` says and cut at ``depth``.

    >>> from metrics import parse
    >>> from metrics.teaching.diagnose import _ROWS, prepare
    >>> p = prepare({"q1": {"a": 1}, "q2": {"c": 1}}, {"q1": {"a": 1.0, "b": 1.0}})
    >>> m = parse("RR")
    >>> evaluate_under(p, m, []).per_query  # b ties a and ranks first; q2 is skipped
    {'q1': 0.5}
    >>> evaluate_under(p, m, [_ROWS["missing"].options[1]]).aggregate  # -c: (1/2 + 0) / 2
    0.25
    """
    params, t, evaluation = _settings(options)
    m = measure.with_params(**params)
    if evaluation == {"ties": "average"} and m.name in _DCG and not t.get("flatten") and t.get("dedup") != "kept":
        return _tie_average_dcg(p, m, t)
    if evaluation:
        return _via_evaluate(p, m, t, evaluation)
    batch, evaluated, flatten = _cached_batch(p, t)
    values = np.asarray(BATCH_FAMILIES[m.name](m, batch), dtype=np.float64)
    if flatten:
        v = float(values[0]) if evaluated.any() else 0.0
        return Outcome({ALL: v}, v)
    values = _missing_counted_as_zero(p, m, t, values)
    per_query = {p.queries[i]: float(values[i]) for i in np.flatnonzero(evaluated).tolist()}
    return Outcome(per_query, _aggregate(m, list(per_query.values())))


def _missing_counted_as_zero(p: Prepared, m: Measure, t: Mapping, values: np.ndarray) -> np.ndarray:
    """``missing='zero'`` as trec_eval 9.0.8's ``-c`` reads it, the way
    :func:`metrics.core.counted_as_zero` applies it to :func:`metrics.evaluate`: a judged query
    missing from the run is never scored and adds 0 (GMAP's log of 10^-5) to the sums, where the
    batch formulas would score an empty ranking (which is not 0 for IDCG, Utility or YAAP).
    Under ``scores='double'`` (trec_eval 10.0) the empty ranking's value stands, as in 10.0."""
    if t.get("missing") != "zero" or t.get("scores") == "double" or m.name in ("NumQ", "NumRel"):
        return values
    values = values.copy()
    values[~p.in_run] = geometric_log(0.0) if m.family.aggregate == "gmean" else 0.0
    return values


_ORDER_KEYS = ("identical", "scores", "dedup", "ties")


def _ordered(p: Prepared, t: Mapping, evaluated: np.ndarray, flatten: bool):
    """Run rows of the evaluated queries ranked under ``t``: (rows, query, rank). Per query the
    order depends only on the transforms of :data:`_ORDER_KEYS`, so it is cached under them and
    shared by -c, gdeval's query filter and -M; a flattened list is ranked anew."""
    key = ("order", *(t.get(k) for k in _ORDER_KEYS))
    cached = None if flatten else p.batches.get(key)
    if cached is None:
        rows, score = _rows(p, t)
        q = p.q[rows]
        if flatten:
            inside = evaluated[q]
            rows, score, q = rows[inside], score[inside], np.zeros(int(inside.sum()), dtype=np.int64)
        ties = t.get("ties", "docid-desc")
        tie_key = {"docid-desc": -p.doc_order[rows], "docid-asc": p.doc_order[rows]}.get(ties, p.pos[rows])
        order = np.lexsort((tie_key, -score, q))
        rows, q = rows[order], q[order]
        cached = (rows, q, cumcount(q) + 1)
        if not flatten:
            _remember(p, key, cached)
    rows, q, rank = cached
    if not flatten and not evaluated.all():
        inside = evaluated[q]
        rows, q, rank = rows[inside], q[inside], rank[inside]
    return rows, q, rank


def _remember(p: Prepared, key, value) -> None:
    if len(p.batches) >= MAX_CACHED_BATCHES:
        p.batches.pop(next(iter(p.batches)))
    p.batches[key] = value


def _batch(p: Prepared, t: Mapping) -> tuple[Batch, np.ndarray, bool]:
    """The ranked, judged rows under the input transforms ``t`` (shared by every measure
    parameter, so a set that only changes the gain or the denominator reuses it)."""
    n_queries = len(p.queries)
    evaluated = p.in_run.copy() if t.get("missing", "skip") == "skip" else np.ones(n_queries, dtype=bool)
    if t.get("no_relevant") == "skip":
        evaluated &= p.has_relevant
    flatten = bool(t.get("flatten"))
    rows, q, rank = _ordered(p, t, evaluated, flatten)
    judged_keep = evaluated[p.qrels_q]
    qrels_q, qrels_grade = p.qrels_q[judged_keep], p.qrels_grade[judged_keep]
    size = n_queries
    if flatten:
        qrels_q = np.zeros_like(qrels_q)
        size = 1
    depth = t.get("depth")
    if depth is not None:
        keep = rank <= depth
        rows, q, rank = rows[keep], q[keep], rank[keep]
    n_ret = np.bincount(q, minlength=size).astype(np.int64)
    judged = p.judged[rows]
    batch = Batch([ALL] if flatten else p.queries, n_ret, q[judged], rank[judged], p.grade[rows][judged],
                  qrels_q, qrels_grade, [], [])
    return batch, evaluated, flatten


def _tie_average_dcg(p: Prepared, m: Measure, t: Mapping) -> Outcome:
    """CG, DCG, IDCG or nDCG under ``ties='average'`` for every query at once: the expected
    gain at a rank is the mean gain of its tie group (the kernel's ``Query.averaged``), so the
    value is the usual sum with each gain replaced by its group's mean. Without this, each
    convention set holding the rule went through the per-query kernels and their explanations.
    """
    batch, evaluated, _ = _cached_batch(p, t)
    rows, q, rank = _ordered(p, t, evaluated, False)
    depth = t.get("depth")
    if depth is not None:  # -M cuts the ranking before its tie groups are formed, as core.prepare does
        keep = rank <= depth
        rows, q, rank = rows[keep], q[keep], rank[keep]
    score = p.score[rows]
    if t.get("scores", "float32") == "float32":
        with np.errstate(over="ignore"):
            score = score.astype(np.float32).astype(np.float64)
    group = np.cumsum(np.r_[True, (q[1:] != q[:-1]) | (score[1:] != score[:-1])]) - 1 if rows.size \
        else np.zeros(0, np.int64)
    gain = dcg_gains(p.grade[rows], p.judged[rows], m["dcg"], m["rel"], m["gains"])
    size = int(group[-1]) + 1 if group.size else 0
    mean = (np.bincount(group, gain, minlength=size) / np.maximum(np.bincount(group, minlength=size), 1))[group]
    within = rank <= m.cutoff if m.cutoff is not None else np.ones(rank.size, dtype=bool)
    n_queries = len(p.queries)
    if m.name == "IDCG":
        values = np.asarray(BATCH_FAMILIES["IDCG"](m, batch), dtype=np.float64)
    elif m.name == "CG":
        values = np.bincount(q[within], mean[within], minlength=n_queries)
    else:
        base = m["base"] if "base" in m.family.params else 2
        values = np.bincount(q[within], mean[within] / dcg_discount(rank[within], m["dcg"], base),
                             minlength=n_queries)
        if m.name == "nDCG":
            ideal = Measure("IDCG", m.cutoff, tuple((k, v) for k, v in m.params if k in FAMILIES["IDCG"].params))
            values = ratio(values, np.asarray(BATCH_FAMILIES["IDCG"](ideal, batch), dtype=np.float64))
    values = _missing_counted_as_zero(p, m, t, values)
    per_query = {p.queries[i]: float(values[i]) for i in np.flatnonzero(evaluated).tolist()}
    return Outcome(per_query, _aggregate(m, list(per_query.values())))


def _cached_batch(p: Prepared, t: Mapping):
    key = tuple(sorted(t.items()))
    cached = p.batches.get(key)
    if cached is None:
        cached = _batch(p, t)
        _remember(p, key, cached)
    return cached


def _aggregate(m: Measure, values: list[float]) -> float:
    total = 0.0
    for v in values:  # in query order, as trec_eval accumulates
        total += v
    if m.family.aggregate == "sum":
        return total
    return total / len(values) if values else 0.0


def _via_evaluate(p: Prepared, m: Measure, t: Mapping, evaluation: Mapping) -> Outcome:
    """A set holding a keyword of :func:`metrics.evaluate`: the input transforms applied to
    dicts, then the per-query kernels with that keyword."""
    if t.get("dedup") == "kept" or t.get("flatten"):
        raise ValueError("cannot combine kept duplicates or flattened queries with an evaluate() keyword")
    rows, score = _rows(p, t)
    evaluated = p.in_run.copy() if t.get("missing", "skip") == "skip" else np.ones(len(p.queries), dtype=bool)
    if t.get("no_relevant") == "skip":
        evaluated &= p.has_relevant
    qrels = {qid: p.judgments[qid] for i, qid in enumerate(p.queries) if evaluated[i]}
    run: dict[str, dict[str, float]] = {qid: {} for i, qid in enumerate(p.queries) if evaluated[i] and p.in_run[i]}
    order = np.argsort(p.pos[rows], kind="stable")
    for r, s in zip(rows[order].tolist(), score[order].tolist(), strict=True):
        qid = p.queries[p.q[r]]
        if qid in run:
            run[qid][p.docs[r]] = s
    kwargs = dict(evaluation)
    if t.get("scores") == "double":  # metrics' own default is trec_eval 9.0.8's float32
        kwargs["trec_eval"] = "10.0"
    e = core.evaluate(qrels, run, m, missing=t.get("missing", "skip"), depth=t.get("depth"), **kwargs)
    per_query = {qid: e.per_query[qid][str(m)] for qid in e.per_query}
    return Outcome(per_query, e.aggregate[str(m)])
