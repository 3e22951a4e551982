"""Malformed input files for every reader, and a driver that runs ``ranklab evaluate`` on them.

``make_cases(n, seed, folder)`` writes ``n`` files, each a mutation of a valid file of one
format (TREC qrels, TREC run, two-column list, JSONL ground truth and results, CSV, TSV,
each also gzipped): byte flips, truncation, deleted and duplicated lines, random bytes,
deep JSON, huge fields, bad UTF-8, CR/CRLF mixes, comments, odd numbers, empty ids, gzip
corruption ... The partner file of each case is valid, so any error must be the case's.

``python -m tests.fuzzing MANIFEST`` evaluates every case of a manifest in one process
(through :func:`metrics.cli.main`, output captured) and prints one JSON line per case.
"""

from __future__ import annotations

import contextlib
import gzip
import io
import json
import random
import re
import sys
import time
import traceback
from pathlib import Path

QRELS_TREC = "".join(f"q{q} 0 d{d} {(q + d) % 4 - (d == 7)}\n" for q in range(1, 4) for d in range(1, 9))
RUN_TREC = "".join(f"q{q} Q0 d{d} {r} {10 - r * 0.5} tag\n" for q in range(1, 4)
                   for r, d in enumerate([3, 1, 7, 2, 9, 4], start=1))
LIST = "".join(f"q{q} d{d}\n" for q in range(1, 4) for d in (5, 2, 8, 1))
QRELS_JSONL = "".join(json.dumps({"query_id": f"q{q}", "ground_truth": [
    {"filename": f"d{d}.pdf", "page_number": p, "grade": (d + p) % 3} for d, p in ((1, 1), (2, 3), (3, 2))]}) + "\n"
    for q in range(1, 4))
RUN_JSONL = "".join(json.dumps({"query_id": f"q{q}", "results": [
    {"filename": f"d{d}.pdf", "page_number": p, "score": 5.0 - i} for i, (d, p) in enumerate(((2, 3), (1, 1), (4, 4)))]})
    + "\n" for q in range(1, 4))
QRELS_CSV = "qid,docid,grade\n" + "".join(f"q{q},d{d},{(q * d) % 3}\n" for q in range(1, 4) for d in range(1, 6))
RUN_CSV = "query_id,doc_id,score\n" + "".join(f"q{q},d{d},{d * 1.5}\n" for q in range(1, 4) for d in range(1, 6))
QRELS_TSV = QRELS_CSV.replace(",", "\t")
RUN_TSV = "topic\tdocno\trank\n" + "".join(f"q{q}\td{d}\t{r}\n" for q in range(1, 4) for r, d in enumerate((4, 2, 3), 1))

# (role, file name, valid content): the role is the argument the mutated file is given as
SEEDS = [
    ("qrels", "qrels.txt", QRELS_TREC), ("run", "run.txt", RUN_TREC), ("run", "list.txt", LIST),
    ("qrels", "gt.jsonl", QRELS_JSONL), ("run", "results.jsonl", RUN_JSONL),
    ("qrels", "qrels.csv", QRELS_CSV), ("run", "run.csv", RUN_CSV),
    ("qrels", "qrels.tsv", QRELS_TSV), ("run", "run.tsv", RUN_TSV),
]
PARTNER = {"qrels": ("partner_run.txt", RUN_TREC), "run": ("partner_qrels.txt", QRELS_TREC)}

ODD_NUMBERS = ["0x10", "1_0", "\u0661", " 1", "1e3", "inf", "-inf", "nan", "NaN", "1e999", "+", "-0", "9" * 400,
               "1.5", "\u00bd", "\uff11", "0b1", "1,5", "", "\u20001"]
ODD_TEXT = ["\x00", "\ufeff", "\u00a0", "\u2028", "\u0085", "\x0c", "\x0b", "\x1c", "#", '"', "'", ",", "\t", " ",
            "\\", "{", "[", "]", "}", "null", "\r", "\r\n", "\n"]

# whole-file reasons: every other error message must name a line
FILE_REASONS = re.compile(r"the file is empty|no data lines|no documents found|no data rows after the header|"
                          r"cannot decompress|the file is larger than|undecodable bytes \(the file|"
                          r"some results have a .* and some do not|the file could not be parsed|"
                          # diagnose --theirs files
                          r"no value for |no numbers found|JSON nested too deeply|more than \d+ queries")


