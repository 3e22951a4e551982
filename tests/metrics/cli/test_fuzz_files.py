"""Thousands of malformed files through ``ranklab evaluate`` as real processes.

Every case must end with exit code 0 or 1 (never a signal, never a traceback), within 10 s,
and an error must name the file and, when a line is at fault, the line. The cases are made
with a fixed seed (tests/fuzzing.py); ``RANKLAB_FUZZ=20000`` runs more of them.

To stay fast the cases run in batches, each batch in one driver process that calls
``metrics.cli.main`` on every case (a crash kills the driver, which fails the test); a
sample also runs as separate ``python -m metrics evaluate`` processes, to check signals,
exit codes and stderr exactly as a user sees them.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.fuzzing import make_cases, problems
from tests.strength import scaled

ROOT = Path(__file__).resolve().parents[3]
COUNT = int(os.environ.get("RANKLAB_FUZZ") or scaled(2000))
SAMPLE = scaled(120)  # cases also run as separate processes
SEED = int(os.environ.get("RANKLAB_FUZZ_SEED", "20261124"))


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz")
    return make_cases(COUNT, SEED, folder), folder


def _driver(batch: list[dict], folder: Path, index: int) -> tuple[list[dict], subprocess.CompletedProcess]:
    manifest = folder / f"manifest{index}.json"
    manifest.write_text(json.dumps(batch))
    done = subprocess.run([sys.executable, "-m", "tests.fuzzing", str(manifest)], cwd=ROOT,
                          capture_output=True, text=True, timeout=30 + 10 * len(batch))
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")], done


def test_every_case_in_batches(cases):
    cases, folder = cases
    batches = [cases[i::2] for i in range(2)]  # two drivers: the machine has two cores
    with ThreadPoolExecutor(2) as pool:
        results = list(pool.map(lambda ib: _driver(ib[1], folder, ib[0]), enumerate(batches)))
    failures = []
    for batch, (got, done) in zip(batches, results, strict=True):
        assert done.returncode == 0, f"driver died ({done.returncode}): {done.stderr[-2000:]}"
        assert "Traceback" not in done.stderr, done.stderr[-2000:]
        assert len(got) == len(batch)
        by_case = {c["case"]: c for c in batch}
        for r in got:
            case = by_case[r["case"]]
            found = problems(case, r["returncode"], r["stderr"], r["stdout"], r["seconds"])
            if found:
                failures.append(f"case {case['case']} ({case['mutation']}, {Path(case['path']).name}): "
                                f"{'; '.join(found[:3])}\n    {r['stderr'][:300]!r}")
    assert not failures, f"{len(failures)} failures:\n" + "\n".join(failures[:30])
    codes = [r["returncode"] for got, _ in results for r in got]
    assert codes.count(0) > COUNT // 40 and codes.count(1) > COUNT // 4  # the mutations reach both outcomes


def test_a_sample_as_separate_processes(cases):
    cases, _ = cases
    step = max(1, len(cases) // SAMPLE)
    sample = cases[::step][:SAMPLE]

    def one(case):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "metrics", "evaluate", *case["args"],
                               "-m", "P@5 AP nDCG@10 NumRet", "-q"], cwd=ROOT, capture_output=True, text=True,
                              timeout=60)
        return case, done, time.perf_counter() - start

    failures = []
    with ThreadPoolExecutor(2) as pool:
        for case, done, seconds in pool.map(one, sample):
            # a separate process also pays for starting Python and importing pyarrow
            found = problems(case, done.returncode, done.stderr, done.stdout, seconds, limit=20.0)
            if found:
                failures.append(f"case {case['case']} ({case['mutation']}): {'; '.join(found[:3])}\n"
                                f"    {done.stderr[:300]!r}")
    assert not failures, "\n".join(failures[:30])
