"""Documents retrieved twice for one query: an error by default, as in trec_eval."""

from __future__ import annotations

import numpy as np

from .keys import duplicate_groups, take
from .model import MAX_SHOWN, FileFormatError, Run, line_numbers

__all__ = ["DEDUP", "deduplicate", "duplicate_problems"]

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
    metrics.io.model.FileFormatError: run.txt: query q: document 'a' appears 2 times (rows 1 and 3); trec_eval refuses this — choose --dedup first|last|max to keep one
    """
    if how not in DEDUP:
        raise ValueError(f"dedup must be one of {', '.join(map(repr, DEDUP))}, got {how!r}")
    groups = duplicate_groups(run.query, run.doc, run.pair_keys())
    if not groups:
        return run
    if how == "error":
        problems = duplicate_problems(run, groups, "appears", "; trec_eval refuses this — choose "
                                                             "--dedup first|last|max to keep one")
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


def duplicate_problems(data, groups: list[np.ndarray], verb: str, hint: str = "") -> list[tuple[int | None, str]]:
    """``(line, reason)`` for each (query, document) pair found more than once.

    Names the file's lines when ``data`` was read from a file (see
    :func:`metrics.io.model.set_line_map`), else its rows (1-based).
    """
    groups = groups[:MAX_SHOWN]
    rows = np.concatenate([g[:3] for g in groups])
    lines = line_numbers(data, rows)
    where = dict(zip(rows.tolist(), lines if lines is not None else (rows + 1).tolist(), strict=True))
    word = data._cache.get("unit", "lines") if lines is not None else "rows"
    problems = []
    for g in groups:
        shown = " and ".join(str(where[int(r)]) for r in g[:3]) + (" ..." if len(g) > 3 else "")
        doc, query = data.doc[int(g[0])].as_py(), data.queries[data.query[g[0]]]
        problems.append((where[int(g[0])] if lines is not None else None,
                         f"query {_short(query)}: document {_short(doc)!r} {verb} {len(g)} times "
                         f"({word} {shown}){hint}"))
    return problems


def _short(text: str, limit: int = 60) -> str:
    """Ids can be megabytes long: a message shows their start."""
    return text if len(text) <= limit else text[:limit] + "..."
