"""`ranklab reader` and the reader file formats, on our sample in assets/reader/."""

from __future__ import annotations

import csv
import gzip
import io
import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from metrics import cli
from metrics.qa import comparisons, evaluate_files, read_predictions, read_squad
from metrics.qa import files as qa_files

ROOT = Path(__file__).resolve().parents[3]
DEV = "assets/reader/dev.json"
TOP1 = "assets/reader/predictions.json"
TOPK = "assets/reader/predictions_topk.jsonl"


def ranklab(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "metrics", "reader", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=60)


def as_json(*args: str) -> dict:
    r = ranklab(*args, "--format", "json")
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


# per-question scores of the sample, worked out by hand from assets/reader/*.json:
#   question  answerable  top-1 prediction   EM  F1                           overlap
#   pe-1      yes         "1887"             1   1                            1
#   pe-2      yes         "Mara Velden."     1   1  (2nd gold answer)          1
#   pe-3      yes         "42"               0   P 1/1 R 1/2 -> 2/3           1
#   pe-4      yes         "kerosene"         0   0                            0
#   pe-5      no          ""                 1   1  (abstains)                1
#   pe-6      yes         "red, white"       0   P 2/2 R 2/3 -> 0.8           1
#   pe-7      no          "1931"             0   0                            0
#   sd-1      yes         "wild yeasts"      0   P 2/2 R 2/8 -> 0.4           1
#   sd-2      yes         "The bacteria"     1   1                            1
#   sd-3      yes         "12 to 24 hours"   0   P 3/4 R 3/4 -> 0.75          1
#   sd-4      yes         "San Francisco"    1   1                            1
#   sd-5      no          "no answer"        1   1  (abstains)                1
#   sd-6      yes         "1849"             0   P 1/1 R 1/4 -> 0.4           1
#   sd-7      no          "220 degrees"      0   0                            0
HAS_ANSWER_F1 = 1 + 1 + 2 / 3 + 0 + 0.8 + 0.4 + 1 + 0.75 + 1 + 0.4


def test_top1_predictions_json_by_hand():
    out = as_json(DEV, TOP1)
    assert out["counts"] == {"questions": 14, "correct_retrievals": 14, "has_answer": 10,
                             "no_answer": 4}
    m = out["metrics"]
    assert m["reader_top1_em"] == pytest.approx(6 / 14)
    assert m["reader_top1_em_has_answer"] == pytest.approx(4 / 10)
    assert m["reader_top1_f1_has_answer"] == pytest.approx(HAS_ANSWER_F1 / 10)
    assert m["reader_top1_f1"] == pytest.approx((HAS_ANSWER_F1 + 2) / 14)
    assert m["reader_top1_accuracy"] == pytest.approx(11 / 14)
    assert m["reader_top1_accuracy_has_answer"] == pytest.approx(9 / 10)
    # one answer per question: top-k is top-1
    for name, value in m.items():
        assert m[name.replace("top1", "topk")] == value


def test_topk_jsonl_by_hand():
    # sd-6 is marked "retrieved": false, so 13 questions count (9 answerable, 4 not).
    # Top-1 EM: pe-1 ("in 1887" = 2nd gold), pe-6, sd-4, sd-7 (no answers: abstains) -> 4.
    # Top-k EM (k = 3), answerable: all but pe-3 ("42 metres tall", "42") -> 8 of 9;
    # unanswerable: pe-5 ("" at 2), pe-7 ("no answer" at 3), sd-7 -> 3 of 4; sd-5 never.
    out = as_json(DEV, TOPK, "-k", "3", "--per-question")
    assert out["counts"] == {"questions": 14, "correct_retrievals": 13, "has_answer": 9,
                             "no_answer": 4}
    m = out["metrics"]
    assert m["reader_top1_em"] == pytest.approx(4 / 13)
    assert m["reader_top1_em_has_answer"] == pytest.approx(3 / 9)
    assert m["reader_topk_em_has_answer"] == pytest.approx(8 / 9)
    assert m["reader_topk_em"] == pytest.approx(11 / 13)
    # top-1 F1, answerable: 1, 2/3 ("Velden" vs "Mara Velden"), 0.8, 0, 1, 0.4, 0,
    # 2/3 ("24 hours" vs "12 and 24 hours"), 1
    assert m["reader_top1_f1_has_answer"] == pytest.approx((1 + 2 / 3 + 0.8 + 0 + 1 + 0.4 + 0
                                                            + 2 / 3 + 1) / 9)
    assert out["per_question"]["sd-6"]["retrieved"] is False
    assert out["per_question"]["pe-7"]["topk_em"] == 1.0
    # k = 2 drops pe-7's "no answer" at rank 3
    assert as_json(DEV, TOPK, "-k", "2")["metrics"]["reader_topk_em"] == pytest.approx(10 / 13)
    # k = 1: top-k is top-1
    m1 = as_json(DEV, TOPK, "-k", "1")["metrics"]
    assert m1["reader_topk_f1"] == m1["reader_top1_f1"] == pytest.approx(m["reader_top1_f1"])


