"""The strict first pass of the TREC reader reads every file exactly as the
older passes do, or steps aside.

The oracle is the reader itself with the strict pass switched off (``strict=False``: the
byte scan ``has_irregular_layout``, the normalising pass and the line-by-line pass). On
thousands of near-valid files made with a fixed seed, both must give
the same query ids, codes, document ids, values and tag, or the same error message naming
the same ``file:line``s.
"""

from __future__ import annotations

import math
import random

import pytest

from metrics.io import trec
from metrics.io.model import FileFormatError
from metrics.io.source import BOM, InMemory, has_irregular_layout

SEED = 20261125

# pieces a mutation puts somewhere in a line: blanks, line ends, comments, quotes, bad bytes
INSERTS = [b" ", b"  ", b"\t", b"\r", b"\r\n", b"\n", b"\n\n", b"\f", b"\v", b"#", b"!", b'"', b"\x00",
           b"\xff", "é".encode(), b"x", b"-", b"0", b".", b"e", BOM, b" #c", b"\n#c\n", b"\n \n"]
NUMBERS = ["1", "-2", "0.5", ".5", "5.", "1e-3", "inf", "nan", "1e400", "0x10", "1_0", "+3", "-", "", "٣"]


def _line(kind: str, rnd: random.Random) -> bytes:
    q, d = f"q{rnd.randint(1, 4)}", f"d{rnd.randint(1, 9)}"
    number = rnd.choice(NUMBERS) if rnd.random() < 0.1 else str(rnd.randint(-1, 3))
    parts = {"run": [q, "Q0", d, str(rnd.randint(1, 9)), number, "tag"], "qrels": [q, "0", d, number],
             "list": [q, d]}[kind]
    if kind == "run" and rnd.random() < 0.1:
        parts.append("extra")
    return " ".join(parts).encode()


def _mutate(data: bytes, rnd: random.Random) -> bytes:
    for _ in range(rnd.choice([0, 0, 1, 1, 2])):
        at = rnd.randint(0, len(data))
        if rnd.random() < 0.8:
            data = data[:at] + rnd.choice(INSERTS) + data[at:]
        else:
            data = data[:at] + data[at + rnd.randint(1, 3):]
    return data


def _case(rnd: random.Random) -> tuple[str, bytes]:
    kind = rnd.choice(["run", "run", "qrels", "list"])
    lines = [_line(kind, rnd) for _ in range(rnd.randint(1, 8))]
    if rnd.random() < 0.5:  # grouped by query, as TREC runs are
        lines.sort(key=lambda line: line.split(b" ", 1)[0])
    data = b"\n".join(lines) + (b"\n" if rnd.random() < 0.9 else b"")
    if rnd.random() < 0.03:
        data = BOM + data
    return kind, _mutate(data, rnd)


def _outcome(data: bytes, kind: str, **options):
    first = trec._first_data_line(data[: 1 << 16])
    if kind == "list" and len(first) != 2:
        kind = "run"  # as read_trec_run's "auto"
    try:
        queries, codes, docs, values, tag = trec._read(InMemory("f.txt", data), kind, None, first, **options)
    except FileFormatError as err:
        return "error", str(err)
    values = None if values is None else [("nan" if math.isnan(v) else v) for v in values.tolist()]
    return queries, codes.tolist(), docs.to_pylist(), values, tag


@pytest.mark.parametrize("threads, block", [(True, None), (False, None), (True, 24)])
def test_strict_pass_reads_as_the_older_passes(threads, block, monkeypatch):
    """``block``: a large file's pass 0 in blocks, made tiny so that most cases take it."""
    if block:
        monkeypatch.setattr(trec, "STRICT_BLOCK", block)
    rnd = random.Random(SEED)
    strict_used = irregular_but_strict = errors = 0
    for _ in range(3000):
        kind, data = _case(rnd)
        old = _outcome(data, kind, strict=False)
        new = _outcome(data, kind, threads=threads)
        assert new == old, (kind, data)
        errors += old[0] == "error"
        first = trec._first_data_line(data[: 1 << 16])
        if first and not trec._has_controls(data):
            from pyarrow import BufferReader

            used = trec._strict_read(BufferReader(data), kind if kind != "list" or len(first) == 2 else "run",
                                     len(first), threads) is not None
            strict_used += used
            irregular_but_strict += used and has_irregular_layout(data)
    # the comparison covers all three kinds of outcome
    assert strict_used > 1000 and irregular_but_strict > 20 and errors > 300


