"""Whitespace-separated TREC files: qrels, runs, and two-column result lists.

Line rules (shared by every reader, see :mod:`metrics.io.source`): lines end at ``\\n``,
``\\r\\n`` or a lone ``\\r``; columns are separated by any run of spaces, tabs, form feeds
or vertical tabs; a line whose first non-blank character is ``#`` is a comment (whole-line
comments only, trec_eval 10.0's rule); blank lines are skipped. Grades are ASCII decimal
integers (``[+-]?[0-9]+``: no ``0x10``, ``1_0`` or non-ASCII digits); scores are ASCII
decimal numbers with an optional exponent (``2``, ``-0.5``, ``.5``, ``1e-3``); ``inf`` and
``nan`` are refused as not finite.

Four passes, each used only when the previous one cannot be trusted:

0. The strict pass: pyarrow's multithreaded CSV reader straight on the bytes, every column
   parsed (single-space delimited, typed up front, the query id as bytes), when a ``memchr``
   scan finds no tab, CR, form feed or vertical tab in the file and it does not start with a
   byte-order mark. It is trusted only if every row has exactly the first data line's
   columns, no field is empty (an empty field is what two spaces in a row, or a space at
   either end of a line, make), no query id starts with ``#`` (a comment) and every query id
   is UTF-8: a file that passes reads exactly as the normalising pass 2 would read it.
   Anything else, and the passes below run as if this one had not. A large file goes a
   block of 4–16 MB (cut after a line feed) at a time, two blocks parsed at once, keeping
   only the columns used; a block that starts with a byte-order mark (which pyarrow would
   drop) sends the file to the passes below.
1. pyarrow's CSV reader on the bytes as they are — only when a C-speed scan of the bytes
   shows none of: tab, CR, form feed, two spaces in a row, a line starting with a space or
   ``#``, a trailing space, a byte-order mark.
2. Otherwise the bytes normalised with C-speed regular expressions, keeping every line in
   its place (comment lines emptied, blanks collapsed, extra run columns dropped), then
   pyarrow again.
3. If pyarrow still refuses, a line-by-line pass validates every line and reports each
   malformed one as ``file:line: reason`` (the first 20, then a count); a valid file is
   written back as clean ``qid doc value`` lines for pyarrow, so memory stays a small
   multiple of the file's size.
"""

from __future__ import annotations

import io
import math
import re
from collections import deque
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.csv as pacsv

from .._check import MAX_GRADE
from .arrays import as_numpy, binary_as_text, index_array
from .model import FileFormatError, Problems, Qrels, Run, set_line_map
from .source import (
    BOM,
    InMemory,
    arrow_stream,
    blank_comments,
    by_chunks,
    check_size,
    file_has_irregular_layout,
    has_irregular_layout,
    head_bytes,
    is_gz,
    iter_blocks,
    nonempty_lines,
    normalise_line_ends,
    raw_size,
    read_bytes,
)

__all__ = ["read_trec_qrels", "read_trec_run", "sniff_columns", "data_line_numbers", "GRADE", "SCORE"]

DICT = pa.dictionary(pa.int32(), pa.string())
PARSE_BLOCK = 1 << 22  # bytes per pyarrow parsing task: stays in the CPU cache, and spreads over the threads

# the number syntax of every reader: ASCII only, no underscores, no hexadecimal
GRADE = re.compile(rb"[+-]?[0-9]+")
SCORE = re.compile(rb"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")

# kind -> (column indices used, minimum columns, exact column count or None)
LAYOUTS = {
    "qrels": ((0, 2, 3), 4, 4),
    "run": ((0, 2, 4), 6, None),
    "list": ((0, 1), 2, 2),
}
VALUE_TYPE = {"qrels": pa.string(), "run": pa.float64()}  # grades are checked as text first
EXPECTED = {
    "qrels": "4 columns (qid iter docid grade)",
    "run": "6 columns (qid Q0 docid rank score tag)",
    "list": "2 columns (qid docid)",
}


