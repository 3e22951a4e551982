"""Vectorised 64-bit keys for (query, document) pairs, to find duplicates and judgments.

Document ids are hashed straight from the Arrow string buffers with numpy (no Python string
per row); every match found through a hash is then confirmed on the strings themselves, so a
hash collision costs time, never correctness.
"""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .arrays import as_numpy, index_array

__all__ = ["doc_hashes", "pair_keys", "duplicate_groups", "lookup", "take"]

_P = np.uint64(0x100000001B3)
_GOLD = np.uint64(0x9E3779B97F4A7C15)


def _hash_fixed(matrix: np.ndarray) -> np.ndarray:
    """Hash the rows of an (n, L) uint8 matrix."""
    n, width = matrix.shape
    words = max(1, -(-width // 8))  # an empty id hashes as eight zero bytes
    if words * 8 != width:
        padded = np.zeros((n, words * 8), dtype=np.uint8)
        padded[:, :width] = matrix
        matrix = padded
    else:
        matrix = np.ascontiguousarray(matrix)
    view = matrix.view(np.uint64)
    h = view[:, 0] ^ (np.uint64(width) * _GOLD)
    h *= _P
    for w in range(1, words):
        h ^= view[:, w]
        h *= _P
    return h


def _hash_chunk(arr: pa.Array) -> np.ndarray:
    n = len(arr)
    if n == 0:
        return np.zeros(0, dtype=np.uint64)
    if arr.null_count:
        arr = pc.fill_null(arr, "")
    if pa.types.is_large_string(arr.type):
        arr = arr.cast(pa.string())
    _, offsets_buf, data_buf = arr.buffers()
    offsets = np.frombuffer(offsets_buf, dtype=np.int32)[arr.offset: arr.offset + n + 1]
    data = np.frombuffer(data_buf, dtype=np.uint8) if data_buf is not None else np.zeros(0, np.uint8)
    lengths = np.diff(offsets)
    out = np.empty(n, dtype=np.uint64)
    if (lengths == lengths[0]).all():
        width = int(lengths[0])
        block = data[offsets[0]: offsets[0] + n * width].reshape(n, width)
        with np.errstate(over="ignore"):
            return _hash_fixed(block)
    with np.errstate(over="ignore"):
        for width in np.unique(lengths).tolist():
            rows = np.flatnonzero(lengths == width)
            block = data[offsets[rows].astype(np.int64)[:, None] + np.arange(width)[None, :]]
            out[rows] = _hash_fixed(block.reshape(len(rows), width))
    return out


def take(values: pa.ChunkedArray, rows: np.ndarray) -> pa.Array:
    """``values[rows]`` chunk by chunk (taking from a ChunkedArray would first concatenate it)."""
    rows = np.asarray(rows, dtype=np.int64)
    if not isinstance(values, pa.ChunkedArray) or values.num_chunks <= 1:
        arr = values.chunk(0) if isinstance(values, pa.ChunkedArray) and values.num_chunks else values
        if isinstance(arr, pa.ChunkedArray):  # no chunks at all
            return pa.array([], values.type)
        return arr.take(index_array(rows))
    bounds = np.cumsum([0] + [len(c) for c in values.chunks])
    order = np.argsort(rows, kind="stable")
    sorted_rows = rows[order]
    cuts = np.searchsorted(sorted_rows, bounds)
    parts = []
    for i, chunk in enumerate(values.chunks):
        local = sorted_rows[cuts[i]:cuts[i + 1]] - bounds[i]
        if local.size:
            parts.append(chunk.take(index_array(local)))
    taken = pa.concat_arrays(parts) if parts else pa.array([], values.type)
    inverse = np.empty_like(order)
    inverse[order] = np.arange(len(order))
    return taken.take(index_array(inverse))


def doc_hashes(docs: pa.ChunkedArray | pa.Array) -> np.ndarray:
    """One uint64 per string; equal strings get equal hashes."""
    chunks = docs.chunks if isinstance(docs, pa.ChunkedArray) else [docs]
    out = np.empty(sum(len(c) for c in chunks), dtype=np.uint64)
    at = 0
    for c in chunks:
        out[at: at + len(c)] = _hash_chunk(c)
        at += len(c)
    return out


BLOCK = 1 << 20


def pair_keys(codes: np.ndarray, hashes: np.ndarray, *, inplace: bool = False) -> np.ndarray:
    """A key per (query code, document hash) row (written over ``hashes`` when ``inplace``)."""
    keys = hashes if inplace else hashes.copy()
    with np.errstate(over="ignore"):
        for i in range(0, len(keys), BLOCK):  # in blocks: no large temporary arrays
            part = codes[i: i + BLOCK].astype(np.uint64)
            part *= _GOLD
            keys[i: i + BLOCK] ^= part
    return keys


_PAD = np.uint64(2**64 - 1)


def _repeated_keys(codes: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """The key values found more than once (unsorted, possibly repeated).

    A pair can only repeat within its query: when each query's rows are together (as in any
    TREC run, and in every streamed chunk), the keys are sorted a slice of whole queries at a
    time (about BLOCK rows, so the temporaries stay small), each query's keys as a row of a
    2-D array padded to the slice's longest query: four times faster than one sort of every
    key for queries of 1,000 rows. Otherwise one sort of every key.
    """
    n = keys.size
    padded = np.zeros(0, np.uint64) if (keys == _PAD).sum() < 2 else np.array([_PAD])  # a real key as the pad
    if n < 2:
        return padded
    starts = np.flatnonzero(codes[1:] != codes[:-1]) + 1
    first = codes[np.r_[0, starts]]
    rising = bool((first[1:] > first[:-1]).all())  # (codes in order of first appearance: grouped at a glance)
    low = 0 if rising else int(codes.min())  # codes may be -1 (rows outside the evaluated queries)
    if not rising and starts.size + 1 != np.count_nonzero(np.bincount(codes - low if low else codes)):
        s = np.sort(keys)  # a query's rows in several places
        return np.concatenate([s[1:][s[1:] == s[:-1]], padded])
    bounds = np.concatenate([[0], starts, [n]])
    found = [padded]
    first = 0
    while first < bounds.size - 1:
        last = int(np.searchsorted(bounds, bounds[first] + BLOCK, side="right")) - 1
        last = min(max(last, first + 1), bounds.size - 1)
        found.append(_repeated_in(keys[bounds[first]:bounds[last]], bounds[first:last + 1] - bounds[first]))
        first = last
    return np.concatenate(found)


def _repeated_in(keys: np.ndarray, bounds: np.ndarray) -> np.ndarray:
    """Repeated keys of a slice of whole queries (``bounds``: where each query starts, and the end).

    The high 32 bits of each key are sorted first (half the bytes of a 64-bit sort, and no
    padding at all when every query has the same length, as in most TREC runs): when no
    query has two equal halves, no key repeats. Otherwise the 64-bit keys are sorted.
    """
    lengths = np.diff(bounds)
    longest = int(lengths.max())
    if longest * lengths.size > 2 * keys.size:  # padding would cost more than it saves
        s = np.sort(keys)
        return s[1:][s[1:] == s[:-1]]
    halves = (keys >> np.uint64(32)).astype(np.uint32)
    if not (halves == _PAD32).any():
        if (lengths == longest).all():
            table = np.sort(halves.reshape(lengths.size, longest), axis=1)
        else:
            table = _padded(halves, bounds, lengths, longest, _PAD32)
            table.sort(axis=1)
        same = table[:, 1:] == table[:, :-1]
        same &= table[:, 1:] != _PAD32
        if not same.any():
            return np.zeros(0, np.uint64)
    table = _padded(keys, bounds, lengths, longest, _PAD)
    table.sort(axis=1)
    same = table[:, 1:] == table[:, :-1]
    same &= table[:, 1:] != _PAD
    return table[:, 1:][same]


_PAD32 = np.uint32(2**32 - 1)


def _padded(values: np.ndarray, bounds: np.ndarray, lengths: np.ndarray, longest: int, pad) -> np.ndarray:
    """One row per query, its values first and ``pad`` after."""
    table = np.full((lengths.size, longest), pad, dtype=values.dtype)
    row = np.repeat(np.arange(lengths.size), lengths)
    table[row, np.arange(values.size) - np.repeat(bounds[:-1], lengths)] = values
    return table


def duplicate_groups(codes: np.ndarray, docs: pa.ChunkedArray, keys: np.ndarray | None = None) -> list[np.ndarray]:
    """Row indices of each (query, document) pair that occurs more than once, in file order."""
    if keys is None:
        keys = pair_keys(codes, doc_hashes(docs))
    repeated = _repeated_keys(codes, keys)
    if repeated.size == 0:
        return []
    repeated = np.unique(repeated)
    pos = np.searchsorted(repeated, keys)
    pos[pos == repeated.size] = 0
    rows = np.flatnonzero(repeated[pos] == keys)
    names = take(docs, rows).to_pylist()
    groups: dict[tuple[int, str], list[int]] = {}
    for r, q, d in zip(rows.tolist(), codes[rows].tolist(), names, strict=True):
        groups.setdefault((q, d), []).append(r)
    return [np.asarray(g) for g in groups.values() if len(g) > 1]


def lookup(run_keys: np.ndarray, run_docs: pa.ChunkedArray, run_codes: np.ndarray,
           qrels_keys: np.ndarray, qrels_docs: pa.ChunkedArray, qrels_codes: np.ndarray):
    """(run rows, qrels rows) of every run row whose (query, document) is judged.

    Query codes must be in one shared vocabulary; qrels keys must be unique. A bitmap filters
    the run rows first; the qrels keys go into an open-addressing hash table (a quarter full, linear probing, built and probed with
    whole-array numpy steps), so each run row costs about one random access whatever the
    number of judgments; a probe chain longer than :data:`MAX_PROBES` (never seen on real ids,
    possible on crafted ones) falls back to a binary search for the rows concerned. Every
    match is then confirmed on the strings: a hash collision is not a match.
    """
    if qrels_keys.size == 0 or run_keys.size == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    candidates = _candidates(run_keys, qrels_keys)
    table, shift, rest = _hash_table(qrels_keys)
    rows, judged, unsure = _probe(table, shift, qrels_keys, run_keys[candidates])
    rows = candidates[rows]
    if unsure.size or rest.size:  # long chains: a binary search over the keys not in the table
        order = np.argsort(qrels_keys, kind="stable")
        sorted_keys = qrels_keys[order]
        again = candidates[unsure] if rest.size == 0 else np.setdiff1d(candidates, rows)
        pos = np.minimum(np.searchsorted(sorted_keys, run_keys[again]), sorted_keys.size - 1)
        hit = sorted_keys[pos] == run_keys[again]
        rows = np.concatenate([rows, again[hit]])
        judged = np.concatenate([judged, order[pos[hit]]])
        keep = np.sort(np.unique(rows, return_index=True)[1])
        rows, judged = rows[keep], judged[keep]
        ordered = np.argsort(rows, kind="stable")
        rows, judged = rows[ordered], judged[ordered]
    if rows.size:  # confirm on the strings: a hash collision is not a match
        same = same_text(run_docs, rows, qrels_docs, judged) & (run_codes[rows] == qrels_codes[judged])
        rows, judged = rows[same], judged[same]
    return rows, judged


def same_text(a, rows_a: np.ndarray, b, rows_b: np.ndarray) -> np.ndarray:
    """Whether ``a[rows_a[i]] == b[rows_b[i]]`` for each i, exactly.

    Ids of one fixed width on both sides (the usual case: ``D0012345``) are compared as rows of
    bytes in numpy, without copying the strings out; anything else through pyarrow.

    >>> a, b = pa.chunked_array([["d1", "d2"], ["d3"]]), pa.chunked_array([["d3", "dx"]])
    >>> same_text(a, np.array([2, 1]), b, np.array([0, 1])).tolist()
    [True, False]
    >>> same_text(a, np.array([0]), pa.chunked_array([["d10"]]), np.array([0])).tolist()
    [False]
    """
    left, right = _fixed_width(a), _fixed_width(b)
    if left is not None and right is not None:
        if left.shape[1] != right.shape[1]:
            return np.zeros(len(rows_a), dtype=bool)
        # each id one opaque value of `width` bytes: numpy compares them with memcmp
        row = np.dtype((np.void, left.shape[1]))
        return left.view(row)[rows_a, 0] == right.view(row)[rows_b, 0]
    return as_numpy(pc.equal(take(a, rows_a), take(b, rows_b)))


def _fixed_width(values: pa.ChunkedArray | pa.Array) -> np.ndarray | None:
    """An (n, width) uint8 array of the strings' bytes when all have one width > 0, else None
    (a view for one chunk, a copy of the bytes for several)."""
    rows, width = [], None
    for chunk in values.chunks if isinstance(values, pa.ChunkedArray) else [values]:
        n = len(chunk)
        if n == 0:
            continue
        if chunk.null_count or not (pa.types.is_string(chunk.type) or pa.types.is_binary(chunk.type)):
            return None
        offsets = np.frombuffer(chunk.buffers()[1], dtype=np.int32, count=n + 1, offset=chunk.offset * 4)
        w = int(offsets[1] - offsets[0])
        if w == 0 or (width is not None and w != width) or not (np.diff(offsets) == w).all():
            return None
        width = w
        data = np.frombuffer(chunk.buffers()[2], dtype=np.uint8)
        rows.append(data[offsets[0]: offsets[0] + n * w].reshape(n, w))
    if not rows:
        return None
    return rows[0] if len(rows) == 1 else np.concatenate(rows)


def _candidates(run_keys: np.ndarray, qrels_keys: np.ndarray) -> np.ndarray:
    """Run rows that may be judged: a bitmap on the top bits of a multiplicative hash filters
    out almost every unjudged row with one access to a table that stays in the CPU cache."""
    # a few per cent of false hits, up to a 4 MB table (2^22 bits, for 64k+ judgments): a larger
    # one falls out of the CPU cache and costs more than the extra false hits it saves the probe
    bits = int(min(22, max(12, 6 + np.ceil(np.log2(qrels_keys.size + 1)))))
    shift = np.uint64(64 - bits)
    seen = np.zeros(1 << bits, dtype=bool)
    found = []
    with np.errstate(over="ignore"):
        seen[(qrels_keys * _GOLD) >> shift] = True
        for start in range(0, len(run_keys), BLOCK):  # in blocks that stay in the CPU cache
            slots = run_keys[start: start + BLOCK] * _GOLD
            slots >>= shift  # (< 2^22: read as int64, numpy indexes without a converted copy)
            found.append(np.flatnonzero(seen[slots.view(np.int64)]) + start)
    return np.concatenate(found) if found else np.zeros(0, dtype=np.int64)


MAX_PROBES = 48  # rounds of linear probing before the binary-search fallback


def _slots(keys: np.ndarray, shift: np.uint64) -> np.ndarray:
    with np.errstate(over="ignore"):
        slots = keys * _GOLD
    slots >>= shift
    return slots.astype(np.int64)


def _hash_table(keys: np.ndarray) -> tuple[np.ndarray, np.uint64, np.ndarray]:
    """(table of row numbers, -1 = empty; the slot shift; rows left out after MAX_PROBES rounds)."""
    bits = int(max(4, np.ceil(np.log2(keys.size)) + 2))
    size = 1 << bits
    shift = np.uint64(64 - bits)
    table = np.full(size, -1, dtype=np.int32 if keys.size < 2**31 else np.int64)
    slot = _slots(keys, shift)
    active = np.arange(keys.size, dtype=np.int64)
    for _ in range(MAX_PROBES):
        if not active.size:
            break
        s = slot[active]
        free = table[s] < 0
        claim, claimed = active[free], s[free]
        table[claimed] = claim  # of rows claiming one slot, the last written wins
        lost = claim[table[claimed] != claim]
        active = np.concatenate([lost, active[~free]])
        slot[active] = (slot[active] + 1) & (size - 1)
    return table, shift, active


def _probe(table: np.ndarray, shift: np.uint64, keys: np.ndarray, queries: np.ndarray):
    """(query rows found, their key rows, query rows still unresolved after MAX_PROBES rounds)."""
    mask = table.size - 1
    slot = _slots(queries, shift)
    active = np.arange(queries.size, dtype=np.int64)
    found_rows, found_keys = [], []
    for _ in range(MAX_PROBES):
        if not active.size:
            break
        occupant = table[slot[active]]
        filled = occupant >= 0
        active, occupant = active[filled], occupant[filled].astype(np.int64)
        hit = keys[occupant] == queries[active]
        found_rows.append(active[hit])
        found_keys.append(occupant[hit])
        active = active[~hit]
        slot[active] = (slot[active] + 1) & mask
    rows = np.concatenate(found_rows) if found_rows else np.zeros(0, np.int64)
    judged = np.concatenate(found_keys) if found_keys else np.zeros(0, np.int64)
    order = np.argsort(rows, kind="stable")
    return rows[order], judged[order], active
