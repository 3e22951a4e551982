"""A run of any size, read as a stream of chunks of whole queries (bounded memory).

:class:`RunStream` reads the file (plain or compressed) in blocks of about ``block_size``
bytes cut at a line end, parses each block with the same TREC reader as a whole file (so
the same line rules, number syntax and ``file:line`` messages), and cuts the parsed rows
after the last complete query: the rows of the block's last query are carried into the next
chunk, since that query may go on in the next block. Each chunk is a :class:`Run` of whole
queries, checked for documents retrieved twice (``dedup``) like a whole file; a query is
never split, so a duplicate is found even when its two lines are in different blocks.

A streamed run must be grouped by query (all the lines of a query together, as every TREC
run writer produces; within a query any order). A query that comes back after other
queries is an error naming the line and saying how to sort the file, never a silent
mis-score. Memory is bounded by a few blocks plus the largest query.

Block parsing goes through pyarrow's CSV reader one block at a time, rather than
``pyarrow.csv.open_csv``: each block then gets the strict pass, or the layout check, the
normalising pass and the careful line-by-line pass of :mod:`metrics.io.trec` when it needs
them, and its first line number is known, so malformed lines are named exactly as in a whole
file. ``PARSE_WORKERS`` blocks are parsed at once, each in its own thread (pyarrow and numpy
release the GIL), in order and ahead of the caller (:class:`Ahead`), so on two cores the parse
overlaps the duplicate check and the evaluation of the chunk before; memory stays bounded by
a few blocks (three reused read buffers, a bounded queue).

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "run.txt"
>>> _ = path.write_text("q1 Q0 a 1 3 t\\nq1 Q0 b 2 2 t\\nq2 Q0 c 1 1 t\\nq2 Q0 a 2 0 t\\n")
>>> chunks = list(RunStream(path, block_size=16))  # tiny blocks: q1 straddles two of them
>>> [(c.queries, c.doc.to_pylist()) for c in chunks]
[(['q1'], ['a', 'b']), (['q2'], ['c', 'a'])]
"""

from __future__ import annotations

import mmap
import os
import queue
import threading
from collections import deque
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pyarrow as pa

from . import detect_format, trec
from .columnar import COLUMNAR, columnar_batches
from .dedup import DEDUP, deduplicate
from .keys import doc_hashes, pair_keys
from .model import FileFormatError, Run, set_line_map
from .source import (
    BOM,
    FileTooLargeError,
    InMemory,
    blank_comments,
    check_size,
    is_gz,
    iter_blocks,
    nonempty_lines,
    normalise_line_ends,
    raw_size,
    readable,
)

__all__ = ["RunStream", "STREAM_BLOCK", "STREAMABLE", "NOT_GROUPED", "NotGroupedError", "block_for", "should_stream",
           "STREAM_THRESHOLD", "COMPRESSION_RATIO"]

STREAM_BLOCK = 1 << 24  # 16 MB of text per block: about 500,000 run lines (three in memory at once)
PARSE_WORKERS = 2  # blocks parsed at once, one thread each, while the main thread evaluates
PARSE_THREADS = False  # one parsing thread beside the main one (pyarrow's own threads cost more CPU for no wall time on 2 cores)
FULL_BLOCKS_UP_TO = 8  # threads that each get a whole STREAM_BLOCK; beyond, blocks shrink


