"""Readers for qrels and runs in every format of the sources (docs/sources.md), into one in-memory form.

``read_qrels(path)`` and ``read_run(path)`` read a file; ``read_qrels(data, name=...)`` and
``read_run(data, name=...)`` read its bytes (an upload, pasted text) with the same rules and
limits, naming ``name`` in every message. Both pick the format from the file name (``.gz``
stripped first, and ``.bz2``, ``.zst``): ``.jsonl``/``.json`` → JSONL (the Azure AI Search README's), ``.csv``/``.tsv``
→ a table with a header, ``.parquet``/``.pq`` → Parquet, ``.arrow``/``.feather``/``.ipc``/``.arrows``
→ Arrow IPC (:mod:`metrics.io.columnar`), anything else → TREC whitespace columns (a run with two columns is a ranked list
``qid docid``, the IR course lab's). Every reader returns a :class:`Qrels` or :class:`Run`.

Every format follows the same line rules (:mod:`metrics.io.source`): ``\\n``, ``\\r\\n`` and a
lone ``\\r`` end a line; a line whose first non-blank character is ``#`` is a comment; a
file larger than ``max_bytes`` (plain or decompressed) is refused before it is parsed.

>>> import tempfile, pathlib
>>> folder = pathlib.Path(tempfile.mkdtemp())
>>> _ = (folder / "run.txt").write_text("q1 Q0 a 1 2.5 bm25\\nq1 Q0 b 2 2.5 bm25\\n")
>>> run = read_run(folder / "run.txt")
>>> run.queries, run.doc.to_pylist(), run.score.tolist(), run.tag
(['q1'], ['a', 'b'], [2.5, 2.5], 'bm25')
"""

from __future__ import annotations

import contextlib
import dataclasses
import tempfile
from pathlib import Path

from .columnar import COLUMNAR, read_columnar_qrels, read_columnar_run
from .dedup import DEDUP, deduplicate, duplicate_problems
from .jsonl import read_jsonl_qrels, read_jsonl_run
from .keys import doc_hashes, duplicate_groups, pair_keys
from .model import FileFormatError, Qrels, Run, qrels_from_dict, run_from_dict
from .prefs import read_prefs, read_qrels_prefs
from .source import (
    APP_MAX_BYTES,
    CLI_MAX_BYTES,
    FileTooLargeError,
    InMemory,
    parse_size,
    readable,
    strip_compression,
)
from .table import read_table_qrels, read_table_run
from .trec import read_trec_qrels, read_trec_run
from .trec_jg import read_qrels_jg

__all__ = ["Qrels", "Run", "FileFormatError", "qrels_from_dict", "run_from_dict", "read_qrels",
           "read_run", "detect_format", "FORMATS", "DEDUP", "deduplicate", "APP_MAX_BYTES", "CLI_MAX_BYTES",
           "parse_size", "read_qrels_jg", "read_prefs", "read_qrels_prefs"]

FORMATS = ("auto", "trec", "list", "jsonl", "csv", "tsv", "parquet", "arrow")


def detect_format(path: str | Path | InMemory) -> str:
    """The format implied by a file name.

    >>> detect_format("qrels.txt"), detect_format("gt.jsonl.gz"), detect_format("run.TSV")
    ('trec', 'jsonl', 'tsv')
    >>> detect_format("run.parquet"), detect_format("qrels.arrow")
    ('parquet', 'arrow')
    """
    name = strip_compression(Path(str(path)).name.lower())
    suffix = Path(name).suffix
    if suffix in COLUMNAR:
        return COLUMNAR[suffix]
    return {".jsonl": "jsonl", ".json": "jsonl", ".ndjson": "jsonl", ".csv": "csv", ".tsv": "tsv"}.get(suffix, "trec")


def _checked(source, name: str | None) -> Path | InMemory:
    """A path that exists and is not a folder, or bytes with their name."""
    path = readable(source, name)
    if isinstance(path, InMemory):
        return path
    if not path.exists():
        raise FileNotFoundError(2, "No such file or directory", str(path))
    if path.is_dir():
        raise IsADirectoryError(21, "Is a directory", str(path))
    return path


@contextlib.contextmanager
def _as_file(path: Path | InMemory, max_bytes: int | None):
    """Bytes or a regular file as they are; a pipe or a device (``ranklab evaluate <(zcat qrels.gz) ...``)
    copied once to a temporary file, up to ``max_bytes``, since the readers read a file more
    than once. Messages and the result name the original path."""
    if isinstance(path, InMemory) or path.is_file():
        yield path
        return
    with tempfile.TemporaryDirectory(prefix="ranklab-") as folder:
        copy = Path(folder) / path.name
        with open(path, "rb") as source, open(copy, "wb") as out:
            total = 0
            while block := source.read(1 << 20):
                total += len(block)
                if max_bytes is not None and total > max_bytes:
                    raise FileTooLargeError(str(path), max_bytes, False)
                out.write(block)
        try:
            yield copy
        except FileTooLargeError as err:
            raise FileTooLargeError(str(path), err.limit, err.compressed) from None
        except FileFormatError as err:
            raise FileFormatError(str(path), err.problems, err.total) from None