def test_table_csv_and_char_unit():
    r = ranklab(DEV, TOP1)
    assert r.returncode == 0 and r.stderr == ""
    assert "questions 14" in r.stdout and "reader_topk_f1_has_answer" in r.stdout
    assert "0.4286" in r.stdout  # top-1 EM, 6 / 14
    rows = list(csv.DictReader(io.StringIO(ranklab(DEV, TOP1, "--format", "csv").stdout)))
    assert len(rows) == 12 and float(rows[2]["value"]) == pytest.approx(11 / 14)
    # characters: "42" vs "42 metres" is 2 of 9 characters: P 1, R 2/9 -> 4/11
    per = as_json(DEV, TOP1, "--unit", "char", "-q")["per_question"]
    assert per["pe-3"]["top1_f1"] == pytest.approx(4 / 11)
    assert "reader" in subprocess.run([sys.executable, "-m", "metrics", "--help"], cwd=ROOT,
                                      capture_output=True, text=True).stdout


BAD = [
    ("bad.json", '{"pe-1": "1887",\n "pe-2": 42\n}', ["bad.json:2", "pe-2", "42"]),
    ("broken.json", '{"pe-1": "1887",\n "pe-2": "x"\n', ["broken.json:3", "malformed JSON"]),
    ("dup.jsonl", '{"id": "pe-1", "answers": ["a"]}\n{"id": "pe-1", "answers": ["b"]}\n',
     ["dup.jsonl:2", "pe-1", "twice"]),
    ("nonstr.jsonl", '{"id": "pe-1", "answers": ["a"]}\n\n{"id": "pe-2", "answers": [3]}\n',
     ["nonstr.jsonl:3", "pe-2", "3"]),
    ("badline.jsonl", '{"id": "pe-1", "answers": ["a"]}\n{"id": "pe-2", "answers": [\n',
     ["badline.jsonl:2", "malformed"]),
    ("extra.json", '{"pe-1": "a",\n"zz": "b"}', ["extra.json:2", "zz", "not a question"]),
    ("dupkey.json", '{"pe-1": "a",\n "pe-1": "b"}', ["dupkey.json:2", "pe-1", "twice"]),
    ("partial.json", '{"pe-1": "1887"}', ["partial.json", "pe-2", "no prediction", "dev.json:"]),
    ("list.json", '["a", "b"]', ["list.json:1", "object"]),
    ("latin1.json", b'{"pe-1": "caf\xe9"}', ["latin1.json:1", "UTF-8"]),
]


@pytest.mark.parametrize("name, content, words", BAD, ids=[b[0] for b in BAD])
def test_bad_predictions_give_file_line_messages(tmp_path, name, content, words):
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    r = ranklab(str(ROOT / DEV), str(path))
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr and r.stdout == ""
    assert r.stderr.startswith("ranklab: error: ")
    for w in words:
        assert w in r.stderr, (w, r.stderr)


GOLD_BAD = [
    ({"data": [{"paragraphs": [{"qas": [{"id": "q1", "answers": [{"text": 5}]}]}]}]},
     ["q1", "answers[0].text", "5"]),
    ({"data": [{"paragraphs": [{"qas": [{"id": "q1", "answers": []}, {"id": "q1"}]}]}]},
     ["q1", "twice"]),
    ({"data": [{"paragraphs": [{"qas": [{"id": "q1", "is_impossible": True,
                                          "answers": [{"text": "x"}]}]}]}]},
     ["q1", "is_impossible", "plausible_answers"]),
    ({"data": [{"paragraphs": [{"qas": [{"answers": []}]}]}]}, ["qas[0]", "id"]),
    ({"version": "v2.0"}, ["not a SQuAD dataset"]),
    ({"data": []}, ["no questions"]),
]


@pytest.mark.parametrize("doc, words", GOLD_BAD)
def test_bad_gold_names_the_question(tmp_path, doc, words):
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps(doc, indent=1))
    pred = tmp_path / "pred.json"
    pred.write_text('{"q1": "x"}')
    r = ranklab(str(gold), str(pred))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert "gold.json" in r.stderr
    for w in words:
        assert w in r.stderr, (w, r.stderr)


