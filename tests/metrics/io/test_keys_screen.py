"""The 32-bit screen of the duplicate check finds exactly what a dict counts.

Oracle: a Python dict of (query, document) -> rows, on queries of equal and unequal
lengths, with keys crafted so that the high halves collide without the keys being equal,
and with high halves equal to the padding value.
"""

from __future__ import annotations

import random

import numpy as np
import pyarrow as pa
import pytest

from metrics.io import keys


@pytest.mark.parametrize("seed", range(40))
def test_screened_duplicates_equal_a_dict(seed):
    rng = random.Random(seed)
    length = rng.choice([3, 8, 50])
    equal = seed % 2 == 0  # every query the same length: the table is a reshape
    rows = []
    for q in range(rng.randint(1, 12)):
        n = length if equal else rng.randint(1, length)
        rows += [(q, f"d{rng.randint(0, 3 * length)}") for _ in range(n)]
    codes = np.array([q for q, _ in rows], dtype=np.int32)
    docs = pa.chunked_array([[d for _, d in rows]])
    key = keys.pair_keys(codes, keys.doc_hashes(docs))
    if seed % 4 == 1:  # high halves all equal, low halves distinct per document
        key = (key & np.uint64(0xFFFFFFFF)) | np.uint64(0x12345678 << 32)
    elif seed % 4 == 3:  # high halves equal to the padding value
        key = key | np.uint64(0xFFFFFFFF << 32)
    got = sorted(tuple(g.tolist()) for g in keys.duplicate_groups(codes, docs, key))
    where: dict = {}
    for i, pair in enumerate(rows):
        where.setdefault(pair, []).append(i)
    assert got == sorted(tuple(v) for v in where.values() if len(v) > 1)


def test_no_duplicate_when_only_high_halves_collide():
    # two different documents whose keys share the high 32 bits: no duplicate (hand-made keys)
    codes = np.zeros(2, np.int32)
    docs = pa.chunked_array([["a", "b"]])
    key = np.array([(7 << 32) | 1, (7 << 32) | 2], dtype=np.uint64)
    assert keys.duplicate_groups(codes, docs, key) == []


@pytest.mark.parametrize("seed", range(30))
def test_same_text_equals_python_string_comparison(seed):
    """The fixed-width byte comparison gives what comparing the Python strings gives: chunks,
    slices (offsets not at 0), equal and unequal widths, empty ids."""
    rng = random.Random(seed)
    widths = rng.choice([[3], [3], [2, 3], [0], [0, 1]])

    def ids(n):
        return ["".join(rng.choice("ab") for _ in range(rng.choice(widths))) for _ in range(n)]

    def chunked(values):
        cut = rng.randint(0, len(values))
        first = pa.array(["zzz"] + values[:cut])[1:]  # a slice: its offsets do not start at 0
        return pa.chunked_array([first, pa.array(values[cut:], pa.string())])

    a, b = ids(rng.randint(1, 30)), ids(rng.randint(1, 30))
    rows_a = np.array([rng.randrange(len(a)) for _ in range(40)])
    rows_b = np.array([rng.randrange(len(b)) for _ in range(40)])
    got = keys.same_text(chunked(a), rows_a, chunked(b), rows_b)
    assert got.tolist() == [a[i] == b[j] for i, j in zip(rows_a, rows_b, strict=True)]
