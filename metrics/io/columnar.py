"""Parquet and Arrow IPC files: qrels and runs as typed columns.

The schema (column names as in CSV files, :data:`metrics.io.table.NAMES`, case-insensitive;
other columns are ignored):

- query id ``qid`` (or ``query_id``, ``topic``, ``query``): string, or an integer type
  (written as its decimal text, so ``7`` in Parquet matches ``7`` in a TREC file);
- document id ``docid`` (or ``doc_id``, ``docno``, ``doc``, ``document``): string;
- qrels: ``grade`` (or ``relevance``, ``rel``, ``label``, ``judgment``): an integer type,
  |grade| <= 2**31 - 1;
- runs: ``score``: a floating-point or integer type, finite. Without it, a ``rank`` column
  (1 = best), else the row order.

Dictionary-encoded and large string columns are accepted. A null, an empty id, a
non-finite score or a grade out of range is an error naming ``file: row N`` (1-based,
counting the rows of the whole file); a file that is not Parquet or Arrow IPC, or is
damaged, says so. Files are read one record batch at a time, so a run of any size streams
(:class:`metrics.io.stream.RunStream`), and decoded data past ``max_bytes`` is refused
before it is all in memory.

Extensions: ``.parquet``, ``.pq`` (Parquet); ``.arrow``, ``.feather``, ``.ipc`` (Arrow IPC
file format) and ``.arrows`` (IPC stream format); either IPC form is recognised by its
content.

>>> import tempfile, pathlib, pyarrow.parquet as pq
>>> path = pathlib.Path(tempfile.mkdtemp()) / "run.parquet"
>>> pq.write_table(pa.table({"qid": [1, 1], "docid": ["a", "b"], "score": [0.5, 2.0]}), path)
>>> run = read_columnar_run(path)
>>> run.queries, run.doc.to_pylist(), run.score.tolist()
(['1'], ['a', 'b'], [0.5, 2.0])
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .._check import MAX_GRADE
from .arrays import as_numpy
from .model import FileFormatError, Problems, Qrels, Run, set_line_map
from .source import FileTooLargeError, InMemory, check_size
from .table import _pick

__all__ = ["read_columnar_qrels", "read_columnar_run", "columnar_batches", "qrels_from_arrow",
           "run_from_arrow", "COLUMNAR"]

COLUMNAR = {".parquet": "parquet", ".pq": "parquet", ".arrow": "arrow", ".feather": "arrow", ".ipc": "arrow",
            ".arrows": "arrow"}
BATCH_ROWS = 1 << 20


def _open(path: Path | InMemory):
    return pa.BufferReader(path.data) if isinstance(path, InMemory) else pa.memory_map(str(path))


def _raw_batches(path, fmt: str, columns) -> tuple[pa.Schema, Iterator[pa.RecordBatch]]:
    """The schema, and the file's record batches (``columns(schema)`` picks the columns to read)."""
    source = str(path)
    if fmt == "table":  # an Arrow table already in memory
        table = path.table
        return table.schema, iter(table.select(columns(table.schema)).to_batches())
    try:
        if fmt == "parquet":
            import pyarrow.parquet as pq

            f = pq.ParquetFile(_open(path))
            schema = f.schema_arrow
            names = columns(schema)
            return schema, (b for b in f.iter_batches(batch_size=BATCH_ROWS, columns=names))
        stream = _open(path)
        try:
            reader = pa.ipc.open_file(stream)
            schema = reader.schema
            names = columns(schema)
            return schema, (reader.get_batch(i).select(names) for i in range(reader.num_record_batches))
        except pa.ArrowInvalid:
            stream = _open(path)
            reader = pa.ipc.open_stream(stream)
            schema = reader.schema
            names = columns(schema)
            return schema, (b.select(names) for b in reader)
    except FileFormatError:
        raise
    except (pa.ArrowException, OSError, ValueError) as err:
        raise FileFormatError(source, [(None, f"not a readable {_FORMAT_NAME[fmt]} file ({_first_line(err)})")]) \
            from None


_FORMAT_NAME = {"parquet": "Parquet", "arrow": "Arrow IPC"}


def _first_line(err: Exception) -> str:
    text = str(err).strip().splitlines()
    return text[0][:200] if text else type(err).__name__


