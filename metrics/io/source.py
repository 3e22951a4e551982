"""A file's bytes, safely: size limits, streaming gunzip, and the line rules every reader shares.

A file is a path, or :class:`InMemory` bytes with the name to show (an upload, pasted
text): its name gives the format and whether it is gzip-compressed (``.gz``), and every
message names it. Both are read by the same code, so the limits and messages are the same.

Rules shared by every format (TREC qrels/runs/lists, CSV/TSV, JSONL):

- Lines end at ``\\n``, ``\\r\\n`` or a lone ``\\r``; a UTF-8 byte-order mark at the start
  is ignored.
- A line whose first non-blank character is ``#`` is a comment (trec_eval 10.0's rule:
  whole-line comments only; a ``#`` inside a line is data, as in ``policy.pdf#3``).
  Comment lines and blank lines are skipped; line numbers in messages count every line.
- A file, plain or once decompressed, larger than ``max_bytes`` is refused before it is
  parsed. Decompression streams in blocks and stops at the limit, so a small ``.gz`` that
  expands to gigabytes costs neither the memory nor the time. Multi-member ``.gz`` files
  are read whole; a corrupt or truncated one is a :class:`FileFormatError` ("cannot
  decompress"), never a traceback.

>>> normalise_line_ends(b"\\xef\\xbb\\xbfa\\r\\nb\\rc\\n")
b'a\\nb\\nc\\n'
>>> blank_comments(b"# note\\nq1 0 d1 1\\n   # indented note\\n")
b'\\nq1 0 d1 1\\n\\n'
>>> format_size(256 * 2**20), format_size(4 * 2**30), format_size(1500)
('256 MB', '4 GB', '1500 bytes')
"""

from __future__ import annotations

import bz2
import contextlib
import re
import stat
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa

from .model import FileFormatError

__all__ = ["InMemory", "readable", "raw_size", "strip_compression", "COMPRESSED", "arrow_stream", "FileTooLargeError", "APP_MAX_BYTES", "CLI_MAX_BYTES", "BLOCK", "read_bytes", "check_size", "iter_blocks", "head_bytes",
           "normalise_line_ends", "blank_comments", "format_size", "parse_size", "nonempty_lines",
           "has_irregular_layout", "file_has_irregular_layout"]

APP_MAX_BYTES = 256 * 2**20  # the app's limit per uploaded file (decompressed)
CLI_MAX_BYTES = 4 * 2**30  # `ranklab evaluate`'s default --max-bytes
BLOCK = 1 << 24  # bytes read or decompressed per step
BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True, repr=False)
class InMemory:
    """A file's bytes held in memory, under the name to show for it.

    ``str()`` gives the name, as it gives a path's, so the readers name either the same way
    in every ``file:line`` message; the name's suffix gives the format and ``.gz``.

    >>> f = InMemory("run.txt.gz", b"...")
    >>> str(f), is_gz(f)
    ('run.txt.gz', True)
    """

    name: str
    data: bytes

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"InMemory({self.name!r}, <{len(self.data)} bytes>)"


def readable(source, name: str | None = None) -> Path | InMemory:
    """What a reader was given, checked: a path (``name`` None), or bytes with their ``name``.

    >>> readable("qrels.txt"), readable(b"q1 0 d1 1", name="pasted qrels")
    (PosixPath('qrels.txt'), InMemory('pasted qrels', <9 bytes>))
    >>> readable(b"q1 0 d1 1")
    Traceback (most recent call last):
    ...
    TypeError: name: bytes need a name to show in messages (its suffix gives the format), got None
    """
    if isinstance(source, bytes | bytearray | memoryview):
        if not isinstance(name, str):
            raise TypeError("name: bytes need a name to show in messages (its suffix gives the "
                            f"format), got {name!r}")
        return InMemory(name, bytes(source))
    if name is not None:
        raise TypeError(f"name: only bytes take a name (a path is its own), got {name!r}")
    if not isinstance(source, str | Path):
        raise TypeError(f"source: a path or bytes, got {type(source).__name__}")
    return Path(source)


COMPRESSED = (".gz", ".bz2", ".zst")


def is_gz(source: str | Path | InMemory) -> bool:
    """Whether the file is compressed: its name ends in ``.gz``, ``.bz2`` or ``.zst``
    (the name is historical: gzip came first)."""
    return str(source).endswith(COMPRESSED)


def strip_compression(name: str) -> str:
    """A file name without its compression suffix.

    >>> strip_compression("run.txt.zst"), strip_compression("qrels.txt")
    ('run.txt', 'qrels.txt')
    """
    for suffix in COMPRESSED:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def _file(source: str | Path | InMemory) -> Path | InMemory:
    return source if isinstance(source, InMemory) else Path(source)


