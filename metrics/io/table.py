"""CSV and TSV files with a header row naming the columns.

Recognised names (case-insensitive; override with ``columns={"qid": ..., "doc": ...}``):

- query: ``qid``, ``query_id``, ``topic``, ``query``
- document: ``docid``, ``doc_id``, ``docno``, ``doc``, ``document``
- grade (qrels): ``grade``, ``relevance``, ``rel``, ``label``, ``judgment``
- score (runs): ``score``; without one, a ``rank`` column (1 = best), else the file order.

Line rules as in every reader (:mod:`metrics.io.source`): ``\\n``, ``\\r\\n`` or a lone
``\\r`` ends a line, a line whose first non-blank character is ``#`` is a comment, blank
lines are skipped; the header is the first other line. Cells are taken as written (a space
is part of an id); ids must not be empty. Grades and scores follow the TREC readers' number
syntax (:data:`metrics.io.trec.GRADE`, :data:`metrics.io.trec.SCORE`): ASCII decimal, no
surrounding blanks, scores finite.
"""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from .._check import MAX_GRADE
from .arrays import as_numpy
from .columns import Columns
from .model import FileFormatError, Problems, Qrels, Run, set_line_map
from .source import (
    InMemory,
    arrow_stream,
    blank_comments,
    check_size,
    has_irregular_layout,
    head_bytes,
    is_gz,
    iter_blocks,
    normalise_line_ends,
    read_bytes,
)
from .trec import DICT, GRADE, SCORE, _non_finite, data_line_numbers, grade_value

__all__ = ["read_table_qrels", "read_table_run", "NAMES"]

NAMES = {
    "qid": ("qid", "query_id", "topic", "query"),
    "doc": ("docid", "doc_id", "docno", "doc", "document"),
    "grade": ("grade", "relevance", "rel", "label", "judgment"),
    "score": ("score",),
    "rank": ("rank",),
}
_GRADE_TEXT = r"^[+-]?[0-9]+$"
_SCORE_TEXT = r"^[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$"


def _header(head: bytes, delimiter: str) -> tuple[list[str], int]:
    """The header's cells and its line number (the first line that is not blank or a comment)."""
    head = blank_comments(normalise_line_ends(head)).decode("utf-8", "replace")
    for number, line in enumerate(head.split("\n"), start=1):
        if line.strip():
            return next(csv.reader([line], delimiter=delimiter), []), number
    return [], 1


def _names(header: list[str], limit: int = 10) -> str:
    """The header's cells for a message: quoted when odd, shortened, at most ``limit``."""
    shown = [h if h.isprintable() and len(h) <= 30 and "," not in h else _short(h) for h in header[:limit]]
    return ", ".join(shown) + (f", ... ({len(header)} columns)" if len(header) > limit else "") or "none"


def _pick(header: list[str], role: str, columns: dict | None, required: bool, source: str, line: int):
    if columns and role in columns:
        name = columns[role]
        if name not in header:
            raise FileFormatError(source, [(line, f"no column named {name!r} (columns: {_names(header)})")])
        return name
    lowered = {}
    for h in header:
        lowered.setdefault(h.strip().lower(), h)
    for candidate in NAMES[role]:
        if candidate in lowered:
            return lowered[candidate]
    if required:
        raise FileFormatError(source, [(line, f"no {role} column: name one of {', '.join(NAMES[role])} in the "
                                              f"header (columns found: {_names(header)})")])
    return None


def _scan(blocks, delimiter: str, kind: str) -> tuple[bool, bool]:
    """(whether the bytes need the careful layout pass, whether pyarrow's own number parsing
    is exactly ours on them), in one pass of C-speed searches.

    pyarrow also takes blanks around a number and, for integers, ``0x10``: with neither a
    blank nor ``0x`` anywhere in the file the columns can be typed directly; otherwise they
    are read as text and checked with a regular expression.
    """
    sep = delimiter.encode()
    needles = [b" "] + ([b"\t"] if delimiter != "\t" else []) + ([b"0x", b"0X"] if kind == "qrels" else [])
    plain = True
    prev = b""
    first = True
    for block in blocks:
        if has_irregular_layout(block, delimiter=sep, first=first, last=False) or (
                prev and has_irregular_layout(prev + block[:1], delimiter=sep, first=False, last=False)):
            return True, False
        if plain and any(n in block or n in prev + block[:1] for n in needles):
            plain = False
        prev, first = block[-1:], False
    return False, plain