def _first_data_line(head: bytes) -> list[bytes]:
    """The columns of the first data line in the first bytes of a file ([] if none)."""
    lines = normalise_line_ends(head).split(b"\n")
    if len(lines) > 1 and len(head) >= 1 << 16:
        lines = lines[:-1]  # the last one may be cut
    for line in lines:
        parts = line.split()
        if parts and not parts[0].startswith(b"#"):
            return parts
    return []


def sniff_columns(path: str | Path | InMemory) -> tuple[int, bool]:
    """(columns on the first data line, whether the file's start is laid out simply).

    Returns (0, True) for a file without data lines in its first 64 KiB.
    """
    head = head_bytes(path)
    return len(_first_data_line(head)), not has_irregular_layout(head, last=False)


def _arrow_read(source, types: dict[int, pa.DataType], ncols: int):
    """pyarrow pass on single-space separated lines; None when any row is not well formed."""
    table = _arrow_table(source, types, ncols)
    if table is None:
        pa.default_memory_pool().release_unused()  # before the next, slower pass
    return table


def _arrow_table(source, types: dict[int, pa.DataType], ncols: int):
    names = [f"f{i}" for i in types]
    table = _parse_csv(source, {f"f{i}": t for i, t in types.items()}, names, ncols)
    if table is None or table.num_rows == 0:
        return None
    table = table.unify_dictionaries()
    if table.num_columns > 2:
        values = _checked_values(table.column(2))
        if values is None:
            return None
        table = table.set_column(2, "f2", values)
    return table


def _parse_csv(source, types: dict[str, pa.DataType], names: list[str], ncols: int, threads: bool = True):
    """pyarrow's CSV reader on single-space separated lines of ``ncols`` columns; None if it refuses."""
    try:
        return pacsv.read_csv(
            source,
            read_options=pacsv.ReadOptions(column_names=[f"f{i}" for i in range(ncols)],
                                           block_size=PARSE_BLOCK, use_threads=threads),
            parse_options=pacsv.ParseOptions(delimiter=" ", quote_char=False, double_quote=False,
                                             escape_char=False),
            convert_options=pacsv.ConvertOptions(
                column_types=types, include_columns=names,
                null_values=[], strings_can_be_null=False, quoted_strings_can_be_null=False),
        )
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowKeyError, pa.ArrowIndexError,
            UnicodeDecodeError):
        return None


def _checked_values(values: pa.ChunkedArray) -> pa.ChunkedArray | None:
    """Grades (parsed as text) as integers, scores as they are; None if any breaks the number rules."""
    if pa.types.is_string(values.type):  # grades: ASCII decimal only (pyarrow takes 0x10)
        if not all(_integer_text(chunk) for chunk in values.chunks):
            return None
        small = [_small_integers(chunk) for chunk in values.chunks]
        if all(v is not None for v in small):
            values = pa.chunked_array([index_array(v) for v in small], pa.int64())  # (pa.array imports pandas)
        else:
            try:
                values = pc.cast(values, pa.int64())
            except pa.ArrowInvalid:
                return None
        grade = as_numpy(values)
        if grade.size and np.abs(grade).max() > MAX_GRADE:
            return None
        return values
    return values if np.isfinite(as_numpy(values)).all() else None


def _integer_text(values: pa.Array) -> bool:
    """Whether every string matches ``[+-]?[0-9]+`` (vectorised over the bytes: no regex per value).

    >>> _integer_text(pa.array(["1", "-2", "+30", "007"])), _integer_text(pa.array(["1", "2-"]))
    (True, False)
    >>> [_integer_text(pa.array([t])) for t in ["", "-", "0x1", " 1", "+-1", "١"]]
    [False, False, False, False, False, False]
    """
    n = len(values)
    if n == 0:
        return True
    offsets = np.frombuffer(values.buffers()[1], dtype=np.int32, count=n + 1, offset=values.offset * 4)
    data = values.buffers()[2]
    text = np.frombuffer(data, dtype=np.uint8)[offsets[0]:offsets[-1]] if data is not None else np.zeros(0, np.uint8)
    starts = offsets[:-1] - offsets[0]
    lengths = np.diff(offsets)
    if not lengths.all():
        return False  # an empty value
    digit = (text - np.uint8(48)) < 10
    if digit.all():
        return True
    other = np.flatnonzero(~digit)  # must be one sign, first of a value with digits after it
    sign = (text[other] == 43) | (text[other] == 45)
    at = np.searchsorted(starts, other, side="right") - 1
    return bool(sign.all() and (starts[at] == other).all() and (lengths[at] > 1).all())


