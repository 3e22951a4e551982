"""The data of :mod:`metrics.teaching.diagnose`: the run joined with its judgments once
(:class:`Prepared`), from which every convention set starts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pyarrow.compute as pc

from ...io.arrays import as_numpy
from ...io.keys import take
from ...io.model import Qrels, Run, qrels_from_dict, run_from_dict

__all__ = ["Prepared", "prepare"]


@dataclass
class Prepared:
    """The run joined with its judgments once; every convention set starts from it.

    Run rows of judged queries only: ``q`` (index into ``queries``, the qrels' queries),
    ``pos`` (line order), ``score``, ``doc_order`` (rank of the doc id in byte order),
    ``grade`` and ``judged``, ``identical`` (doc id = query id), ``pair`` (one code per
    (query, doc) pair: duplicates share it). ``qrels_q``/``qrels_grade``: every judgment.
    """

    queries: list[str]
    in_run: np.ndarray
    q: np.ndarray
    pos: np.ndarray
    score: np.ndarray
    doc_order: np.ndarray
    pair: np.ndarray
    grade: np.ndarray
    judged: np.ndarray
    identical: np.ndarray
    qrels_q: np.ndarray
    qrels_grade: np.ndarray
    docs: list[str]
    longest: int
    has_duplicates: bool
    judgments: dict[str, dict[str, int]]
    batches: dict = field(default_factory=dict, repr=False)

    @property
    def has_relevant(self) -> np.ndarray:
        return np.bincount(self.qrels_q[self.qrels_grade > 0], minlength=len(self.queries)) > 0


def prepare(qrels, run) -> Prepared:
    """Join a run (duplicates allowed) with its judgments.

    ``qrels``/``run``: :class:`metrics.io.Qrels`/:class:`metrics.io.Run` (read with
    ``dedup=None`` to keep duplicates) or the dicts :func:`metrics.evaluate` takes.

    >>> p = prepare({"q1": {"a": 2, "b": 0}}, {"q1": ["b", "c", "a"]})
    >>> p.queries, p.grade.tolist(), p.judged.tolist()
    (['q1'], [0, 0, 2], [True, False, True])
    """
    if isinstance(qrels, Mapping):
        qrels = qrels_from_dict(qrels)
    if isinstance(run, Mapping):
        run = run_from_dict(run)
    if not isinstance(qrels, Qrels) or not isinstance(run, Run):
        raise TypeError("qrels and run must be metrics.io.Qrels/Run or mappings")
    queries = list(qrels.queries)
    index = {qid: i for i, qid in enumerate(queries)}
    code_map = np.array([index.get(qid, -1) for qid in run.queries] + [-1], dtype=np.int64)
    rq = code_map[run.query] if len(run) else np.zeros(0, np.int64)
    keep = np.flatnonzero(rq >= 0)
    docs_arrow = take(run.doc, keep)
    docs = docs_arrow.to_pylist()
    q = rq[keep]
    score = np.asarray(run.score, dtype=np.float64)[keep]
    if len(keep):
        doc_order = as_numpy(pc.rank(docs_arrow, sort_keys="ascending", tiebreaker="dense"))
        doc_order = doc_order.astype(np.int64)
    else:
        doc_order = np.zeros(0, np.int64)
    judgments: dict[str, dict[str, int]] = {qid: {} for qid in queries}
    for qc, d, g in zip(qrels.query.tolist(), qrels.doc.to_pylist(), qrels.grade.tolist(), strict=True):
        judgments[queries[qc]][d] = g
    grade = np.zeros(len(keep), dtype=np.int64)
    judged = np.zeros(len(keep), dtype=bool)
    identical = np.zeros(len(keep), dtype=bool)
    for i, (qc, d) in enumerate(zip(q.tolist(), docs, strict=True)):
        qid = queries[qc]
        g = judgments[qid].get(d)
        if g is not None:
            grade[i], judged[i] = g, True
        identical[i] = d == qid
    # one code per (query, doc) pair: duplicates share it
    pair = np.zeros(len(keep), dtype=np.int64)
    if len(keep):
        order = np.lexsort((doc_order, q))
        sq, sd = q[order], doc_order[order]
        new = np.r_[True, (sq[1:] != sq[:-1]) | (sd[1:] != sd[:-1])]
        pair[order] = np.cumsum(new) - 1
    counts = np.bincount(q, minlength=len(queries)) if len(keep) else np.zeros(len(queries), np.int64)
    in_run = np.zeros(len(queries), dtype=bool)
    present = code_map[:-1]
    in_run[present[present >= 0]] = True
    return Prepared(queries, in_run, q, np.arange(len(keep)), score, doc_order, pair, grade, judged, identical,
                    qrels.query.astype(np.int64), qrels.grade.astype(np.int64), docs,
                    int(counts.max()) if counts.size else 0, bool(len(keep) and pair.max() + 1 < len(keep)),
                    judgments)