@pytest.mark.parametrize("data, reason", [
    (b"q1 Q0 d1 1 2 t\nq1  Q0 d2 2 1 t\n", "two spaces: an empty field"),
    (b"q1 Q0 d1 1 2 t\n q1 Q0 d2 2 1 t\n", "a line starting with a space"),
    (b"q1 Q0 d1 1 2 t \n", "a trailing space"),
    (b"q1 Q0 d1 1 2 t\n#q1 Q0 d2 2 1 t\n", "a comment line with six columns"),
    (b"q1 Q0 d1 1 2 t\n\xffq Q0 d2 2 1 t\n", "a query id that is not UTF-8"),
    (b"q1 Q0 d1 1 2 t\nq1 Q0 d2 2 1\n", "a row of five columns"),
])
def test_strict_pass_steps_aside(data, reason):
    """Each layout the byte scan sends to the careful passes, the strict pass refuses too."""
    from pyarrow import BufferReader

    assert trec._strict_read(BufferReader(data), "run", 6) is None, reason


@pytest.mark.parametrize("data", [b"q1 Q0 d1 1\t2 t\n", b"q1 Q0 d1 1 2 t\r\n", b"q1 Q0 d1\f1 2 t\n",
                                  b"q1\vQ0 d1 1 2 t\n", BOM + b"q1 Q0 d1 1 2 t\n"])
def test_control_bytes_skip_the_strict_pass(data):
    assert trec._has_controls(data)


def test_messages_name_the_line_as_before():
    # hand-checked: line 3 has five columns, line 4 a score that is not a number
    data = b"q1 Q0 d1 1 2 t\n\nq1 Q0 d2 2 1\nq1 Q0 d3 3 x t\n"
    outcome = _outcome(data, "run")
    assert outcome == ("error", "f.txt:3: expected 6 columns (qid Q0 docid rank score tag), found 5\n"
                                "f.txt:4: score 'x' is not a number")


def test_buffered_blocks_are_the_mapped_blocks(tmp_path):
    """The reused-buffer reader cuts a plain file exactly where the memory-mapped one does
    (messages count lines through the latter): long lines, lone CRs, no final line end."""
    from metrics.io.stream import RunStream

    rnd = random.Random(SEED)
    for case in range(200):
        pieces = [rnd.choice([b"q1 Q0 d 1 2 t", b"x" * rnd.randint(0, 40), b""]) + rnd.choice([b"\n", b"\r", b"\r\n"])
                  for _ in range(rnd.randint(1, 30))]
        data = b"".join(pieces)[: None if rnd.random() < 0.7 else -1]
        path = tmp_path / f"run{case}.txt"
        path.write_bytes(data)
        stream = RunStream(path, block_size=rnd.randint(1, 64))
        mapped = list(stream._mapped_blocks(None))
        buffers = rnd.randint(1, 3)
        buffered, held = [], []
        for view in stream._buffered_blocks(None, buffers):
            held = [*held, (len(buffered), view)][-buffers:]  # the views the caller may still use
            buffered.append(bytes(view))
            assert all(bytes(v) == mapped[i] for i, v in held)
        assert buffered == mapped and b"".join(buffered) == data


def test_streamed_reader_falls_back_on_an_undecodable_document(tmp_path):
    """A block that passes the strict parse but holds a document id that is not UTF-8 gets
    the careful pass's message, with the file's line number (hand-counted: line 3)."""
    from metrics.io.stream import RunStream

    path = tmp_path / "run.txt"
    path.write_bytes(b"q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq2 Q0 \xff 1 1 t\n")
    with pytest.raises(FileFormatError) as err:
        list(RunStream(path, block_size=16))
    assert str(err.value) == f"{path}:3: undecodable bytes at column 7 (the file must be UTF-8)"