def _arrow(source, delimiter: str, names: list[str], vcol: str | None, kind: str, plain_numbers: bool):
    """pyarrow pass: (table, values) or None when anything needs the careful pass."""
    qcol, dcol = names[0], names[1]
    number = pa.int64() if kind == "qrels" else pa.float64()
    types = {qcol: DICT, dcol: pa.string(), **({vcol: number if plain_numbers else pa.string()} if vcol else {})}
    try:
        table = pacsv.read_csv(
            source,
            parse_options=pacsv.ParseOptions(delimiter=delimiter),
            convert_options=pacsv.ConvertOptions(column_types=types, include_columns=names,
                                                 null_values=[], strings_can_be_null=False))
        if table.num_rows == 0:
            return None
        table = table.unify_dictionaries()
        qc, docs = table.column(qcol), table.column(dcol)
        if "" in qc.chunk(0).dictionary.to_pylist() or pc.min(pc.binary_length(docs)).as_py() == 0:
            return None  # empty ids: the careful pass names the lines
        values = None
        if vcol:
            values = table.column(vcol)
            if not plain_numbers:
                pattern = _GRADE_TEXT if kind == "qrels" else _SCORE_TEXT
                if not pc.all(pc.match_substring_regex(values, pattern)).as_py():
                    return None
                values = pc.cast(values, number)
            values = as_numpy(values)
            if kind == "qrels" and values.size and np.abs(values).max() > MAX_GRADE:
                return None
            if kind == "run" and not np.isfinite(values).all():
                return None
    except (pa.ArrowException, UnicodeDecodeError, ValueError):
        return None
    return table.column(qcol), docs, values


def _read(path, kind: str, delimiter: str, columns: dict | None, max_bytes: int | None):
    source = str(path)
    gz = is_gz(path)
    # a .gz is decompressed whole first: a damaged or oversized one says so before anything else
    data = read_bytes(path, max_bytes) if gz else check_size(path, max_bytes)
    header, header_line = _header(data[: 1 << 16] if gz else head_bytes(path), delimiter)
    if not header or not any(h.strip() for h in header):
        read_bytes(path, max_bytes)  # a file too large or a corrupt .gz says so first
        raise FileFormatError(source, [(None, "the file is empty")])
    qcol = _pick(header, "qid", columns, True, source, header_line)
    dcol = _pick(header, "doc", columns, True, source, header_line)
    if kind == "qrels":
        vcol, rank = _pick(header, "grade", columns, True, source, header_line), False
    else:
        vcol = _pick(header, "score", columns, False, source, header_line)
        rank = vcol is None
        if rank:
            vcol = _pick(header, "rank", columns, False, source, header_line)
    names = [qcol, dcol] + ([vcol] if vcol else [])
    if len(set(names)) < len(names):
        raise FileFormatError(source, [(header_line, f"one column named for two roles: {_names(names)}")])
    got = None
    irregular, plain = _scan([data] if gz else iter_blocks(path, max_bytes, 1 << 18), delimiter, kind)
    if not irregular:
        with pa.BufferReader(data) if gz else arrow_stream(path) as stream:
            got = _arrow(stream, delimiter, names, vcol, kind, plain)
    if got is None:
        data = blank_comments(normalise_line_ends(data if gz else read_bytes(path, max_bytes)))
        got = _arrow(pa.BufferReader(data), delimiter, names, vcol, kind, _scan([data], delimiter, kind)[1])
    if got is not None:
        data = None
        qc, docs, values = got
        queries = qc.chunk(0).dictionary.to_pylist()
        codes = as_numpy(qc).astype(np.int32)
        lines = None
    else:
        queries, codes, docs, values, lines = _careful(data, source, kind, delimiter, header, names, vcol)
        data = None
    pa.default_memory_pool().release_unused()
    if kind == "run":
        if values is None:
            values = -np.arange(len(codes), dtype=np.float64)
        elif rank:
            values = -values
    if lines is not None:
        line_of = lines.__getitem__
    else:
        def line_of(rows):
            return data_line_numbers(path, rows, skip=1, max_bytes=max_bytes)
    return queries, codes, docs, values, line_of


