"""`ranklab compare` on the bundled collection: its JSON against scipy.stats (oracle), every format, and
clear errors for bad input."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import numpy as np
import pytest

from metrics.batch import evaluate_batch
from metrics.cli import main
from metrics.io import read_qrels, read_run

stats = pytest.importorskip("scipy.stats")
COLL = Path(__file__).resolve().parents[3] / "assets" / "collection"
QRELS, BM25, TF = (str(COLL / n) for n in ("qrels.txt", "run_bm25.txt", "run_tf.txt"))


def _run(capsys, *args):
    code = main(["compare", *args])
    out = capsys.readouterr()
    return code, out.out, out.err


def test_json_agrees_with_scipy_on_the_collection(capsys, tmp_path):
    third = tmp_path / "run_rev.txt"  # a third system: BM25's rankings reversed
    lines = [line.split() for line in Path(BM25).read_text().splitlines()]
    third.write_text("".join(f"{q} Q0 {d} {r} {-float(s)} rev\n" for q, _, d, r, s, _ in lines))
    code, out, _ = _run(capsys, QRELS, BM25, TF, str(third), "-m", "AP nDCG@10", "--format", "json",
                        "--resamples", "500")
    assert code == 0
    data = json.loads(out)
    assert data["systems"] == ["run_bm25", "run_tf", "run_rev"]
    qrels = read_qrels(QRELS)
    per = {n: evaluate_batch(qrels, read_run(p), ["AP", "nDCG@10"], missing="zero").per_query
           for n, p in (("run_bm25", BM25), ("run_tf", TF), ("run_rev", str(third)))}
    topics = data["topics"]
    assert len(topics) == 30
    for m in ("AP", "nDCG@10"):
        x = np.array([[per[n][q][m] for n in data["systems"]] for q in topics])
        assert len(data["measures"][m]["pairs"]) == 3
        for pair in data["measures"][m]["pairs"]:
            i, j = data["systems"].index(pair["a"]), data["systems"].index(pair["b"])
            assert pair["t"]["p"] == pytest.approx(stats.ttest_rel(x[:, j], x[:, i]).pvalue, abs=1e-9)
            assert pair["wilcoxon"]["p"] == pytest.approx(stats.wilcoxon(x[:, j], x[:, i]).pvalue, abs=1e-9)
        means = [s["mean"] for s in data["measures"][m]["systems"]]
        assert means == pytest.approx(x.mean(axis=0).tolist(), abs=1e-12)


def test_table_latex_csv(capsys):
    code, out, _ = _run(capsys, QRELS, BM25, TF, "-m", "AP", "--resamples", "200")
    assert code == 0 and "95% CI" in out and "run_tf - run_bm25" in out and "Holm" in out
    code, out, _ = _run(capsys, QRELS, BM25, TF, "-m", "AP", "--format", "latex", "--resamples", "200",
                        "--test", "randomization", "--correction", "bh")
    assert code == 0 and out.startswith("\\begin{table}") and "Benjamini-Hochberg" in out
    assert "(a) run\\_bm25" in out
    code, out, _ = _run(capsys, QRELS, BM25, TF, "-m", "AP nDCG@10", "--format", "csv", "--resamples", "200")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert code == 0 and len(rows) == 2 * 3 and {r["measure"] for r in rows} == {"AP", "nDCG@10"}


def test_topics_needed_and_warnings(capsys, tmp_path):
    code, out, _ = _run(capsys, QRELS, BM25, TF, "-m", "AP", "--resamples", "200", "--topics-needed")
    assert code == 0 and "topics needed" in out
    q = tmp_path / "q.txt"
    q.write_text("".join(f"t{i} 0 d{i} 1\n" for i in range(4)))
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("".join(f"t{i} Q0 d{i} 1 1 a\n" for i in range(4)))
    b.write_text("".join(f"t{i} Q0 x 1 2 b\nt{i} Q0 d{i} 2 1 b\n" for i in range(4)))
    code, out, err = _run(capsys, str(q), str(a), str(b), "-m", "RR", "--resamples", "100")
    assert code == 0 and "only 4 topics" in err


@pytest.mark.parametrize("args, code, text", [
    ([QRELS, BM25], 2, "at least two runs"),
    ([QRELS, BM25, TF, "-m", "NoSuchMeasure"], 2, "unknown measure"),
    ([QRELS, BM25, TF, "--alpha", "1.5"], 2, "--alpha"),
    ([QRELS, BM25, TF, "--resamples", "0"], 2, "--resamples"),
    ([QRELS, BM25, BM25], 2, "own non-empty name"),
    ([QRELS, BM25, TF, "--names", "a"], 2, "--names gives 1"),
    ([QRELS, BM25, TF, "--names", "a,\x1b[31mred"], 2, "control character"),
    ([QRELS, BM25, "/no/such/run.txt"], 3, "cannot read"),
])
def test_bad_usage(capsys, args, code, text):
    got, out, err = _run(capsys, *args)
    assert got == code and text in err and "Traceback" not in err


def test_malformed_run_names_file_and_line(capsys, tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_text("101 Q0 D1 1 1.0 x\n101 Q0 D2 2 nan x\n")
    got, _, err = _run(capsys, QRELS, BM25, str(bad))
    assert got == 1 and "bad.txt:2" in err


def test_readme_worked_example_is_the_real_output(capsys, tmp_path, monkeypatch):
    """The `fuse` + `compare` transcript of docs/command-line.md is what the commands print (a
    documentation check; the numbers themselves are checked against scipy above)."""
    readme = (Path(__file__).resolve().parents[3] / "docs" / "command-line.md").read_text()
    block = readme.split("## Comparing systems", 1)[1].split("`--format latex`", 1)[0]
    shown = [line[4:].rstrip() for line in block.splitlines()
             if line.startswith("    ") and not line.lstrip().startswith(("$", "...", "assets/", "(", "\\"))]
    monkeypatch.chdir(tmp_path)
    assert main(["fuse", BM25, TF, "-o", "fused_rrf.txt"]) == 0
    capsys.readouterr()
    assert main(["compare", QRELS, BM25, TF, "fused_rrf.txt", "-m", "AP nDCG@10", "--topics-needed"]) == 0
    printed = {line.rstrip() for line in capsys.readouterr().out.splitlines()}
    assert len(shown) >= 15
    missing = [line for line in shown if line.strip() and line not in printed and not line.startswith("  ...")]
    assert missing == []