def columnar_batches(source: Path | InMemory, kind: str, *, fmt: str | None = None, max_bytes: int | None = None,
                     columns: dict | None = None) -> Iterator[tuple[int, list[str], np.ndarray, pa.ChunkedArray, np.ndarray]]:
    """``(first row, queries, codes, docs, values)`` for each record batch, validated.

    ``kind`` is ``"qrels"`` (values: int64 grades) or ``"run"`` (float64 scores, higher is
    better; from ``rank`` negated, or the row order negated, when there is no ``score``).
    """
    fmt = fmt or COLUMNAR.get(Path(str(source)).suffix.lower(), "parquet")
    if fmt != "table":
        check_size(source, max_bytes)
    text = str(source)
    picked: dict[str, str | None] = {}

    def choose(schema: pa.Schema) -> list[str]:
        header = schema.names
        picked["qid"] = _pick(header, "qid", columns, True, text, None)
        picked["doc"] = _pick(header, "doc", columns, True, text, None)
        if kind == "qrels":
            picked["value"] = _pick(header, "grade", columns, True, text, None)
        else:
            picked["value"] = _pick(header, "score", columns, False, text, None)
            picked["rank"] = None if picked["value"] else _pick(header, "rank", columns, False, text, None)
        names = [n for n in (picked["qid"], picked["doc"], picked["value"], picked.get("rank")) if n]
        if len(set(names)) < len(names):
            raise FileFormatError(text, [(None, f"one column named for two roles: {', '.join(names)}")])
        return names

    schema, batches = _raw_batches(source, fmt, choose)
    _check_types(schema, picked, kind, text)
    row0 = 0
    decoded = 0
    try:
        for batch in batches:
            decoded += batch.nbytes
            if max_bytes is not None and decoded > max_bytes:
                raise FileTooLargeError(text, max_bytes, True)
            if batch.num_rows == 0:
                continue
            if fmt != "parquet":  # IPC data is not checked as it is read: bad offsets, bad UTF-8
                batch.validate(full=True)
            yield (row0, *_convert(batch, picked, kind, text, row0))
            row0 += batch.num_rows
    except (pa.ArrowException, OSError, UnicodeDecodeError) as err:
        raise FileFormatError(text, [(None, f"cannot read {_FORMAT_NAME.get(fmt, 'Arrow')} data "
                                            f"({_first_line(err)})")]) from None


def _kind_of(t: pa.DataType) -> str:
    if pa.types.is_dictionary(t):
        t = t.value_type
    if pa.types.is_string(t) or pa.types.is_large_string(t):
        return "string"
    if pa.types.is_integer(t):
        return "integer"
    if pa.types.is_floating(t):
        return "float"
    return str(t)


def _check_types(schema: pa.Schema, picked: dict, kind: str, source: str) -> None:
    wanted = {"qid": ("string", "integer"), "doc": ("string",),
              "value": ("integer",) if kind == "qrels" else ("integer", "float"), "rank": ("integer", "float")}
    what = {"string": "text", "integer": "an integer type", "float": "a floating-point type"}
    for role, name in picked.items():
        if not name:
            continue
        got = _kind_of(schema.field(name).type)
        if got not in wanted[role]:
            allowed = " or ".join(what[w] for w in wanted[role])
            raise FileFormatError(source, [(None, f"column {name!r} has type {schema.field(name).type}, "
                                                  f"expected {allowed}")])


def _plain(column: pa.Array) -> pa.Array:
    if pa.types.is_dictionary(column.type):
        column = column.dictionary_decode()
    return column