def _lines(data: bytes) -> list[bytes]:
    return data.splitlines(keepends=True)


def mutate(data: bytes, rnd: random.Random) -> tuple[str, bytes]:
    """(the mutation's name, the mutated bytes)."""
    kind = rnd.choice(MUTATIONS)
    return kind.__name__.removeprefix("m_"), kind(data, rnd)


def m_flip_bytes(data, rnd):
    b = bytearray(data)
    for _ in range(rnd.randint(1, 4)):
        if b:
            b[rnd.randrange(len(b))] = rnd.randrange(256)
    return bytes(b)


def m_flip_ascii(data, rnd):
    b = bytearray(data)
    for _ in range(rnd.randint(1, 3)):
        if b:
            b[rnd.randrange(len(b))] = rnd.choice(b' \t\r\n#,"{}[]:0123456789.-+eExq\x00')
    return bytes(b)


def m_truncate(data, rnd):
    return data[: rnd.randrange(len(data) + 1)]


def m_delete_range(data, rnd):
    i = rnd.randrange(len(data) + 1)
    return data[:i] + data[i + rnd.randint(1, 40):]


def m_duplicate_line(data, rnd):
    lines = _lines(data)
    if not lines:
        return data
    i = rnd.randrange(len(lines))
    lines.insert(rnd.randrange(len(lines) + 1), lines[i])
    return b"".join(lines)


def m_drop_line(data, rnd):
    lines = _lines(data)
    if lines:
        del lines[rnd.randrange(len(lines))]
    return b"".join(lines)


def m_swap_lines(data, rnd):
    lines = _lines(data)
    if len(lines) > 1:
        i, j = rnd.randrange(len(lines)), rnd.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    return b"".join(lines)


def m_random_bytes(data, rnd):
    return bytes(rnd.randrange(256) for _ in range(rnd.randint(0, 300)))


def m_insert_random(data, rnd):
    i = rnd.randrange(len(data) + 1)
    return data[:i] + bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 20))) + data[i:]


def m_deep_json(data, rnd):
    depth = rnd.choice([50, 999, 1001, 5000, 20000])
    opener, closer = rnd.choice([("[", "]"), ('{"a":', "}")])
    deep = (opener * depth + ("1" if opener != "[" else "") + closer * depth).encode()
    if rnd.random() < 0.5:  # inside a real line
        deep = b'{"query_id": "q1", "ground_truth": ' + deep + b', "results": ' + deep + b"}"
    lines = _lines(data)
    lines.insert(rnd.randrange(len(lines) + 1), deep + b"\n")
    return b"".join(lines)


def m_huge_field(data, rnd):
    size = rnd.choice([70_000, 200_000, 1_100_000])
    filler = rnd.choice([b"x", b"9", b" ", b"#", b'"', b"\xff", b","]) * size
    i = rnd.randrange(len(data) + 1)
    return data[:i] + filler + data[i:]


def m_bad_utf8(data, rnd):
    i = rnd.randrange(len(data) + 1)
    return data[:i] + rnd.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\xf4\x90\x80\x80", b"\xe2\x82", b"\xc0\xaf"]) + data[i:]


def m_line_ends(data, rnd):
    lines = data.split(b"\n")
    return b"".join(line + rnd.choice([b"\n", b"\r\n", b"\r", b"\n\r", b"\r\r\n"]) for line in lines[:-1]) + lines[-1]


def m_comments(data, rnd):
    lines = _lines(data)
    for _ in range(rnd.randint(1, 3)):
        comment = rnd.choice([b"# c c 1\n", b"#\n", b"   # q1 0 d1 1\n", b"\t#x\n", b"# Q0 note 1 2.0 x\n",
                              b'# {"query_id": "q9"}\n', b"#qid,docid,grade\n"])
        lines.insert(rnd.randrange(len(lines) + 1), comment)
    return b"".join(lines)


def m_blank_lines(data, rnd):
    lines = _lines(data)
    for _ in range(rnd.randint(1, 3)):
        lines.insert(rnd.randrange(len(lines) + 1), rnd.choice([b"\n", b"   \n", b"\t\n", b"\x0c\n", b" \r\n"]))
    return b"".join(lines)


