"""Judgments indexed by query, so that a streamed run's chunks find theirs without a scan.

Tens of millions of judgments stay as they were read (:class:`metrics.io.Qrels`: an int32
query code, an Arrow string array of document ids and an int64 grade per row, about
20 bytes a judgment plus the ids' text); the index adds one int64 row order (only when the
file is not already grouped by query), one offset per query and a hash table from query id to
code. Selecting the judgments of a chunk's queries costs time in proportion to those
judgments, not to the whole file.

>>> from metrics.io import qrels_from_dict
>>> index = QrelsIndex(qrels_from_dict({"q1": {"a": 1}, "q2": {"b": 0, "c": 2}}))
>>> sub = index.subset(["q2", "q7"])  # q7 is not judged: left out
>>> sub.queries, sub.doc.to_pylist(), sub.grade.tolist()
(['q2'], ['b', 'c'], [0, 2])
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
import pyarrow as pa

from .keys import take
from .model import Qrels

__all__ = ["QrelsIndex"]


class QrelsIndex:
    """The rows of each judged query, by query id (see the module notes)."""

    def __init__(self, qrels: Qrels):
        self.qrels = qrels
        self.queries = qrels.queries
        self.source = qrels.source
        codes = qrels.query
        grouped = codes.size == 0 or bool((codes[1:] >= codes[:-1]).all())
        self.order = None if grouped else np.argsort(codes, kind="stable")
        counts = np.bincount(codes, minlength=len(qrels.queries))
        self.starts = np.concatenate([[0], np.cumsum(counts)]).astype(np.int64)
        self.code = {qid: i for i, qid in enumerate(qrels.queries)}

    def __len__(self) -> int:
        return len(self.qrels)

    def subset(self, qids: Iterable[str]) -> Qrels:
        """The judgments of the given queries (qrels order), as a :class:`Qrels` of their own."""
        codes = np.array(sorted({self.code[q] for q in qids if q in self.code}), dtype=np.int64)
        lengths = self.starts[codes + 1] - self.starts[codes]
        total = int(lengths.sum())
        offsets = np.cumsum(lengths) - lengths
        new_codes = np.repeat(np.arange(len(codes), dtype=np.int32), lengths)
        if self.order is None and codes.size and int(codes[-1] - codes[0]) + 1 == codes.size:
            # consecutive queries of a grouped file (a streamed chunk's, as a rule): one slice, no copies
            lo = int(self.starts[codes[0]])
            rows = slice(lo, lo + total)
            docs = self.qrels.doc.slice(lo, total)
        else:
            rows = np.repeat(self.starts[codes] - offsets, lengths) + np.arange(total)
            if self.order is not None:
                rows = self.order[rows]
            docs = take(self.qrels.doc, rows)
            docs = pa.chunked_array([docs], docs.type)
        sub = Qrels([self.queries[c] for c in codes.tolist()], new_codes, docs, self.qrels.grade[rows], self.source)
        for known in ("doc_hashes", "unique"):  # (what read_qrels found holds for a subset too)
            if known in self.qrels._cache:
                value = self.qrels._cache[known]
                sub._cache[known] = value[rows] if known == "doc_hashes" else value
        return sub
