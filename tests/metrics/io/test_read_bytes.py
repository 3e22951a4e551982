"""Every reader takes a path, or the file's bytes with a display name, and treats them alike.

The same file is read from a path (a relative one, so the path is the name) and from its
bytes under that name: the tables are equal, and so are the error messages, which name it.
The expected tables and messages are written here by hand from the files' text.
"""

from __future__ import annotations

import gzip
import tempfile

import pytest

from metrics.io import read_qrels, read_run
from metrics.io.source import InMemory, readable
from metrics.qa import read_predictions, read_squad

CRLF_QRELS = b"# judged by hand\r\nq1 0 d1 2\r\nq1 0 d2 0\r\n\r\nq2 0 d3 1\r\n"
QRELS = {"q1": {"d1": 2, "d2": 0}, "q2": {"d3": 1}}

# (name, bytes, kind, nested dicts)
GOOD = [
    ("qrels.txt", CRLF_QRELS, "qrels", QRELS),
    ("qrels.txt.gz", gzip.compress(CRLF_QRELS), "qrels", QRELS),
    ("run.txt", b"q1 Q0 d2 1 3.5 bm25\nq1 Q0 d1 2 1.25 bm25\n", "run", {"q1": {"d2": 3.5, "d1": 1.25}}),
    ("list.txt", b"q1 d2\nq1 d1\n", "run", {"q1": {"d2": 0.0, "d1": -1.0}}),  # file order: 0, -1
    ("gt.jsonl", b'{"query_id": "q1", "ground_truth": [{"filename": "a.pdf", "page_number": 3, '
                 b'"grade": 2}, {"filename": "b.pdf", "page_number": 1}]}\n', "qrels",
     {"q1": {"a.pdf#3": 2, "b.pdf#1": 1}}),  # grade defaults to 1
    ("res.jsonl.gz", gzip.compress(b'{"query_id": "q1", "results": ["x", "y"]}\n'), "run",
     {"q1": {"x": 0.0, "y": -1.0}}),
    ("qrels.csv", b"qid,docid,grade\nq1,my doc,1\n", "qrels", {"q1": {"my doc": 1}}),
    ("run.tsv", b"qid\tdocid\tscore\nq1\ta\t2.0\nq1\tb\t1.0\n", "run", {"q1": {"a": 2.0, "b": 1.0}}),
]

# (name, bytes, kind, max_bytes, the message written by hand, or None: only the start known)
BAD = [
    ("qrels.txt", b"q1 0 d1 1\nq1 0 d2 x\n", "qrels", None, "qrels.txt:2: grade 'x' is not an integer"),
    ("qrels.txt", b"q1 0 d1 1\nq1 0 d1 0\n", "qrels", None,
     "qrels.txt:1: query q1: document 'd1' is judged 2 times (lines 1 and 2)"),
    ("qrels.txt", b"", "qrels", None, "qrels.txt: the file is empty"),
    ("qrels.txt", b"q1 0 d1 1\nq1 0 d2 1\n", "qrels", 10,  # 20 bytes
     "qrels.txt: the file is larger than 10 bytes (limit 10 bytes)"),
    ("qrels.txt.gz", gzip.compress(b"q1 0 d1 1\n" * 10), "qrels", 50,  # 100 bytes once decompressed
     "qrels.txt.gz: the file is larger than 50 bytes once decompressed (limit 50 bytes)"),
    ("qrels.txt.gz", b"not gzip at all", "qrels", None, "qrels.txt.gz: cannot decompress: "),
    ("run.txt.gz", gzip.compress(b"q1 Q0 d1 1 1.0 t\n" * 50)[:-12], "run", None,
     "run.txt.gz: cannot decompress"),
    ("run.txt", b"q1 Q0 d1 1 inf t\n", "run", None, "run.txt:1: score 'inf' is not a finite number"),
    ("run.txt", b"q1 Q0 d\xff 1 1.0 t\n", "run", None, "run.txt:1: undecodable bytes"),
    ("gt.jsonl", b'\n{"query_id": "q1"}\n', "qrels", None, "gt.jsonl:2: "),
    ("qrels.csv", b"qid,grade\nq1,1\n", "qrels", None, "qrels.csv:1: "),
]


