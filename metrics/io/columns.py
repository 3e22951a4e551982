"""Compact column builders for the line-by-line readers: no Python object kept per row.

A slow pass that appended every value to Python lists would hold ~20 bytes of memory per
byte of file; :class:`Columns` keeps query codes, document bytes and offsets, values and
line numbers in flat arrays instead (a few bytes per row beyond the ids themselves).

>>> c = Columns("i")
>>> c.add("q1", "d1", 2, 3); c.add("q2", "é", 0, 5); _ = c.add_query("q3")
>>> queries, codes, docs, values, lines = c.finish()
>>> queries, codes.tolist(), docs.to_pylist(), values.tolist(), lines.tolist()
(['q1', 'q2', 'q3'], [0, 1], ['d1', 'é'], [2, 0], [3, 5])
"""

from __future__ import annotations

from array import array
from itertools import accumulate

import numpy as np
import pyarrow as pa

__all__ = ["Columns"]

CHUNK_BYTES = 1 << 30  # document bytes per Arrow chunk (string offsets are 32-bit)


class Columns:
    """Rows ``(query, document, value, line)`` appended one by one; ``value_code`` is the
    array typecode of the values (``"i"``-like ``"q"`` for grades, ``"d"`` for scores) or
    None for files without values."""

    def __init__(self, value_code: str | None):
        self.index: dict[str, int] = {}
        self.codes = array("i")
        self.lines = array("i")
        self.values = array("q" if value_code == "i" else value_code) if value_code else None
        self.default = 1 if value_code == "i" else 0.0
        self.chunks: list[pa.Array] = []
        self.data = bytearray()
        self.offsets = array("i", [0])

    def add_query(self, qid: str) -> int:
        return self.index.setdefault(qid, len(self.index))

    def add(self, qid: str, doc: str, value, line: int) -> None:
        self.codes.append(self.add_query(qid))
        self.lines.append(line)
        if self.values is not None:
            self.values.append(value)
        self.data += doc.encode("utf-8")
        self.offsets.append(len(self.data))
        if len(self.data) >= CHUNK_BYTES:
            self._flush()

    def add_many(self, qid: str, docs: list[str], values: list | None, line: int) -> None:
        """One query's documents at once (``values`` None: the default value for each)."""
        n = len(docs)
        joined = "".join(docs)
        encoded = joined.encode("utf-8")  # UnicodeEncodeError before anything is added
        if len(encoded) == len(joined):  # ASCII: a character is a byte
            lengths = map(len, docs)
        else:
            lengths = (len(d.encode("utf-8")) for d in docs)
        code = self.add_query(qid)
        self.codes.extend(array("i", [code]) * n)
        self.lines.extend(array("i", [line]) * n)
        if self.values is not None:
            self.values.extend(values if values is not None else [self.default] * n)
        ends = accumulate(lengths, initial=len(self.data))
        next(ends)
        self.offsets.extend(ends)
        self.data += encoded
        if len(self.data) >= CHUNK_BYTES:
            self._flush()

    def __len__(self) -> int:
        return len(self.codes)

    def _flush(self) -> None:
        n = len(self.offsets) - 1
        if n:
            offsets = np.frombuffer(self.offsets, dtype=np.int32).copy()
            self.chunks.append(pa.Array.from_buffers(pa.string(), n, [None, pa.py_buffer(offsets),
                                                                      pa.py_buffer(bytes(self.data))]))
        self.data = bytearray()
        self.offsets = array("i", [0])

    def finish(self):
        """(queries, codes, docs, values or None, line numbers)."""
        self._flush()
        docs = pa.chunked_array(self.chunks or [pa.array([], pa.string())], pa.string())
        values = None
        if self.values is not None:
            values = np.frombuffer(self.values, dtype=np.int64 if self.values.typecode == "q" else np.float64).copy()
        return (list(self.index), np.frombuffer(self.codes, dtype=np.int32).copy(), docs, values,
                np.frombuffer(self.lines, dtype=np.int32).copy())
