"""The one in-memory form every reader produces: columns, not Python objects per line.

A :class:`Qrels` or :class:`Run` holds one row per line of the file. Query ids are
stored once (``queries``, in order of first appearance) and each row carries an integer
code into that list; document ids stay in an Arrow string array, so reading ten million
lines never creates ten million Python strings.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

import numpy as np
import pyarrow as pa

from .. import _check

__all__ = ["Qrels", "Run", "FileFormatError", "qrels_from_dict", "run_from_dict", "MAX_SHOWN"]

MAX_SHOWN = 20  # malformed lines listed before "... and N more"


class FileFormatError(ValueError):
    """A file that cannot be read as the expected format.

    ``problems`` lists ``(line, reason)`` pairs (line is 1-based, or None when the problem
    is not tied to one line); the message shows the first 20 as ``file:line: reason``.

    >>> err = FileFormatError("run.txt", [(3, "expected 6 columns, found 2")])
    >>> print(err)
    run.txt:3: expected 6 columns, found 2
    """

    def __init__(self, source: str, problems: list[tuple[int | None, str]], total: int | None = None):
        self.source = source
        self.problems = problems
        self.total = len(problems) if total is None else total
        lines = [f"{source}:{line}: {reason}" if line is not None else f"{source}: {reason}"
                 for line, reason in problems[:MAX_SHOWN]]
        more = self.total - min(len(problems), MAX_SHOWN)
        if more > 0:
            lines.append(f"{source}: ... and {more} more malformed line{'s' if more > 1 else ''}")
        super().__init__("\n".join(lines))


class Problems:
    """Malformed lines of one file: counts every one, keeps the first MAX_SHOWN for the message.

    >>> found = Problems("run.txt")
    >>> for line in (2, 5): found.add(line, "expected 6 columns, found 2")
    >>> found.total
    2
    >>> found.raise_if_any()
    Traceback (most recent call last):
    ...
    metrics.io.model.FileFormatError: run.txt:2: expected 6 columns, found 2
    run.txt:5: expected 6 columns, found 2
    """

    def __init__(self, source: str):
        self.source = source
        self.shown: list[tuple[int | None, str]] = []
        self.total = 0

    def add(self, line: int | None, reason: str) -> None:
        self.total += 1
        if len(self.shown) < MAX_SHOWN:
            self.shown.append((line, reason))

    def raise_if_any(self) -> None:
        if self.total:
            raise FileFormatError(self.source, self.shown, self.total)


def _codes(values: list[str]) -> tuple[list[str], np.ndarray]:
    """Query ids in order of first appearance, and one int32 code per value."""
    index: dict[str, int] = {}
    codes = np.fromiter((index.setdefault(v, len(index)) for v in values), dtype=np.int32, count=len(values))
    return list(index), codes


@dataclass(frozen=True, eq=False)
class Qrels:
    """Relevance judgments: one row per ``qid iter docid grade`` line.

    ``queries[query[i]]`` is the query of row i, ``doc[i]`` its document and ``grade[i]``
    its integer grade (-1 = pooled but never judged).
    """

    queries: list[str]
    query: np.ndarray
    doc: pa.ChunkedArray
    grade: np.ndarray
    source: str = "<qrels>"
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.query)

    def to_dict(self) -> dict[str, dict[str, int]]:
        """``{qid: {doc: grade}}``, the form :func:`metrics.evaluate` takes (small files only).

        >>> qrels_from_dict({"q1": {"a": 2, "b": 0}}).to_dict()
        {'q1': {'a': 2, 'b': 0}}
        """
        out: dict[str, dict[str, int]] = {q: {} for q in self.queries}
        for q, d, g in zip(self.query.tolist(), self.doc.to_pylist(), self.grade.tolist(), strict=True):
            out[self.queries[q]][d] = g
        return out


@dataclass(frozen=True, eq=False)
class Run:
    """A run: one row per retrieved document, with its score.

    Documents are ranked as trec_eval ranks them: score descending, ties by document id
    descending (byte order); the file's rank column is ignored. A two-column list
    (``qid docid`` in rank order) gets scores that decrease down the file.
    ``tag`` is the run tag of the first line (trec_eval's ``runid``), if the file has one.
    """

    queries: list[str]
    query: np.ndarray
    doc: pa.ChunkedArray
    score: np.ndarray
    source: str = "<run>"
    tag: str | None = None
    _cache: dict = field(default_factory=dict, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.query)

    def pair_keys(self) -> np.ndarray:
        """A uint64 key per row for (query code, document), computed once (see io.keys)."""
        if "keys" not in self._cache:
            from .keys import doc_hashes, pair_keys
            self._cache["keys"] = pair_keys(self.query, doc_hashes(self.doc), inplace=True)
        return self._cache["keys"]

    def to_dict(self) -> dict[str, dict[str, float]]:
        """``{qid: {doc: score}}``, the form :func:`metrics.evaluate` takes (small files only).

        >>> run_from_dict({"q1": ["a", "b"]}).to_dict()
        {'q1': {'a': 0.0, 'b': -1.0}}
        """
        out: dict[str, dict[str, float]] = {q: {} for q in self.queries}
        for q, d, s in zip(self.query.tolist(), self.doc.to_pylist(), self.score.tolist(), strict=True):
            out[self.queries[q]][d] = s
        return out


def set_line_map(data, line_of):
    """Attach ``line_of(rows) -> line numbers`` to a Qrels or Run read from a file, so that
    messages about rows (a document twice in one query) can name the file's lines."""
    data._cache["lines"] = line_of
    return data


def line_numbers(data, rows) -> list[int] | None:
    """1-based file line numbers of the given rows, or None for data not read from a file."""
    line_of = data._cache.get("lines")
    if line_of is None:
        return None
    return [int(n) for n in line_of(np.asarray(rows, dtype=np.int64))]


def _chunked(values: list[str]) -> pa.ChunkedArray:
    return pa.chunked_array([pa.array(values, pa.string())], pa.string())


def qrels_from_dict(qrels: Mapping, source: str = "<qrels>") -> Qrels:
    """Build :class:`Qrels` from ``{qid: {doc: grade}}`` (validated like :func:`metrics.evaluate`).

    >>> q = qrels_from_dict({"q1": {"a": 1}, "q2": {"b": 0, "c": 3}})
    >>> q.queries, q.grade.tolist()
    (['q1', 'q2'], [1, 0, 3])
    """
    if not isinstance(qrels, Mapping):
        raise TypeError(f"qrels must be a mapping qid -> {{doc: grade}}, got {type(qrels).__name__}")
    queries, codes, docs, grades = [], [], [], []
    for qid, raw in _check.query_ids(qrels, "qrels").items():   # 1 and "1" together: an error
        judged = qrels[raw]
        clean = _check.judgments(judged, f"qrels[{qid!r}]")
        codes += [len(queries)] * len(clean)
        queries.append(qid)  # a query with no judgments still exists
        docs += list(clean)
        grades += list(clean.values())
    codes = np.asarray(codes, dtype=np.int32)
    return Qrels(queries, codes, _chunked(docs), np.asarray(grades, dtype=np.int64), source)


def run_from_dict(run: Mapping, source: str = "<run>") -> Run:
    """Build a :class:`Run` from ``{qid: {doc: score}}`` or ``{qid: [doc, ...]}`` (best first).

    >>> r = run_from_dict({"q1": {"a": 0.5, "b": 2.0}, "q2": ["c"]})
    >>> r.queries, r.doc.to_pylist(), r.score.tolist()
    (['q1', 'q2'], ['a', 'b', 'c'], [0.5, 2.0, 0.0])
    """
    if not isinstance(run, Mapping):
        raise TypeError(f"run must be a mapping qid -> ranking, got {type(run).__name__}")
    qids, docs, scores = [], [], []
    queries = []
    for qid, raw in _check.query_ids(run, "run").items():
        ranking = run[raw]
        queries.append(qid)
        if isinstance(ranking, Mapping):
            for d, s in ranking.items():
                docs.append(_check.doc_id(d, f"run[{qid!r}]"))
                scores.append(_check.score_value(s, f"run[{qid!r}][{d!r}]"))
            if len(set(docs[len(qids):])) != len(ranking):
                _check.ranking(ranking, f"run[{qid!r}]")  # raises, naming the duplicate
        else:
            clean = _check.ranking(ranking, f"run[{qid!r}]", ties="input")
            docs += clean
            scores += [float(-i) for i in range(len(clean))]
        qids += [qid] * (len(docs) - len(qids))
    index = {q: i for i, q in enumerate(queries)}
    codes = np.fromiter((index[q] for q in qids), dtype=np.int32, count=len(qids))
    return Run(queries, codes, _chunked(docs), np.asarray(scores, dtype=np.float64), source)