def m_odd_number(data, rnd):
    numbers = [m.span() for m in re.finditer(rb"-?[0-9]+(?:\.[0-9]+)?", data)]
    if not numbers:
        return data
    a, b = rnd.choice(numbers)
    return data[:a] + rnd.choice(ODD_NUMBERS).encode() + data[b:]


def m_odd_text(data, rnd):
    i = rnd.randrange(len(data) + 1)
    return data[:i] + rnd.choice(ODD_TEXT).encode() + data[i:]


def m_empty_id(data, rnd):
    ids = [m.span() for m in re.finditer(rb"[qd][0-9]+(?:\.pdf)?", data)]
    if not ids:
        return data
    a, b = rnd.choice(ids)
    return data[:a] + data[b:]


def m_many_columns(data, rnd):
    lines = _lines(data)
    if lines:
        i = rnd.randrange(len(lines))
        sep = rnd.choice([b" ", b",", b"\t"])
        lines[i] = lines[i].rstrip(b"\r\n") + (sep + b"x") * rnd.randint(1, 2000) + b"\n"
    return b"".join(lines)


def m_whitespace(data, rnd):
    out = data.replace(b" ", rnd.choice([b"  ", b"\t", b" \t ", b"\x0b", b"\xc2\xa0"]), rnd.randint(1, 10))
    if rnd.random() < 0.5:
        out = b"\xef\xbb\xbf" + out
    return out


