"""Malformed TREC files through ``--engine spark`` (fixed seed): never a traceback, and the
local engine's verdict. Oracle: the local engine on the same files (its readers are fuzzed
on their own in tests/metrics/cli/test_fuzz_files.py)."""

from __future__ import annotations

import random

import pytest

from metrics.cli import main
from tests.fuzzing import QRELS_TREC, RUN_TREC, mutate

CASES = 24
SEED = 17


def ranklab(capsys, *args):
    code = main(["evaluate", *args])
    out, err = capsys.readouterr()
    return code, out, err


def cases():
    rnd = random.Random(SEED)
    for i in range(CASES):
        kind = "run" if i % 2 else "qrels"
        how, data = mutate((RUN_TREC if kind == "run" else QRELS_TREC).encode(), rnd)
        yield pytest.param(kind, data, id=f"{i}-{kind}-{how}")


@pytest.mark.parametrize("kind, data", list(cases()))
def test_a_mutated_file_gets_the_local_verdict(spark, capsys, tmp_path, kind, data):
    (tmp_path / "qrels.txt").write_text(QRELS_TREC)
    (tmp_path / "run.txt").write_text(RUN_TREC)
    (tmp_path / f"{kind}.txt").write_bytes(data)
    files = [str(tmp_path / "qrels.txt"), str(tmp_path / "run.txt"), "-q", "-m", "AP P@5 NumRet"]
    local = ranklab(capsys, *files)
    remote = ranklab(capsys, "--engine", "spark", *files)
    assert "Traceback" not in remote[2] and remote[0] in (0, 1), remote
    if local[0] == 0:
        assert remote == local
    else:
        assert remote[0] == local[0] and remote[1] == "" and remote[2].startswith("ranklab: error: "), (local, remote)
