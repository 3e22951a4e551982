"""Readers: every format of the sources (docs/sources.md), and every malformed line named as
file:line."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import numpy as np
import pytest

from metrics.io import FileFormatError, read_qrels, read_run
from metrics.io.keys import doc_hashes, duplicate_groups, take

DATA = Path(__file__).resolve().parents[2] / "data"


def simple_run_parse(path):
    """An independent reader: split each line, skip comments and blank lines."""
    out = {}
    for line in Path(path).read_text().splitlines():
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        out.setdefault(parts[0], {})[parts[2]] = float(parts[4])
    return out


def simple_qrels_parse(path):
    out = {}
    for line in Path(path).read_text().splitlines():
        parts = line.split()
        if not parts or parts[0].startswith("#"):
            continue
        out.setdefault(parts[0], {})[parts[2]] = int(parts[3])
    return out


def write(tmp_path, name, text, mode="w"):
    p = tmp_path / name
    if mode == "wb":
        p.write_bytes(text)
    else:
        p.write_text(text)
    return p


# ----------------------------------------------------------------------------- TREC


def test_messy_files_read_like_a_plain_split():
    assert read_qrels(DATA / "qrels_messy.txt").to_dict() == simple_qrels_parse(DATA / "qrels_messy.txt")
    run = read_run(DATA / "run_messy.txt")
    assert run.to_dict() == simple_run_parse(DATA / "run_messy.txt")
    assert run.tag == "runA"
    assert run.queries == ["101", "102", "104", "106", "105"]  # first appearance


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_crlf_bom_tabs_and_spaces(tmp_path, newline):
    text = "\ufeff" + newline.join(["q1 Q0 a 1 3.5 t", "q1\tQ0\tb\t2\t2 t", "  q2 Q0 c 1 1 t  ", ""])
    p = tmp_path / "run.txt"
    p.write_bytes(text.encode("utf-8"))
    assert read_run(p).to_dict() == {"q1": {"a": 3.5, "b": 2.0}, "q2": {"c": 1.0}}


def test_gzip(tmp_path):
    p = tmp_path / "qrels.txt.gz"
    with gzip.open(p, "wt") as f:
        f.write("1 0 a 2\n1 0 b 0\n")
    assert read_qrels(p).to_dict() == {"1": {"a": 2, "b": 0}}
    r = tmp_path / "run.txt.gz"
    with gzip.open(r, "wt") as f:
        f.write("# c\n1 Q0 a 1 0.5 x\n")
    assert read_run(r).to_dict() == {"1": {"a": 0.5}}


def test_two_column_list_keeps_file_order(tmp_path):
    p = write(tmp_path, "result.txt", "q1 z\nq1 a\nq2 m\nq1 b\n")
    run = read_run(p)
    ranked = sorted(run.to_dict()["q1"].items(), key=lambda kv: -kv[1])
    assert [d for d, _ in ranked] == ["z", "a", "b"]


def test_malformed_lines_are_named_with_file_and_line(tmp_path):
    p = write(tmp_path, "run.txt", "q1 Q0 a 1 1.0 t\nq1 Q0 b 2\n# fine\nq1 Q0 c 3 high t\nq1 Q0 d 4 nan t\n")
    with pytest.raises(FileFormatError) as err:
        read_run(p)
    lines = str(err.value).splitlines()
    assert lines == [
        f"{p}:2: expected 6 columns (qid Q0 docid rank score tag), found 4",
        f"{p}:4: score 'high' is not a number",
        f"{p}:5: score 'nan' is not a finite number",
    ]


def test_first_twenty_then_a_count(tmp_path):
    p = write(tmp_path, "qrels.txt", "".join(f"q 0 d{i} x\n" for i in range(25)))
    with pytest.raises(FileFormatError) as err:
        read_qrels(p)
    lines = str(err.value).splitlines()
    assert len(lines) == 21
    assert lines[0] == f"{p}:1: grade 'x' is not an integer"
    assert lines[-1] == f"{p}: ... and 5 more malformed lines"


def test_bad_grades(tmp_path):
    p = write(tmp_path, "qrels.txt", "q 0 a 1.5\nq 0 b 99999999999\nq 0 c\n")
    with pytest.raises(FileFormatError) as err:
        read_qrels(p)
    assert str(err.value).splitlines() == [
        f"{p}:1: grade '1.5' is not an integer",
        f"{p}:2: grade 99999999999 is out of range (|grade| <= 2147483647)",
        f"{p}:3: expected 4 columns (qid iter docid grade), found 3",
    ]


def test_empty_and_comment_only_files(tmp_path):
    with pytest.raises(FileFormatError, match=r"empty\.txt: the file is empty"):
        read_run(write(tmp_path, "empty.txt", ""))
    with pytest.raises(FileFormatError, match="no data lines"):
        read_qrels(write(tmp_path, "c.txt", "# nothing\n\n"))


def test_undecodable_bytes(tmp_path):
    p = write(tmp_path, "run.txt", b"q1 Q0 a 1 1 t\nq1 Q0 \xff\xfe 2 0.5 t\n", mode="wb")
    with pytest.raises(FileFormatError) as err:
        read_run(p)
    assert str(err.value) == f"{p}:2: undecodable bytes at column 7 (the file must be UTF-8)"


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(FileNotFoundError):
        read_run(tmp_path / "nope.txt")
    with pytest.raises(IsADirectoryError):
        read_qrels(tmp_path)


# ----------------------------------------------------------------------------- duplicates


def test_duplicate_documents_are_an_error_naming_lines(tmp_path):
    p = write(tmp_path, "run.txt", "q1 Q0 a 1 3 t\n# x\nq1 Q0 b 2 2 t\nq2 Q0 a 1 1 t\nq1 Q0 a 3 5 t\n")
    with pytest.raises(FileFormatError) as err:
        read_run(p)
    assert str(err.value).startswith(f"{p}:1: query q1: document 'a' appears 2 times (lines 1 and 5)")


@pytest.mark.parametrize("how, score", [("first", 3.0), ("last", 5.0), ("max", 5.0)])
def test_dedup_choices(tmp_path, how, score):
    p = write(tmp_path, "run.txt", "q1 Q0 a 1 3 t\nq1 Q0 b 2 2 t\nq2 Q0 a 1 1 t\nq1 Q0 a 3 5 t\n")
    assert read_run(p, dedup=how).to_dict() == {"q1": {"a": score, "b": 2.0}, "q2": {"a": 1.0}}


def test_hashes_find_duplicates_of_any_length():
    import pyarrow as pa

    docs = pa.chunked_array([["a", "bb", "a" * 20, "x"], ["bb", "ccc", "a" * 20, "é"]])
    codes = np.array([0, 0, 0, 1, 0, 0, 1, 1], dtype=np.int32)
    groups = duplicate_groups(codes, docs)
    assert sorted(g.tolist() for g in groups) == [[1, 4]]  # 'a'*20 is in queries 0 and 1
    h = doc_hashes(docs)
    assert h[1] == h[4] and h[2] == h[6] and len(set(h.tolist())) == 6
    assert take(docs, np.array([5, 0, 7])).to_pylist() == ["ccc", "a", "é"]


def test_qrels_judged_twice_is_an_error(tmp_path):
    from metrics.batch import evaluate_batch

    q = write(tmp_path, "qrels.txt", "q1 0 a 1\n# c\nq1 0 b 1\nq1 0 a 2\n")
    with pytest.raises(FileFormatError) as err:
        read_qrels(q)
    assert str(err.value) == f"{q}:1: query q1: document 'a' is judged 2 times (lines 1 and 4)"
    # the batch evaluation checks too, for Qrels built some other way
    from metrics.io import Qrels
    qrels = Qrels(["q1"], np.array([0, 0], np.int32), take(read_run(write(tmp_path, "r.txt", "q1 a\nq2 a\n")).doc,
                  np.array([0, 1])), np.array([1, 2]))
    with pytest.raises(ValueError, match="query q1: document 'a' is judged 2 times"):
        evaluate_batch(qrels, {"q1": ["a"]}, "P@1")


def test_checked_qrels_keep_their_hashes_and_subsets_carry_them(tmp_path):
    from metrics.io.index import QrelsIndex
    from metrics.io.keys import doc_hashes

    # ids of several widths, queries out of order: the kept hashes must be the ids' own hashes
    q = write(tmp_path, "qrels.txt", "q2 0 dd7 1\nq1 0 a 0\nq2 0 b 2\nq1 0 ccc 1\nq3 0 a 1\n")
    qrels = read_qrels(q)
    assert qrels._cache["unique"] is True
    assert qrels._cache["doc_hashes"].tolist() == doc_hashes(qrels.doc).tolist()
    sub = QrelsIndex(qrels).subset(["q3", "q2"])
    assert sub.doc.to_pylist() == ["dd7", "b", "a"]
    assert sub._cache["unique"] is True
    assert sub._cache["doc_hashes"].tolist() == doc_hashes(sub.doc).tolist()
    # grouped by query: consecutive queries come out as one slice, the same rows
    g = write(tmp_path, "grouped.txt", "q1 0 a 0\nq2 0 dd7 1\nq2 0 b 2\nq3 0 a 1\nq4 0 e 3\n")
    sub = QrelsIndex(read_qrels(g)).subset(["q3", "q2"])
    assert sub.queries == ["q2", "q3"] and sub.query.tolist() == [0, 0, 1]
    assert sub.doc.to_pylist() == ["dd7", "b", "a"] and sub.grade.tolist() == [1, 2, 1]
    assert sub._cache["doc_hashes"].tolist() == doc_hashes(sub.doc).tolist()


# ----------------------------------------------------------------------------- JSONL


def test_jsonl_azure_ai_search_layout(tmp_path):
    gt = [{"query_id": "q1", "query": "refund", "ground_truth": [
              {"filename": "policy.pdf", "page_number": 3, "grade": 2},
              {"filename": "faq.pdf", "page_number": 1, "grade": 1}]},
          {"query_id": "q2", "ground_truth": [{"filename": "faq.pdf", "page_number": 2, "grade": 0}]}]
    res = [{"query_id": "q1", "results": [{"filename": "faq.pdf", "page_number": 1, "score": 1.5},
                                          {"filename": "policy.pdf", "page_number": 3, "score": 0.5}]}]
    q = write(tmp_path, "gt.jsonl", "\n".join(json.dumps(x) for x in gt) + "\n")
    r = write(tmp_path, "results.jsonl", "\n".join(json.dumps(x) for x in res) + "\n")
    assert read_qrels(q).to_dict() == {"q1": {"policy.pdf#3": 2, "faq.pdf#1": 1}, "q2": {"faq.pdf#2": 0}}
    assert read_run(r).to_dict() == {"q1": {"faq.pdf#1": 1.5, "policy.pdf#3": 0.5}}
    only_name = read_qrels(q, id_fields=("filename",)).to_dict()
    assert only_name["q1"] == {"policy.pdf": 2, "faq.pdf": 1}


def test_jsonl_without_grades_or_scores_and_plain_strings(tmp_path):
    q = write(tmp_path, "gt.jsonl", '{"query_id": 7, "ground_truth": ["a", "b"]}\n')
    r = write(tmp_path, "run.jsonl", '{"query_id": 7, "results": [{"filename": "b", "page_number": 1}, '
                                     '{"filename": "a", "page_number": 1}]}\n')
    assert read_qrels(q).to_dict() == {"7": {"a": 1, "b": 1}}
    run = read_run(r).to_dict()["7"]
    assert run["b#1"] > run["a#1"]  # list order is the ranking


def test_jsonl_errors_name_lines(tmp_path):
    q = write(tmp_path, "gt.jsonl", '{"query_id": "q1", "ground_truth": [{"filename": "a"}]}\n'
                                    "not json\n\n"
                                    '{"ground_truth": []}\n'
                                    '{"query_id": "q3", "ground_truth": [{"filename": "a", "page_number": 1, "grade": "high"}]}\n')
    with pytest.raises(FileFormatError) as err:
        read_qrels(q)
    assert str(err.value).splitlines() == [
        f"{q}:1: ground_truth[0] has no 'page_number'",
        f"{q}:2: not valid JSON (Expecting value at column 1)",
        f"{q}:4: 'query_id' missing",
        f"{q}:5: ground_truth[0].grade must be an integer, got 'high'",
    ]


# ----------------------------------------------------------------------------- CSV / TSV


def test_csv_and_tsv_with_named_columns(tmp_path):
    q = write(tmp_path, "qrels.csv", "query_id,doc_id,relevance\nq1,a,2\nq1,b,0\n")
    r = write(tmp_path, "run.tsv", "qid\tdocno\tscore\tother\nq1\ta\t0.5\tx\nq1\tb\t1.5\ty\n")
    assert read_qrels(q).to_dict() == {"q1": {"a": 2, "b": 0}}
    assert read_run(r).to_dict() == {"q1": {"a": 0.5, "b": 1.5}}
    ranked = write(tmp_path, "ranked.csv", "qid,doc,rank\nq1,a,2\nq1,b,1\n")
    scores = read_run(ranked).to_dict()["q1"]
    assert scores["b"] > scores["a"]  # rank 1 is best


def test_csv_errors(tmp_path):
    q = write(tmp_path, "qrels.csv", "qid,doc,grade\nq1,a,2\nq1,b\nq1,c,x\n")
    with pytest.raises(FileFormatError) as err:
        read_qrels(q)
    assert str(err.value).splitlines() == [
        f"{q}:3: expected 3 columns (qid, doc, grade), found 2",
        f"{q}:4: grade 'x' is not an integer",
    ]
    nohead = write(tmp_path, "x.csv", "a,b,c\n1,2,3\n")
    with pytest.raises(FileFormatError, match=r"x\.csv:1: no qid column"):
        read_run(nohead)


def test_gzip_jsonl_and_csv(tmp_path):
    with gzip.open(tmp_path / "gt.jsonl.gz", "wt") as f:
        f.write('{"query_id": "q", "ground_truth": [{"filename": "a.pdf", "page_number": 2}]}\n')
    with gzip.open(tmp_path / "run.csv.gz", "wt") as f:
        f.write("qid,docid,score\nq,a.pdf#2,1.5\n")
    assert read_qrels(tmp_path / "gt.jsonl.gz").to_dict() == {"q": {"a.pdf#2": 1}}
    assert read_run(tmp_path / "run.csv.gz").to_dict() == {"q": {"a.pdf#2": 1.5}}


def test_explicit_formats(tmp_path):
    p = write(tmp_path, "results.dat", "q1 b\nq1 a\n")
    scores = read_run(p, format="list").to_dict()["q1"]
    assert scores["b"] > scores["a"]
    with pytest.raises(FileFormatError, match=r"results\.dat:1: expected 6 columns"):
        read_run(p, format="trec")
    with pytest.raises(ValueError, match="run format must be one of"):
        read_run(p, format="xml")
