"""`ranklab evaluate --stream`: the same output as reading the run whole; progress; refusals."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from metrics import cli
from metrics.cli import evaluate as evaluate_cli
from tests.metrics.io.test_stream import random_files

ROOT = Path(__file__).resolve().parents[3]
COLLECTION = ROOT / "assets/collection"


def run_cli(capsys, *args) -> tuple[int, str, str]:
    code = cli.main(["evaluate", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("options", [[], ["-q"], ["-q", "-c"], ["-q", "-M", "3", "-l", "2"],
                                     ["-q", "-c", "--format", "json"], ["--format", "csv", "-q"]])
def test_streamed_output_is_the_in_memory_output_byte_for_byte(tmp_path, capsys, monkeypatch, options):
    monkeypatch.setattr("metrics.io.stream.STREAM_BLOCK", 64)  # queries straddle blocks
    monkeypatch.setattr(evaluate_cli.RunStream.__init__, "__kwdefaults__",
                        {**evaluate_cli.RunStream.__init__.__kwdefaults__, "block_size": 64})
    for q, r in [(COLLECTION / "qrels.txt", COLLECTION / "run_bm25.txt"), random_files(tmp_path, 5, queries=25)]:
        whole = run_cli(capsys, q, r, "--no-stream", *options)
        streamed = run_cli(capsys, q, r, "--stream", *options)
        assert whole[0] == 0, whole[2]
        assert streamed == whole


def test_large_runs_are_streamed_by_default(tmp_path, capsys, monkeypatch):
    # an interleaved run: read whole it is fine; streamed it is refused, naming the line
    q, r = tmp_path / "q.txt", tmp_path / "r.txt"
    q.write_text("a 0 d1 1\nb 0 d2 1\n")
    r.write_text("a Q0 d1 1 2 t\nb Q0 d2 1 2 t\na Q0 d3 2 1 t\n")
    code, out, err = run_cli(capsys, q, r, "-m", "P@2")
    assert code == 0 and out == f"{'P_2':<22}\tall\t0.5000\n"
    monkeypatch.setattr(evaluate_cli, "STREAM_THRESHOLD", 10)
    code, out, err = run_cli(capsys, q, r, "-m", "P@2")
    assert code == 1 and out == ""
    assert err.startswith(f"ranklab: error: {r}:3: query 'a' appears again after other queries")
    assert "LC_ALL=C sort -s -k1,1" in err
    code, out, err = run_cli(capsys, q, r, "-m", "P@2", "--no-stream")
    assert code == 0


def test_stream_refuses_formats_it_cannot_stream(tmp_path, capsys):
    (tmp_path / "r.csv").write_text("qid,docid,score\nq1,a,1\n")
    code, _, err = run_cli(capsys, COLLECTION / "qrels.txt", tmp_path / "r.csv", "--stream")
    assert code == 2 and "--stream reads TREC runs, two-column lists, Parquet and Arrow files, not csv files" in err


def test_a_streamed_run_ignores_the_default_size_limit_but_not_an_explicit_one(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(evaluate_cli, "CLI_MAX_BYTES", 100)
    _, r = random_files(tmp_path, 2, layout=False)
    q = tmp_path / "small_qrels.txt"
    q.write_text("q1 0 d1 1\n")  # judgments are read whole: they stay under the limit
    assert r.stat().st_size > 100
    assert run_cli(capsys, q, r, "--stream", "-m", "AP")[0] == 0
    code, _, err = run_cli(capsys, q, r, "--stream", "-m", "AP", "--max-bytes", "100")
    assert code == 1 and "larger than 100 bytes" in err


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_the_progress_bar_on_a_terminal(capsys, monkeypatch):
    fake = Terminal()
    monkeypatch.setattr(sys, "stderr", fake)
    monkeypatch.setattr(evaluate_cli.Progress, "DELAY", 0.0)
    assert cli.main(["evaluate", str(COLLECTION / "qrels.txt"), str(COLLECTION / "run_bm25.txt"),
                     "-m", "P_5", "--stream"]) == 0
    shown = fake.getvalue()
    lines = sum(1 for line in (COLLECTION / "run_bm25.txt").read_text().splitlines() if line.strip())
    assert f"[########################] 100% {lines:,} lines, 30 queries" in shown and "ETA 0 s" in shown
    assert capsys.readouterr().out.startswith(f"{'P_5':<22}\tall\t")
    monkeypatch.setattr(sys, "stderr", fake := Terminal())
    assert cli.main(["evaluate", str(COLLECTION / "qrels.txt"), str(COLLECTION / "run_bm25.txt"),
                     "-m", "P_5", "--stream", "--no-progress"]) == 0
    assert fake.getvalue() == ""


def test_progress_can_be_asked_for_when_stderr_is_not_a_terminal(capsys, monkeypatch):
    monkeypatch.setattr(evaluate_cli.Progress, "DELAY", 0.0)
    code, out, err = run_cli(capsys, COLLECTION / "qrels.txt", COLLECTION / "run_bm25.txt", "-m", "P_5",
                             "--stream", "--progress", "--format", "json")
    assert code == 0 and "30 queries" in err and "lines/s" in err
    assert json.loads(out)["aggregate"]
