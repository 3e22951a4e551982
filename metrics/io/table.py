"""CSV and TSV files with a header row naming the columns.

Recognised names (case-insensitive; override with ``columns={"qid": ..., "doc": ...}``):

- query: ``qid``, ``query_id``, ``topic``, ``query``
- document: ``docid``, ``doc_id``, ``docno``, ``doc``, ``document``
- grade (qrels): ``grade``, ``relevance``, ``rel``, ``label``, ``judgment``
- score (runs): ``score``; without one, a ``rank`` column (1 = best), else the file order.
"""

from __future__ import annotations

import csv
import io
import math
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

from .._check import MAX_GRADE
from .arrays import as_numpy
from .model import FileFormatError, Problems, Qrels, Run, _chunked, _codes
from .trec import DICT, open_bytes

__all__ = ["read_table_qrels", "read_table_run", "NAMES"]

NAMES = {
    "qid": ("qid", "query_id", "topic", "query"),
    "doc": ("docid", "doc_id", "docno", "doc", "document"),
    "grade": ("grade", "relevance", "rel", "label", "judgment"),
    "score": ("score",),
    "rank": ("rank",),
}


def _header(path, delimiter: str) -> list[str]:
    head = open_bytes(path, 1 << 16).removeprefix(b"\xef\xbb\xbf").decode("utf-8", "replace")
    first = head.splitlines()[0] if head.strip() else ""
    return next(csv.reader([first], delimiter=delimiter), [])


def _pick(header: list[str], role: str, columns: dict | None, required: bool, source: str):
    if columns and role in columns:
        name = columns[role]
        if name not in header:
            raise FileFormatError(source, [(1, f"no column named {name!r} (columns: {', '.join(header)})")])
        return name
    lowered = {h.strip().lower(): h for h in header}
    for candidate in NAMES[role]:
        if candidate in lowered:
            return lowered[candidate]
    if required:
        raise FileFormatError(source, [(1, f"no {role} column: name one of {', '.join(NAMES[role])} in the "
                                           f"header (columns found: {', '.join(header) or 'none'})")])
    return None


def _read(path, kind: str, delimiter: str, columns: dict | None):
    source = str(path)
    header = _header(path, delimiter)
    if not header or not any(h.strip() for h in header):
        raise FileFormatError(source, [(None, "the file is empty")])
    qcol = _pick(header, "qid", columns, True, source)
    dcol = _pick(header, "doc", columns, True, source)
    if kind == "qrels":
        vcol, vtype, rank = _pick(header, "grade", columns, True, source), pa.int64(), False
    else:
        vcol = _pick(header, "score", columns, False, source)
        rank = vcol is None
        if rank:
            vcol = _pick(header, "rank", columns, False, source)
        vtype = pa.float64()
    names = [qcol, dcol] + ([vcol] if vcol else [])
    types = {qcol: DICT, dcol: pa.string(), **({vcol: vtype} if vcol else {})}
    try:
        table = pacsv.read_csv(
            str(path),
            parse_options=pacsv.ParseOptions(delimiter=delimiter),
            convert_options=pacsv.ConvertOptions(column_types=types, include_columns=names,
                                                 null_values=[], strings_can_be_null=False))
        table = table.unify_dictionaries()
        values = as_numpy(table.column(vcol)) if vcol else None
        if values is not None and kind == "qrels" and values.size and np.abs(values).max() > MAX_GRADE:
            raise ValueError
        if values is not None and kind == "run" and not np.isfinite(values).all():
            raise ValueError
        if table.num_rows == 0:
            raise FileFormatError(source, [(None, "no data rows after the header")])
        qc = table.column(qcol)
        queries = qc.chunk(0).dictionary.to_pylist()
        codes = as_numpy(qc).astype(np.int32)
        docs = table.column(dcol)
    except (pa.ArrowInvalid, ValueError, UnicodeDecodeError) as err:
        if isinstance(err, FileFormatError):
            raise
        queries, codes, docs, values = _slow(path, kind, delimiter, header, names, vcol)
    if kind == "run":
        if values is None:
            values = -np.arange(len(codes), dtype=np.float64)
        elif rank:
            values = -values
    return queries, codes, docs, values


def _slow(path, kind, delimiter, header, names, vcol):
    source = str(path)
    found = Problems(source)
    qids, docs, values = [], [], []
    index = [header.index(n) for n in names]
    try:
        text = open_bytes(path).decode("utf-8")
    except UnicodeDecodeError as err:
        data = open_bytes(path)
        line = data.count(b"\n", 0, err.start) + 1
        raise FileFormatError(source, [(line, "undecodable bytes (the file must be UTF-8)")]) from None
    reader = csv.reader(io.StringIO(text.removeprefix("\ufeff"), newline=""), delimiter=delimiter)
    next(reader, None)
    for row in reader:
        number = reader.line_num
        if not row or not any(cell.strip() for cell in row):
            continue
        reason = None
        if len(row) != len(header):
            reason = f"expected {len(header)} columns ({delimiter.join(header)}), found {len(row)}"
        else:
            q, d = row[index[0]], row[index[1]]
            v = row[index[2]] if vcol else None
            if not q or not d:
                reason = "empty query or document id"
            elif vcol and kind == "qrels":
                try:
                    v = int(v)
                    if abs(v) > MAX_GRADE:
                        reason = f"grade {v} is out of range"
                except ValueError:
                    reason = f"grade {v!r} is not an integer"
            elif vcol:
                try:
                    v = float(v)
                    if not math.isfinite(v):
                        reason = f"{vcol} {row[index[2]]!r} is not a finite number"
                except ValueError:
                    reason = f"{vcol} {v!r} is not a number"
        if reason:
            found.add(number, reason)
            continue
        qids.append(q)
        docs.append(d)
        values.append(v)
    found.raise_if_any()
    if not qids:
        raise FileFormatError(source, [(None, "no data rows after the header")])
    queries, codes = _codes(qids)
    out = None
    if vcol:
        out = np.array(values, dtype=np.int64 if kind == "qrels" else np.float64)
    return queries, codes, _chunked(docs), out


def read_table_qrels(path: str | Path, *, delimiter: str = ",", columns: dict | None = None) -> Qrels:
    """Read judgments from a CSV/TSV file with a header (see the module notes)."""
    queries, codes, docs, grades = _read(path, "qrels", delimiter, columns)
    return Qrels(queries, codes, docs, np.asarray(grades, dtype=np.int64), str(path))


def read_table_run(path: str | Path, *, delimiter: str = ",", columns: dict | None = None) -> Run:
    """Read a run from a CSV/TSV file with a header (see the module notes)."""
    queries, codes, docs, scores = _read(path, "run", delimiter, columns)
    return Run(queries, codes, docs, np.asarray(scores, dtype=np.float64), str(path))