def raw_size(source: str | Path | InMemory) -> int:
    """Stored bytes (compressed, if the file is); 0 for a pipe or a device."""
    if isinstance(source, InMemory):
        return len(source.data)
    info = Path(source).stat()
    return info.st_size if stat.S_ISREG(info.st_mode) else 0


_raw_size = raw_size


def _raw_blocks(source: str | Path | InMemory, size: int, counter: list[int] | None = None) -> Iterator[bytes]:
    """The stored (not decompressed) bytes in blocks of ``size``; ``counter[0]`` counts them."""
    if isinstance(source, InMemory):
        for start in range(0, len(source.data), size):
            if counter is not None:
                counter[0] += len(source.data[start:start + size])
            yield source.data[start:start + size]
        return
    with open(source, "rb") as f:
        while block := f.read(size):
            if counter is not None:
                counter[0] += len(block)
            yield block


def arrow_stream(source: str | Path | InMemory):
    """A pyarrow input stream over the stored bytes (the format is never guessed from the name)."""
    if isinstance(source, InMemory):
        return pa.BufferReader(source.data)
    return pa.input_stream(str(source), compression=None)


def format_size(n: int) -> str:
    """A byte count in the units people type (MB = 2**20 bytes here, as in ``--max-bytes 500M``)."""
    for unit, size in (("GB", 2**30), ("MB", 2**20), ("KB", 2**10)):
        if n >= size and n % size == 0 or n >= 10 * size:
            value = n / size
            return f"{value:.0f} {unit}" if value == int(value) else f"{value:.1f} {unit}"
    return f"{n} bytes"


_SIZE = re.compile(r"^\s*([0-9]+(?:\.[0-9]+)?)\s*([kmgt]?)(?:i?b)?\s*$", re.IGNORECASE)


def parse_size(text: str) -> int | None:
    """``500M``, ``4G``, ``1.5G``, ``123456`` → bytes (binary units); ``0`` → None (no limit).

    >>> parse_size("500M"), parse_size("4g"), parse_size("0"), parse_size("2KiB")
    (524288000, 4294967296, None, 2048)
    """
    m = _SIZE.match(text)
    if not m:
        raise ValueError(f"a size like 500M, 4G or 0 (no limit), got {text!r}")
    value = float(m.group(1)) * 1024 ** " kmgt".index(m.group(2).lower() or " ")
    return int(value) or None


class FileTooLargeError(FileFormatError):
    """A file over the size limit (``limit`` bytes, plain or decompressed)."""

    def __init__(self, source: str, limit: int, compressed: bool):
        self.limit, self.compressed = limit, compressed
        what = " once decompressed" if compressed else ""
        super().__init__(source, [(None, f"the file is larger than {format_size(limit)}{what} "
                                         f"(limit {format_size(limit)})")])


def _too_large(path: str | Path | InMemory, limit: int, compressed: bool) -> FileTooLargeError:
    return FileTooLargeError(str(path), limit, compressed)


def _decompressed_blocks(path: str | Path | InMemory, limit: int | None, block: int = BLOCK,
                         counter: list[int] | None = None) -> Iterator[bytes]:
    """Decompressed blocks of a .gz, .bz2 or .zst file, never more than ``limit`` bytes in all."""
    name = str(path)
    if name.endswith(".gz"):
        yield from _gunzip_blocks(path, limit, block, counter)
        return
    blocks = _bunzip_blocks(path, block, counter) if name.endswith(".bz2") else _unzstd_blocks(path, block, counter)
    total = 0
    with contextlib.closing(blocks):
        for out in blocks:
            total += len(out)
            if limit is not None and total > limit:
                raise _too_large(path, limit, True)
            yield out


def _bunzip_blocks(path, block: int, counter) -> Iterator[bytes]:
    """A (multi-stream) bzip2 file with Python's bz2 module, ``block`` bytes at most at a time."""
    source = str(path)
    with contextlib.closing(_raw_blocks(path, 1 << 20, counter)) as stored:
        d = bz2.BZ2Decompressor()
        pending, started = b"", False
        while True:
            if not pending and d.needs_input:
                pending = next(stored, b"")
                if not pending:
                    if started:
                        raise FileFormatError(source, [(None, "cannot decompress: the .bz2 file is truncated")])
                    return
            try:
                out = d.decompress(pending, block)
            except (OSError, EOFError, ValueError) as err:
                raise FileFormatError(source, [(None, f"cannot decompress: {err}")]) from None
            started, pending = True, b""
            if out:
                yield out
            if d.eof:
                pending, started = d.unused_data, False
                d = bz2.BZ2Decompressor()
                if not pending:
                    pending = next(stored, b"")
                    if not pending:
                        return