def _named(data, path: Path | InMemory):
    return data if data.source == str(path) else dataclasses.replace(data, source=str(path))


def read_qrels(source: str | Path | bytes, *, name: str | None = None, format: str = "auto",
               max_bytes: int | None = None, **options) -> Qrels:
    """Read judgments; ``options`` go to the JSONL/CSV reader (``id_fields``, ``columns`` ...).

    ``source`` is a path, or the file's bytes with its ``name``: the name shown in every
    message, whose suffix gives the format and ``.gz``, as a path's would.
    ``max_bytes``: a file larger than this, plain or once decompressed, is a
    :class:`FileFormatError` before it is parsed (None: no limit; the app passes
    :data:`APP_MAX_BYTES`).

    >>> read_qrels(b"q1 0 d1 1\\nq1 0 d2 0\\n", name="pasted qrels").to_dict()
    {'q1': {'d1': 1, 'd2': 0}}
    >>> read_qrels(b"q1 0 d1 1\\nq1 0 d2 yes\\n", name="pasted qrels")
    Traceback (most recent call last):
    ...
    metrics.io.model.FileFormatError: pasted qrels:2: grade 'yes' is not an integer
    """
    path = _checked(source, name)
    fmt = detect_format(path) if format == "auto" else format
    if fmt not in ("jsonl", "csv", "tsv", "trec", "parquet", "arrow"):
        raise ValueError("qrels format must be one of 'auto', 'trec', 'jsonl', 'csv', 'tsv', 'parquet', 'arrow', "
                         f"got {format!r}")
    with _as_file(path, max_bytes) as readable:
        if fmt in ("parquet", "arrow"):
            qrels = read_columnar_qrels(readable, format=fmt, max_bytes=max_bytes, **options)
        elif fmt == "jsonl":
            qrels = read_jsonl_qrels(readable, max_bytes=max_bytes, **options)
        elif fmt in ("csv", "tsv"):
            qrels = read_table_qrels(readable, delimiter="," if fmt == "csv" else "\t", max_bytes=max_bytes, **options)
        else:
            qrels = read_trec_qrels(readable, max_bytes=max_bytes)
        qrels = _named(qrels, path)
        _no_double_judgments(qrels)
    return qrels


def _no_double_judgments(qrels: Qrels) -> None:
    """A document judged twice for one query: an error naming the lines."""
    hashes = doc_hashes(qrels.doc)
    groups = duplicate_groups(qrels.query, qrels.doc, pair_keys(qrels.query, hashes))
    if groups:
        raise FileFormatError(qrels.source, duplicate_problems(qrels, groups, "is judged"), len(groups))
    # kept for the evaluation: it need not hash the ids again nor check for doubles (8 bytes a judgment)
    qrels._cache["doc_hashes"] = hashes
    qrels._cache["unique"] = True


def read_run(source: str | Path | bytes, *, name: str | None = None, format: str = "auto",
             dedup: str | None = "error", max_bytes: int | None = None, **options) -> Run:
    """Read a run and resolve documents retrieved twice for a query (``dedup``, see
    :func:`metrics.io.dedup.deduplicate`; None keeps every line, for ``ranklab diagnose``,
    which tries each way of resolving them); ``source``, ``name`` and ``max_bytes`` as in
    :func:`read_qrels`.

    >>> run = read_run(b"q1 d2\\nq1 d1\\n", name="my list.txt")  # two columns: a ranked list
    >>> run.doc.to_pylist(), run.source
    (['d2', 'd1'], 'my list.txt')
    """
    path = _checked(source, name)
    fmt = detect_format(path) if format == "auto" else format
    if fmt not in FORMATS[1:]:
        raise ValueError(f"run format must be one of {', '.join(map(repr, FORMATS))}, got {format!r}")
    with _as_file(path, max_bytes) as readable:
        if fmt in ("parquet", "arrow"):
            run = read_columnar_run(readable, format=fmt, max_bytes=max_bytes, **options)
        elif fmt == "jsonl":
            run = read_jsonl_run(readable, max_bytes=max_bytes, **options)
        elif fmt in ("csv", "tsv"):
            run = read_table_run(readable, delimiter="," if fmt == "csv" else "\t", max_bytes=max_bytes, **options)
        else:
            kind = "auto" if format == "auto" else ("run" if fmt == "trec" else "list")
            run = read_trec_run(readable, kind=kind, max_bytes=max_bytes)
        run = _named(run, path)
        return run if dedup is None else deduplicate(run, dedup)