_POWERS = 10 ** np.arange(11, dtype=np.int64)


def _small_integers(values: pa.Array) -> np.ndarray | None:
    """The integers of strings that passed :func:`_integer_text`, computed over the bytes
    (no parse per value); None when one has more than 9 digits (pyarrow's cast then).

    >>> _small_integers(pa.array(["3", "-1", "+20", "007"])).tolist()
    [3, -1, 20, 7]
    """
    n = len(values)
    if n == 0:
        return np.zeros(0, np.int64)
    offsets = np.frombuffer(values.buffers()[1], dtype=np.int32, count=n + 1, offset=values.offset * 4)
    text = np.frombuffer(values.buffers()[2], dtype=np.uint8)[offsets[0]:offsets[-1]]
    starts, ends = offsets[:-1] - offsets[0], offsets[1:] - offsets[0]
    first = text[starts]
    signed = (first == 43) | (first == 45)
    if int((ends - starts - signed).max()) > 9:
        return None
    if text.size == n:  # one digit each
        out = text.astype(np.int64) - 48
    else:
        place = np.repeat(ends, ends - starts) - 1 - np.arange(text.size)  # 10 ** place per byte
        digits = text.astype(np.int64) - 48
        digits[starts[signed]] = 0  # the signs
        out = np.add.reduceat(digits * _POWERS[np.minimum(place, 10)], starts)
    out[first == 45] *= -1
    return out


# ---------------------------------------------------------------- pass 0: the strict parse

CONTROLS = (b"\t", b"\r", b"\f", b"\v")


def _has_controls(data: bytes, start: bool = True) -> bool:
    """A tab, CR, form feed or vertical tab anywhere (``memchr``: a few ms per 100 MB), or a
    byte-order mark at the start (``start``: ``data`` is the file's start).

    >>> _has_controls(b"q1 0 d1 1\\n"), _has_controls(b"q1 0 d1\\t1\\n")
    (False, True)
    """
    return (start and data.startswith(BOM)) or any(c in data for c in CONTROLS)


def _file_has_controls(path, max_bytes: int | None) -> bool:
    """:func:`_has_controls` on a file read in blocks (bounded memory)."""
    return any(_has_controls(block, i == 0) for i, block in enumerate(iter_blocks(path, max_bytes, 1 << 20)))


def _no_empty_field(column: pa.ChunkedArray) -> bool:
    """Whether every value of a binary column has at least one byte."""
    for chunk in column.chunks:
        if len(chunk):
            offsets = np.frombuffer(chunk.buffers()[1], dtype=np.int32, count=len(chunk) + 1,
                                    offset=chunk.offset * 4)
            if (offsets[1:] == offsets[:-1]).any():
                return False
    return True


def _query_codes(column: pa.ChunkedArray) -> tuple[list[str], np.ndarray] | None:
    """Query ids (in order of first appearance) and one int32 code per row, from the ids as
    bytes; None when an id is not UTF-8, is empty or starts with ``#`` (a comment line).

    >>> _query_codes(pa.chunked_array([[b"q2", b"q2", b"q1", b"q2"]]))
    (['q2', 'q1'], array([0, 0, 1, 0], dtype=int32))
    >>> _query_codes(pa.chunked_array([[b"q1", b"#q2"]])) is None
    True
    """
    index: dict[bytes, int] = {}
    codes = _codes_into(index, column)
    queries = _valid_queries(index)
    return None if queries is None else (queries, codes)