def _read(kind, source, **options):
    return (read_qrels if kind == "qrels" else read_run)(source, **options)


@pytest.mark.parametrize(("name", "data", "kind", "expected"), GOOD, ids=[c[0] for c in GOOD])
def test_a_path_and_its_bytes_give_equal_tables(name, data, kind, expected, tmp_path, monkeypatch):
    (tmp_path / name).write_bytes(data)
    monkeypatch.chdir(tmp_path)
    from_path = _read(kind, name)
    from_bytes = _read(kind, data, name=name)
    assert from_path.to_dict() == from_bytes.to_dict() == expected
    assert from_path.source == from_bytes.source == name
    assert from_path.doc.to_pylist() == from_bytes.doc.to_pylist()  # the same order
    if kind == "run":
        assert from_path.tag == from_bytes.tag


@pytest.mark.parametrize(("name", "data", "kind", "max_bytes", "message"), BAD,
                         ids=[f"{c[0]}:{c[4][len(c[0]):][:30]}" for c in BAD])
def test_a_path_and_its_bytes_give_equal_messages_naming_the_file(name, data, kind, max_bytes, message,
                                                                  tmp_path, monkeypatch):
    (tmp_path / name).write_bytes(data)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError) as from_path:
        _read(kind, name, max_bytes=max_bytes)
    with pytest.raises(ValueError) as from_bytes:
        _read(kind, data, name=name, max_bytes=max_bytes)
    assert str(from_path.value) == str(from_bytes.value)
    assert str(from_bytes.value).startswith(message)


def test_the_name_gives_the_format_and_gzip():
    data = b"qid,docid,grade\nq1,d1,1\n"
    assert read_qrels(data, name="judgments.csv").to_dict() == {"q1": {"d1": 1}}
    assert read_qrels(gzip.compress(data), name="judgments.csv.gz").to_dict() == {"q1": {"d1": 1}}
    with pytest.raises(ValueError, match=r"^judgments\.txt:1: expected 4 columns"):
        read_qrels(data, name="judgments.txt")  # a TREC file by its name: one column per line
    assert read_qrels(bytearray(b"q1 0 d1 1\n"), name="q").to_dict() == {"q1": {"d1": 1}}


def test_bytes_need_a_name_and_a_path_takes_none():
    with pytest.raises(TypeError, match="name"):
        read_qrels(b"q1 0 d1 1\n")
    with pytest.raises(TypeError, match="name"):
        read_run("run.txt", name="other.txt")
    with pytest.raises(TypeError, match="source"):
        readable(42)
    assert str(readable(b"", name="x.gz")) == "x.gz" and isinstance(readable(b"", name="x"), InMemory)


SQUAD = (b'{"data": [{"paragraphs": [{"qas": [\n'
         b'  {"id": "q1", "question": "Who won?", "answers": [{"text": "Denver Broncos"}]},\n'
         b'  {"id": "q2", "question": "Why?", "answers": [], "is_impossible": true}]}]}]}\n')
PREDICTIONS = b'# best first\n{"id": "q1", "answers": ["Broncos", "Denver"]}\n{"id": "q2", "answers": []}\n'

# (reader, name, bytes, what it reads, or the start of its message)
QA_CASES = [
    (read_squad, "dev.json", SQUAD, {"q1": ["Denver Broncos"], "q2": []}),
    (read_squad, "dev.json.gz", gzip.compress(SQUAD), {"q1": ["Denver Broncos"], "q2": []}),
    (read_predictions, "preds.jsonl", PREDICTIONS, {"q1": ["Broncos", "Denver"], "q2": []}),
    (read_predictions, "preds.json", b'{"q1": "Broncos",\n "q2": null}', {"q1": ["Broncos"], "q2": [None]}),
    (read_squad, "dev.json", SQUAD.replace(b'"Why?"', b"7"), 'dev.json:3: q2: "question" must be a string, got 7'),
    # 36 bytes of line 1, then '  {"' opens a string at line 2, column 4
    (read_squad, "dev.json", SQUAD[:40], "dev.json:2:4: malformed JSON: Unterminated string"),
    (read_squad, "dev.json.gz", b"\x1f\x8b broken", "dev.json.gz: cannot decompress"),
    (read_predictions, "preds.jsonl", PREDICTIONS.replace(b'"id": "q2"', b'"id": "q1"'),
     "preds.jsonl:3: q1: question id appears twice (first at line 2)"),
    (read_predictions, "preds.json", b'{"q1": "a",\n "q1": "b"}', "preds.json:2: key 'q1' appears twice"),
    (read_predictions, "preds.json", b'{"q1": "\xff"}', "preds.json:1: not UTF-8 text (byte 0xff)"),
]