def test_exit_codes_for_usage_and_files(tmp_path):
    r = ranklab(DEV, TOP1, "-k", "0")
    assert r.returncode == 2 and "positive integer" in r.stderr
    r = ranklab(DEV, TOP1, "--format", "xml")
    assert r.returncode == 2
    r = ranklab(DEV, str(tmp_path / "nope.json"))
    assert r.returncode == 3 and "nope.json" in r.stderr and "Traceback" not in r.stderr
    r = ranklab(DEV, str(tmp_path))
    assert r.returncode == 3 and "Traceback" not in r.stderr


def test_readers_directly():
    gold = read_squad(ROOT / DEV)
    assert len(gold.answers) == 14 and gold.answers["pe-5"] == []
    assert gold.answers["pe-1"] == ["1887", "in 1887"]
    assert gold.questions["sd-4"].startswith("Which city")
    assert gold.lines["pe-1"] > 1
    preds = read_predictions(ROOT / TOPK)
    assert preds.format == "jsonl" and preds.answers["sd-7"] == []
    assert preds.retrieved == {"sd-6": False}
    assert read_predictions(ROOT / TOP1).answers["pe-5"] == [""]
    ev, _, _ = evaluate_files(ROOT / DEV, ROOT / TOP1)
    assert ev.counts["questions"] == 14


def test_jsonl_without_suffix_is_sniffed(tmp_path):
    path = tmp_path / "preds.txt"
    path.write_text('{"id": "a", "answers": ["x"]}\n{"id": "b", "answers": []}\n')
    preds = read_predictions(path)
    assert preds.format == "jsonl" and preds.answers == {"a": ["x"], "b": []}


def test_duplicate_question_in_gold_names_both_lines(tmp_path):
    gold = tmp_path / "gold.json"
    gold.write_text('{"data": [{"paragraphs": [{"qas": [\n'
                    '  {"id": "q1", "answers": []},\n'
                    '  {"id": "q2", "answers": []},\n'
                    '  {"id": "q1", "answers": []}]}]}]}\n')
    pred = tmp_path / "pred.json"
    pred.write_text('{"q1": "", "q2": ""}')
    r = ranklab(str(gold), str(pred))
    assert r.returncode == 1
    assert "gold.json:4: q1: question id appears twice (first at line 2)" in r.stderr


# --------------------------------------------------------------------------- hostile input