def _codes_into(index: dict[bytes, int], column: pa.ChunkedArray) -> np.ndarray:
    """One int32 code per row, adding ids not seen yet to ``index`` (id -> code).

    Rows come grouped by query in a TREC run, so the ids are compared with their
    neighbours and only the first of each group is looked up; an ungrouped chunk is
    dictionary-encoded by pyarrow instead.
    """
    parts = [np.zeros(0, np.int32)]
    for chunk in column.chunks:
        n = len(chunk)
        if not n:
            continue
        starts = np.zeros(1, np.int64)
        if n > 1:
            change = pc.indices_nonzero(pc.not_equal(chunk.slice(1), chunk.slice(0, n - 1)))
            starts = np.concatenate([starts, as_numpy(change).astype(np.int64) + 1])
        if starts.size > n // 4 + 16:  # not grouped: pyarrow's hash table
            encoded = pc.dictionary_encode(chunk)
            values, local = encoded.dictionary.to_pylist(), as_numpy(encoded.indices)
            lengths = None
        else:
            values = chunk.take(index_array(starts)).to_pylist()
            lengths = np.diff(np.append(starts, n))
        mapping = np.fromiter((index.setdefault(v, len(index)) for v in values), np.int32, len(values))
        parts.append(np.repeat(mapping, lengths) if lengths is not None else mapping[local])
    return parts[-1] if len(parts) == 2 else np.concatenate(parts)


def _valid_queries(index: dict[bytes, int]) -> list[str] | None:
    """The ids of ``index`` as text, or None if one is not UTF-8, is empty or starts with ``#``."""
    if not index:
        return None
    try:
        queries = [v.decode("utf-8") for v in index]
    except UnicodeDecodeError:
        return None
    return None if any(not v or v[0] == "#" for v in queries) else queries


def _strict_columns(source, kind: str, ncols: int, threads: bool = True):
    """Every column parsed strictly and checked: (query ids as bytes, docs as bytes, values),
    the other columns dropped; None when pyarrow refuses or a field is empty or a value
    breaks the number rules."""
    used = LAYOUTS[kind][0]
    types = {f"f{i}": pa.binary() for i in range(ncols)}
    if kind in VALUE_TYPE:
        types[f"f{used[2]}"] = VALUE_TYPE[kind]
    table = _parse_csv(source, types, list(types), ncols, threads)
    if table is None or table.num_rows == 0:
        return None
    columns = dict(zip(table.column_names, table.columns, strict=True))
    del table
    if not all(_no_empty_field(c) for c in columns.values() if pa.types.is_binary(c.type)):
        return None
    values = _checked_values(columns[f"f{used[2]}"]) if kind in VALUE_TYPE else None
    if kind in VALUE_TYPE and values is None:
        return None
    return columns[f"f{used[0]}"], columns[f"f{used[1]}"], values


def _strict_read(source, kind: str, ncols: int, threads: bool = True):
    """Pass 0: (queries, codes, docs as bytes, values) of every column parsed strictly; None
    when pyarrow refuses the file or anything the later passes would read differently
    (empty fields, comment lines, a query id not UTF-8)."""
    found = _strict_columns(source, kind, ncols, threads)
    if found is None:
        return None
    ids, docs, values = found
    queries = _query_codes(ids)
    return None if queries is None else (queries[0], queries[1], docs, values)


STRICT_BLOCK = 1 << 24  # a large file's pass 0 goes a block of at most this many bytes at a time
STRICT_WORKERS = 2  # blocks parsed at once


def _line_blocks(path, data: bytes | None, max_bytes: int | None, size: int) -> Iterator[bytes]:
    """The file (or ``data``) in blocks of about ``size`` bytes cut after a line feed."""
    if data is not None:
        start = 0
        while start < len(data):
            stop = data.find(b"\n", start + size - 1) + 1 or len(data)
            yield data[start:stop]
            start = stop
        return
    carry = b""
    for block in iter_blocks(path, max_bytes, size):
        if carry:
            block = carry + block
        cut = block.rfind(b"\n") + 1
        carry = block[cut:]
        if cut:
            yield block[:cut] if carry else block
    if carry:
        yield carry


