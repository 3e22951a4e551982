"""Whitespace-separated TREC files: qrels, runs, and two-column result lists.

Three passes, each used only when the previous one fails:

1. pyarrow's multithreaded CSV reader straight on the file (space-delimited, columns typed
   up front). Comment lines (``#``) with the wrong column count are skipped.
2. The bytes normalised with C-speed regular expressions (byte-order mark, CRLF, tabs and
   runs of spaces, comment lines, extra trailing columns), then pyarrow again.
3. A line-by-line diagnostic pass that reports every malformed line as ``file:line: reason``
   (the first 20, then a count) — or, if the file is valid after all, builds the columns.
"""

from __future__ import annotations

import gzip
import math
import re
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pacsv

from .._check import MAX_GRADE
from .arrays import as_numpy, binary_as_text
from .model import FileFormatError, Problems, Qrels, Run, _chunked, _codes

__all__ = ["read_trec_qrels", "read_trec_run", "sniff_columns"]

DICT = pa.dictionary(pa.int32(), pa.string())
BLOCK = 1 << 24

# kind -> (column indices used, their types, minimum columns, exact column count or None)
LAYOUTS = {
    "qrels": ((0, 2, 3), (DICT, pa.binary(), pa.int64()), 4, 4),
    "run": ((0, 2, 4), (DICT, pa.binary(), pa.float64()), 6, None),
    "list": ((0, 1), (DICT, pa.binary()), 2, 2),
}
EXPECTED = {
    "qrels": "4 columns (qid iter docid grade)",
    "run": "6 columns (qid Q0 docid rank score tag)",
    "list": "2 columns (qid docid)",
}


def open_bytes(path: str | Path, limit: int | None = None) -> bytes:
    """The file's bytes (gunzipped when the name ends in .gz)."""
    path = Path(path)
    opener = gzip.open if path.name.endswith(".gz") else open
    with opener(path, "rb") as f:
        try:
            return f.read() if limit is None else f.read(limit)
        except (OSError, EOFError) as err:  # a corrupt .gz
            raise FileFormatError(str(path), [(None, f"cannot decompress: {err}")]) from None


def sniff_columns(path: str | Path) -> tuple[int, bool]:
    """(columns on the first data line, whether the separators are single spaces).

    Returns (0, True) for a file without data lines in its first 64 KiB.
    """
    head = open_bytes(path, 1 << 16)
    lines = head.split(b"\n")
    if len(lines) > 1:
        lines = lines[:-1]  # the last one may be cut
    for raw in lines:
        line = raw.removeprefix(b"\xef\xbb\xbf").rstrip(b"\r")
        if not line.strip() or line.lstrip().startswith(b"#"):
            continue
        simple = b"\t" not in line and b"  " not in line and not line.startswith(b" ") and not line.endswith(b" ")
        return len(line.split()), simple and not raw.endswith(b"\r")
    return 0, True


def _arrow_read(source, kind: str, ncols: int):
    """pyarrow pass; returns the table or None when any row is not well formed."""
    used, types, _, _ = LAYOUTS[kind]
    names = [f"f{i}" for i in used]
    bad = []

    def on_invalid(row):
        if not row.text.strip() or row.text.lstrip().startswith("#"):
            return "skip"
        bad.append(row.text)
        return "skip"

    try:
        table = pacsv.read_csv(
            source,
            read_options=pacsv.ReadOptions(column_names=[f"f{i}" for i in range(ncols)], block_size=BLOCK),
            parse_options=pacsv.ParseOptions(delimiter=" ", quote_char=False, double_quote=False,
                                             escape_char=False, invalid_row_handler=on_invalid),
            convert_options=pacsv.ConvertOptions(
                column_types=dict(zip(names, types, strict=True)), include_columns=names,
                null_values=[], strings_can_be_null=False, quoted_strings_can_be_null=False),
        )
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, UnicodeDecodeError):
        return None
    if bad or table.num_rows == 0:
        return None
    table = table.unify_dictionaries()
    if kind == "run":
        score = as_numpy(table.column("f4"))
        if not np.isfinite(score).all():
            return None
    if kind == "qrels":
        grade = as_numpy(table.column("f3"))
        if grade.size and np.abs(grade).max() > MAX_GRADE:
            return None
    return table


_WS = re.compile(rb"[ \t\f\v\r]+")
_EDGE = re.compile(rb"(?m)^ | $")
_COMMENT = re.compile(rb"(?m)^#[^\n]*\n?")
_BLANK = re.compile(rb"\n\n+")


def _normalised(data: bytes, kind: str, ncols: int) -> bytes:
    data = data.removeprefix(b"\xef\xbb\xbf")
    data = _WS.sub(b" ", data)
    data = _EDGE.sub(b"", data)
    data = _COMMENT.sub(b"", data)
    data = _BLANK.sub(b"\n", data).lstrip(b"\n")
    if kind == "run":  # keep the first six columns
        data = re.sub(rb"(?m)^((?:[^ \n]+ ){5}[^ \n]+) [^\n]*$", rb"\1", data)
    return data


