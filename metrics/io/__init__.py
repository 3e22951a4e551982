"""Readers for qrels and runs in every format of the seeds, into one in-memory form.

``read_qrels(path)`` and ``read_run(path)`` pick the format from the file name (``.gz``
stripped first): ``.jsonl``/``.json`` → JSONL (seed 003), ``.csv``/``.tsv`` → a table with
a header, anything else → TREC whitespace columns (a run with two columns is a ranked list
``qid docid``, seed 002). Every reader returns a :class:`Qrels` or :class:`Run`.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "run.txt").write_text("q1 Q0 a 1 2.5 bm25\\nq1 Q0 b 2 2.5 bm25\\n")
>>> run = read_run(folder / "run.txt")
>>> run.queries, run.doc.to_pylist(), run.score.tolist(), run.tag
(['q1'], ['a', 'b'], [2.5, 2.5], 'bm25')
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .dedup import DEDUP, deduplicate
from .jsonl import read_jsonl_qrels, read_jsonl_run
from .keys import doc_hashes, duplicate_groups, pair_keys
from .model import FileFormatError, Qrels, Run, qrels_from_dict, run_from_dict
from .table import read_table_qrels, read_table_run
from .trec import data_line_numbers, read_trec_qrels, read_trec_run

__all__ = ["Qrels", "Run", "FileFormatError", "qrels_from_dict", "run_from_dict", "read_qrels",
           "read_run", "detect_format", "FORMATS", "DEDUP", "deduplicate"]

FORMATS = ("auto", "trec", "list", "jsonl", "csv", "tsv")


def detect_format(path: str | Path) -> str:
    """The format implied by a file name.

    >>> detect_format("qrels.txt"), detect_format("gt.jsonl.gz"), detect_format("run.TSV")
    ('trec', 'jsonl', 'tsv')
    """
    name = Path(path).name.lower().removesuffix(".gz")
    suffix = Path(name).suffix
    return {".jsonl": "jsonl", ".json": "jsonl", ".ndjson": "jsonl", ".csv": "csv", ".tsv": "tsv"}.get(suffix, "trec")


def _check_path(path) -> Path:
    path = Path(path)
    if not path.exists():
        raise FileNotFoundError(2, "No such file or directory", str(path))
    if path.is_dir():
        raise IsADirectoryError(21, "Is a directory", str(path))
    return path


def read_qrels(path: str | Path, *, format: str = "auto", **options) -> Qrels:
    """Read judgments; ``options`` go to the JSONL/CSV reader (``id_fields``, ``columns`` ...)."""
    path = _check_path(path)
    fmt = detect_format(path) if format == "auto" else format
    if fmt == "jsonl":
        qrels = read_jsonl_qrels(path, **options)
    elif fmt in ("csv", "tsv"):
        qrels = read_table_qrels(path, delimiter="," if fmt == "csv" else "\t", **options)
    elif fmt == "trec":
        qrels = read_trec_qrels(path)
    else:
        raise ValueError(f"qrels format must be one of 'auto', 'trec', 'jsonl', 'csv', 'tsv', got {format!r}")
    _no_double_judgments(qrels, path, with_lines=fmt == "trec")
    return qrels


def _no_double_judgments(qrels: Qrels, path, *, with_lines: bool) -> None:
    """A document judged twice for one query: an error naming the lines."""
    groups = duplicate_groups(qrels.query, qrels.doc, pair_keys(qrels.query, doc_hashes(qrels.doc), inplace=True))
    if not groups:
        return
    rows = np.concatenate([g[:3] for g in groups[:20]])
    lines = dict(zip(rows.tolist(), data_line_numbers(path, rows).tolist(), strict=True)) if with_lines else {}
    problems = []
    for g in groups[:20]:
        shown = " and ".join(str(lines[int(r)]) for r in g[:3]) + (" ..." if len(g) > 3 else "")
        problems.append((lines.get(int(g[0])), f"query {qrels.queries[qrels.query[g[0]]]}: document "
                                               f"{qrels.doc[int(g[0])].as_py()!r} is judged {len(g)} times"
                                               + (f" (lines {shown})" if with_lines else "")))
    raise FileFormatError(str(path), problems, len(groups))


def read_run(path: str | Path, *, format: str = "auto", dedup: str = "error", **options) -> Run:
    """Read a run and resolve documents retrieved twice for a query (``dedup``, see
    :func:`metrics.io.dedup.deduplicate`)."""
    path = _check_path(path)
    fmt = detect_format(path) if format == "auto" else format
    if fmt == "jsonl":
        run = read_jsonl_run(path, **options)
    elif fmt in ("csv", "tsv"):
        run = read_table_run(path, delimiter="," if fmt == "csv" else "\t", **options)
    elif fmt in ("trec", "list"):
        kind = "auto" if format == "auto" else ("run" if fmt == "trec" else "list")
        run = read_trec_run(path, kind=kind)
    else:
        raise ValueError(f"run format must be one of {', '.join(map(repr, FORMATS))}, got {format!r}")
    try:
        return deduplicate(run, dedup)
    except FileFormatError as err:
        if fmt not in ("trec", "list"):
            raise
        # name the lines, not the rows
        groups = duplicate_groups(run.query, run.doc, run.pair_keys())[:20]
        rows = np.concatenate([g[:3] for g in groups])
        lines = dict(zip(rows.tolist(), data_line_numbers(path, rows).tolist(), strict=True))
        problems = []
        for g in groups:
            shown = " and ".join(str(lines[int(r)]) for r in g[:3]) + (" ..." if len(g) > 3 else "")
            problems.append((lines[int(g[0])], f"query {run.queries[run.query[g[0]]]}: document "
                                               f"{run.doc[int(g[0])].as_py()!r} appears {len(g)} times "
                                               f"(lines {shown}); trec_eval refuses this — choose "
                                               f"--dedup first|last|max to keep one"))
        raise FileFormatError(err.source, problems, err.total) from None