def _strict_in_blocks(blocks: Iterator[bytes], kind: str, ncols: int):
    """Pass 0 on a large file a block at a time, STRICT_WORKERS blocks parsed at once: what
    :func:`_strict_read` gives on the whole, holding only the kept columns and a few blocks
    (the columns checked for empty fields are dropped block by block)."""
    index: dict[bytes, int] = {}
    codes, docs, values = [], [], []
    pending: deque = deque()

    def one() -> bool:
        found = pending.popleft().result()
        if found is None:
            return False
        ids, doc_column, value_column = found
        codes.append(_codes_into(index, ids))
        docs.extend(doc_column.chunks)
        if value_column is not None:
            values.extend(value_column.chunks)
        return True

    with ThreadPoolExecutor(STRICT_WORKERS, thread_name_prefix="ranklab-parse") as workers:
        for block in blocks:
            if _has_controls(block):  # (a BOM starting any block: pyarrow would drop it)
                return None
            pending.append(workers.submit(_strict_columns, pa.BufferReader(block), kind, ncols, False))
            del block
            if len(pending) >= STRICT_WORKERS and not one():
                return None
        while pending:
            if not one():
                return None
    queries = _valid_queries(index)
    if queries is None:
        return None
    return (queries, np.concatenate(codes), pa.chunked_array(docs, pa.binary()),
            pa.chunked_array(values, VALUE_TYPE[kind] if kind != "qrels" else pa.int64()) if values else None)


_COMMENT = re.compile(rb"(?m)^#[^\n]*")
_EXTRA = re.compile(rb"(?m)^((?:[^ \n]+ ){5}[^ \n]+) [^\n]*$")


_BLANKS = bytes.maketrans(b"\t\f\v", b"   ")


def _single_spaces(data: bytes) -> bytes:
    """Blanks become single spaces between columns, none at either end of a line."""
    data = data.translate(_BLANKS)
    while b"  " in data:
        data = data.replace(b"  ", b" ")
    data = data.replace(b"\n ", b"\n").replace(b" \n", b"\n")
    return data.removeprefix(b" ").removesuffix(b" ")


def _normalised(data: bytes, kind: str) -> bytes:
    """Single spaces, no comments, every line in its place (a comment becomes an empty line)."""
    def one(piece: bytes) -> bytes:
        piece = _single_spaces(piece)
        if b"#" in piece:
            piece = _COMMENT.sub(b"", piece)
        if kind == "run":  # keep the first six columns
            piece = _EXTRA.sub(rb"\1", piece)
        return piece
    return by_chunks(normalise_line_ends(data), one)


def _careful(data: bytes, source: str, kind: str) -> tuple[bytes, bytes | None]:
    """Line by line: clean ``qid doc value`` lines (one per input line), or every problem."""
    used, least, exact = LAYOUTS[kind]
    found = Problems(source)
    out = bytearray()
    tag = None
    if not data.strip():
        raise FileFormatError(source, [(None, "the file is empty")])
    data = normalise_line_ends(data)
    rows = 0
    for number, raw in enumerate(io.BytesIO(data), start=1):
        parts = raw.split()
        if not parts or parts[0].startswith(b"#"):
            out += b"\n"
            continue
        reason = None
        try:
            raw.decode("utf-8")
        except UnicodeDecodeError as err:
            found.add(number, f"undecodable bytes at column {err.start + 1} (the file must be UTF-8)")
            continue
        if len(parts) < least or (exact is not None and len(parts) != exact):
            reason = f"expected {EXPECTED[kind]}, found {len(parts)}"
        elif kind == "qrels":
            token = parts[3]
            if not GRADE.fullmatch(token):
                reason = f"grade {_short(token)} is not an integer"
            elif abs(value := grade_value(token)) > MAX_GRADE:
                reason = f"grade {_short(token, strip=True)} is out of range (|grade| <= {MAX_GRADE})"
        elif kind == "run":
            token = parts[4]
            if not SCORE.fullmatch(token):
                reason = f"score {_short(token)} is not a {'finite ' if _non_finite(token) else ''}number"
            elif not math.isfinite(value := float(token)):
                reason = f"score {_short(token)} is not a finite number"
            if tag is None and len(parts) > 5:
                tag = parts[5]
        if reason:
            found.add(number, reason)
            continue
        rows += 1
        if found.total:
            continue  # only looking for more problems now
        out += parts[used[0]] + b" " + parts[used[1]]
        if kind == "qrels":
            out += b" %d\n" % value
        elif kind == "run":
            out += b" " + repr(value).encode() + b"\n"
        else:
            out += b"\n"
    found.raise_if_any()
    if not rows:
        raise FileFormatError(source, [(None, "no data lines (only comments or blank lines)")])
    return bytes(out), tag