def _diagnose(data: bytes, source: str, kind: str):
    """Line by line: the columns of a valid file, or every problem with its line number."""
    used, _, least, exact = LAYOUTS[kind]
    found = Problems(source)
    cols: list[list] = [[] for _ in used]
    tag = None
    if not data.strip():
        raise FileFormatError(source, [(None, "the file is empty")])
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if number == 1:
            raw = raw.removeprefix(b"\xef\xbb\xbf")
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as err:
            found.add(number, f"undecodable bytes at column {err.start + 1} (the file must be UTF-8)")
            continue
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        parts = stripped.split()
        reason = None
        if len(parts) < least or (exact is not None and len(parts) != exact):
            reason = f"expected {EXPECTED[kind]}, found {len(parts)}"
        else:
            values = [parts[i] for i in used]
            if kind == "run":
                try:
                    values[2] = float(values[2])
                    if not math.isfinite(values[2]):
                        reason = f"score {parts[4]!r} is not a finite number"
                except ValueError:
                    reason = f"score {_short(parts[4])} is not a number"
                if tag is None and len(parts) > 5:
                    tag = parts[5]
            elif kind == "qrels":
                try:
                    values[2] = int(values[2])
                    if abs(values[2]) > MAX_GRADE:
                        reason = f"grade {parts[3]} is out of range (|grade| <= {MAX_GRADE})"
                except ValueError:
                    reason = f"grade {_short(parts[3])} is not an integer"
        if reason:
            found.add(number, reason)
            continue
        for c, v in zip(cols, values, strict=True):
            c.append(v)
    found.raise_if_any()
    if not cols[0]:
        raise FileFormatError(source, [(None, "no data lines (only comments or blank lines)")])
    return cols, tag


def _short(text: str, limit: int = 30) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


def _read(path, kind: str):
    """(queries, codes, docs, values, tag) for one file."""
    source = str(path)
    ncols, simple = sniff_columns(path)
    _, _, least, exact = LAYOUTS[kind]
    fits = ncols >= least and (exact is None or ncols == exact)
    table = None
    if fits and simple:
        table = _arrow_read(str(path), kind, ncols)
    if table is None and fits:
        data = _normalised(open_bytes(path), kind, ncols)
        table = _arrow_read(pa.BufferReader(data), kind, min(ncols, 6) if kind == "run" else ncols)
    if table is None:
        cols, tag = _diagnose(open_bytes(path), source, kind)
        queries, codes = _codes(cols[0])
        values = cols[2] if len(cols) > 2 else None
        return queries, codes, _chunked(cols[1]), values, tag
    qcol = table.column(0)
    queries = qcol.chunk(0).dictionary.to_pylist() if qcol.num_chunks else []
    codes = as_numpy(qcol).astype(np.int32, copy=False)
    values = as_numpy(table.column(2)) if table.num_columns > 2 else None
    docs = binary_as_text(table.column(1))  # document ids parsed as bytes: validated here
    if docs is None:
        cols, tag = _diagnose(open_bytes(path), source, kind)  # names the undecodable line
        raise FileFormatError(source, [(None, "undecodable bytes (the file must be UTF-8)")])
    del table
    pa.default_memory_pool().release_unused()  # give the parser's buffers back before the next step
    tag = None
    if kind == "run":
        first = _first_data_line(path).split()
        tag = first[5] if len(first) > 5 else None
    return queries, codes, docs, values, tag


def _first_data_line(path) -> str:
    for raw in open_bytes(path, 1 << 16).split(b"\n"):
        line = raw.removeprefix(b"\xef\xbb\xbf").decode("utf-8", "replace").strip()
        if line and not line.startswith("#"):
            return line
    return ""


def read_trec_qrels(path: str | Path) -> Qrels:
    """Read ``qid iter docid grade`` lines (any whitespace, ``#`` comments, negative grades).

    A document judged twice for the same query is an error naming both lines.
    """
    queries, codes, docs, grades, _ = _read(path, "qrels")
    return Qrels(queries, codes, docs, np.asarray(grades, dtype=np.int64), str(path))


def read_trec_run(path: str | Path, *, kind: str = "auto") -> Run:
    """Read a TREC run (``qid Q0 docid rank score tag``) or a two-column list (``qid docid``).

    ``kind`` is ``"run"``, ``"list"`` or ``"auto"`` (two columns on the first data line make
    a list, whose file order is the ranking).
    """
    if kind == "auto":
        ncols, _ = sniff_columns(path)
        kind = "list" if ncols == 2 else "run"
    queries, codes, docs, scores, tag = _read(path, kind)
    if kind == "list":
        scores = -np.arange(len(codes), dtype=np.float64)  # file order is rank order
    return Run(queries, codes, docs, np.asarray(scores, dtype=np.float64), str(path), tag)


def data_line_numbers(path: str | Path, rows: np.ndarray) -> np.ndarray:
    """1-based line numbers of the given data rows (comment and blank lines skipped).

    Used only to name lines in error messages, so it may read the whole file.
    """
    data = np.frombuffer(open_bytes(path), dtype=np.uint8)
    starts = np.r_[0, np.flatnonzero(data == 10) + 1]
    starts = starts[starts < data.size]
    first = data[starts]
    ends = np.r_[starts[1:] - 1, data.size]
    is_data = (first != ord("#")) & (ends > starts) & (first != 13)
    return np.flatnonzero(is_data)[rows] + 1
