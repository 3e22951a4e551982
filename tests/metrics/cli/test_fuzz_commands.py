"""``ranklab compare``, ``diagnose`` and ``fuse`` on mutated files (seeded, tests/fuzzing.py's
mutations of every format), with the checks of the file fuzz tests: no traceback, no signal, one
of the documented exit codes, and an error that names the file and, where a line is at fault,
its line (``tests.fuzzing.problems``). Mutated ``--theirs`` files go through ``diagnose`` too.

Each case runs through :func:`metrics.cli.main` in one driver process (a crash kills it and
fails the test); a few also run as separate ``python -m metrics`` processes, to see signals
and stderr exactly as a user does.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

from tests.fuzzing import QRELS_TREC, RUN_TREC, SEEDS, mutate, problems

ROOT = Path(__file__).resolve().parents[3]
COUNT = int(os.environ.get("RANKLAB_FUZZ_COMMANDS", "240"))
SEED = 20261127
THEIRS = [  # valid --theirs files of each form, for nDCG@10 over q1..q3
    ("theirs.txt", "".join(f"ndcg_cut_10\tq{q}\t0.{q}000\n" for q in range(1, 4)) + "ndcg_cut_10\tall\t0.2000\n"),
    ("theirs.json", json.dumps({f"q{q}": {"ndcg_cut_10": q / 10} for q in range(1, 4)})),
    ("theirs.csv", "qid,value\n" + "".join(f"q{q},0.{q}\n" for q in range(1, 4))),
]


def _cases(folder: Path) -> list[dict]:
    rnd = random.Random(SEED)
    good_qrels, good_run, other = folder / "qrels.txt", folder / "run.txt", folder / "other.txt"
    good_qrels.write_text(QRELS_TREC)
    good_run.write_text(RUN_TREC)
    other.write_text(RUN_TREC.replace(" tag", " other").replace("10 - ", ""))
    cases = []
    for i in range(COUNT):
        command = ("compare", "diagnose", "fuse", "theirs")[i % 4]
        if command == "theirs":
            name, text = THEIRS[rnd.randrange(len(THEIRS))]
            role = "theirs"
        else:
            role, name, text = SEEDS[rnd.randrange(len(SEEDS))]
            if command == "fuse" and role == "qrels":
                role, name, text = "run", "run.txt", RUN_TREC
        what, data = mutate(text.encode(), rnd)
        path = folder / f"case{i:04d}_{name}"
        path.write_bytes(data)
        q, r, o, p = str(good_qrels), str(good_run), str(other), str(path)
        argv = {
            ("compare", "qrels"): ["compare", p, r, o, "-m", "AP nDCG@10", "--resamples", "50", "--rounds", "50"],
            ("compare", "run"): ["compare", q, r, p, "-m", "AP nDCG@10", "--resamples", "50", "--rounds", "50"],
            ("diagnose", "qrels"): ["diagnose", p, r, "-m", "nDCG@10", "--theirs", "0.25"],
            ("diagnose", "run"): ["diagnose", q, p, "-m", "AP", "--theirs", "ranx"],
            ("fuse", "run"): ["fuse", r, p, "--method", rnd.choice(["rrf", "combsum", "combmnz"]),
                              "--norm", rnd.choice(["minmax", "zscore"]), "-o", str(folder / f"fused{i}.txt")],
            ("theirs", "theirs"): ["diagnose", q, r, "-m", "nDCG@10", "--theirs", p],
        }[(command, role)]
        cases.append({"case": i, "mutation": f"{command}:{what}", "path": p, "argv": argv})
    return cases


def test_mutated_files_through_compare_diagnose_and_fuse(tmp_path):
    cases = _cases(tmp_path)
    manifest = tmp_path / "manifest.json"
    manifest.write_text(json.dumps(cases))
    done = subprocess.run([sys.executable, "-m", "tests.fuzzing", "--argv", str(manifest)], cwd=ROOT,
                          capture_output=True, text=True, timeout=60 + 10 * len(cases))
    assert done.returncode == 0, f"driver died ({done.returncode}): {done.stderr[-2000:]}"
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    got = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    assert len(got) == len(cases)
    by_case = {c["case"]: c for c in cases}
    failures = []
    for r in got:
        case = by_case[r["case"]]
        found = problems(case, r["returncode"], r["stderr"], r["stdout"], r["seconds"], limit=20.0,
                         exit_codes=(0, 1), output_optional=case["argv"][0] == "fuse")
        if found:
            failures.append(f"case {case['case']} ({case['mutation']}): {'; '.join(found)}\n  {r['stderr'][:300]}")
    assert not failures, f"{len(failures)} of {len(cases)} cases failed:\n" + "\n".join(failures[:15])
    codes = {r["returncode"] for r in got}
    assert codes == {0, 1}  # the mutations make both valid and invalid files


def test_a_sample_as_separate_processes(tmp_path):
    cases = _cases(tmp_path)[:12]
    for case in cases:
        done = subprocess.run([sys.executable, "-m", "metrics", *case["argv"]], cwd=ROOT, capture_output=True,
                              text=True, timeout=60)
        found = problems(case, done.returncode, done.stderr, done.stdout, 0.0, exit_codes=(0, 1),
                         output_optional=case["argv"][0] == "fuse")
        assert not found, (case["mutation"], found, done.stderr[-500:])
