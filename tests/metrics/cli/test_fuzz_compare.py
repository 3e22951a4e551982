"""`ranklab compare` and `ranklab fuse` on 150 mutated runs (seeded, tests/fuzzing.py's mutations):
each ends with exit 0 or 1 and a one-line message, never a traceback, and within seconds."""

from __future__ import annotations

import contextlib
import io
import random
import time

from metrics.cli import main
from tests.fuzzing import QRELS_TREC, RUN_TREC, mutate

CASES = 150


def _run(argv):
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, err.getvalue(), time.perf_counter() - start


def test_mutated_runs_never_crash_compare_or_fuse(tmp_path):
    rnd = random.Random(16)
    qrels = tmp_path / "qrels.txt"
    qrels.write_text(QRELS_TREC)
    good = tmp_path / "good.txt"
    good.write_text(RUN_TREC)
    for i in range(CASES):
        how, data = mutate(RUN_TREC.encode(), rnd)
        bad = tmp_path / f"case{i}.txt"
        bad.write_bytes(data)
        for argv in (["compare", str(qrels), str(good), str(bad), "-m", "AP nDCG@10", "--resamples", "50",
                      "--rounds", "50"],
                     ["fuse", str(good), str(bad), "-o", str(tmp_path / "fused.txt")]):
            code, err, seconds = _run(argv)
            assert code in (0, 1), (how, argv[0], code, err[-500:])
            assert "Traceback" not in err, (how, err[-2000:])
            assert code == 0 or f"case{i}.txt" in err, (how, err[-500:])
            assert seconds < 20, (how, seconds)
