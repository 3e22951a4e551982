"""Readers against hostile and odd input: one regression test per finding, and a
property test that every odd-but-legal layout of a file reads exactly as the plain file.

Expected numbers are worked out by hand in the comments, never copied from our output.
"""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
import textwrap
import zlib
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from metrics import evaluate
from metrics.batch import evaluate_batch
from metrics.io import APP_MAX_BYTES, FileFormatError, parse_size, read_qrels, read_run
from metrics.io.source import FileTooLargeError, has_irregular_layout
from tests.strength import scaled

ROOT = Path(__file__).resolve().parents[3]


def write(folder: Path, name: str, content: str | bytes) -> Path:
    path = folder / name
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    return path


def ranklab(*args, timeout=60):
    return subprocess.run([sys.executable, "-m", "metrics", *map(str, args)], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def message(call) -> str:
    with pytest.raises(FileFormatError) as err:
        call()
    return str(err.value)


# ----------------------------------------------------------------------------- 1. no crash


@pytest.mark.parametrize("name, content, reason", [
    # pyarrow's JSON reader died with SIGSEGV on both of these
    ("null_first.jsonl", 'null\n{"query_id":"q1","ground_truth":["d1"]}\n', "1: expected a JSON object, found null"),
    ("deep.jsonl", "[" * 10_000 + "]" * 10_000 + "\n", "1: JSON nested too deeply"),
    ("deep_objects.jsonl", '{"a":' * 10_000 + "1" + "}" * 10_000 + "\n", "1: JSON nested too deeply"),
])
def test_json_that_crashed_the_process_is_a_named_error(tmp_path, name, content, reason):
    qrels = write(tmp_path, name, content)
    run = write(tmp_path, "run.txt", "q1 Q0 d1 1 2.0 x\n")
    result = ranklab("evaluate", qrels, run, "-m", "P_1")  # a subprocess: a segfault fails the test
    assert result.returncode == 1, result.stderr
    assert result.stderr == f"ranklab: error: {qrels}:{reason}\n"


def test_a_huge_integer_in_json_is_a_named_error(tmp_path):
    qrels = write(tmp_path, "gt.jsonl", '{"query_id": "q1", "ground_truth": [{"filename": "a", "page_number": '
                                        + "9" * 5000 + "}]}\n")
    assert message(lambda: read_qrels(qrels)).startswith(f"{qrels}:1: not valid JSON (")


# ----------------------------------------------------------------------------- 2. size limits


def gz(data: bytes) -> bytes:
    return gzip.compress(data, compresslevel=9, mtime=0)


@pytest.mark.perf
def test_gzip_bomb_stops_at_the_limit_with_bounded_memory(tmp_path):
    bomb = write(tmp_path, "qrels.txt.gz", gz(b"q1 0 d1 1\n" + b"q1 0 d2 0" + b" " * (100 * 2**20) + b"\n"))
    assert bomb.stat().st_size < 200_000  # ~100 KB that expands to 100 MB
    script = textwrap.dedent(f"""
        import resource, time
        from metrics.io import FileFormatError, read_qrels
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        start = time.perf_counter()
        try:
            read_qrels({str(bomb)!r}, max_bytes=10 * 2**20)
        except FileFormatError as err:
            print(err)
        print(time.perf_counter() - start)
        print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)  # KiB
    """)
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    text, seconds, grown_kib = out.stdout.splitlines()
    assert text == f"{bomb}: the file is larger than 10 MB once decompressed (limit 10 MB)"
    assert float(seconds) < 5
    assert int(grown_kib) < 64 * 1024  # stopped near 10 MB, not at 100 MB


def test_a_file_at_the_limit_reads_and_one_byte_more_does_not(tmp_path):
    content = b"q1 0 d1 1\nq1 0 d2 0\n"  # 20 bytes
    for name, data in (("q.txt", content), ("q.txt.gz", gz(content))):
        path = write(tmp_path, name, data)
        assert read_qrels(path, max_bytes=20).to_dict() == {"q1": {"d1": 1, "d2": 0}}
        with pytest.raises(FileTooLargeError) as err:
            read_qrels(path, max_bytes=19)
        assert "the file is larger than 19 bytes" in str(err.value)
        assert isinstance(err.value, FileFormatError) and err.value.limit == 19
    assert read_run(write(tmp_path, "r.txt", "q1 Q0 d1 1 1 t\n"), max_bytes=None).to_dict() == {"q1": {"d1": 1.0}}


def test_app_limit_and_cli_sizes():
    assert APP_MAX_BYTES == 256 * 2**20
    assert parse_size("500M") == 500 * 2**20
    assert parse_size("4G") == 4 * 2**30
    assert parse_size("1.5K") == 1536
    assert parse_size("0") is None  # no limit
    with pytest.raises(ValueError):
        parse_size("lots")


def test_cli_max_bytes(tmp_path):
    qrels = write(tmp_path, "q.txt.gz", gz(b"q1 0 d1 1\n" * 300))  # 3,000 bytes decompressed
    run = write(tmp_path, "r.txt", "q1 Q0 d1 1 1 t\n")
    small = ranklab("evaluate", qrels, run, "-m", "P_1", "--max-bytes", "2K")
    assert small.returncode == 1
    assert small.stderr == (f"ranklab: error: {qrels}: the file is larger than 2 KB once decompressed "
                            f"(limit 2 KB); raise it with --max-bytes SIZE (0 = no limit)\n")
    assert "is judged 300 times" in ranklab("evaluate", qrels, run, "--max-bytes", "0").stderr
    bad = ranklab("evaluate", qrels, run, "--max-bytes", "lots")
    assert bad.returncode == 2 and "--max-bytes" in bad.stderr
    assert "--max-bytes" in ranklab("evaluate", "--help").stdout


def test_multi_member_corrupt_and_truncated_gzip(tmp_path):
    two = write(tmp_path, "run.txt.gz", gz(b"q1 Q0 a 1 2 t\n") + gz(b"q1 Q0 b 2 1 t\n"))
    assert read_run(two).to_dict() == {"q1": {"a": 2.0, "b": 1.0}}
    whole = gz(b"q1 0 d1 1\n" * 1000)
    truncated = write(tmp_path, "t.txt.gz", whole[:-12])
    assert message(lambda: read_qrels(truncated)) == f"{truncated}: cannot decompress: the .gz file is truncated"
    corrupt = write(tmp_path, "c.txt.gz", whole[:20] + bytes(b ^ 0xFF for b in whole[20:40]) + whole[40:])
    assert message(lambda: read_qrels(corrupt)).startswith(f"{corrupt}: cannot decompress")
    not_gzip = write(tmp_path, "n.jsonl.gz", b'{"query_id": "q1"}\n')
    assert message(lambda: read_qrels(not_gzip)).startswith(f"{not_gzip}: cannot decompress")
    with pytest.raises(zlib.error):  # what the readers used to let through
        zlib.decompress(corrupt.read_bytes(), wbits=31)


def test_gzip_members_larger_than_a_decompression_block(tmp_path):
    from metrics.io.source import BLOCK, read_bytes

    first = b"0123456789abcdef" * (BLOCK // 16 + 12345)  # more than one block out of one input chunk
    second = b"q1 0 d1 1\n"
    path = write(tmp_path, "big.gz", gz(first) + gz(second) + b"\x00" * 8)
    data = read_bytes(path)
    assert len(data) == len(first) + len(second)  # the second member once, not twice
    assert data.endswith(first[-16:] + second)


@pytest.mark.perf
def test_careful_pass_memory_is_a_small_multiple_of_the_file(tmp_path):
    # 400,000 lines (~12 MB), the last malformed: the line-by-line pass reads all of them
    lines = b"".join(b"q%d Q0 doc%07d %d %d.5 tag\n" % (i // 1000, i, i % 1000, i) for i in range(400_000))
    path = write(tmp_path, "run.txt", lines + b"q1 Q0 d 1 oops tag\n")
    script = textwrap.dedent(f"""
        import resource
        from metrics.io import FileFormatError, read_run
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        try:
            read_run({str(path)!r})
        except FileFormatError as err:
            print(err)
        print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
    """)
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=120)
    text, grown_kib = out.stdout.splitlines()
    assert text == f"{path}:400001: score 'oops' is not a number"
    size_kib = path.stat().st_size / 1024
    assert int(grown_kib) < 10 * size_kib  # Python lists of every value and re.sub took ~38 times the file


def test_a_pipe_reads_like_a_file(tmp_path):
    import os
    import threading

    fifo = tmp_path / "qrels.pipe"
    os.mkfifo(fifo)

    def feed(text):
        with open(fifo, "w") as f:
            f.write(text)

    for text, expected in (("# c\nq1 0 d1 1\nq1 0 d2 0\n", {"q1": {"d1": 1, "d2": 0}}), ("q1 0 d1 x\n", None)):
        writer = threading.Thread(target=feed, args=(text,))
        writer.start()
        try:
            if expected is None:
                assert message(lambda: read_qrels(fifo)) == f"{fifo}:1: grade 'x' is not an integer"
            else:
                qrels = read_qrels(fifo)  # read once, however often the reader looks at it
                assert qrels.to_dict() == expected and qrels.source == str(fifo)
        finally:
            writer.join(10)


# ----------------------------------------------------------------------------- 3. comments


def test_a_comment_with_the_right_column_count_is_not_data(tmp_path):
    qrels = write(tmp_path, "q.txt", "# graded by 2\nq1 0 d1 1\n")
    run = write(tmp_path, "r.txt", "# Q0 note 1 2.0 x\nq1 Q0 d1 1 2.0 x\n")
    assert read_qrels(qrels).to_dict() == {"q1": {"d1": 1}}
    assert read_run(run).to_dict() == {"q1": {"d1": 2.0}}
    # one judged query, q1, whose only retrieved document is relevant: num_q 1, P@1 = 1/1
    result = ranklab("evaluate", qrels, run, "-m", "num_q", "-m", "P_1", "-m", "num_ret", "-c")
    assert result.stdout.splitlines() == [f"{'num_q':<22}\tall\t1", f"{'num_ret':<22}\tall\t1",
                                          f"{'P_1':<22}\tall\t1.0000"]


def test_comment_rule_in_every_format(tmp_path):
    expected = {"q1": {"d1": 1}}
    files = {
        "q.txt": "  # indented comment 0 1\nq1 0 d1 1\n\t#tab comment\n# c c 1\n# c c 1\n",
        "q.csv": "# exported by a tool\nqid,docid,grade\n  # c,c,1\nq1,d1,1\n",
        "q.tsv": "qid\tdocid\tgrade\n#c\tc\t1\nq1\td1\t1\n",
        "q.jsonl": '# {"query_id": "q0", "ground_truth": ["x"]}\n  #\n{"query_id": "q1", "ground_truth": ["d1"]}\n',
    }
    for name, text in files.items():
        assert read_qrels(write(tmp_path, name, text)).to_dict() == expected, name
    # a '#' inside a line is data
    assert read_qrels(write(tmp_path, "h.txt", "q1 0 a#1 1\n")).to_dict() == {"q1": {"a#1": 1}}


@pytest.mark.parametrize("text", [" q1 0 d1 1\nq1 0 d2 0\n", "q1 0 d1 1\nq1  0 d2 0\n", "q1 0 d1 1 \nq1 0 d2 0\n"])
def test_blanks_are_never_an_empty_column(tmp_path, text):
    assert read_qrels(write(tmp_path, "q.txt", text)).to_dict() == {"q1": {"d1": 1, "d2": 0}}


# ----------------------------------------------------------------------------- 4. CR


def test_lone_cr_ends_a_line_everywhere(tmp_path):
    run = write(tmp_path, "r.txt", b"q1 Q0 d1 1 3 x\rq1 Q0 d2 2 2 x\rq1 Q0 d3 3 1 x\r")
    assert read_run(run).to_dict() == {"q1": {"d1": 3.0, "d2": 2.0, "d3": 1.0}}  # three lines, not one
    csv = write(tmp_path, "q.csv", b"qid,docid,grade\rq1,d1,1\rq1,d2,0\r")
    assert read_qrels(csv).to_dict() == {"q1": {"d1": 1, "d2": 0}}
    jsonl = write(tmp_path, "q.jsonl", b'{"query_id": "q1", "ground_truth": ["d1"]}\r{"query_id": "q2", "ground_truth": ["d2"]}')
    assert read_qrels(jsonl).to_dict() == {"q1": {"d1": 1}, "q2": {"d2": 1}}
    # line numbers count CR-ended lines
    bad = write(tmp_path, "b.txt", b"q1 0 d1 1\rq1 0 d2 x\r\nq1 0 d3 1\n")
    assert message(lambda: read_qrels(bad)) == f"{bad}:2: grade 'x' is not an integer"


# ----------------------------------------------------------------------------- 5. JSONL list


def test_jsonl_line_without_its_list_is_an_error(tmp_path):
    path = write(tmp_path, "gt.jsonl", '{"query_id":"q1","ground_truth":["d1"]}\n{"query_id":"q2"}\n')
    assert message(lambda: read_qrels(path)) == f"{path}:2: 'ground_truth' missing"
    run = write(tmp_path, "r.jsonl", '{"query_id":"q1","results":null}\n')
    assert message(lambda: read_run(run)) == f"{run}:1: 'results' must be a list of documents, got null"
    # an empty list is a query with nothing in it, and legal
    ok = write(tmp_path, "ok.jsonl", '{"query_id":"q1","ground_truth":["d1"]}\n{"query_id":"q2","ground_truth":[]}\n')
    assert read_qrels(ok).queries == ["q1", "q2"]


# ----------------------------------------------------------------------------- 6. numbers


@pytest.mark.parametrize("grade", ["0x10", "0X1f", "1_0", "١", "1e3", "1.0", "+", "inf", "nan"])
def test_grades_are_ascii_decimal_integers(tmp_path, grade):
    # pyarrow's own int64 parser takes 0x10 as 16: the fast path must not
    trec = write(tmp_path, "q.txt", f"q1 0 d1 1\nq1 0 d2 {grade}\n")
    assert message(lambda: read_qrels(trec)) == f"{trec}:2: grade {grade!r} is not an integer"
    csv = write(tmp_path, "q.csv", f"qid,docid,grade\nq1,d1,1\nq1,d2,{grade}\n")
    assert message(lambda: read_qrels(csv)) == f"{csv}:3: grade {grade!r} is not an integer"


def test_grade_with_blanks_in_csv_and_accepted_forms(tmp_path):
    csv = write(tmp_path, "q.csv", "qid,docid,grade\nq1,d1, 1\n")
    assert message(lambda: read_qrels(csv)) == f"{csv}:2: grade ' 1' is not an integer"
    ok = write(tmp_path, "ok.txt", "q1 0 a +1\nq1 0 b -1\nq1 0 c 007\n")
    assert read_qrels(ok).to_dict() == {"q1": {"a": 1, "b": -1, "c": 7}}


@pytest.mark.parametrize("score, finite", [("1_0", False), ("١", False), ("0x10", False), ("1,5", False),
                                           ("inf", True), ("-Infinity", True), ("nan", True)])
def test_scores_are_ascii_decimal_and_finite(tmp_path, score, finite):
    run = write(tmp_path, "r.txt", f"q1 Q0 d1 1 1 t\nq1 Q0 d2 2 {score} t\n")
    what = "not a finite number" if finite else "not a number"
    assert message(lambda: read_run(run)) == f"{run}:2: score {score!r} is {what}"
    csv = write(tmp_path, "r.csv", f"qid,docid,score\nq1,d1,1\nq1,d2,{score}\n" if "," not in score else
                f'qid,docid,score\nq1,d1,1\nq1,d2,"{score}"\n')
    assert message(lambda: read_run(csv)) == f"{csv}:3: score {score!r} is {what}"


def test_accepted_score_forms(tmp_path):
    run = write(tmp_path, "r.txt", "q1 Q0 a 1 1e3 t\nq1 Q0 b 2 +1 t\nq1 Q0 c 3 .5 t\nq1 Q0 d 4 1. t\n"
                                   "q1 Q0 e 5 -2.5E-3 t\n")
    assert read_run(run).to_dict() == {"q1": {"a": 1000.0, "b": 1.0, "c": 0.5, "d": 1.0, "e": -0.0025}}
    huge = write(tmp_path, "h.txt", "q1 Q0 a 1 1e999 t\n")  # overflows to infinity
    assert message(lambda: read_run(huge)) == f"{huge}:1: score '1e999' is not a finite number"


# ----------------------------------------------------------------------------- 7. no tracebacks


@pytest.mark.parametrize("name, content, expected", [
    ("q.csv", "qid,docid,grade\nq1,d1,1\nq2,,0\n", "3: empty document id"),
    ("q2.csv", "qid,docid,grade\n,d1,1\n", "2: empty query id"),
    ("q.jsonl", '{"query_id": "q1", "ground_truth": [""]}\n', "1: ground_truth[0] is an empty document id"),
    ("q2.jsonl", '{"query_id": "", "ground_truth": ["a"]}\n', "1: 'query_id' is empty"),
    ("q3.jsonl", '{"query_id": "q1", "ground_truth": [null, {"filename": "a", "page_number": 1}]}\n',
     "1: ground_truth[0] must be an object or a string, got null"),
    ("q4.jsonl", '{"query_id": [1], "ground_truth": ["a"]}\n', "1: 'query_id' must be a string or an integer, got [1]"),
    ("q5.jsonl", '{"query_id": "q1", "ground_truth": [{"filename": 1.5, "page_number": 1}]}\n',
     "1: ground_truth[0].filename must be a string or an integer, got 1.5"),
])
def test_former_tracebacks_are_named_errors(tmp_path, name, content, expected):
    path = write(tmp_path, name, content)
    assert message(lambda: read_qrels(path)) == f"{path}:{expected}"


def test_a_200_kb_csv_field_is_read_and_later_errors_are_named(tmp_path):
    long_id = "x" * 200_000
    ok = write(tmp_path, "ok.csv", f"qid,docid,grade\nq1,{long_id},1\n")
    assert read_qrels(ok).to_dict() == {"q1": {long_id: 1}}
    bad = write(tmp_path, "bad.csv", f"qid,docid,grade\r\nq1,{long_id},1\r\nq1,d2\r\n")
    assert message(lambda: read_qrels(bad)) == f"{bad}:3: expected 3 columns (qid, docid, grade), found 2"


def test_odd_header_and_undecodable_rows(tmp_path):
    ff = write(tmp_path, "q.csv", "qid\x0c,docid,grade\nq1,d1,1\n")
    assert read_qrels(ff).to_dict() == {"q1": {"d1": 1}}
    undecodable = write(tmp_path, "r.csv", b"qid,docid,score\nq1,d1,1\nq1,\xff\xfe,2\n")
    assert message(lambda: read_run(undecodable)) == (f"{undecodable}:3: undecodable bytes at column 4 "
                                                      "(the file must be UTF-8)")
    trec = write(tmp_path, "r.txt", b"q1 Q0 d1 1 1 t\n# \xff comment\nq1 Q0 \xff 2 0.5 t\n")
    result = ranklab("evaluate", write(tmp_path, "q.txt", "q1 0 d1 1\n"), trec)
    assert "Traceback" not in result.stderr and result.returncode == 1
    assert result.stderr == f"ranklab: error: {trec}:3: undecodable bytes at column 7 (the file must be UTF-8)\n"


# ----------------------------------------------------------------------------- 8. line numbers


@pytest.mark.parametrize("name, content, lines", [
    ("r.csv", "# c\nqid,docid,score\nq1,a,1\n\nq1,b,2\nq1,a,3\n", (3, 6)),
    ("r.tsv", "qid\tdocid\tscore\r\nq1\ta\t1\r\nq1\ta\t3\r\n", (2, 3)),
    ("r.jsonl", '{"query_id": "q0", "results": ["x"]}\n# c\n{"query_id": "q1", "results": ["a", "b"]}\n'
                '\n{"query_id": "q1", "results": ["a"]}\n', (3, 5)),
    ("r.txt", "# c\r  q1 Q0 a 1 1 t\r\r\nq1 Q0 a 2 0 t\n", (2, 4)),
    ("r.txt.gz", gz(b"q1 Q0 a 1 1 t\n#\nq1 Q0 a 2 0 t\n"), (1, 3)),
])
def test_duplicates_name_lines_in_every_format(tmp_path, name, content, lines):
    path = write(tmp_path, name, content)
    first, second = lines
    assert message(lambda: read_run(path)).startswith(
        f"{path}:{first}: query q1: document 'a' appears 2 times (lines {first} and {second})")


def test_judged_twice_names_lines_in_csv_and_jsonl(tmp_path):
    csv = write(tmp_path, "q.csv", "qid,docid,grade\nq1,d1,1\nq1,d1,1\n")
    assert message(lambda: read_qrels(csv)) == f"{csv}:2: query q1: document 'd1' is judged 2 times (lines 2 and 3)"
    jsonl = write(tmp_path, "q.jsonl", '{"query_id": "q1", "ground_truth": ["d1", "d2", "d1"]}\n')
    assert message(lambda: read_qrels(jsonl)) == (f"{jsonl}:1: query q1: document 'd1' is judged 2 times "
                                                  "(lines 1 and 1)")


# ----------------------------------------------------------------------------- 9. memory


@pytest.mark.perf
def test_reading_keeps_only_the_columns(tmp_path):
    lines = b"".join(b"q%d Q0 doc%07d %d %d.5 tag\n" % (i // 100, i, i % 100, i) for i in range(100_000))
    path = write(tmp_path, "run.txt", lines)
    # in a fresh process: Arrow's allocation counter is process-wide, so what earlier tests left
    # allocated (or still allocate on their threads) would count as held by this read
    script = textwrap.dedent(f"""
        import pyarrow as pa
        from metrics.io import read_run
        pa.default_memory_pool().release_unused()
        before = pa.total_allocated_bytes()
        run = read_run({str(path)!r})
        print(pa.total_allocated_bytes() - before, len(run))
    """)
    out = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    held, rows = map(int, out.stdout.split())
    # 100,000 ids of 10 bytes + 4-byte offsets = 1.4 MB of Arrow data; the file is 3.1 MB
    assert held < 2 * 1_400_000 + (1 << 16)
    assert rows == 100_000


def test_fast_path_scan():
    assert not has_irregular_layout(b"q1 0 d1 1\nq1 0 d2 0\n")
    for odd in (b"q1  0 d1 1\n", b" q1 0 d1 1\n", b"q1 0 d1 1\n q1 0 d2 1\n", b"q1 0 d1 1 \n", b"q1\t0 d1 1\n",
                b"q1 0 d1 1\r\n", b"\xef\xbb\xbfq1 0 d1 1\n", b"q1 0 d1 1\n#c\n", b"#c\n", b"q1 0 d1 1 "):
        assert has_irregular_layout(odd), odd


def test_fast_path_scan_across_block_cuts(tmp_path):
    from metrics.io.source import file_has_irregular_layout

    base = b"q1 Q0 d1 1 2.5 tag\n" * 20_000  # 380,000 bytes: one cut at 262,144
    path = tmp_path / "run.txt"
    path.write_bytes(base)
    assert not file_has_irregular_layout(path, None)
    for at in (2**18 - 2, 2**18 - 1, 2**18):
        for odd in (b"  ", b"\n ", b" \n", b"\n#"):
            path.write_bytes(base[:at] + odd + base[at + 2:])
            assert file_has_irregular_layout(path, None), (at, odd)


# ----------------------------------------------------------------------------- property


ids = st.text(alphabet="abcdxyz0189_.-#", min_size=1, max_size=4).filter(lambda s: not s.startswith("#"))
qids = st.sampled_from(["q1", "q2", "301", "q-4"])
collections = st.tuples(
    st.dictionaries(qids, st.dictionaries(ids, st.integers(-1, 3), min_size=1, max_size=5), min_size=1, max_size=3),
    st.dictionaries(qids, st.dictionaries(ids, st.sampled_from([0.0, 0.5, 1.25, -2.0, 3.0, 1e-3, 12.0]),
                                          min_size=1, max_size=6), min_size=1, max_size=3),
)
VARIANTS = ["bom", "crlf", "cr", "tabs", "spaces", "comments", "extra_columns", "gz", "multi_gz", "blank_lines",
            "csv", "tsv", "jsonl", "all"]
MEASURES = ["P@2", "AP", "nDCG@3", "RR", "NumRet", "NumRelRet", "Bpref"]


def trec_lines(qrels, run) -> tuple[list[str], list[str]]:
    q = [f"{qid} 0 {doc} {grade}" for qid, docs in qrels.items() for doc, grade in docs.items()]
    r = [f"{qid} Q0 {doc} {i + 1} {score!r} tag" for qid, docs in run.items() for i, (doc, score) in enumerate(docs.items())]
    return q, r


def variant(lines: list[str], kind: str, how: str, rnd: np.random.Generator) -> tuple[str, bytes]:
    """(file name, bytes) of one layout of the same lines."""
    def join(ls, end="\n"):
        return (end.join(ls) + end).encode()
    if how == "csv" or how == "tsv":
        sep = "," if how == "csv" else "\t"
        head = ["query_id", "doc_id", "relevance"] if kind == "qrels" else ["topic", "docno", "Score"]
        rows = [sep.join(head)] + [sep.join(line.split()[i] for i in ((0, 2, 3) if kind == "qrels" else (0, 2, 4)))
                                   for line in lines]
        return f"f.{how}", join(rows)
    if how == "jsonl":
        grouped: dict[str, list] = {}
        for line in lines:
            p = line.split()
            entry = {"filename": p[2], "page_number": 1}
            entry["grade" if kind == "qrels" else "score"] = int(p[3]) if kind == "qrels" else float(p[4])
            grouped.setdefault(p[0], []).append(entry)
        key = "ground_truth" if kind == "qrels" else "results"
        return "f.jsonl", join([json.dumps({"query_id": q, key: e}) for q, e in grouped.items()])
    out = list(lines)
    hows = {how} if how != "all" else {"bom", "crlf", "tabs", "spaces", "comments", "extra_columns", "blank_lines"}
    if "extra_columns" in hows and kind == "run":
        out = [line + " extra 42" for line in out]
    if "tabs" in hows:
        out = [line.replace(" ", "\t", 2) for line in out]
    if "spaces" in hows:
        out = ["  " + line.replace(" ", "   ") + " " for line in out]
    if "comments" in hows:
        out = ["# a comment 0 1", *out[:1], "   # q9 0 z 1", *out[1:], "#"]
    if "blank_lines" in hows:
        out = ["", *out[:1], "   ", "", *out[1:], "\t"]
    end = "\r\n" if "crlf" in hows else "\r" if "cr" in hows else "\n"
    data = join(out, end)
    if "bom" in hows:
        data = b"\xef\xbb\xbf" + data
    if how == "gz":
        return "f.txt.gz", gz(data)
    if how == "multi_gz":
        cut = int(rnd.integers(0, len(data) + 1))
        return "f.txt.gz", gz(data[:cut]) + gz(data[cut:])
    return "f.txt", data


def as_pyfloats(evaluation):
    return evaluation.aggregate, evaluation.per_query


@settings(max_examples=scaled(40), derandomize=True, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(collection=collections, how=st.sampled_from(VARIANTS))
def test_every_legal_layout_reads_like_the_plain_file(tmp_path_factory, collection, how):
    qrels, run = collection
    folder = tmp_path_factory.mktemp("layout")
    q_lines, r_lines = trec_lines(qrels, run)
    plain_q = read_qrels(write(folder, "plain_q.txt", "\n".join(q_lines) + "\n"))
    plain_r = read_run(write(folder, "plain_r.txt", "\n".join(r_lines) + "\n"))
    rnd = np.random.default_rng(len(q_lines) * 31 + len(r_lines))
    (folder / "q").mkdir()
    (folder / "r").mkdir()
    q_name, q_data = variant(q_lines, "qrels", how, rnd)
    r_name, r_data = variant(r_lines, "run", how, rnd)
    odd_q = read_qrels(write(folder / "q", q_name, q_data), **({"id_fields": ("filename",)} if how == "jsonl" else {}))
    odd_r = read_run(write(folder / "r", r_name, r_data), **({"id_fields": ("filename",)} if how == "jsonl" else {}))
    assert odd_q.to_dict() == plain_q.to_dict() == qrels
    assert odd_r.to_dict() == plain_r.to_dict() == run
    ours = evaluate_batch(odd_q, odd_r, MEASURES)
    assert as_pyfloats(ours) == as_pyfloats(evaluate_batch(plain_q, plain_r, MEASURES))
    oracle = evaluate(qrels, run, MEASURES)  # the scalar kernels on the dicts the file was built from
    assert ours.per_query.keys() == oracle.per_query.keys()
    for q, values in oracle.per_query.items():
        assert ours.per_query[q] == pytest.approx(values, abs=1e-12)