def _convert(batch: pa.RecordBatch, picked: dict, kind: str, source: str, row0: int):
    found = Problems(source)

    def bad(mask: np.ndarray, reason) -> None:
        for r in np.flatnonzero(mask)[:20].tolist():
            found.add(None, f"row {row0 + r + 1}: {reason(r) if callable(reason) else reason}")
        extra = int(mask.sum()) - min(int(mask.sum()), 20)
        found.total += extra

    qid = _plain(batch.column(picked["qid"]))
    if pa.types.is_integer(qid.type):
        qid = pc.cast(qid, pa.string())
    doc = _plain(batch.column(picked["doc"]))
    for name, col in (("query id", qid), ("document id", doc)):
        if col.null_count:
            bad(as_numpy(col.is_null()), f"missing {name} (null)")
        empty = as_numpy(pc.fill_null(pc.equal(pc.binary_length(col), 0), False))
        bad(empty, f"empty {name}")
    value_name = picked.get("value") or picked.get("rank")
    values = None
    if value_name:
        col = _plain(batch.column(value_name))
        if col.null_count:
            bad(as_numpy(col.is_null()), f"missing {value_name} (null)")
        col = pc.fill_null(col, 0)
        if kind == "qrels":
            values = as_numpy(pc.cast(col, pa.int64(), safe=False)) if not pa.types.is_uint64(col.type) else None
            if values is None:  # uint64 beyond int64 would wrap: compare before the cast
                big = as_numpy(pc.greater(col, pa.scalar(MAX_GRADE, pa.uint64())))
                bad(big, lambda r: f"{value_name} {col[r].as_py()} is out of range (|grade| <= {MAX_GRADE})")
                values = as_numpy(col).astype(np.int64)  # any value it wraps was refused just above
            else:
                bad(np.abs(values) > MAX_GRADE,
                    lambda r: f"{value_name} {int(values[r])} is out of range (|grade| <= {MAX_GRADE})")
        else:
            values = as_numpy(pc.cast(col, pa.float64()))
            bad(~np.isfinite(values), lambda r: f"{value_name} {float(values[r])!r} is not a finite number")
    found.raise_if_any()
    queries_arr = pc.dictionary_encode(qid)
    queries = queries_arr.dictionary.to_pylist()
    codes = as_numpy(queries_arr.indices).astype(np.int32, copy=False)
    docs = pa.chunked_array([pc.cast(doc, pa.string())], pa.string())
    if kind == "run":
        if values is None:
            values = -np.arange(row0, row0 + batch.num_rows, dtype=np.float64)
        elif picked.get("rank"):
            values = -values
    return queries, codes, docs, values


def _whole(path, kind: str, fmt, max_bytes, columns):
    queries: dict[str, int] = {}
    codes, docs, values = [], [], []
    for _, qs, c, d, v in columnar_batches(path, kind, fmt=fmt, max_bytes=max_bytes, columns=columns):
        mapping = np.array([queries.setdefault(q, len(queries)) for q in qs], dtype=np.int32)
        codes.append(mapping[c] if len(c) else c)
        docs += d.chunks
        values.append(v)
    if not codes:
        raise FileFormatError(str(path), [(None, "no rows")])
    return list(queries), np.concatenate(codes), pa.chunked_array(docs, pa.string()), np.concatenate(values)


def _row_numbers(data):
    data._cache["unit"] = "rows"
    return set_line_map(data, lambda rows: np.asarray(rows) + 1)


def read_columnar_qrels(path, *, format: str | None = None, max_bytes: int | None = None,
                        columns: dict | None = None) -> Qrels:
    """Judgments from a Parquet or Arrow IPC file (see the module notes)."""
    queries, codes, docs, grades = _whole(path, "qrels", format, max_bytes, columns)
    return _row_numbers(Qrels(queries, codes, docs, grades.astype(np.int64), str(path)))


def read_columnar_run(path, *, format: str | None = None, max_bytes: int | None = None,
                      columns: dict | None = None) -> Run:
    """A run from a Parquet or Arrow IPC file (see the module notes)."""
    queries, codes, docs, scores = _whole(path, "run", format, max_bytes, columns)
    return _row_numbers(Run(queries, codes, docs, scores.astype(np.float64), str(path)))


class _Table:
    """An Arrow table in memory, under the name to show for it."""

    def __init__(self, table: pa.Table | pa.RecordBatch, name: str):
        self.table = table if isinstance(table, pa.Table) else pa.Table.from_batches([table])
        self.name = name

    def __str__(self) -> str:
        return self.name


def qrels_from_arrow(table: pa.Table | pa.RecordBatch, source: str = "<qrels>") -> Qrels:
    """:class:`Qrels` from an Arrow table with the columns of the module notes (a Spark group).

    >>> qrels_from_arrow(pa.table({"qid": ["q1"], "docid": ["a"], "grade": [2]})).to_dict()
    {'q1': {'a': 2}}
    """
    return read_columnar_qrels(_Table(table, source), format="table")


def run_from_arrow(table: pa.Table | pa.RecordBatch, source: str = "<run>") -> Run:
    """A :class:`Run` from an Arrow table with the columns of the module notes (a Spark group).

    >>> run_from_arrow(pa.table({"qid": ["q1", "q1"], "docid": ["a", "b"], "score": [1.0, 3.0]})).to_dict()
    {'q1': {'a': 1.0, 'b': 3.0}}
    """
    return read_columnar_run(_Table(table, source), format="table")