def test_grade_text_check_equals_the_grade_regex():
    """The vectorised grade check accepts exactly what ``GRADE`` (the careful pass's regex)
    accepts, on random strings, whole arrays and slices of them."""
    import pyarrow as pa

    rnd = random.Random(SEED)
    alphabet = ["0", "1", "9", "+", "-", " ", "x", "٣", ".", "7", "4"]
    for _ in range(3000):
        texts = ["".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 11))) for _ in range(rnd.randint(1, 4))]
        if rnd.random() < 0.5:
            texts = [rnd.choice(["", "-", "+"]) + str(rnd.randint(0, 10 ** rnd.randint(1, 10))) for _ in texts]
        array = pa.array(["7"] + texts)[1:]  # a slice: offsets that do not start at 0
        expected = all(trec.GRADE.fullmatch(t.encode()) for t in texts)
        assert trec._integer_text(array) == expected, texts
        if expected:  # and their values, as Python's int reads them (up to 9 digits here)
            got = trec._small_integers(array)
            assert got is None or got.tolist() == [int(t) for t in texts], texts
    long = pa.array(["1234567890", "5"])
    assert trec._small_integers(long) is None  # ten digits: pyarrow's cast instead


def test_streamed_block_with_a_tab_deep_inside(tmp_path):
    """A tab far into a large block (past the first windows of the control-byte scan) still
    sends the block to the careful passes: the line reads as whitespace-separated columns
    (hand-worked: 'q9 Q0 d\\t5 1 2 t' is q9, Q0, d, 5, 1, 2, t, so document d scores 1)."""
    from metrics.io.stream import RunStream

    lines = [f"q{i // 1000} Q0 doc{i} {i % 1000 + 1} {1000 - i % 1000} t" for i in range(9000)]
    path = tmp_path / "run.txt"
    path.write_bytes(("\n".join(lines) + "\nq9 Q0 d\t5 1 2 t\n").encode())
    chunks = list(RunStream(path, block_size=1 << 20))
    last = chunks[-1]
    assert last.queries[-1] == "q9" and last.doc[-1].as_py() == "d" and last.score[-1] == 1.0


def test_strict_pass_in_blocks_on_files(tmp_path, monkeypatch):
    """A plain file's pass 0 in blocks (read from disk, cut after line feeds) gives what the
    older passes give on the same bytes."""
    monkeypatch.setattr(trec, "STRICT_BLOCK", 20)
    rnd = random.Random(SEED + 1)
    for case in range(300):
        kind, data = _case(rnd)
        first = trec._first_data_line(data[: 1 << 16])
        if kind == "list" and len(first) != 2:
            kind = "run"
        path = tmp_path / f"f{case}.txt"
        path.write_bytes(data)
        try:
            queries, codes, docs, values, tag = trec._read(path, kind, None, first)
            new = (queries, codes.tolist(), docs.to_pylist(), None if values is None else values.tolist(), tag)
        except FileFormatError as err:
            new = ("error", str(err).replace(str(path), "f.txt"))
        old = _outcome(data, kind, strict=False)
        if old[0] != "error" and old[3] is not None:
            new = new[:3] + ([("nan" if math.isnan(v) else v) for v in new[3]],) + new[4:]
        assert new == old, data


@pytest.mark.parametrize("where", [1 << 22, (1 << 22) + 7, 3000])
def test_a_byte_order_mark_starting_a_line_deep_inside(where, monkeypatch):
    """pyarrow drops a BOM at the start of what it parses: a BOM starting a line where pass 0
    (or pyarrow itself, every 4 MB) cuts the file must not vanish. Oracle: the older passes."""
    monkeypatch.setattr(trec, "STRICT_BLOCK", 4096)
    lines = [f"q{i // 1000} Q0 doc{i} {i % 1000 + 1} {1000 - i % 1000} t\n".encode() for i in range(160_000)]
    data = b"".join(lines)
    cut = data.index(b"\n", where) + 1  # a line start at or just past ``where``
    data = data[:cut] + BOM + data[cut:]
    first = trec._first_data_line(data[: 1 << 16])
    new = trec._read(InMemory("f.txt", data), "run", None, first)
    old = trec._read(InMemory("f.txt", data), "run", None, first, strict=False)
    assert new[0] == old[0] and new[1].tolist() == old[1].tolist()
    assert new[2].to_pylist() == old[2].to_pylist() and new[3].tolist() == old[3].tolist()