def _careful(data: bytes, source: str, kind: str, delimiter: str, header: list[str], names, vcol):
    """Row by row (``data`` with ``\\n`` line ends and comments blanked), naming every problem."""
    found = Problems(source)
    index = [header.index(n) for n in names]
    out = Columns(None if not vcol else ("i" if kind == "qrels" else "d"))
    text = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8", newline="")
    reader = csv.reader(text, delimiter=delimiter)
    seen_header = False
    field_limit = csv.field_size_limit()
    csv.field_size_limit(max(field_limit, len(data)))  # pyarrow has no such limit
    try:
        for row in reader:
            number = reader.line_num
            if not row or not any(cell.strip() for cell in row):
                continue
            if not seen_header:
                seen_header = True
                continue
            reason = None
            v = None
            if len(row) != len(header):
                reason = f"expected {len(header)} columns ({_names(header)}), found {len(row)}"
            else:
                q, d = row[index[0]], row[index[1]]
                token = row[index[2]] if vcol else ""
                if not q or not d:
                    reason = f"empty {'query' if not q else 'document'} id"
                elif vcol and kind == "qrels":
                    if not GRADE.fullmatch(token.encode("utf-8", "replace")):
                        reason = f"{vcol} {_short(token)} is not an integer"
                    elif abs(v := grade_value(token)) > MAX_GRADE:
                        reason = f"{vcol} {_short(token)} is out of range (|grade| <= {MAX_GRADE})"
                elif vcol:
                    if not SCORE.fullmatch(token.encode("utf-8", "replace")):
                        finite = "finite " if _non_finite(token.encode("utf-8", "replace")) else ""
                        reason = f"{vcol} {_short(token)} is not a {finite}number"
                    elif not math.isfinite(v := float(token)):
                        reason = f"{vcol} {_short(token)} is not a finite number"
            if reason:
                found.add(number, reason)
            elif not found.total:
                out.add(q, d, v, number)
    except UnicodeDecodeError:
        for number, raw in enumerate(io.BytesIO(data), start=1):
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError as err:
                found.add(number, f"undecodable bytes at column {err.start + 1} (the file must be UTF-8)")
                break
    except csv.Error as err:
        found.add(reader.line_num or None, f"not valid CSV ({err})")
    finally:
        csv.field_size_limit(field_limit)
    found.raise_if_any()
    if not len(out):
        raise FileFormatError(source, [(None, "no data rows after the header")])
    queries, codes, docs, values, lines = out.finish()
    return queries, codes, docs, values, lines


def _short(text: str, limit: int = 30) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


def read_table_qrels(path: str | Path | InMemory, *, delimiter: str = ",", columns: dict | None = None,
                     max_bytes: int | None = None) -> Qrels:
    """Read judgments from a CSV/TSV file with a header (see the module notes)."""
    queries, codes, docs, grades, line_of = _read(path, "qrels", delimiter, columns, max_bytes)
    return set_line_map(Qrels(queries, codes, docs, np.asarray(grades, dtype=np.int64), str(path)), line_of)


def read_table_run(path: str | Path | InMemory, *, delimiter: str = ",", columns: dict | None = None,
                   max_bytes: int | None = None) -> Run:
    """Read a run from a CSV/TSV file with a header (see the module notes)."""
    queries, codes, docs, scores, line_of = _read(path, "run", delimiter, columns, max_bytes)
    return set_line_map(Run(queries, codes, docs, np.asarray(scores, dtype=np.float64), str(path)), line_of)
