"""``ranklab diagnose``: the command, its messages for bad input, and a fixed-seed fuzz of the
parser of ``--theirs`` files. Their numbers come from pytrec_eval."""

from __future__ import annotations

import json
import random

import pytest
import pytrec_eval

from metrics.cli import main
from metrics.io.model import FileFormatError
from metrics.io.theirs import read_theirs

QRELS = {"q1": {"a": 2, "b": 1, "c": 0}, "q2": {"d": 1, "e": 2}, "q3": {"f": 1}}
RUN = {"q1": {"c": 3.0, "a": 2.0, "b": 1.0}, "q2": {"d": 2.0, "x": 1.5, "e": 1.0}, "q3": {"g": 1.0, "f": 0.5}}


@pytest.fixture
def files(tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("".join(f"{q} 0 {d} {g}\n" for q, docs in QRELS.items() for d, g in docs.items()))
    run = tmp_path / "run.txt"
    run.write_text("".join(f"{q} Q0 {d} {i} {s} t\n" for q, docs in RUN.items()
                           for i, (d, s) in enumerate(docs.items(), 1)))
    return tmp_path, str(qrels), str(run)


def pytrec(measure: str, qrels=QRELS, **kw) -> dict:
    return {q: v[measure] for q, v in pytrec_eval.RelevanceEvaluator(qrels, {measure}, **kw).evaluate(RUN).items()}


def test_trec_eval_text_from_pytrec_eval_with_relevance_level(files, capsys):
    folder, qrels, run = files
    values = pytrec("map", relevance_level=2)
    theirs = folder / "theirs.txt"
    theirs.write_text("".join(f"map                   \t{q}\t{v:.4f}\n" for q, v in values.items())
                      + f"map                   \tall\t{sum(values.values()) / 3:.4f}\n")
    assert main(["diagnose", qrels, run, "-m", "map", "--theirs", str(theirs)]) == 0
    out = capsys.readouterr().out
    assert "verdict: Reproduced with relevance level: grade >= 2 relevant (-l 2)" in out
    assert "rel=2" in out


def test_json_report_and_json_theirs(files, capsys):
    folder, qrels, run = files
    remapped = {q: {d: 2 ** g - 1 for d, g in docs.items()} for q, docs in QRELS.items()}
    values = pytrec("ndcg", qrels=remapped)  # exponential gain, through pytrec_eval
    theirs = folder / "theirs.json"
    theirs.write_text(json.dumps({q: {"ndcg": v} for q, v in values.items()}))
    assert main(["diagnose", qrels, run, "-m", "ndcg", "--theirs", str(theirs), "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["reproduced"] is True
    assert [c["convention"] + "=" + c["value"] for c in report["changes"]] == ["gain=exponential"]
    assert {r["query"] for r in report["per_query"]} == {"q1", "q2", "q3"}


def test_a_value_and_a_tool_name(files, capsys):
    _, qrels, run = files
    values = pytrec("recip_rank")
    assert main(["diagnose", qrels, run, "-m", "RR", "--theirs", f"{sum(values.values()) / 3:.4f}"]) == 0
    assert "default conventions (trec_eval's) already reproduce" in capsys.readouterr().out
    assert main(["diagnose", qrels, run, "-m", "AP", "--theirs", "sklearn"]) == 0
    out = capsys.readouterr().out
    # sklearn's AP counts a tie group at once (ties='threshold'), and divides by the relevant retrieved
    assert "denominator=retrieved" in out and "ties=threshold" in out


@pytest.mark.parametrize("content, message", [
    ("map q1 0.5\nmap q2 zero\n", "theirs.txt:2: value: 'zero' is not a finite number"),
    ("q1,0.5\nq1,0.25\n", "theirs.txt:2: query 'q1' given twice (first on line 1)"),
    ("q1 0.5 0.6 0.7 0.8\n", "theirs.txt:1: expected 'qid value'"),
    ("map q1 nan\n", "theirs.txt:1: value: 'nan' is not a finite number"),
    ("P_5 q1 0.2\n", "theirs.txt: no value for AP (found measures: P_5)"),
    ('{"q1": [1, 2]}', "theirs.txt:1: query 'q1': expected a number"),
    ('{\n  "q1": {"map": 0.5},\n  "q2": {"P_5": 0.5, "P_10": 0.1}\n}', "theirs.txt:3: query 'q2': no single value for AP"),
    ('{"q1": 0.5', "theirs.txt:1: not valid JSON"),
    ("", "theirs.txt: empty"),
    ("\xff\xfe", None),
])
def test_bad_theirs_files_name_file_and_line(files, capsys, content, message):
    folder, qrels, run = files
    theirs = folder / "theirs.txt"
    if message is None:
        theirs.write_bytes(b"q1 0.5\n\xff\xfe\n")
        message = "theirs.txt:2: not UTF-8 text"
    else:
        theirs.write_text(content)
    assert main(["diagnose", qrels, run, "-m", "AP", "--theirs", str(theirs)]) == 1
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


@pytest.mark.parametrize("args, code, message", [
    (["--theirs", "nonsense-tool"], 2, "is not a number, a tool name"),
    (["--theirs", "0.5", "-m", "P@5 AP"], 2, "give exactly one measure"),
    (["--theirs", "0.5", "-m", "nDGC@10"], 2, "did you mean 'nDCG@10'"),
    (["--theirs", "inf"], 2, "is not a number"),
])
def test_bad_usage(files, capsys, args, code, message):
    _, qrels, run = files
    if "-m" not in args:
        args = [*args, "-m", "AP"]
    assert main(["diagnose", qrels, run, *args]) == code
    assert message in capsys.readouterr().err


def test_bad_run_names_its_line(files, capsys, tmp_path):
    _, qrels, _ = files
    bad = tmp_path / "bad_run.txt"
    bad.write_text("q1 Q0 a 1 2.0 t\nq1 Q0 b 2 zz t\n")
    assert main(["diagnose", qrels, str(bad), "-m", "AP", "--theirs", "0.5"]) == 1
    assert "bad_run.txt:2:" in capsys.readouterr().err


# --------------------------------------------------------------------------- fuzz

VALID = [
    "".join(f"ndcg_cut_10\t{q}\t{v}\n" for q, v in (("q1", "0.5000"), ("q2", "0.2500"), ("all", "0.3750"))),
    json.dumps({"q1": {"ndcg_cut_10": 0.5}, "q2": {"ndcg_cut_10": 0.25}}),
    json.dumps({"q1": 0.5, "q2": 0.25, "all": 0.375}),
    "qid,value\nq1,0.5\nq2,0.25\n",
]
PIECES = ["\n", "\r", ",", "\t", " ", "{", "}", "[", "]", '"', ":", "nan", "inf", "-", "1e999", "%", "all",
          "0x10", "\x00", "é", "\ufeff", "9" * 50, "#", "ndcg_cut_10", "map", "[" * 2000, "1" * 5000]


def mutate(rng: random.Random, text: str) -> bytes:
    chars = list(text)
    for _ in range(rng.randint(1, 6)):
        op = rng.random()
        at = rng.randint(0, len(chars))
        if op < 0.3 and chars:
            del chars[rng.randrange(len(chars))]
        elif op < 0.6:
            chars[at:at] = list(rng.choice(PIECES))
        elif op < 0.8 and chars:
            i = rng.randrange(len(chars))
            chars[i] = chr(rng.randint(0, 0x2FF))
        else:
            chars = chars[: rng.randint(0, len(chars))]
    data = "".join(chars).encode("utf-8", "surrogatepass")
    if rng.random() < 0.1:
        data = bytes(rng.randint(0, 255) for _ in range(rng.randint(0, 64)))
    return data


def test_fuzz_theirs_parser_fixed_seed():
    rng = random.Random(20261125)
    outcomes = {"read": 0, "refused": 0}
    for i in range(1500):
        data = mutate(rng, rng.choice(VALID))
        try:
            t = read_theirs(data, "fuzz.txt", "nDCG@10")
        except FileFormatError as err:
            assert str(err).startswith("fuzz.txt"), (i, data, err)
            outcomes["refused"] += 1
        except ValueError as err:  # a measure-less message still names the file or the value
            assert "fuzz.txt" in str(err) or "value" in str(err) or "query" in str(err), (i, data, err)
            outcomes["refused"] += 1
        else:
            assert not t.empty
            for n in [*t.per_query.values(), *([t.aggregate] if t.aggregate else [])]:
                assert n.tolerance >= 0 and n.value == n.value and abs(n.value) < float("inf")
            outcomes["read"] += 1
    assert outcomes["read"] > 100 and outcomes["refused"] > 100


def test_fuzz_through_the_command(files, capsys):
    folder, qrels, run = files
    rng = random.Random(7)
    theirs = folder / "theirs.txt"
    for _ in range(40):
        theirs.write_bytes(mutate(rng, rng.choice(VALID)))
        code = main(["diagnose", qrels, run, "-m", "nDCG@10", "--theirs", str(theirs)])
        captured = capsys.readouterr()
        assert code in (0, 1), captured.err
        assert "Traceback" not in captured.err
        if code == 1:
            assert "theirs.txt" in captured.err


def test_readme_worked_example_is_sklearns_number_and_real_output(capsys):
    # 0.5380 in docs/command-line.md is scikit-learn's ndcg_score(k=10) averaged over the sample's queries
    # (read by the test's own parser); the output shown there is what the command prints
    from pathlib import Path

    import numpy as np
    from sklearn.metrics import ndcg_score

    from tests.metrics.io.test_io import simple_qrels_parse, simple_run_parse

    root = Path(__file__).resolve().parents[3]
    qrels = simple_qrels_parse(root / "assets/collection/qrels.txt")
    run = simple_run_parse(root / "assets/collection/run_bm25.txt")
    values = [ndcg_score(np.array([[qrels[q].get(d, 0) for d in docs]]), np.array([list(docs.values())]), k=10)
              for q, docs in run.items() if q in qrels]
    assert f"{sum(values) / len(values):.4f}" == "0.5380"
    readme = (root / "docs/command-line.md").read_text()
    assert main(["diagnose", str(root / "assets/collection/qrels.txt"), str(root / "assets/collection/run_bm25.txt"),
                 "-m", "nDCG@10", "--theirs", "0.5380"]) == 0
    out = capsys.readouterr().out.splitlines()
    shown = [line for line in out if not line.startswith(("  1", "  query"))]
    for line in shown[:5] + shown[-5:]:
        assert "    " + line in readme, line


def test_readme_ap_example_is_sklearns_number_and_real_output(capsys):
    # 0.5796: scikit-learn's average_precision_score averaged over the sample's queries
    from pathlib import Path

    from sklearn.metrics import average_precision_score

    from tests.metrics.io.test_io import simple_qrels_parse, simple_run_parse

    root = Path(__file__).resolve().parents[3]
    qrels = simple_qrels_parse(root / "assets/collection/qrels.txt")
    run = simple_run_parse(root / "assets/collection/run_bm25.txt")
    values = [average_precision_score([1 if qrels[q].get(d, 0) > 0 else 0 for d in docs], list(docs.values()))
              for q, docs in run.items() if q in qrels]
    assert f"{sum(values) / len(values):.4f}" == "0.5796"
    assert main(["diagnose", str(root / "assets/collection/qrels.txt"), str(root / "assets/collection/run_bm25.txt"),
                 "-m", "AP", "--theirs", "0.5796"]) == 0
    out = capsys.readouterr().out.splitlines()
    readme = (root / "docs/command-line.md").read_text()
    # reproduced: sklearn's denominator (relevant retrieved) and its tie groups counted at once
    assert out[1].startswith("verdict: Reproduced with AP denominator")
    assert "ties=threshold" in "\n".join(out)
    for line in out[:6]:
        assert "    " + line in readme, line
