"""Edge cases of ``ranklab`` tried as a new user would: rel=None, an internal error's own exit
code, --theirs in every form and at every precision, fuse's overflow and output file, long ids
in messages, and a JSONL run that mixes scored and unscored results."""

from __future__ import annotations

import json
import math
import warnings
from pathlib import Path

import pytest
import pytrec_eval

import metrics
from metrics.cli import EXIT_DATA, EXIT_FILE, EXIT_INTERNAL, EXIT_USAGE, main
from metrics.fusion import fuse

COLL = Path(__file__).resolve().parents[3] / "assets" / "collection"
QRELS, BM25, TF = (str(COLL / n) for n in ("qrels.txt", "run_bm25.txt", "run_tf.txt"))


def _cli(capsys, *argv):
    code = main([*argv])
    out = capsys.readouterr()
    return code, out.out, out.err


# --------------------------------------------------------------------------- 1. rel=None

@pytest.mark.parametrize("name", ["RBP(rel=None)", "P(rel=None)@5", "AP(rel=None)", "Bpref(rel=None)",
                                  "RR(rel=None)"])
def test_rel_none_is_refused_at_parse_time_by_binary_measures(name):
    with pytest.raises(ValueError, match=r"rel must be an integer >= 1 .*not None"):
        metrics.parse(name)


def test_rel_none_is_the_default_of_graded_gains():
    # nDCG reads every grade: rel=None is its default. One relevant document at rank 1: 1.0
    assert metrics.score("nDCG(rel=None)", ["a"], {"a": 1}) == 1.0
    assert metrics.parse("nDCG(rel=None)@10") == metrics.parse("nDCG@10")


def test_rel_none_on_the_command_line_is_bad_usage(capsys):
    code, _, err = _cli(capsys, "evaluate", QRELS, BM25, "-m", "RBP(rel=None)")
    assert code == EXIT_USAGE
    assert "rel must be an integer" in err and "not supported" not in err


def test_an_internal_error_has_its_own_message_and_exit_code(capsys, monkeypatch, tmp_path):
    def broken(*args, **kwargs):  # a bug: Python's own TypeError, raised by no check of Ranklab's
        return 1 >= None

    monkeypatch.setattr("metrics.cli.fuse.fuse", broken)
    code, _, err = _cli(capsys, "fuse", BM25, TF)
    assert code == EXIT_INTERNAL
    assert err.startswith("ranklab: internal error: TypeError: ") and "Traceback" not in err

    monkeypatch.setattr("metrics.cli.fuse.fuse", lambda *a, **k: {}["relevant"])
    code, _, err = _cli(capsys, "fuse", BM25, TF)
    assert code == EXIT_INTERNAL and "KeyError" in err


