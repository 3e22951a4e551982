"""Fuzzing ``ranklab reader``: malformed versions of the sample files in assets/reader/.

Every generated file (a fixed seed) goes through ``ranklab reader GOLD PRED`` as a real
process: most of them through one driver process that calls ``metrics.cli.main`` per file
(fast), a sample as separate ``python -m metrics reader`` processes. For every file:

* no traceback, no signal (a return code >= 0), an exit code of the documented ones
  (0 success, 1 bad data; the files exist, so never 3);
* a failure is one ``ranklab: error: ...`` line; when a line of the file is at fault
  (malformed JSON, bad UTF-8, nesting, a wrong type in JSON Lines ...) it says
  ``file:line``;
* at most 10 s per file.

``RANKLAB_FUZZ=5000 pytest tests/metrics/cli/test_fuzz_reader.py`` runs a bigger batch (another count,
same seed).
"""

from __future__ import annotations

import gzip
import json
import math
import os
import random
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.strength import scaled

ROOT = Path(__file__).resolve().parents[3]
ASSETS = ROOT / "assets" / "reader"
GOLD = ASSETS / "dev.json"
SEEDS = {"pred": [ASSETS / "predictions.json", ASSETS / "predictions_topk.jsonl"],
         "gold": [GOLD]}
COUNT = int(os.environ.get("RANKLAB_FUZZ") or scaled(500))
SEPARATE = scaled(50)        # files also run as their own `python -m metrics reader` process
SECONDS_PER_FILE = 10

# a line of the file is at fault: the message must say file:line
LINE_FAULTS = ("malformed JSON", "not UTF-8", "nested too deeply", "appears twice",
               "must be", "expected an object", "missing \"answers\"", "unknown field",
               "surrogate", "not a question of", "must not be empty", "digits: too long")
# ... unless the fault is the whole file or a question of the gold file (named by its path)
WHOLE_FILE = ("no prediction for this question", "no predictions in the file", "comparisons",
              "larger than", "decompress", "no questions in the dataset")

TOKENS = [b'"', b"\\", b"{", b"}", b"[", b"]", b",", b":", b"NaN", b"Infinity", b"-Infinity",
          b"null", b"true", b"0", b"-1", b"1e999", b"\xff", b"\xc3", b"\xed\xa0\x80",
          b"\xef\xbb\xbf", b"\r", b"\r\n", b"\n", b"\n# a comment\n", b'"\\ud800"', b"\\u0000",
          b"\x00", b"\t", b"\x0b", b"\xe2\x80\xa8", b"9" * 5_000, b'"' * 1_000, b'\\"' * 5_000,
          b"[" * 3_000, b'{"a":' * 3_000, b"x" * 100_000, b'"id": ', b'"answers": ',
          b'"is_impossible": true', b'"retrieved": "no"', b'"pe-1"', b"#"]

HOSTILE_VALUES = [None, "", " ", "no answer", math.nan, math.inf, -0.0, 10**30, True, [], {},
                  [None], [[["deep"]]], {"text": 1}, "x" * 100_000, '"' * 10_000,
                  "\ud800", "a\u2028b\rc\nd", "**bold** <b>[x](http://e)</b>", ["a"] * 2_000,
                  "\x1b[31m", "pe-1", "\x00deep", "\x00quotes"]
# stand-ins written as JSON json.dumps cannot make: 5,000 levels of nesting (a
# RecursionError in json.loads) and a string of 40,000 escaped quotes (quadratic
# time for the reader's old key scanner)
STAND_INS = {json.dumps("\x00deep"): "[" * 5_000 + "]" * 5_000,
             json.dumps("\x00quotes"): '"' + '\\"' * 40_000 + '"'}


# --------------------------------------------------------------------------- mutations

def _span(rng: random.Random, data: bytes) -> tuple[int, int]:
    i = rng.randrange(len(data) + 1)
    return i, min(len(data), i + rng.choice([1, 2, 5, 20, 200]))


