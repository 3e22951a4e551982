"""``ranklab evaluate --engine spark`` in local[2]: the same output as the local engine.

Oracle: the local engine's output (itself diffed against trec_eval's layout and checked
against pytrec_eval elsewhere) for the same files; messages written by hand.
"""

from __future__ import annotations

import gzip
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from metrics.cli import main
from metrics.io import read_qrels, read_run

ROOT = Path(__file__).resolve().parents[2]
QRELS = str(ROOT / "assets" / "collection" / "qrels.txt")
RUN = str(ROOT / "assets" / "collection" / "run_bm25.txt")


def ranklab(capsys, *args):
    code = main(["evaluate", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("options", [[], ["-q", "-m", "P@5 nDCG@10 AP", "--format", "csv"],
                                     ["-q", "-c", "-M", "20", "-l", "2", "--format", "json"]])
def test_text_files_give_the_local_output(spark, capsys, tmp_path, options):
    # a run that lacks one judged query (line 1's query) and has one unjudged query
    lines = Path(RUN).read_text().splitlines(keepends=True)
    first = lines[0].split()[0]
    run = tmp_path / "run.txt"
    run.write_text("".join(line for line in lines if line.split()[0] != first) + "zz Q0 d1 1 1.5 bm25\n")
    local = ranklab(capsys, QRELS, str(run), *options)
    remote = ranklab(capsys, "--engine", "spark", QRELS, str(run), *options)
    assert local[0] == 0
    assert remote == local


def test_parquet_and_gzip_give_the_local_output(spark, capsys, tmp_path):
    qrels, run = read_qrels(QRELS), read_run(RUN)
    pq.write_table(pa.table({"qid": [qrels.queries[i] for i in qrels.query], "iter": ["0"] * len(qrels),
                             "docid": qrels.doc, "grade": qrels.grade}), tmp_path / "qrels.parquet")
    pq.write_table(pa.table({"qid": [run.queries[i] for i in run.query], "docid": run.doc, "score": run.score}),
                   tmp_path / "run.parquet")
    with open(RUN, "rb") as src, gzip.open(tmp_path / "run.txt.gz", "wb") as out:
        shutil.copyfileobj(src, out)
    options = ["-q", "-m", "AP Bpref RR P@10"]
    local = ranklab(capsys, QRELS, RUN, *options)
    assert ranklab(capsys, "--engine", "spark", str(tmp_path / "qrels.parquet"), str(tmp_path / "run.parquet"),
                   *options) == local
    assert ranklab(capsys, "--engine", "spark", QRELS, str(tmp_path / "run.txt.gz"), *options) == local


@pytest.mark.parametrize("text, where, message", [
    ("q1 Q0 a 1 2.0 t\n# note\nq1 Q0 b 2 x1 t\n", ":3:", "score must be a decimal number, got 'x1'"),
    ("q1 Q0 a 1 2.0 t\nq1 Q0 b 2\n", ":2:", "expected 6 columns (qid Q0 docid rank score tag), got 4"),
    ("q1 Q0 a 1 1e999 t\n", ":1:", "score is not finite: '1e999'"),
    ("q1 Q0 a 1 2.0 t\nq1 Q0 a 2 1.0 t\n", "", "query q1: document 'a' appears 2 times"),
])
def test_a_bad_run_line_is_named(spark, capsys, tmp_path, text, where, message):
    run = tmp_path / "run.txt"
    run.write_text(text)
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 a 1\n")
    code, out, err = ranklab(capsys, "--engine", "spark", str(qrels), str(run))
    assert code == 1 and out == ""
    assert err.startswith(f"ranklab: error: {run}{where}") and message in err
    assert "Traceback" not in err and "\n" == err[-1] and err.count("\n") == 1


def test_a_bad_qrels_line_is_named(spark, capsys, tmp_path):
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 a 1\n\nq1 0 b 1.5\n")
    code, _, err = ranklab(capsys, "--engine", "spark", str(qrels), RUN)
    assert code == 1
    assert err == f"ranklab: error: {qrels}:3: grade must be an integer, got '1.5'\n"


def test_usage_and_missing_files(spark, capsys, tmp_path):
    code, _, err = ranklab(capsys, "--engine", "spark", str(tmp_path / "nope.txt"), RUN)
    assert code == 3 and "nope.txt" in err
    code, _, err = ranklab(capsys, "--engine", "spark", QRELS, "results.jsonl")
    assert code == 2 and "Parquet or TREC text" in err
    code, _, err = ranklab(capsys, "--partitions", "4", QRELS, RUN)
    assert code == 2 and "--engine spark" in err
    code, _, err = ranklab(capsys, "--engine", "spark", "--partitions", "0", QRELS, RUN)
    assert code == 2 and "--partitions must be a positive integer, got 0" in err


def test_spark_submit_runs_the_module(spark, capsys):
    """metrics/spark/__main__.py as spark-submit runs it (its own JVM, the master from the
    command line), printing what the local engine prints."""
    submit = Path(sys.executable).parent / "spark-submit"
    if not submit.exists():
        pytest.skip(f"{submit} is missing (pyspark installed without its scripts)")
    options = ["-q", "-m", "AP", "-m", "nDCG@10"]
    expected = ranklab(capsys, QRELS, RUN, *options)[1]
    done = subprocess.run([str(submit), "--master", "local[1]", str(ROOT / "metrics" / "spark" / "__main__.py"),
                           QRELS, RUN, *options], capture_output=True, text=True, timeout=600, cwd=ROOT,
                          env={**os.environ, "PYSPARK_PYTHON": sys.executable})
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout == expected