def m_many_lines(data, rnd):
    return data * min(rnd.randint(50, 400), max(1, 2_000_000 // max(len(data), 1)))  # a small file still


def m_json_types(data, rnd):
    values = [b"null", b"true", b"1.5", b'""', b"[]", b"{}", b'"x"', b"-1", b"1e400", b'"\\ud800"', b"[null]",
              b'[""]', b"[1]", b'[{"filename": null}]']
    spans = [m.span() for m in re.finditer(rb'"[^"]*"|-?[0-9.]+|\[[^\[\]]*\]', data)]
    if not spans:
        return data
    a, b = rnd.choice(spans)
    return data[:a] + rnd.choice(values) + data[b:]


def m_header(data, rnd):
    lines = _lines(data)
    if not lines:
        return data
    lines[0] = rnd.choice([b"qid,qid,docid\n", b"QID , DocID , Grade\n", b"qid\x0c,docid,grade\n", b",,\n",
                           b"a,b,c\n", b"qid;docid;grade\n", b'"qid","docid","score"\n', b"\xff\n", b"\n"])
    return b"".join(lines)


MUTATIONS = [m_flip_bytes, m_flip_ascii, m_truncate, m_delete_range, m_duplicate_line, m_drop_line, m_swap_lines,
             m_random_bytes, m_insert_random, m_deep_json, m_huge_field, m_bad_utf8, m_line_ends, m_comments,
             m_blank_lines, m_odd_number, m_odd_text, m_empty_id, m_many_columns, m_whitespace, m_many_lines,
             m_json_types, m_header]


def gz_mutate(compressed: bytes, rnd: random.Random) -> tuple[str, bytes]:
    """Damage to a gzip stream itself."""
    choice = rnd.randrange(5)
    if choice == 0:
        return "gz_truncate", compressed[: rnd.randrange(len(compressed))]
    if choice == 1:
        b = bytearray(compressed)
        b[rnd.randrange(len(b))] ^= 1 << rnd.randrange(8)
        return "gz_bitflip", bytes(b)
    if choice == 2:
        return "gz_trailing_garbage", compressed + bytes(rnd.randrange(256) for _ in range(rnd.randint(1, 30)))
    if choice == 3:
        return "gz_plain_text", gzip.decompress(compressed)
    return "gz_empty", b""


def make_cases(n: int, seed: int, folder: Path) -> list[dict]:
    """Write ``n`` mutated files (and the two partner files) into ``folder``."""
    rnd = random.Random(seed)
    partners = {}
    for role, (name, text) in PARTNER.items():
        (folder / name).write_text(text)
        partners[role] = str(folder / name)
    cases = []
    for i in range(n):
        role, name, text = SEEDS[i % len(SEEDS)]
        data = text.encode()
        what, data = mutate(data, rnd)
        if rnd.random() < 0.3:  # a second mutation now and then
            second, data = mutate(data, rnd)
            what += "+" + second
        compressed = rnd.random() < 0.2
        if compressed:
            name += ".gz"
            if rnd.random() < 0.3:
                gz_what, data = gz_mutate(gzip.compress(data, mtime=0), rnd)
                what += "+" + gz_what
            elif rnd.random() < 0.3:
                cut = rnd.randrange(len(data) + 1)
                data = gzip.compress(data[:cut], mtime=0) + gzip.compress(data[cut:], mtime=0)
                what += "+multi_member"
            else:
                data = gzip.compress(data, mtime=0)
        path = folder / f"case{i:05d}_{name}"
        path.write_bytes(data)
        args = [path, partners["qrels"]] if role == "qrels" else [partners["run"], path]
        cases.append({"case": i, "mutation": what, "path": str(path), "args": [str(a) for a in args]})
    return cases


def count_lines(path: str) -> int:
    """Lines of a file as the readers count them (\\n, \\r\\n or \\r end a line), decompressed."""
    data = Path(path).read_bytes()
    if path.endswith(".gz"):
        try:
            data = gzip.decompress(data)
        except Exception:  # noqa: BLE001 - any damage: no line numbers expected
            return 0
    data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    return data.count(b"\n") + (not data.endswith(b"\n"))


def problems(case: dict, returncode: int, stderr: str, stdout: str, seconds: float, limit: float = 10.0, *,
             exit_codes: tuple[int, ...] = (0, 1), output_optional: bool = False) -> list[str]:
    """What is wrong with one run of ``ranklab evaluate`` (or another command) on a case
    (empty: nothing). ``output_optional``: success may print nothing (a command writing -o)."""
    found = []
    if "Traceback" in stderr or "Traceback" in stdout:
        found.append("a traceback")
    if returncode < 0:
        found.append(f"killed by signal {-returncode}")
    elif returncode not in exit_codes:
        found.append(f"exit code {returncode}")
    if len(stderr) > 10_000:
        found.append(f"{len(stderr):,} characters on stderr")
    if seconds > limit:
        found.append(f"took {seconds:.1f} s")
    if returncode == 0 and not stdout.strip() and not output_optional:
        found.append("success without output")
    if returncode == 1:
        path = case["path"]
        errors = [line for line in stderr.splitlines() if not line.startswith("ranklab: warning:")]
        if not errors or not errors[0].startswith("ranklab: error: "):
            found.append("no 'ranklab: error:' line")
        lines = count_lines(path)
        for text in errors:
            text = text.removeprefix("ranklab: error: ")
            if not text.startswith(path):
                found.append(f"an error not naming the file: {text[:120]!r}")
                continue
            rest = text[len(path):]
            m = re.match(r":(\d+): ", rest)
            if m:
                if not 1 <= int(m.group(1)) <= max(lines, 1):
                    found.append(f"line {m.group(1)} beyond the file's {lines} lines: {text[:120]!r}")
            elif not (rest.startswith(": ... and ") or FILE_REASONS.search(rest)):
                found.append(f"no line number: {text[:160]!r}")
    return found


def run_in_process(case: dict) -> dict:
    """``ranklab evaluate`` on one case (or the command line ``case["argv"]``) through
    metrics.cli.main, output captured."""
    from metrics import cli

    out, err = io.StringIO(), io.StringIO()
    start = time.perf_counter()
    argv = case.get("argv") or ["evaluate", *case["args"], "-m", "P@5 AP nDCG@10 NumRet", "-q"]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cli.main(argv)
    except BaseException:  # noqa: BLE001 - anything escaping main is the finding
        code = 99
        err.write(traceback.format_exc())
    return {"case": case["case"], "returncode": code, "stdout": out.getvalue()[-2000:],
            "stderr": _cut(err.getvalue()), "seconds": time.perf_counter() - start}


def _cut(text: str, limit: int = 20_000) -> str:
    return text if len(text) <= limit else text[:limit] + f"\n[{len(text):,} characters in all]"


def main(argv: list[str]) -> int:
    cases = json.loads(Path(argv[-1]).read_text())  # "--argv MANIFEST": cases carry their command lines
    for case in cases:
        print(json.dumps(run_in_process(case)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