def _bytes_mutation(rng: random.Random, data: bytes) -> bytes:
    op = rng.choice(["insert", "insert", "flip", "delete", "copy", "truncate", "line"])
    if op == "insert":
        i = rng.randrange(len(data) + 1)
        return data[:i] + rng.choice(TOKENS) + data[i:]
    if op == "flip" and data:
        i = rng.randrange(len(data))
        return data[:i] + bytes([rng.choice(b'"\\{}[],:\n\r# \x00\xff0a')]) + data[i + 1:]
    if op == "delete":
        i, j = _span(rng, data)
        return data[:i] + data[j:]
    if op == "copy":  # a duplicate key, id or line
        i, j = _span(rng, data)
        k = rng.randrange(len(data) + 1)
        return data[:k] + data[i:j] + data[k:]
    if op == "truncate":
        return data[: rng.randrange(len(data) + 1)]
    lines = data.split(b"\n")
    n = rng.randrange(len(lines))
    choice = rng.choice(["dup", "drop", "swap", "replace"])
    if choice == "dup":
        lines.insert(n, lines[n])
    elif choice == "drop":
        del lines[n]
    elif choice == "swap":
        m = rng.randrange(len(lines))
        lines[n], lines[m] = lines[m], lines[n]
    else:
        lines[n] = rng.choice([b"null", b"", b"   ", b"# note", b"[]", b"{}", b'"x"', b"1",
                               b'{"id": "pe-1"}', b'{"id": "pe-1", "answers": []}'])
    return b"\n".join(lines)


def _walk(node, rng: random.Random, depth: int = 0):
    """Replace one random value (or key) somewhere in ``node``; returns the new node."""
    if isinstance(node, dict) and node and (depth == 0 or rng.random() < 0.8):
        key = rng.choice(list(node))
        if rng.random() < 0.15:  # rename or drop a key
            value = node.pop(key)
            if rng.random() < 0.7:
                node[rng.choice(["", "id", "answers", "text", "x", key + "'", "\ud800"])] = value
            return node
        node[key] = _walk(node[key], rng, depth + 1)
        return node
    if isinstance(node, list) and node and rng.random() < 0.8:
        i = rng.randrange(len(node))
        node[i] = _walk(node[i], rng, depth + 1)
        return node
    value = rng.choice(HOSTILE_VALUES if rng.random() < 0.85 else ["\x00deep", "\x00quotes"])
    return json.loads(json.dumps(value)) if isinstance(value, list | dict) else value


def _dumps(value, **options) -> str:
    text = json.dumps(value, **options)
    for marker, stand_in in STAND_INS.items():
        text = text.replace(marker, stand_in)
    return text


def _json_mutation(rng: random.Random, data: bytes, jsonl: bool) -> bytes:
    if jsonl:
        lines = data.decode().split("\n")
        n = rng.randrange(len(lines))
        if lines[n].strip():
            lines[n] = _dumps(_walk(json.loads(lines[n]), rng))
        return "\n".join(lines).encode("utf-8", "surrogatepass")
    indent = rng.choice([None, 0, 1, 2])
    text = _dumps(_walk(json.loads(data), rng), indent=indent, ensure_ascii=rng.random() < 0.5)
    return text.encode("utf-8", "surrogatepass")


