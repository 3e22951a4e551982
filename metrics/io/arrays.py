"""Arrow arrays to numpy without pandas (``Array.to_numpy`` imports pandas, which takes longer than the work)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

__all__ = ["as_numpy", "index_array", "binary_as_text"]

_DTYPES = {pa.float64(): np.float64, pa.float32(): np.float32, pa.int64(): np.int64,
           pa.int32(): np.int32, pa.int16(): np.int16, pa.int8(): np.int8, pa.uint64(): np.uint64,
           pa.uint32(): np.uint32, pa.uint16(): np.uint16, pa.uint8(): np.uint8}


def _dtype(t: pa.DataType) -> np.dtype:
    if pa.types.is_dictionary(t):
        t = t.index_type
    if t not in _DTYPES:
        raise TypeError(f"cannot view Arrow type {t} as numpy")
    return np.dtype(_DTYPES[t])


def _one(arr: pa.Array) -> np.ndarray:
    n = len(arr)
    if arr.null_count:
        raise ValueError("unexpected missing values")
    if pa.types.is_dictionary(arr.type):
        arr = arr.indices
    if pa.types.is_boolean(arr.type):
        buf = arr.buffers()[1]
        if buf is None or n == 0:
            return np.zeros(n, dtype=bool)
        bits = np.unpackbits(np.frombuffer(buf, dtype=np.uint8), bitorder="little")
        return bits[arr.offset: arr.offset + n].astype(bool)
    dtype = _dtype(arr.type)
    buf = arr.buffers()[1]
    if buf is None or n == 0:
        return np.zeros(n, dtype=dtype)
    return np.frombuffer(buf, dtype=dtype, count=n, offset=arr.offset * dtype.itemsize)


def as_numpy(values: pa.Array | pa.ChunkedArray) -> np.ndarray:
    """A numpy view (one chunk) or copy (several) of a primitive Arrow array without nulls.

    >>> as_numpy(pa.chunked_array([[1.5, 2.0], [3.0]])).tolist()
    [1.5, 2.0, 3.0]
    >>> as_numpy(pa.array([True, False, True]).slice(1)).tolist()
    [False, True]
    """
    if isinstance(values, pa.ChunkedArray):
        parts = [_one(c) for c in values.chunks]
        if len(parts) == 1:
            return parts[0]
        if not parts:
            return np.zeros(0, dtype=np.bool_ if pa.types.is_boolean(values.type) else _dtype(values.type))
        return np.concatenate(parts)
    return _one(values)


def index_array(rows: np.ndarray) -> pa.Array:
    """An Arrow int64 array over a numpy array of row numbers (no copy, no pandas).

    >>> index_array(np.array([2, 0])).to_pylist()
    [2, 0]
    """
    rows = np.ascontiguousarray(rows, dtype=np.int64)
    return pa.Array.from_buffers(pa.int64(), len(rows), [None, pa.py_buffer(rows)])


def binary_as_text(values: pa.ChunkedArray) -> pa.ChunkedArray | None:
    """Binary columns as strings without a copy; None when some value is not valid UTF-8.

    Parsing document ids as binary skips the CSV reader's UTF-8 validation; an all-ASCII
    buffer (the usual case) needs no validation at all, anything else is validated here.

    >>> binary_as_text(pa.chunked_array([[b"d1", "café".encode()]])).to_pylist()
    ['d1', 'café']
    >>> binary_as_text(pa.chunked_array([[bytes([255])]])) is None
    True
    """
    chunks = []
    for chunk in values.chunks:
        text = chunk.view(pa.string())
        data = chunk.buffers()[2]
        if data is not None and len(chunk):
            offsets = np.frombuffer(chunk.buffers()[1], dtype=np.int32)
            lo, hi = int(offsets[chunk.offset]), int(offsets[chunk.offset + len(chunk)])
            if np.frombuffer(data, dtype=np.uint8)[lo:hi].max(initial=0) >= 0x80:
                try:
                    text.validate(full=True)
                except pa.ArrowInvalid:
                    return None
        chunks.append(text)
    return pa.chunked_array(chunks, pa.string())
