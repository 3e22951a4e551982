"""The bundled test collection: regenerated identically by its script, and usable as a demo."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from metrics.batch import evaluate_batch
from metrics.io import read_qrels, read_run

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "assets"
FILES = ["collection/docs.jsonl", "collection/queries.tsv", "collection/qrels.txt",
         "collection/run_bm25.txt", "collection/run_tf.txt", "examples/ground_truth.jsonl",
         "examples/results.jsonl"]


def test_script_regenerates_the_committed_files(tmp_path):
    subprocess.run([sys.executable, str(ASSETS / "make_collection.py"), "--out", str(tmp_path)],
                   check=True, capture_output=True)
    for name in FILES:
        assert (tmp_path / name).read_bytes() == (ASSETS / name).read_bytes(), name


def test_collection_shape():
    docs = (ASSETS / "collection/docs.jsonl").read_text().splitlines()
    qrels = read_qrels(ASSETS / "collection/qrels.txt").to_dict()
    assert 200 <= len(docs) <= 500
    assert 20 <= len(qrels) <= 50
    grades = {g for judged in qrels.values() for g in judged.values()}
    assert grades == {0, 1, 2, 3}
    for name in ("bm25", "tf"):
        run = read_run(ASSETS / f"collection/run_{name}.txt").to_dict()
        assert run.keys() == qrels.keys()
        assert all(len(r) <= 100 for r in run.values())


def test_bm25_is_the_stronger_system():
    qrels = read_qrels(ASSETS / "collection/qrels.txt")
    bm25 = evaluate_batch(qrels, read_run(ASSETS / "collection/run_bm25.txt"), "nDCG@10 AP")
    tf = evaluate_batch(qrels, read_run(ASSETS / "collection/run_tf.txt"), "nDCG@10 AP")
    assert bm25.aggregate["nDCG@10"] > tf.aggregate["nDCG@10"]
    assert bm25.aggregate["AP"] > tf.aggregate["AP"]


def test_readme_example_runs():
    result = subprocess.run([sys.executable, "-m", "metrics", "evaluate", "assets/collection/qrels.txt",
                             "assets/collection/run_bm25.txt"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0] == f"{'runid':<22}\tall\tbm25"
    assert lines[1] == f"{'num_q':<22}\tall\t30"


def test_readme_shows_the_real_output():
    readme = (ROOT / "README.md").read_text().splitlines()
    start = readme.index("    $ .venv/bin/ranklab evaluate assets/collection/qrels.txt assets/collection/run_bm25.txt")
    shown = []
    for line in readme[start + 1:]:
        if line.strip() == "...":
            break
        shown.append(line[4:])
    result = subprocess.run([sys.executable, "-m", "metrics", "evaluate", "assets/collection/qrels.txt",
                             "assets/collection/run_bm25.txt"], cwd=ROOT, capture_output=True, text=True)
    assert len(shown) >= 5
    assert result.stdout.splitlines()[: len(shown)] == shown