def _file_mutation(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    """A change to the whole file; the second item is an extra suffix (``.gz``) or ""."""
    op = rng.choice(["cr", "crlf", "bom", "oneline", "empty", "blank", "gzip", "badgzip",
                     "latin1", "comment"])
    if op == "cr":
        return data.replace(b"\n", b"\r"), ""
    if op == "crlf":
        return data.replace(b"\n", b"\r\n"), ""
    if op == "bom":
        return b"\xef\xbb\xbf" + data, ""
    if op == "oneline":
        return data.replace(b"\n", b" "), ""
    if op == "empty":
        return b"", ""
    if op == "blank":
        return b" \n\t\n\r\n", ""
    if op == "gzip":
        return gzip.compress(data, mtime=0), ".gz"
    if op == "badgzip":
        packed = gzip.compress(data, mtime=0)
        return packed[: rng.randrange(len(packed))], ".gz"
    if op == "latin1":
        return data.replace(b"e", b"\xe9", 1), ""
    return b"# made by a fuzzer\n" + data, ""


def make_cases(count: int, directory: Path, seed: int = 20261124) -> list[dict]:
    """``count`` malformed files written to ``directory``, each with the command that reads it."""
    rng = random.Random(seed)
    cases = []
    for n in range(count):
        target = "gold" if rng.random() < 0.3 else "pred"
        source = rng.choice(SEEDS[target])
        data = source.read_bytes()
        suffix = source.suffix
        extra = ""
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            kind = rng.random()
            if kind < 0.45:
                data = _bytes_mutation(rng, data)
            elif kind < 0.8:
                try:
                    data = _json_mutation(rng, data, suffix == ".jsonl")
                except (ValueError, RecursionError):  # an earlier mutation broke the JSON
                    data = _bytes_mutation(rng, data)
            elif not extra:
                data, extra = _file_mutation(rng, data)
        if target == "pred" and rng.random() < 0.1:
            suffix = rng.choice([".json", ".jsonl", ".txt", ""])
        path = directory / f"case{n:05d}_{target}{suffix}{extra}"
        path.write_bytes(data)
        gold, pred = (path, rng.choice(SEEDS["pred"])) if target == "gold" else (GOLD, path)
        options = []
        if rng.random() < 0.3:
            options += ["-k", str(rng.choice([1, 2, 3, 1000]))]
        if rng.random() < 0.3:
            options += ["--format", rng.choice(["json", "csv", "table"])]
        if rng.random() < 0.3:
            options += ["-q"]
        if rng.random() < 0.2:
            options += ["--unit", "char"]
        if target == "pred" and rng.random() < 0.1:
            options += ["--pred-format", rng.choice(["json", "jsonl"])]
        cases.append({"args": ["reader", str(gold), str(pred), *options], "file": path.name})
    return cases


# --------------------------------------------------------------------------- checks

DRIVER = r"""
import contextlib, io, json, sys, time, traceback
from metrics import cli

results = []
for case in json.load(open(sys.argv[1])):
    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(case["args"])
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else 2
        except BaseException:
            code = None
            err.write(traceback.format_exc())
    results.append({"code": code, "stdout": out.getvalue()[:2000], "stderr": err.getvalue(),
                    "seconds": time.perf_counter() - start})
json.dump(results, sys.stdout)
"""


def problems(case: dict, code, stdout: str, stderr: str, seconds: float) -> list[str]:
    """What is wrong with one run (an empty list when nothing is)."""
    found = []
    if code is None or "Traceback" in stderr:
        found.append("a traceback")
    elif code < 0:
        found.append(f"killed by signal {-code}")
    elif code not in (0, 1):
        found.append(f"exit code {code}, expected 0 or 1 (the files exist)")
    if seconds > SECONDS_PER_FILE:
        found.append(f"{seconds:.1f} s")
    if code == 0 and not stdout:
        found.append("success without output")
    if code == 1:
        if not stderr.startswith("ranklab: error: ") or stderr.count("\n") != 1 or stdout:
            found.append("not one 'ranklab: error:' line")
        name = case["file"]
        about_this_file = re.match(r"ranklab: error: \S*" + re.escape(name) + r"[:\s]", stderr)
        if about_this_file and any(f in stderr for f in LINE_FAULTS) \
                and not any(w in stderr for w in WHOLE_FILE):
            gold_path = "_gold" in name and f"{name}: data[" in stderr
            if not re.search(re.escape(name) + r":\d+", stderr) and not gold_path:
                found.append("no file:line")
    return found


def report(bad: list[tuple[dict, list[str], str]]) -> str:
    return "\n".join(f"{case['file']} ({' '.join(case['args'][3:])}): {', '.join(why)}\n  "
                     f"{stderr[-500:]!r}" for case, why, stderr in bad[:20])


@pytest.fixture(scope="module")
def cases(tmp_path_factory) -> list[dict]:
    return make_cases(COUNT, tmp_path_factory.mktemp("fuzz_reader"))


def test_the_fuzzer_makes_varied_files(cases):
    # a fixed seed: the same files every run; both files, several formats, gz included
    assert len(cases) == COUNT
    names = [c["file"] for c in cases]
    assert sum("_gold" in n for n in names) > COUNT // 5
    assert any(n.endswith(".gz") for n in names) and any(n.endswith(".jsonl") for n in names)


def test_driver_runs_every_file_without_a_traceback(cases, tmp_path):
    manifest = tmp_path / "cases.json"
    manifest.write_text(json.dumps(cases))
    proc = subprocess.run([sys.executable, "-c", DRIVER, str(manifest)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120 + COUNT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    results = json.loads(proc.stdout)
    assert len(results) == len(cases)
    bad = []
    for case, r in zip(cases, results, strict=True):
        why = problems(case, r["code"], r["stdout"], r["stderr"], r["seconds"])
        if why:
            bad.append((case, why, r["stderr"]))
    assert not bad, f"{len(bad)} of {len(cases)} files:\n" + report(bad)
    # the fuzzer reaches both outcomes (it is not only producing unreadable noise)
    codes = [r["code"] for r in results]
    assert codes.count(1) > COUNT // 4 and codes.count(0) > COUNT // 50


def test_separate_processes(cases):
    sample = random.Random(7).sample(cases, min(SEPARATE, len(cases)))

    def run(case):
        proc = subprocess.run([sys.executable, "-m", "metrics", *case["args"]], cwd=ROOT,
                              capture_output=True, text=True, timeout=60)
        return case, proc

    bad = []
    with ThreadPoolExecutor(max_workers=2) as pool:  # the machine has 2 cores
        for case, proc in pool.map(run, sample):
            why = problems(case, proc.returncode, proc.stdout, proc.stderr, 0.0)
            if why:
                bad.append((case, why, proc.stderr))
    assert not bad, f"{len(bad)} of {len(sample)} files:\n" + report(bad)