def _unzstd_blocks(path, block: int, counter) -> Iterator[bytes]:
    """A Zstandard file through pyarrow's codec, ``block`` bytes at a time."""
    source = str(path)
    raw = pa.BufferReader(path.data) if isinstance(path, InMemory) else pa.OSFile(source)
    try:
        stream = pa.CompressedInputStream(raw, "zstd")
        while True:
            try:
                out = stream.read(block)
            except (pa.ArrowException, OSError) as err:
                raise FileFormatError(source, [(None, f"cannot decompress: {err}")]) from None
            if counter is not None:
                counter[0] = raw.tell()
            if not out:
                return
            yield out
    finally:
        raw.close()


def _gunzip_blocks(path: str | Path | InMemory, limit: int | None, block: int = BLOCK,
                   counter: list[int] | None = None) -> Iterator[bytes]:
    """Decompressed blocks of a (multi-member) gzip file, never more than ``limit`` bytes."""
    source = str(path)
    total = 0
    with contextlib.closing(_raw_blocks(path, 1 << 20, counter)) as stored:
        d = zlib.decompressobj(wbits=31)
        pending = b""
        started = False  # inside a member
        at_end = False
        while True:
            if not pending and not at_end:
                pending = next(stored, b"")
                at_end = not pending
            if at_end and not pending and not started:
                return  # the end, between two members
            try:
                out = d.decompress(pending, block)  # never more than `block` bytes at once
            except zlib.error as err:
                raise FileFormatError(source, [(None, f"cannot decompress: {err}")]) from None
            started = True
            pending = d.unconsumed_tail
            if out:
                total += len(out)
                if limit is not None and total > limit:
                    raise _too_large(path, limit, True)
                yield out
            if d.eof:
                pending = d.unused_data.lstrip(b"\x00")  # (it holds the unconsumed tail too); zero padding may follow
                d = zlib.decompressobj(wbits=31)
                started = False
            elif at_end and not pending and not out:
                raise FileFormatError(source, [(None, "cannot decompress: the .gz file is truncated")])


def check_size(path: str | Path | InMemory, max_bytes: int | None) -> None:
    """FileTooLargeError for a plain file over the limit (a .gz is checked while it is read)."""
    path = _file(path)
    if max_bytes is not None and not is_gz(path) and _raw_size(path) > max_bytes:
        raise _too_large(path, max_bytes, False)


def iter_blocks(path: str | Path | InMemory, max_bytes: int | None = None, block: int = BLOCK,
                counter: list[int] | None = None) -> Iterator[bytes]:
    """The file's bytes in blocks (decompressed for .gz, .bz2, .zst), at most ``max_bytes``.

    ``counter[0]``, if given, follows the stored bytes read so far (for a progress bar).
    """
    path = _file(path)
    if is_gz(path):
        yield from _decompressed_blocks(path, max_bytes, block, counter)
        return
    check_size(path, max_bytes)
    total = 0
    for data in _raw_blocks(path, block, counter):
        total += len(data)
        if max_bytes is not None and total > max_bytes:  # grew while being read
            raise _too_large(path, max_bytes, False)
        yield data


def read_bytes(path: str | Path | InMemory, max_bytes: int | None = None) -> bytes:
    """The whole file (gunzipped when the name ends in .gz), or FileFormatError past ``max_bytes``.

    >>> read_bytes(InMemory("q.txt", b"q1 0 d1 1\\n"))
    b'q1 0 d1 1\\n'
    >>> read_bytes(InMemory("q.txt", b"q1 0 d1 1\\n"), max_bytes=4)
    Traceback (most recent call last):
    ...
    metrics.io.source.FileTooLargeError: q.txt: the file is larger than 4 bytes (limit 4 bytes)
    """
    path = _file(path)
    if isinstance(path, InMemory) and not is_gz(path):
        check_size(path, max_bytes)
        return path.data
    if not isinstance(path, InMemory) and not is_gz(path) and stat.S_ISREG(path.stat().st_mode):
        check_size(path, max_bytes)
        data = path.read_bytes()
        if max_bytes is not None and len(data) > max_bytes:
            raise _too_large(path, max_bytes, False)
        return data
    blocks = list(iter_blocks(path, max_bytes))  # a .gz, or a pipe or device: read up to the limit
    if len(blocks) == 1:
        return blocks[0]
    data = b"".join(blocks)
    del blocks
    return data


def head_bytes(path: str | Path | InMemory, size: int = 1 << 16) -> bytes:
    """The first ``size`` bytes (decompressed); a corrupt .gz gives what could be read."""
    path = _file(path)
    if not is_gz(path):
        with contextlib.closing(_raw_blocks(path, size)) as stored:
            return next(stored, b"")
    out = b""
    try:
        for block in _decompressed_blocks(path, None, size):
            out += block
            if len(out) >= size:
                break
    except FileFormatError:
        pass
    return out[:size]