def block_for(threads: int) -> int:
    """The block size for ``threads`` parsing and evaluating threads: STREAM_BLOCK up to
    FULL_BLOCKS_UP_TO threads, then smaller in proportion, so that the blocks held at once (about
    two per thread) take no more memory than at FULL_BLOCKS_UP_TO threads, whatever the count.

    >>> block_for(2) == STREAM_BLOCK, block_for(16) == STREAM_BLOCK // 2
    (True, True)
    """
    return max(1 << 20, STREAM_BLOCK * FULL_BLOCKS_UP_TO // max(threads, FULL_BLOCKS_UP_TO))


NOT_GROUPED_TABLE = ("the run is not grouped by query, which reading it in blocks needs: sort it by query "
                     "first (in pyarrow: table.sort_by('qid'); in Spark: orderBy('qid')), or read it whole "
                     "(--no-stream)")
NOT_GROUPED = ("the run is not grouped by query, which reading it in blocks needs: sort it by query first, "
               "keeping each query's lines in order (LC_ALL=C sort -s -k1,1 RUN > sorted.txt; for a "
               "compressed file, decompress it into sort), or read it whole (--no-stream)")


class NotGroupedError(FileFormatError):
    """A run whose queries are interleaved: it can be read whole, not in blocks."""


def _line_end(data: bytes) -> int:
    """Where to cut ``data`` after its last complete line (0: no line end in it)."""
    lf = data.rfind(b"\n")
    if lf >= 0:
        return lf + 1
    cr = data.rfind(b"\r")  # a file with lone CR line ends; a CR last may be half of CRLF
    return cr + 1 if 0 <= cr < len(data) - 1 else 0


def _buffer_cut(buf: bytearray, filled: int, limit: int) -> int:
    """Where :meth:`RunStream._mapped_blocks` cuts a block of ``buf[:filled]`` whose nominal
    end is ``limit``: after the last line feed before it, else after a lone CR before it,
    else after the first line feed past it (0: none yet).

    >>> _buffer_cut(bytearray(b"a\\nb\\nc"), 5, 5), _buffer_cut(bytearray(b"ab\\rc"), 4, 4)
    (4, 3)
    >>> _buffer_cut(bytearray(b"abc\\nd\\n"), 6, 2), _buffer_cut(bytearray(b"abcd"), 4, 4)
    (4, 0)
    """
    lf = buf.rfind(b"\n", 0, limit)
    if lf < 0:
        cr = buf.rfind(b"\r", 0, limit - 1)
        lf = cr if cr >= 0 else buf.find(b"\n", limit, filled)
    return lf + 1


def _count_lines(data: bytes) -> int:
    """Line ends in ``data`` (``\\n``, ``\\r\\n`` and a lone ``\\r`` each count once)."""
    lines = data.count(b"\n")
    if b"\r" in data:
        lines += data.count(b"\r") - data.count(b"\r\n")
    return lines


class _Piece:
    """Rows of one parsed block (or a slice of them): codes into the block's own query list;
    ``hashes``: the documents' :func:`metrics.io.keys.doc_hashes`, when the parsing thread made them."""

    __slots__ = ("queries", "codes", "docs", "scores", "hashes")

    def __init__(self, queries, codes, docs, scores, hashes=None):
        self.queries, self.codes, self.docs, self.scores, self.hashes = queries, codes, docs, scores, hashes

    def slice(self, start: int, stop: int) -> _Piece:
        return _Piece(self.queries, self.codes[start:stop], self.docs.slice(start, stop - start),
                      self.scores[start:stop], None if self.hashes is None else self.hashes[start:stop])


class RunStream:
    """Iterate over a TREC run (or two-column list) as :class:`Run` chunks of whole queries.

    Parameters
    ----------
    source : path, or bytes with ``name``
        The run; ``.gz``, ``.bz2`` and ``.zst`` are decompressed as they are read.
    format : {"auto", "trec", "list", "parquet", "arrow"}
        ``auto``: by the file name (:func:`metrics.io.detect_format`); for a text file, two
        columns on the first data line make a list (file order = rank order). Parquet and
        Arrow IPC files are read a record batch at a time (:mod:`metrics.io.columnar`).
    dedup : {"error", "first", "last", "max"}
        Documents retrieved twice for one query, as in :func:`metrics.io.read_run`.
    max_bytes : int, optional
        Refuse a file larger than this (decompressed); None: no limit.
    block_size : int, optional
        Bytes of text parsed at a time (default: :func:`block_for` the parse workers,
        ``STREAM_BLOCK`` up to 8 of them).
    parse_workers : int
        Blocks parsed at once, each in its own thread (``PARSE_WORKERS`` by default); memory
        holds one read buffer more than this.

    While it is iterated, ``rows`` (data lines), ``queries``, ``bytes_read`` (stored bytes,
    compressed if the file is) and ``total_bytes`` say how far it got (for a progress bar).
    """

    def __init__(self, source, *, name: str | None = None, format: str = "auto", dedup: str = "error",
                 max_bytes: int | None = None, block_size: int | None = None, parse_workers: int = PARSE_WORKERS):
        if format not in ("auto", "trec", "list", "parquet", "arrow"):
            raise ValueError("a streamed run's format must be 'auto', 'trec', 'list', 'parquet' or 'arrow', "
                             f"got {format!r}")
        if dedup not in DEDUP:
            raise ValueError(f"dedup must be one of {', '.join(map(repr, DEDUP))}, got {dedup!r}")
        if isinstance(parse_workers, bool) or not isinstance(parse_workers, int) or parse_workers < 1:
            raise ValueError(f"parse_workers must be a positive integer, got {parse_workers!r}")
        if block_size is None:
            block_size = block_for(parse_workers)
        if not isinstance(block_size, int) or block_size < 1:
            raise ValueError(f"block_size must be a positive integer, got {block_size!r}")
        self.parse_workers = parse_workers
        self.path = readable(source, name)
        if not isinstance(self.path, InMemory) and not self.path.exists():
            raise FileNotFoundError(2, "No such file or directory", str(self.path))
        self.source = str(self.path)
        if format == "auto" and Path(self.source.lower()).suffix in COLUMNAR:
            format = COLUMNAR[Path(self.source.lower()).suffix]
        self.format, self.dedup, self.max_bytes, self.block_size = format, dedup, max_bytes, block_size
        self.total_bytes = raw_size(self.path)
        self.rows = self.queries = self.bytes_read = 0
        self.tag: str | None = None
        self.seen: set[str] = set()  # query ids read so far
        self._ahead: Ahead | None = None

    # ------------------------------------------------------------------ blocks of lines

    def _blocks(self, counter: list[int] | None = None) -> Iterator[bytes]:
        """The text in blocks cut after a line end (the last one may lack it)."""
        if not isinstance(self.path, InMemory) and not is_gz(self.path) and self.path.is_file():
            yield from self._mapped_blocks(counter)
            return
        pending = b""
        for data in iter_blocks(self.path, self.max_bytes, self.block_size, counter=counter):
            if pending:
                data = pending + data
            cut = _line_end(data)
            if cut == 0:
                pending = data
                continue
            pending = data[cut:]
            yield data if cut == len(data) else data[:cut]
        if pending:
            yield pending

    def _mapped_blocks(self, counter: list[int] | None) -> Iterator[bytes]:
        """A plain file's blocks, cut at line ends through a memory map: one copy per block."""
        check_size(self.path, self.max_bytes)
        size = self.path.stat().st_size
        if size == 0:
            return
        with open(self.path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mapped:
            start = dropped = 0
            while start < size:
                stop = min(start + self.block_size, size)
                if stop < size:
                    lf = mapped.rfind(b"\n", start, stop)
                    if lf < 0:  # no line feed in the block: a lone CR, or else the next line feed
                        cr = mapped.rfind(b"\r", start, stop - 1)
                        lf = cr if cr >= 0 else mapped.find(b"\n", stop)
                    stop = size if lf < 0 else lf + 1
                if self.max_bytes is not None and stop > self.max_bytes:
                    raise FileTooLargeError(self.source, self.max_bytes, False)
                data = mapped[start:stop]
                done = stop - stop % mmap.PAGESIZE
                if done > dropped:  # the pages read are copied: out of this process's memory
                    mapped.madvise(mmap.MADV_DONTNEED, dropped, done - dropped)
                    dropped = done
                if counter is not None:
                    counter[0] = stop
                start = stop
                yield data

    def _buffered_blocks(self, counter: list[int] | None, buffers: int = 1) -> Iterator[memoryview]:
        """A plain file's blocks read into ``buffers`` reused buffers in turn (no page faults,
        one copy less than a memory map): the same blocks as :meth:`_mapped_blocks`, as views
        that stay valid until ``buffers`` more blocks are asked for (pyarrow copies what it
        keeps, so a block must be parsed by then)."""
        check_size(self.path, self.max_bytes)
        want = self.block_size
        pool = [bytearray(want)]
        turn = 0
        buf = pool[0]
        filled = start = 0  # bytes in buf; the file offset of buf[0]
        eof = False
        with open(self.path, "rb", buffering=0) as f:
            size = os.fstat(f.fileno()).st_size
            while True:
                while not eof and filled < want:
                    got = f.readinto(memoryview(buf)[filled:want])
                    eof = not got
                    filled += got or 0
                if filled == 0:
                    return
                eof = eof or start + filled >= size  # (the memory-mapped reader's test)
                cut = filled if eof and filled <= self.block_size else _buffer_cut(buf, filled, self.block_size)
                if cut == 0 and eof:
                    cut = filled
                if cut == 0:  # no line end yet: a line longer than the block, read on
                    want = len(buf) * 2
                    bigger = bytearray(want)
                    bigger[:filled] = buf[:filled]
                    buf = pool[turn] = bigger
                    continue
                if self.max_bytes is not None and start + cut > self.max_bytes:
                    raise FileTooLargeError(self.source, self.max_bytes, False)
                if counter is not None:
                    counter[0] = start + cut
                yield memoryview(buf)[:cut]  # (never released by hand: pyarrow may hold it a moment)
                rest = filled - cut
                turn = (turn + 1) % buffers
                if turn == len(pool):
                    pool.append(bytearray(self.block_size))
                if len(pool[turn]) < max(rest, self.block_size):
                    pool[turn] = bytearray(max(rest, self.block_size))
                pool[turn][:rest] = buf[cut:filled]  # the same size: allowed while views exist
                buf, filled, want = pool[turn], rest, self.block_size
                start += cut

    def _parse_hashed(self, data, kind: str, first: list[bytes], block: int):
        """:meth:`_parse`, and the documents' hashes (the run's keys need them: made here, in the
        parsing thread, they leave the main thread's evaluation less to do)."""
        parsed = self._parse(data, kind, first, block)
        return None if parsed is None else (*parsed, doc_hashes(parsed[2]))

    def _parse(self, data, kind: str, first: list[bytes], block: int):
        """(queries, codes, docs, values) of one block; None for a block without data lines."""
        if isinstance(data, memoryview):  # a reused buffer: the strict pass, else a copy
            buf = data.obj  # the view starts at the buffer's start: memchr on the buffer itself
            n = len(data)  # (memchr a window at a time: the other three find it in the CPU cache)
            controls = buf.startswith(BOM) or any(buf.find(c, lo, min(n, lo + (1 << 18))) >= 0
                                                  for lo in range(0, n, 1 << 18) for c in trec.CONTROLS)
            parsed = trec._read(InMemory("block", data), kind, None, first, threads=PARSE_THREADS,
                                careful=False, controls=controls)
            if parsed is not None:
                return parsed[:4]
            data = bytes(data)
        try:
            queries, codes, docs, values, _ = trec._read(InMemory("block", data), kind, None, first,
                                                         threads=PARSE_THREADS)
        except FileFormatError as err:
            if not blank_comments(normalise_line_ends(data)).strip():
                return None  # only comments and blank lines
            before = self._lines_before(block)
            shifted = [(None if line is None else line + before, reason) for line, reason in err.problems]
            raise FileFormatError(self.source, shifted, err.total) from None
        return queries, codes, docs, values

    def _lines_before(self, block: int) -> int:
        """Lines in the blocks before block number ``block`` (reads the file again: for messages)."""
        lines = 0
        for i, data in enumerate(self._blocks()):
            if i == block:
                break
            lines += _count_lines(data)
        return lines

    def line_numbers(self, rows: np.ndarray) -> np.ndarray:
        """1-based file lines of global data rows (reads the file again: for messages only)."""
        rows = np.asarray(rows, dtype=np.int64)
        out = np.zeros(len(rows), dtype=np.int64)
        done, line0 = 0, 0
        for data in self._blocks():
            within = nonempty_lines(blank_comments(normalise_line_ends(data)))
            hit = (rows >= done) & (rows < done + len(within))
            out[hit] = within[rows[hit] - done] + line0
            done += len(within)
            line0 += _count_lines(data)
            if done > rows.max(initial=-1):
                break
        return out

    # ------------------------------------------------------------------ chunks of queries

    def _text_pieces(self) -> Iterator[_Piece]:
        """The parsed blocks of a TREC run or list, ``parse_workers`` blocks parsed at a time."""
        first: list[bytes] = []  # the first data line, from the first block (a pipe is read once)
        counter = [0]
        rows = 0  # (this runs ahead of __iter__, in its own thread: self.rows is not there yet)
        plain = not isinstance(self.path, InMemory) and not is_gz(self.path) and self.path.is_file()
        workers_count = self.parse_workers
        blocks = self._buffered_blocks(counter, workers_count + 1) if plain else self._blocks(counter)
        pending: deque = deque()  # parses in order; a block's buffer is reused parse_workers + 1 blocks on

        def done() -> _Piece | None:
            nonlocal rows
            parsed = pending.popleft().result()
            if parsed is None:
                return None
            queries, codes, docs, values, hashes = parsed
            if kind == "list":  # file order is rank order, across blocks too
                values = -np.arange(rows, rows + len(codes), dtype=np.float64)
            rows += len(codes)
            return _Piece(queries, codes, docs, np.asarray(values, dtype=np.float64), hashes)

        with ThreadPoolExecutor(workers_count, thread_name_prefix="ranklab-parse") as workers:
            for block, data in enumerate(blocks):
                self.bytes_read = counter[0]
                if not first:
                    first = trec._first_data_line(bytes(data[: 1 << 16]))
                    if not first:
                        continue  # comments and blank lines only
                    kind = {"list": "list", "trec": "run"}.get(self.format) or ("list" if len(first) == 2 else "run")
                    if kind == "run" and len(first) > 5:
                        self.tag = first[5].decode("utf-8", "replace")
                pending.append(workers.submit(self._parse_hashed, data, kind, first, block))
                del data
                if len(pending) == workers_count and (piece := done()) is not None:
                    yield piece
            while pending:
                if (piece := done()) is not None:
                    yield piece
        self.bytes_read = counter[0]
        if not rows:  # (reading it again costs nothing: it holds no data)
            any_bytes = any(not data.isspace() for data in self._blocks())
            reason = "no data lines (only comments or blank lines)" if any_bytes else "the file is empty"
            raise FileFormatError(self.source, [(None, reason)])

    def _columnar_pieces(self) -> Iterator[_Piece]:
        """The record batches of a Parquet or Arrow IPC run."""
        total = _parquet_rows(self.path) if self.format == "parquet" else 0
        if not total:
            self.total_bytes = 0  # no share done to show
        rows = 0
        for row0, queries, codes, docs, values in columnar_batches(self.path, "run", fmt=self.format,
                                                                   max_bytes=self.max_bytes):
            if total:
                self.bytes_read = int(self.total_bytes * min(1.0, (row0 + len(codes)) / total))
            rows += len(codes)
            yield _Piece(queries, codes, docs, values)
        if not rows:
            raise FileFormatError(self.source, [(None, "no rows")])

    def start(self) -> RunStream:
        """Begin reading and parsing in the background now (e.g. while the judgments are read);
        iterating starts it too. :meth:`close` stops it if the chunks are never read."""
        if self._ahead is None:
            self._ahead = Ahead(self._columnar_pieces() if self.format in ("parquet", "arrow")
                                else self._text_pieces())
        return self

    def close(self) -> None:
        if self._ahead is not None:
            self._ahead.close()

    def __iter__(self) -> Iterator[Run]:
        if self._ahead is not None and self._ahead._stop.is_set():
            self._ahead = None  # iterated before: read again
        finished = self.seen = set()
        carry: list[_Piece] = []
        carry_row = 0
        for piece in self.start()._ahead:
            codes = piece.codes
            n = len(codes)
            row0 = self.rows
            self.rows += n
            last = codes[-1]
            others = np.flatnonzero(codes != last)
            tail = int(others[-1]) + 1 if others.size else 0
            if tail == 0 and carry and carry[0].queries[carry[0].codes[0]] == piece.queries[last]:
                carry.append(piece)  # one query longer than a block
                continue
            done = carry + ([piece.slice(0, tail)] if tail else [])
            if done:
                yield self._chunk(done, carry_row if carry else row0, finished)
            carry, carry_row = [piece.slice(tail, n)], row0 + tail
        if carry:
            yield self._chunk(carry, carry_row, finished)

    def _chunk(self, pieces: list[_Piece], row0: int, finished: set[str]) -> Run:
        index: dict[str, int] = {}
        codes = []
        for p in pieces:
            mapping = np.zeros(len(p.queries), dtype=np.int32)
            for c in _first_appearance(p.codes):
                mapping[c] = index.setdefault(p.queries[c], len(index))
            codes.append(mapping[p.codes])
        docs = pa.chunked_array([c for p in pieces for c in p.docs.chunks], pa.string())
        run = Run(list(index), np.concatenate(codes), docs, np.concatenate([p.scores for p in pieces]),
                  self.source, self.tag)
        if all(p.hashes is not None for p in pieces):  # the keys Run.pair_keys would make
            run._cache["keys"] = pair_keys(run.query, np.concatenate([p.hashes for p in pieces]), inplace=True)
        row = _not_grouped(run, finished)
        if self.format in ("parquet", "arrow"):
            run._cache["unit"] = "rows"
            set_line_map(run, lambda rows: np.asarray(rows) + row0 + 1)
            if row is not None:
                qid = run.queries[run.query[row]]
                raise NotGroupedError(self.source, [(None, f"row {row + row0 + 1}: query {_short(qid)} appears "
                                                           f"again after other queries: {NOT_GROUPED_TABLE}")])
        else:
            set_line_map(run, lambda rows: self.line_numbers(np.asarray(rows) + row0))
        if row is not None:
            line = int(self.line_numbers(np.array([row + row0]))[0])
            qid = run.queries[run.query[row]]
            raise NotGroupedError(self.source, [(line, f"query {_short(qid)} appears again after other "
                                                       f"queries: {NOT_GROUPED}")])
        finished.update(run.queries)
        self.queries += len(run.queries)
        return deduplicate(run, self.dedup)


_DONE = object()


class Ahead:
    """The items of ``items``, made in a background thread (started at once) up to ``depth``
    ahead of the caller.

    Parsing (pyarrow) and the numpy steps of the caller release the GIL, so on two cores
    the next blocks are parsed while one is checked and evaluated; the bounded queue bounds
    memory. An exception in the thread is raised in the caller at the same place in the
    sequence; :meth:`close` (or a caller that stops iterating) stops the thread within one item.

    >>> list(Ahead(iter(range(5))))
    [0, 1, 2, 3, 4]
    >>> def bad():
    ...     yield 1
    ...     raise ValueError("line 2")
    >>> out = []
    >>> try:
    ...     for x in Ahead(bad()):
    ...         out.append(x)
    ... except ValueError as err:
    ...     out.append(str(err))
    >>> out
    [1, 'line 2']
    """

    def __init__(self, items: Iterator, depth: int = 1):
        self._items = items
        self._box: queue.Queue = queue.Queue(maxsize=depth)
        self._stop = threading.Event()
        self._worker = threading.Thread(target=self._work, name="ranklab-read", daemon=True)
        self._worker.start()

    def _put(self, item) -> bool:
        while not self._stop.is_set():
            try:
                self._box.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def _work(self) -> None:
        try:
            for item in self._items:
                if not self._put((True, item)):
                    return
            self._put((True, _DONE))
        except BaseException as err:  # noqa: BLE001 - handed to the caller, raised there
            self._put((False, err))
        finally:
            close = getattr(self._items, "close", None)
            if close is not None:
                close()

    def __iter__(self) -> Iterator:
        try:
            while True:
                ok, item = self._box.get()
                if not ok:
                    raise item
                if item is _DONE:
                    return
                yield item
                del item
        finally:
            self.close()

    def close(self) -> None:
        """Stop the thread (after the item it is making) and wait for it."""
        self._stop.set()
        if self._worker is not threading.current_thread():
            self._worker.join()


def _first_appearance(codes: np.ndarray) -> list[int]:
    """The distinct codes in order of first appearance (no sort when the rows are grouped).

    >>> _first_appearance(np.array([2, 2, 0, 0, 1])), _first_appearance(np.array([1, 0, 1]))
    ([2, 0, 1], [1, 0])
    """
    if not len(codes):
        return []
    runs = codes[np.concatenate([[0], np.flatnonzero(codes[1:] != codes[:-1]) + 1])].tolist()
    if len(set(runs)) == len(runs):
        return runs
    used, at = np.unique(codes, return_index=True)
    return used[np.argsort(at)].tolist()


def _parquet_rows(path) -> int:
    """Rows of a Parquet file from its footer (0 when unreadable: the reader says why)."""
    import pyarrow.parquet as pq

    try:
        source = pa.BufferReader(path.data) if isinstance(path, InMemory) else str(path)
        return pq.ParquetFile(source).metadata.num_rows
    except (pa.ArrowException, OSError):
        return 0


def _not_grouped(run: Run, finished: set[str]) -> int | None:
    """The first row of a query that came before, in an earlier chunk or earlier in this one."""
    codes = run.query
    starts = np.flatnonzero(np.r_[True, codes[1:] != codes[:-1]]) if len(codes) else np.zeros(0, np.int64)
    if len(starts) == len(run.queries) and finished.isdisjoint(run.queries):
        return None
    seen: set[int] = set()
    for start, code in zip(starts.tolist(), codes[starts].tolist(), strict=True):
        if code in seen or run.queries[code] in finished:
            return start
        seen.add(code)
    return None


def _short(text: str, limit: int = 60) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


STREAMABLE = ("trec", "list", "parquet", "arrow")  # the formats RunStream reads

# A run larger than this as stored is streamed by default (by the command line): below it, reading
# it whole costs at most about 0.8 GB and accepts a run not grouped by query, and above it
# streaming is no slower (benchmarks/ measures both).
STREAM_THRESHOLD = 256 * 2**20
# how many times its stored size a compressed or Parquet run is counted, for its size once read
COMPRESSION_RATIO = 5


def should_stream(run: str | Path | InMemory, *, format: str = "auto", size: int | None = None,
                  asked: bool | None = None, threshold: int = STREAM_THRESHOLD,
                  compression_ratio: int = COMPRESSION_RATIO) -> bool:
    """Whether to read a run in blocks of whole queries (:class:`RunStream`) rather than whole.

    The one rule for the command line and the app. Only the formats of :data:`STREAMABLE`
    stream. For those, ``asked`` decides when it is given; otherwise the run streams when its
    size as read is larger than ``threshold``: its stored size, times ``compression_ratio``
    for a compressed or Parquet file.

    Parameters
    ----------
    run : str, Path or InMemory
        The run, or only its name when ``size`` is given.
    format : str
        One of :data:`metrics.io.FORMATS`; "auto" detects it from the name.
    size : int, optional
        Its stored size in bytes; by default read from the file (a file that cannot be read
        is read whole, so that the reader names the problem).
    asked : bool, optional
        True or False to choose (``--stream`` / ``--no-stream``); None to choose by size.
    threshold : int
        The size as read, in bytes, above which a run streams.
    compression_ratio : int
        How many times its stored size a compressed or Parquet run counts.

    Returns
    -------
    bool

    Raises
    ------
    ValueError
        ``asked`` is True for a format that cannot stream.

    Examples
    --------
    >>> should_stream("run.txt", size=300 * 2**20)  # over 256 MiB
    True
    >>> should_stream("run.txt.gz", size=60 * 2**20)  # counted 5 times: 300 MiB once read
    True
    >>> should_stream("run.txt", size=300 * 2**20, asked=False), should_stream("run.csv", size=300 * 2**20)
    (False, False)
    """
    if format == "auto":
        format = detect_format(run)
    if format not in STREAMABLE:
        if asked:
            raise ValueError(f"asked: {format} files are read whole; TREC runs, two-column lists, Parquet "
                             "and Arrow files can be read in blocks")
        return False
    if asked is not None:
        return asked
    if size is None:
        try:
            size = raw_size(run)
        except OSError:
            return False  # the reader names the problem
    return size * (compression_ratio if is_gz(run) or format == "parquet" else 1) > threshold