@pytest.mark.parametrize(("reader", "name", "data", "expected"), QA_CASES,
                         ids=[f"{c[1]}-{i}" for i, c in enumerate(QA_CASES)])
def test_qa_files_from_a_path_and_from_bytes_alike(reader, name, data, expected, tmp_path, monkeypatch):
    (tmp_path / name).write_bytes(data)
    monkeypatch.chdir(tmp_path)
    if isinstance(expected, dict):
        from_path, from_bytes = reader(name), reader(data, name=name)
        assert from_path == from_bytes  # dataclasses: every field equal, the name included
        assert from_bytes.answers == expected and from_bytes.path == name
        return
    with pytest.raises(ValueError) as from_path:
        reader(name)
    with pytest.raises(ValueError) as from_bytes:
        reader(data, name=name)
    assert str(from_path.value) == str(from_bytes.value)
    assert str(from_bytes.value).startswith(expected)


def test_qa_size_limit_names_the_file(monkeypatch):
    from metrics.qa import files

    monkeypatch.setattr(files, "MAX_FILE_BYTES", 100)
    with pytest.raises(ValueError, match=r"^dev\.json: the file is larger than 100 bytes \(limit 100 bytes\)"):
        read_squad(SQUAD, name="dev.json")  # 165 bytes
    assert len(SQUAD) > 100


def test_bytes_are_read_without_a_temporary_file(no_temporary_files):
    for name, data, kind, expected in GOOD:
        assert _read(kind, data, name=name).to_dict() == expected, name
    for reader, name, data, expected in QA_CASES[:4]:
        assert reader(data, name=name).answers == expected, name
    with pytest.raises(AssertionError, match="temporary"):
        tempfile.TemporaryDirectory()  # the fixture works


def _outcome(kind, source, **options):
    """What a reader gives: its table, or its error's type and message."""
    try:
        data = _read(kind, source, **options)
    except (ValueError, TypeError) as err:
        return type(err).__name__, str(err)
    return data.to_dict(), data.source, getattr(data, "tag", None)


@pytest.mark.parametrize("seed", range(3))
def test_malformed_files_from_a_path_and_from_bytes_alike(seed, tmp_path, monkeypatch):
    """The fuzzers' mutations of every format, plain and .gz (damaged too): reading the bytes
    gives what reading the file gives, tables or messages."""
    import random

    from tests.fuzzing import SEEDS, gz_mutate, mutate

    rnd = random.Random(seed)
    monkeypatch.chdir(tmp_path)
    kinds = set()
    for i in range(40):
        kind, name, text = rnd.choice(SEEDS)
        _, data = mutate(text.encode(), rnd) if rnd.random() < 0.8 else ("none", text.encode())
        if rnd.random() < 0.3:
            name += ".gz"
            data = gzip.compress(data, mtime=0)
            if rnd.random() < 0.5:
                _, data = gz_mutate(data, rnd)
        name = f"{i}-{name}"
        (tmp_path / name).write_bytes(data)
        max_bytes = rnd.choice([None, None, 1 << 20, 200])
        from_path = _outcome(kind, name, max_bytes=max_bytes)
        from_bytes = _outcome(kind, data, name=name, max_bytes=max_bytes)
        assert from_path == from_bytes, (name, data[:200])
        kinds.add("error" if isinstance(from_path[0], str) else "table")
    assert kinds == {"table", "error"}  # both outcomes were compared