def test_bad_input_keeps_exit_code_one(capsys, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("q1 Q0 d1 1 notanumber tag\n")
    code, _, err = _cli(capsys, "fuse", BM25, str(bad))
    assert code == EXIT_DATA
    assert err.startswith(f"ranklab: error: {bad}:1: ")


# --------------------------------------------------------------------------- 2, 3, 7. diagnose --theirs

def _pytrec_ndcg10() -> dict[str, float]:
    qrels, run = metrics.io.read_qrels(QRELS).to_dict(), metrics.io.read_run(BM25).to_dict()
    got = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut.10"}).evaluate(run)
    return {q: v["ndcg_cut_10"] for q, v in got.items()}


@pytest.mark.parametrize("form", ["json", "csv", "trec_eval"])
def test_numbers_printed_at_four_decimals_match_in_every_format(capsys, tmp_path, form):
    values = _pytrec_ndcg10()
    theirs = tmp_path / f"theirs.{form}"
    if form == "json":  # round() drops trailing zeros: 0.78 is matched within 0.005, as printed
        theirs.write_text(json.dumps({q: round(v, 4) for q, v in values.items()}))
    elif form == "csv":
        theirs.write_text("".join(f"{q},{v:.4f}\n" for q, v in values.items()))
    else:
        theirs.write_text("".join(f"ndcg_cut_10\t{q}\t{v:.4f}\n" for q, v in values.items()))
    code, out, err = _cli(capsys, "diagnose", QRELS, BM25, "-m", "nDCG@10", "--theirs", str(theirs))
    assert code == 0, err
    assert "already reproduce their numbers" in out


def test_one_query_at_four_decimals_is_not_taken_for_flattened_queries(capsys, tmp_path):
    values = _pytrec_ndcg10()
    theirs = tmp_path / "one.json"
    theirs.write_text(json.dumps({"101": float(f"{values['101']:.4f}")}))
    code, out, _ = _cli(capsys, "diagnose", QRELS, BM25, "-m", "nDCG@10", "--theirs", str(theirs))
    assert code == 0
    assert "already reproduce" in out and "flatten" not in out.split("note:")[0]


def test_json_numbers_with_every_digit_are_still_matched_almost_exactly(capsys, tmp_path):
    values = _pytrec_ndcg10()
    values["101"] += 1e-6  # a real difference, far below 4 decimals but above a double's digits
    theirs = tmp_path / "theirs.json"
    theirs.write_text(json.dumps(values))
    code, out, _ = _cli(capsys, "diagnose", QRELS, BM25, "-m", "nDCG@10", "--theirs", str(theirs))
    assert code == 0 and "No set of conventions tried reproduces" in out


def test_an_inner_value_of_another_measure_is_refused(capsys, tmp_path):
    theirs = tmp_path / "ap.json"
    theirs.write_text('{\n"101": {"AP": 0.5}\n}\n')
    code, _, err = _cli(capsys, "diagnose", QRELS, BM25, "-m", "nDCG@10", "--theirs", str(theirs))
    assert code == EXIT_DATA
    assert f"{theirs}:2: query '101': no single value for nDCG@10 (found: AP)" in err


def test_ranklab_own_json_output_is_read_as_theirs(capsys, tmp_path):
    values = _pytrec_ndcg10()
    mean = sum(values.values()) / len(values)
    theirs = tmp_path / "ranklab.json"
    theirs.write_text(json.dumps({"aggregate": {"nDCG@10": mean},
                                  "per_query": {q: {"nDCG@10": v} for q, v in values.items()}, "warnings": []}))
    code, out, err = _cli(capsys, "diagnose", QRELS, BM25, "-m", "nDCG@10", "--theirs", str(theirs),
                          "--format", "json")
    assert code == 0, err
    report = json.loads(out)
    assert report["reproduced"] is True
    assert report["aggregate"]["theirs"]["value"] == pytest.approx(mean, abs=1e-12)


@pytest.mark.parametrize("value, words", [("", "is empty"), ("   ", "is empty"),
                                          ("9" * 5000, "too long for a number"),
                                          ("x" * 5000, "too long for a file name")])
def test_theirs_empty_or_too_long_is_bad_usage(capsys, value, words):
    code, _, err = _cli(capsys, "diagnose", QRELS, BM25, "-m", "nDCG@10", "--theirs", value)
    assert code == EXIT_USAGE
    assert words in err and len(err) < 400


# --------------------------------------------------------------------------- 4, 5, 6. fuse

def test_zscore_near_the_largest_double_is_exact_and_silent():
    runs = [{"q": {"a": 1.7e308, "b": -1.7e308, "c": 0.0}}, {"q": {"a": 1.0, "b": 0.5}}]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fused = fuse(runs, method="combsum", norm="zscore")["q"]
    # run 1: mean 0, population sd 1.7e308 * sqrt(2/3): a and b at ±sqrt(3/2), c at 0;
    # run 2: mean 0.75, sd 0.25: a at +1, b at -1
    assert fused["a"] == pytest.approx(math.sqrt(1.5) + 1, rel=1e-12)
    assert fused["b"] == pytest.approx(-math.sqrt(1.5) - 1, rel=1e-12)
    assert fused["c"] == 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        spread = fuse(runs, method="combsum", norm="minmax")["q"]
    assert spread == pytest.approx({"a": 2.0, "b": 0.0, "c": 0.5})  # (s - min) / (max - min), + run 2's


def test_zscore_overflow_through_the_command_line(capsys, tmp_path):
    big = tmp_path / "big.txt"
    big.write_text("q1 Q0 a 1 1.7e308 x\nq1 Q0 b 2 -1.7e308 x\nq1 Q0 c 3 0 x\n")
    small = tmp_path / "small.txt"
    small.write_text("q1 Q0 a 1 1 x\nq1 Q0 b 2 0.5 x\n")
    code, out, err = _cli(capsys, "fuse", str(big), str(small), "--method", "combsum", "--norm", "zscore")
    assert code == 0 and err == ""
    scores = {line.split()[2]: float(line.split()[4]) for line in out.splitlines()}
    assert scores["a"] == pytest.approx(math.sqrt(1.5) + 1) and scores["c"] == 0.0


def test_fuse_refuses_to_overwrite_one_of_its_inputs(capsys, tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text(Path(BM25).read_text())
    b.write_text(Path(TF).read_text())
    before = a.read_bytes()
    for target in (str(a), str(tmp_path / "." / "a.txt")):
        code, _, err = _cli(capsys, "fuse", str(a), str(b), "-o", target)
        assert code == EXIT_USAGE and "one of the runs" in err
    assert a.read_bytes() == before


def test_fuse_reports_a_failed_write_as_a_write(capsys, tmp_path):
    code, _, err = _cli(capsys, "fuse", BM25, TF, "-o", str(tmp_path / "nope" / "fused.txt"))
    assert code == EXIT_FILE
    assert err.startswith("ranklab: error: cannot write ") and "cannot read" not in err


# --------------------------------------------------------------------------- 8, 9. messages

def test_compare_cuts_a_long_query_id_in_its_warning(capsys, tmp_path):
    long_id = "x" * 100_000
    qrels = tmp_path / "qrels.txt"
    qrels.write_text(f"{long_id} 0 d1 1\nq2 0 d1 1\n")
    one, two = tmp_path / "one.txt", tmp_path / "two.txt"
    one.write_text("q2 Q0 d1 1 1 t\n")
    two.write_text(f"q2 Q0 d1 1 1 t\n{long_id} Q0 d1 1 1 t\n")
    code, _, err = _cli(capsys, "compare", str(qrels), str(one), str(two), "-m", "AP", "--resamples", "50")
    assert code == 0
    warning = next(line for line in err.splitlines() if "missing, scored 0" in line)
    assert len(warning) < 200 and "xxx..." in warning


def test_jsonl_mixing_scored_and_unscored_results_names_a_line_of_each(capsys, tmp_path):
    run = tmp_path / "results.jsonl"
    run.write_text('{"query_id": "q1", "results": [{"filename": "a", "page_number": 1, "score": 1}]}\n\n'
                   '{"query_id": "q2", "results": [{"filename": "b", "page_number": 1}]}\n')
    qrels = tmp_path / "gt.jsonl"
    qrels.write_text('{"query_id": "q1", "ground_truth": [{"filename": "a", "page_number": 1}]}\n')
    code, _, err = _cli(capsys, "evaluate", str(qrels), str(run))
    assert code == EXIT_DATA
    assert f"{run}:1: the first line whose results have a 'score'" in err
    assert f"{run}:3: the first line with a result without a 'score'" in err
