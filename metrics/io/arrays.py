"""Arrow arrays to numpy without pandas (``Array.to_numpy`` imports pandas: ~0.5 s)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa

__all__ = ["as_numpy", "index_array"]

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