def normalise_line_ends(data: bytes) -> bytes:
    """Drop a leading byte-order mark; ``\\r\\n`` and lone ``\\r`` become ``\\n``."""
    data = data.removeprefix(BOM)
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return data


_COMMENT = re.compile(rb"(?m)^[ \t\f\v]*#[^\n]*")
_BLANK_LINE = re.compile(rb"(?m)^[ \t\f\v]+$")


def by_chunks(data: bytes, transform, size: int = 1 << 20) -> bytes:
    """``transform`` applied to pieces of about ``size`` bytes cut at line ends, joined.

    ``re.sub`` keeps every piece of its result as a separate object until it joins them: on a
    whole file with a match per line that is ~20 bytes of memory per byte. Cut into pieces,
    the overhead stays a few MB.
    """
    if len(data) <= size:
        return transform(data)
    out = []
    start = 0
    while start < len(data):
        end = data.find(b"\n", start + size)
        end = len(data) if end < 0 else end + 1
        out.append(transform(data[start:end]))
        start = end
    return b"".join(out)


def _blank_comments(data: bytes) -> bytes:
    if b"#" in data:
        data = _COMMENT.sub(b"", data)
    if b" \n" in data or b"\t\n" in data or b"\n " in data or b"\n\t" in data or data[:1] in (b" ", b"\t") \
            or b"\f" in data or b"\v" in data or data[-1:] in (b" ", b"\t"):
        data = _BLANK_LINE.sub(b"", data)
    return data


def blank_comments(data: bytes) -> bytes:
    """Comment lines and whitespace-only lines emptied, so every line keeps its number.

    ``data`` must have ``\\n`` line ends (see :func:`normalise_line_ends`).
    """
    return by_chunks(data, _blank_comments)


def nonempty_lines(data: bytes) -> np.ndarray:
    """1-based numbers of the non-empty lines of ``\\n``-separated bytes (vectorised)."""
    arr = np.frombuffer(data, dtype=np.uint8)
    ends = np.flatnonzero(arr == 10)
    starts = np.r_[0, ends + 1]
    stops = np.r_[ends, arr.size]
    keep = stops > starts
    return np.flatnonzero(keep) + 1


def has_irregular_layout(data: bytes, *, delimiter: bytes = b" ", first: bool = True, last: bool = True) -> bool:
    r"""Whether bytes hold anything the fast path must not see (vectorised, no Python per line).

    For TREC files (``delimiter=b" "``): a tab, CR, form feed, vertical tab, two spaces in a
    row, a line starting with a space or ``#``, a trailing space, or a BOM. For CSV
    (``b","``) and TSV (``b"\t"``) spaces and tabs inside a line are data, but CR and a line
    starting with blanks or ``#`` need the careful pass. ``first``/``last`` say whether
    ``data`` holds the file's start/end (for a file scanned block by block).

    A few harmless layouts are flagged too (a blank line, ``!``, ``"`` or ``#`` next to a
    space in a TREC file): they only take the careful path.

    >>> has_irregular_layout(b"q1 0 d1 1\n"), has_irregular_layout(b"q1 0 d1 1\n#c\n")
    (False, True)
    >>> has_irregular_layout(b"qid,doc,grade\nq1,my doc,1\n", delimiter=b",")
    False
    """
    if first and (data.startswith(BOM) or data[:1] in (b" ", b"#", b"\t", b"\f", b"\v")):
        return True
    if b"\r" in data or b"\f" in data or b"\v" in data:
        return True
    a = np.frombuffer(data, dtype=np.uint8)
    if delimiter == b" ":
        if (last and data.endswith(b" ")) or b"\t" in data:
            return True
        # bytes <= 35 are controls, space, '!', '"' and '#': two in a row cover two spaces,
        # a newline then a space or '#', and a space before a newline
        small = np.less_equal(a, 35)
        both = np.logical_and(small[1:], small[:-1], out=small[:-1])  # in place: no second array
        return bool(both.any())
    newline = a[:-1] == 10
    after = a[1:]
    return bool((newline & ((after == 35) | (after == 32) | (after == 9))).any())


def file_has_irregular_layout(path: str | Path | InMemory, max_bytes: int | None, *, delimiter: bytes = b" ") -> bool:
    """:func:`has_irregular_layout` on a plain file, block by block (bounded memory).

    Blocks of 256 KiB stay in the CPU cache, and the allocator reuses their memory.
    """
    prev = b""
    first = True
    for block in iter_blocks(path, max_bytes, 1 << 18):
        if has_irregular_layout(block, delimiter=delimiter, first=first, last=False):
            return True
        if prev and has_irregular_layout(prev + block[:1], delimiter=delimiter, first=False, last=False):
            return True  # two bytes across the cut
        prev, first = block[-1:], False
    return delimiter == b" " and prev == b" "
