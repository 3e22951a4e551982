"""``python -m metrics evaluate``: exit codes, messages, and output that matches pytrec_eval."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest
import pytrec_eval

from tests.metrics.batch.test_batch import truncated
from tests.metrics.io.test_io import simple_qrels_parse, simple_run_parse

ROOT = Path(__file__).resolve().parents[3]
DATA = Path(__file__).resolve().parents[2] / "data"
QRELS, RUN = str(DATA / "qrels_messy.txt"), str(DATA / "run_messy.txt")


def ranklab(*args, cwd=ROOT):
    return subprocess.run([sys.executable, "-m", "metrics", *map(str, args)], cwd=cwd,
                          capture_output=True, text=True, timeout=120)


def no_traceback(result):
    assert "Traceback" not in result.stderr and "Traceback" not in result.stdout


def reference(measures: set[str], level=1, depth=None):
    qrels = simple_qrels_parse(QRELS)
    run = simple_run_parse(RUN)
    if depth:
        run = truncated(run, depth)
    ev = pytrec_eval.RelevanceEvaluator(qrels, measures, relevance_level=level)
    return ev.evaluate(run)


def trec_lines(ref: dict, names: list[str], counts=("num_ret", "num_rel", "num_rel_ret")) -> list[str]:
    """trec_eval's print format, from pytrec_eval's numbers."""
    def fmt(name, v):
        return str(int(v)) if name in counts else f"{v:6.4f}"
    lines = [f"{n:<22}\t{q}\t{fmt(n, ref[q][n])}" for q in ref for n in names]
    for n in names:
        agg = pytrec_eval.compute_aggregated_measure(n, [ref[q][n] for q in ref])
        lines.append(f"{n:<22}\tall\t{fmt(n, agg)}")
    return lines


@pytest.mark.parametrize("level", [1, 2])
def test_trec_format_matches_pytrec_eval(level):
    args = ["-m", "P_5", "-m", "map", "-m", "ndcg_cut.3,10", "-m", "recip_rank bpref", "-m", "num_ret",
            "-m", "num_rel_ret", "-m", "iprec_at_recall_0.50", "-q"]
    if level != 1:
        args += ["-l", level]
    result = ranklab("evaluate", QRELS, RUN, *args)
    no_traceback(result)
    assert result.returncode == 0
    ref = reference({"P.5", "map", "ndcg_cut.3,10", "recip_rank", "bpref", "num_ret", "num_rel_ret",
                     "iprec_at_recall"}, level)
    names = ["P_5", "map", "ndcg_cut_3", "ndcg_cut_10", "recip_rank", "bpref", "num_ret", "num_rel_ret",
             "iprec_at_recall_0.50"]
    got = result.stdout.splitlines()
    assert sorted(got) == sorted(trec_lines(ref, names))
    qids = [line.split("\t")[1] for line in got]
    assert qids[-len(names):] == ["all"] * len(names)  # the summary comes last
    assert qids[:-len(names)] == sorted(qids[:-len(names)])  # queries in order, each in one block
    assert "ranklab: warning: 1 query judged but absent from the run: 103" in result.stderr
    assert "1 query in the run but not judged (ignored): 106" in result.stderr


def test_depth_matches_pytrec_eval_on_a_truncated_run():
    result = ranklab("evaluate", QRELS, RUN, "-m", "P_5 map ndcg recip_rank num_ret", "-q", "-M", "2")
    assert result.returncode == 0
    ref = reference({"P.5", "map", "ndcg", "recip_rank", "num_ret"}, depth=2)
    assert sorted(result.stdout.splitlines()) == sorted(trec_lines(ref, ["num_ret", "map", "recip_rank", "P_5", "ndcg"]))


def test_default_measures_print_runid_and_counts():
    result = ranklab("evaluate", QRELS, RUN)
    assert result.returncode == 0
    lines = result.stdout.splitlines()
    assert lines[0] == f"{'runid':<22}\tall\trunA"
    assert lines[1] == f"{'num_q':<22}\tall\t4"
    ref = reference({"num_ret", "map", "P.1000"})
    assert f"{'num_ret':<22}\tall\t{int(sum(v['num_ret'] for v in ref.values()))}" in lines
    assert f"{'map':<22}\tall\t{sum(v['map'] for v in ref.values()) / 4:6.4f}" in lines
    assert any(line.startswith("P_1000 ") for line in lines)


def test_complete_counts_missing_queries_as_zero():
    result = ranklab("evaluate", QRELS, RUN, "-m", "AP", "-m", "NumQ", "-c", "--format", "json", "-q")
    assert result.returncode == 0
    out = json.loads(result.stdout)
    ref = reference({"map"})
    assert out["per_query"]["103"]["AP"] == 0.0
    assert out["aggregate"]["NumQ"] == 5.0
    assert out["aggregate"]["AP"] == pytest.approx(sum(v["map"] for v in ref.values()) / 5, abs=1e-12)
    assert "1 query judged but absent from the run scored 0 (-c): 103" in result.stderr


def test_json_and_csv_formats():
    ref = reference({"P.5", "ndcg_cut.10"})
    j = ranklab("evaluate", QRELS, RUN, "-m", "P@5 nDCG@10", "--format", "json", "-q")
    out = json.loads(j.stdout)
    assert set(out) == {"aggregate", "per_query", "warnings"}
    for q, values in ref.items():
        assert out["per_query"][q]["P@5"] == pytest.approx(values["P_5"], abs=1e-12)
        assert out["per_query"][q]["nDCG@10"] == pytest.approx(values["ndcg_cut_10"], abs=1e-12)
    c = ranklab("evaluate", QRELS, RUN, "-m", "P@5 nDCG@10", "--format", "csv", "-q")
    rows = list(csv.reader(io.StringIO(c.stdout)))
    assert rows[0] == ["qid", "P@5", "nDCG@10"]
    assert rows[-1][0] == "all"
    assert float(rows[-1][2]) == pytest.approx(sum(v["ndcg_cut_10"] for v in ref.values()) / len(ref), abs=1e-12)
    t = ranklab("evaluate", QRELS, RUN, "-m", "P@5 nDCG@10", "--format", "table")
    assert t.returncode == 0
    header, rule, row = t.stdout.splitlines()
    assert header.split() == ["query", "P@5", "nDCG@10"] and row.split()[0] == "all"


def test_unknown_measure_exits_2_with_a_suggestion():
    result = ranklab("evaluate", QRELS, RUN, "-m", "nDGC@10")
    no_traceback(result)
    assert result.returncode == 2
    assert result.stderr.strip() == "ranklab: error: measure: unknown measure 'nDGC@10'; did you mean 'nDCG@10'?"
    assert ranklab("evaluate", QRELS, RUN, "-M", "0").returncode == 2


def test_missing_file_is_one_line_exit_3():
    result = ranklab("evaluate", "no_such_qrels.txt", RUN)
    no_traceback(result)
    assert result.returncode == 3
    assert result.stderr.splitlines() == ["ranklab: error: cannot read no_such_qrels.txt: No such file or directory"]


def test_malformed_file_exits_1_naming_lines(tmp_path):
    bad = tmp_path / "run.txt"
    bad.write_text("101 Q0 d1 1 2.5 t\n101 Q0 d2 2 oops t\n101 Q0 d3\n")
    result = ranklab("evaluate", QRELS, bad)
    no_traceback(result)
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        f"ranklab: error: {bad}:2: score 'oops' is not a number",
        f"{bad}:3: expected 6 columns (qid Q0 docid rank score tag), found 3",
    ]


def test_duplicates_error_by_default_and_dedup_option(tmp_path):
    run = tmp_path / "run.txt"
    run.write_text("101 Q0 d1 1 2.5 t\n101 Q0 d2 2 2.0 t\n101 Q0 d1 3 3.0 t\n")
    result = ranklab("evaluate", QRELS, run, "-m", "RR")
    assert result.returncode == 1
    assert "document 'd1' appears 2 times (lines 1 and 3)" in result.stderr
    assert "--dedup" in result.stderr
    kept = ranklab("evaluate", QRELS, run, "-m", "P_1", "-q", "--dedup", "last")
    assert kept.returncode == 0
    # d1 keeps score 3.0 and ranks first; it is graded 3 for query 101
    assert f"{'P_1':<22}\t101\t1.0000" in kept.stdout.splitlines()


def test_help_shows_examples_and_exit_codes():
    result = ranklab("evaluate", "--help")
    assert result.returncode == 0
    assert "examples:" in result.stdout and "exit codes:" in result.stdout
    assert "ranklab evaluate assets/collection/qrels.txt assets/collection/run_bm25.txt" in result.stdout
    top = ranklab("--help")
    assert "evaluate" in top.stdout and "Exit codes:" in top.stdout


def test_no_progress_or_noise_when_stderr_is_not_a_terminal(tmp_path):
    (tmp_path / "q.txt").write_text("1 0 a 1\n")
    (tmp_path / "r.txt").write_text("1 Q0 a 1 1 t\n")
    result = ranklab("evaluate", tmp_path / "q.txt", tmp_path / "r.txt", "-m", "P_1")
    assert result.returncode == 0 and result.stderr == ""
    assert result.stdout == f"{'P_1':<22}\tall\t1.0000\n"


def test_jsonl_files_with_id_fields(tmp_path):
    (tmp_path / "gt.jsonl").write_text('{"query_id": "q", "ground_truth": [{"name": "a", "page": 1}]}\n')
    (tmp_path / "res.jsonl").write_text('{"query_id": "q", "results": [{"name": "b", "page": 1}, {"name": "a", "page": 1}]}\n')
    result = ranklab("evaluate", tmp_path / "gt.jsonl", tmp_path / "res.jsonl", "-m", "RR", "--id-fields", "name,page")
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"{'recip_rank':<22}\tall\t0.5000\n"  # relevant at rank 2


def test_progress_goes_to_a_terminal_stderr_only(monkeypatch, capsys):
    from metrics import cli

    class Terminal(io.StringIO):
        def isatty(self):
            return True

    fake = Terminal()
    monkeypatch.setattr(sys, "stderr", fake)
    assert cli.main(["evaluate", str(ROOT / "assets/collection/qrels.txt"),
                     str(ROOT / "assets/collection/run_bm25.txt"), "-m", "P_5"]) == 0
    assert "reading" in fake.getvalue() and "evaluating 30 judged queries" in fake.getvalue()
    out = capsys.readouterr().out  # progress never reaches stdout
    assert out.startswith(f"{'P_5':<22}\tall\t") and out.count("\n") == 1