def grade_value(token: bytes | str) -> int:
    """The integer of a token that matched :data:`GRADE`; MAX_GRADE + 1 for any longer one
    (Python refuses to convert more than 4,300 digits).

    >>> grade_value(b"-007"), grade_value("9" * 5000) == MAX_GRADE + 1
    (-7, True)
    """
    text = token.decode("ascii") if isinstance(token, bytes) else token
    return MAX_GRADE + 1 if len(text.lstrip("+-").lstrip("0")) > 12 else int(text)


def _non_finite(token: bytes) -> bool:
    """``inf``, ``-Infinity``, ``nan`` ...: spelled as numbers, refused as not finite."""
    return token.lstrip(b"+-").lower() in (b"inf", b"infinity", b"nan")


def _short(token: bytes, limit: int = 30, strip: bool = False) -> str:
    text = token.decode("utf-8", "replace")
    text = text if len(text) <= limit else text[:limit] + "..."
    return text if strip else repr(text)


def _types(kind: str, used) -> dict[int, pa.DataType]:
    types = {used[0]: DICT, used[1]: pa.binary()}
    if kind in VALUE_TYPE:
        types[used[2]] = VALUE_TYPE[kind]
    return types


def _read(path, kind: str, max_bytes: int | None, first: list[bytes], *, strict: bool = True,
          threads: bool = True, careful: bool = True, controls: bool | None = None):
    """(queries, codes, docs, values, tag) for one file (``strict=False``: skip pass 0;
    ``careful=False``: pass 0 alone, None when it steps aside; ``controls``: whether the
    bytes hold control bytes or a BOM, when the caller knows)."""
    source = str(path)
    used, least, exact = LAYOUTS[kind]
    ncols = len(first)
    fits = ncols >= least and (exact is None or ncols == exact)
    gz = is_gz(path)
    tag = first[5] if kind == "run" and len(first) > 5 else None
    found = table = None
    if fits and strict:
        data = read_bytes(path, max_bytes) if gz or isinstance(path, InMemory) else None
        if controls is None and data is not None:
            controls = _has_controls(data)
        size = len(data) if data is not None else raw_size(path)
        block = min(STRICT_BLOCK, max(STRICT_BLOCK // 4, size // 8))  # (eight blocks or more: both threads busy)
        if threads and size > 2 * block and (data is None or isinstance(data, bytes)):
            found = _strict_in_blocks(_line_blocks(path, data, max_bytes, block), kind, ncols)
        elif not (controls if controls is not None else _file_has_controls(path, max_bytes)):
            with pa.BufferReader(data) if data is not None else arrow_stream(path) as stream:
                found = _strict_read(stream, kind, ncols, threads)
        data = None
    if found is None and not careful:
        return None
    if found is not None:
        queries, codes, doc_column, values = found
        found = None  # (the values are converted below: no second copy held)
    else:
        if fits:
            data = read_bytes(path, max_bytes) if gz else None
            if not (has_irregular_layout(data) if gz else file_has_irregular_layout(path, max_bytes)):
                with pa.BufferReader(data) if gz else arrow_stream(path) as stream:
                    table = _arrow_read(stream, _types(kind, used), ncols)
            if table is None:
                data = _normalised(data if gz else read_bytes(path, max_bytes), kind)
                table = _arrow_read(pa.BufferReader(data), _types(kind, used),
                                    min(ncols, 6) if kind == "run" else ncols)
            data = None
        if table is None:
            clean, tag = _careful(read_bytes(path, max_bytes), source, kind)
            table = _arrow_read(pa.BufferReader(clean), _types(kind, range(3)), len(used))
            clean = None
            if table is None:  # the two passes disagree: never expected
                raise FileFormatError(source, [(None, "the file could not be parsed")])
        qcol = table.column(0)
        queries = qcol.chunk(0).dictionary.to_pylist() if qcol.num_chunks else []
        codes = as_numpy(qcol).astype(np.int32, copy=False)
        values = table.column(2) if table.num_columns > 2 else None
        doc_column = table.column(1)
    values = as_numpy(values) if values is not None else None
    docs = binary_as_text(doc_column)  # document ids parsed as bytes: validated here
    if docs is None:
        del table, doc_column
        if not careful:
            return None
        _careful(read_bytes(path, max_bytes), source, kind)  # names the undecodable line
        raise FileFormatError(source, [(None, "undecodable bytes (the file must be UTF-8)")])
    del table, doc_column
    if careful:  # (a streamed block's buffers are reused by the next block's parse: kept)
        pa.default_memory_pool().release_unused()  # give the parser's buffers back before the next step
    return queries, codes, docs, values, tag.decode("utf-8", "replace") if tag is not None else None


def data_line_numbers(path: str | Path | InMemory, rows: np.ndarray, *, skip: int = 0, max_bytes: int | None = None) -> np.ndarray:
    """1-based line numbers of the given data rows (comment and blank lines skipped).

    ``skip`` data lines come before the first row (1 for a CSV header). Used only to name
    lines in error messages, so it may read the whole file.
    """
    data = blank_comments(normalise_line_ends(read_bytes(path, max_bytes)))
    return nonempty_lines(data)[np.asarray(rows, dtype=np.int64) + skip]


def _line_map(path, max_bytes, skip: int = 0):
    return lambda rows: data_line_numbers(path, rows, skip=skip, max_bytes=max_bytes)


def read_trec_qrels(path: str | Path | InMemory, *, max_bytes: int | None = None) -> Qrels:
    """Read ``qid iter docid grade`` lines (any whitespace, ``#`` comments, negative grades).

    A document judged twice for the same query is an error naming both lines.
    """
    check_size(path, max_bytes)
    first = _first_data_line(head_bytes(path))
    queries, codes, docs, grades, _ = _read(path, "qrels", max_bytes, first)
    qrels = Qrels(queries, codes, docs, np.asarray(grades, dtype=np.int64), str(path))
    return set_line_map(qrels, _line_map(path, max_bytes))


def read_trec_run(path: str | Path | InMemory, *, kind: str = "auto", max_bytes: int | None = None) -> Run:
    """Read a TREC run (``qid Q0 docid rank score tag``) or a two-column list (``qid docid``).

    ``kind`` is ``"run"``, ``"list"`` or ``"auto"`` (two columns on the first data line make
    a list, whose file order is the ranking).
    """
    check_size(path, max_bytes)
    first = _first_data_line(head_bytes(path))
    if kind == "auto":
        kind = "list" if len(first) == 2 else "run"
    queries, codes, docs, scores, tag = _read(path, kind, max_bytes, first)
    if kind == "list":
        scores = -np.arange(len(codes), dtype=np.float64)  # file order is rank order
    run = Run(queries, codes, docs, np.asarray(scores, dtype=np.float64), str(path), tag)
    return set_line_map(run, _line_map(path, max_bytes))
