"""Documents retrieved twice for one query: an error by default, as in trec_eval."""

from __future__ import annotations

import numpy as np

from .keys import duplicate_groups, take
from .model import FileFormatError, Run

__all__ = ["DEDUP", "deduplicate"]

DEDUP = ("error", "first", "last", "max")


def deduplicate(run: Run, how: str = "error") -> Run:
    """Check a run for (query, document) pairs that occur twice and resolve them.

    ``how``: ``"error"`` (trec_eval: refuse the run), ``"first"``/``"last"`` (keep the line
    that comes first/last in the file) or ``"max"`` (keep the highest score; the first
    such line on a tie).

    >>> import pyarrow as pa
    >>> from metrics.io import run_from_dict
    >>> r = run_from_dict({"q": {"a": 1.0, "b": 2.0}})
    >>> r = Run(r.queries, np.array([0, 0, 0], np.int32), pa.chunked_array([["a", "b", "a"]]),
    ...         np.array([1.0, 2.0, 3.0]), "run.txt")
    >>> deduplicate(r, "max").score.tolist()
    [2.0, 3.0]
    >>> deduplicate(r)
    Traceback (most recent call last):
    ...
    metrics.io.model.FileFormatError: run.txt: query q: document 'a' appears 2 times (rows 1 and 3); choose --dedup first|last|max to keep one
    """
    if how not in DEDUP:
        raise ValueError(f"dedup must be one of {', '.join(map(repr, DEDUP))}, got {how!r}")
    groups = duplicate_groups(run.query, run.doc, run.pair_keys())
    if not groups:
        return run
    if how == "error":
        problems = []
        for g in groups[:20]:
            doc = run.doc[int(g[0])].as_py()
            rows = " and ".join(str(int(r) + 1) for r in g[:3]) + (" ..." if len(g) > 3 else "")
            problems.append((None, f"query {run.queries[run.query[g[0]]]}: document {doc!r} appears "
                                   f"{len(g)} times (rows {rows}); choose --dedup first|last|max to keep one"))
        raise FileFormatError(run.source, problems, len(groups))
    drop = []
    for g in groups:
        if how == "first":
            keep = g[0]
        elif how == "last":
            keep = g[-1]
        else:
            keep = g[int(np.argmax(run.score[g]))]
        drop.extend(int(r) for r in g if r != keep)
    mask = np.ones(len(run), dtype=bool)
    mask[drop] = False
    return Run(run.queries, run.query[mask], take(run.doc, np.flatnonzero(mask)), run.score[mask], run.source, run.tag)