def run_main(capsys, *args: str) -> tuple[int, str, str]:
    """``ranklab reader ...`` in this process: (exit code, stdout, stderr)."""
    code = cli.main(["reader", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.perf
@pytest.mark.parametrize("n", [40_000, 400_000])
def test_quotes_in_a_string_are_read_in_linear_time(tmp_path, n):
    # {"s1": "\"\"\"..."}: every quote escaped. The old key scanner restarted inside the
    # string at every quote: quadratic time.
    path = tmp_path / "quotes.json"
    path.write_text('{"s1": "' + '\\"' * n + '",\n "s2": ""}')
    start = time.perf_counter()
    preds = read_predictions(path)
    assert time.perf_counter() - start < 2
    assert preds.answers == {"s1": ['"' * n], "s2": [""]}
    assert preds.lines == {"s1": 1, "s2": 2}


@pytest.mark.perf
def test_quotes_and_backslashes_in_gold_are_read_in_linear_time(tmp_path):
    path = tmp_path / "gold.json"
    nasty = '\\"' * 200_000 + "\\\\" * 200_000
    path.write_text('{"data": [{"paragraphs": [{"context": "' + nasty + '", "qas": [\n'
                    '{"id": "q1", "question": "' + nasty + '", "answers": []}]}]}]}')
    start = time.perf_counter()
    gold = read_squad(path)
    assert time.perf_counter() - start < 2
    assert gold.lines == {"q1": 2} and gold.questions["q1"] == '"' * 200_000 + "\\" * 200_000


DEEP = 10_000


@pytest.mark.parametrize("name, content, where", [
    ("deep.json", "[" * DEEP + "]" * DEEP, "deep.json:1:"),
    ("deep_obj.json", '{"pe-1":\n' + '{"a":' * DEEP + "1" + "}" * DEEP + "}", "deep_obj.json:2:"),
    ("deep.jsonl", '{"id": "pe-1", "answers": []}\n{"id": "pe-2", "answers": '
     + "[" * DEEP + "]" * DEEP + "}\n", "deep.jsonl:2:"),
])
def test_deep_nesting_is_a_data_error_with_its_line(tmp_path, capsys, name, content, where):
    path = tmp_path / name
    path.write_text(content)
    code, out, err = run_main(capsys, ROOT / DEV, path)
    assert code == 1 and out == "" and "Traceback" not in err
    assert where in err and "nested too deeply" in err


def test_deep_gold_is_a_data_error(tmp_path, capsys):
    gold = tmp_path / "gold.json"
    gold.write_text('{"data":\n\n' + "[" * DEEP + "]" * DEEP + "}")
    code, _, err = run_main(capsys, gold, ROOT / TOP1)
    assert code == 1 and "gold.json:3: JSON nested too deeply" in err


def test_line_ends_bom_comments_and_line_separators(tmp_path):
    # CR-only line ends count as lines, like \n and \r\n
    path = tmp_path / "cr.jsonl"
    path.write_bytes(b'{"id": "a", "answers": ["x"]}\r\r\n{"id": "b", "answers": [7]}\r')
    with pytest.raises(ValueError, match=r"cr\.jsonl:3: b: answer 1 must be a string"):
        read_predictions(path)
    path = tmp_path / "cr.json"
    path.write_bytes(b'{"a": "x",\r"b": 7}')
    with pytest.raises(ValueError, match=r"cr\.json:2: b: the answer must be"):
        read_predictions(path)
    # a byte order mark is skipped
    path = tmp_path / "bom.json"
    path.write_bytes(b'\xef\xbb\xbf{"a": "x"}')
    assert read_predictions(path).answers == {"a": ["x"]}
    # "#" comments in JSON Lines (also when the name does not say .jsonl); lines still count
    path = tmp_path / "comments.txt"
    path.write_text('# made by reader v2\n  # another note\n{"id": "a", "answers": ["x"]}\n'
                    '{"id": "b", "answers": 1}\n')
    with pytest.raises(ValueError, match=r"comments\.txt:4: b: the answer must be"):
        read_predictions(path)
    path.write_text('# only a comment\n\n')
    with pytest.raises(ValueError, match="no predictions"):
        read_predictions(path)
    # U+2028 inside a string is a character of the answer, not a line break
    path = tmp_path / "sep.jsonl"
    path.write_text('{"id": "a", "answers": ["x\u2028y", "z\x85"]}\n', encoding="utf-8")
    assert read_predictions(path).answers == {"a": ["x\u2028y", "z\x85"]}


@pytest.mark.parametrize("name, content, words", [
    ("nan.json", '{"pe-1": NaN}', ["nan.json:1", "pe-1", "nan"]),
    ("inf.jsonl", '{"id": "pe-1", "answers": [Infinity]}', ["inf.jsonl:1", "inf"]),
    ("null.jsonl", 'null\n', ["null.jsonl:1", "expected an object"]),
    ("empty.json", "", ["empty.json:1:1", "malformed JSON"]),
    ("blank.jsonl", "\n \n\t\n", ["blank.jsonl", "no predictions"]),
    ("emptyid.json", '{"": "x"}', ["emptyid.json:1", "must not be empty"]),
    ("emptyid.jsonl", '{"id": "", "answers": []}', ["emptyid.jsonl:1", "non-empty string"]),
    ("type.jsonl", '{"id": ["pe-1"], "answers": []}', ["type.jsonl:1", "non-empty string"]),
    ("retr.jsonl", '{"id": "pe-1", "answers": [], "retrieved": "no"}', ["retr.jsonl:1", "true or false"]),
    ("nested.json", '{"pe-1": [["a"]]}', ["nested.json:1", "answer 1", "list"]),
    ("bigint.json", '{"pe-1":\n' + "9" * 5_000 + "}", ["bigint.json:2", "5,000 digits"]),
    ("surrogate.json", '{"pe-1": "\\ud800"}', ["surrogate.json:1", "surrogate"]),
    ("dupnested.json", '{"pe-1": "a",\n "pe-2": "b", "x": {"k": 1,\n "k": 2}}',
     ["dupnested.json:3", "'k' appears twice"]),
    ("ctrl.json", '{"pe-1\\u001b[2J": "a"}', ["ctrl.json:1", "'pe-1\\x1b[2J'", "not a question"]),
    ("longid.json", '{"' + "q" * 100_000 + '": "a"}', ["longid.json:1", "'qqq", "...: not a"]),
    ("binary.json", b"\x00\x01\xfe\xff", ["binary.json:1", "not UTF-8"]),
    ("latin1_line3.jsonl", b'# a\n\n{"id": "caf\xe9"}', ["latin1_line3.jsonl:3", "not UTF-8"]),
])
def test_hostile_predictions_are_data_errors(tmp_path, capsys, name, content, words):
    path = tmp_path / name
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    code, out, err = run_main(capsys, ROOT / DEV, path)
    assert code == 1 and out == "" and "Traceback" not in err, err
    assert err.startswith("ranklab: error: ") and err.count("\n") == 1
    assert len(err) < 400  # a 100,000-character id is cut
    for w in words:
        assert w in err, (w, err)


@pytest.mark.perf
def test_gzip_files_are_read_with_a_bounded_size(tmp_path, capsys, monkeypatch):
    gz = tmp_path / "predictions.jsonl.gz"
    gz.write_bytes(gzip.compress((ROOT / TOPK).read_bytes()))
    assert read_predictions(gz).answers == read_predictions(ROOT / TOPK).answers
    # a small .gz that expands past the limit is refused without inflating it all
    monkeypatch.setattr(qa_files, "MAX_FILE_BYTES", 1_000_000)
    bomb = tmp_path / "bomb.json.gz"
    bomb.write_bytes(gzip.compress(b" " * 50_000_000))  # 50 MB of spaces in 49 KB
    start = time.perf_counter()
    code, _, err = run_main(capsys, ROOT / DEV, bomb)
    assert time.perf_counter() - start < 2
    assert code == 1 and "bomb.json.gz" in err and "larger than" in err
    # plain files too
    big = tmp_path / "big.json"
    big.write_bytes(b" " * 1_000_001)
    code, _, err = run_main(capsys, ROOT / DEV, big)
    assert code == 1 and "big.json" in err and "larger than" in err
    # a corrupt or truncated .gz is bad data, not a traceback
    broken = tmp_path / "broken.json.gz"
    broken.write_bytes(gzip.compress(b'{"pe-1": "a"}')[:-12])
    code, _, err = run_main(capsys, ROOT / DEV, broken)
    assert code == 1 and "broken.json.gz" in err and "Traceback" not in err
    broken.write_bytes(b"\x1f\x8b not gzip at all")
    code, _, err = run_main(capsys, ROOT / DEV, broken)
    assert code == 1 and "broken.json.gz" in err


def test_too_many_comparisons_are_refused(tmp_path, capsys, monkeypatch):
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps({"data": [{"paragraphs": [{"qas": [
        {"id": "q1", "answers": [{"text": "a b"}, {"text": "c"}]},
        {"id": "q2", "answers": []}]}]}]}))
    pred = tmp_path / "pred.jsonl"
    pred.write_text('{"id": "q1", "answers": ["x", "y", "z"]}\n{"id": "q2", "answers": ["w"]}\n')
    # q1: 2 gold x 3 predicted = 6 pairs; q2 has no gold answer: 0
    assert comparisons(read_squad(gold).answers, read_predictions(pred).answers) == 6
    monkeypatch.setattr(qa_files, "MAX_COMPARISONS", 5)
    code, _, err = run_main(capsys, gold, pred)
    assert code == 1 and "6 comparisons" in err and "-k" in err
    code, out, _ = run_main(capsys, gold, pred, "-k", "2", "--format", "json")  # 2 x 2 = 4
    assert code == 0 and json.loads(out)["counts"]["questions"] == 2


def test_unreadable_files_exit_3(tmp_path, capsys):
    code, _, err = run_main(capsys, ROOT / DEV, tmp_path / "missing.json")
    assert code == 3 and "missing.json" in err
    code, _, err = run_main(capsys, tmp_path, ROOT / TOP1)
    assert code == 3 and "Traceback" not in err
    code, _, err = run_main(capsys, ROOT / DEV, tmp_path / ("x" * 5_000 + ".json"))  # name too long
    assert code == 3 and "Traceback" not in err


def test_per_question_table_shows_hostile_ids_escaped(tmp_path, capsys):
    evil = "q\x1b[31mred\x1b[0m" + "x" * 200
    gold = tmp_path / "gold.json"
    gold.write_text(json.dumps({"data": [{"paragraphs": [{"qas": [
        {"id": evil, "answers": [{"text": "a"}]}, {"id": "q2", "answers": []}]}]}]}))
    pred = tmp_path / "pred.json"
    pred.write_text(json.dumps({evil: "b", "q2": ""}))
    code, out, _ = run_main(capsys, gold, pred, "-q")
    assert code == 0 and "\x1b" not in out and "\\x1b[31m" in out
    assert max(len(line) for line in out.splitlines()) < 200
    # JSON output keeps the id exactly
    code, out, _ = run_main(capsys, gold, pred, "-q", "--format", "json")
    assert evil in json.loads(out)["per_question"]
