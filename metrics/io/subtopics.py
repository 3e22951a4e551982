"""Judgments per subtopic, ``qid subtopic docid grade`` (ndeval's qrels), for α-nDCG.

The layout is trec_eval's qrels with the second column holding the subtopic instead of
the unused iteration, so the file cannot tell which it is: the caller says so
(``ranklab evaluate --subtopics``). Blank lines and lines starting with ``#`` are skipped.
Every malformed line is reported as ``file:line: reason``; a document judged twice for one
subtopic of one query is an error naming both lines.
"""

from __future__ import annotations

import re
from pathlib import Path

from .._check import MAX_GRADE
from .model import Problems
from .source import InMemory, read_bytes, readable

__all__ = ["read_subtopic_qrels", "parse_subtopic_qrels"]

_INTEGER = re.compile(r"[+-]?[0-9]{1,12}")
MAX_LINE = 10_000  # characters; a longer line is reported, not split


def read_subtopic_qrels(source: str | Path | bytes, *, name: str | None = None,
                        max_bytes: int | None = None) -> dict[str, dict[str, dict[str, int]]]:
    """Read a file (or bytes with their ``name``) of ``qid subtopic docid grade`` lines.

    Returns qid → doc id → {subtopic: grade}, the form :func:`metrics.evaluate` takes.

    >>> read_subtopic_qrels(b"q1 s1 d1 1\\nq1 s2 d1 0\\nq1 s2 d2 1\\n", name="topics.txt")
    {'q1': {'d1': {'s1': 1, 's2': 0}, 'd2': {'s2': 1}}}
    >>> read_subtopic_qrels(b"q1 s1 d1 1\\nq1 s1 d1\\n", name="topics.txt")
    Traceback (most recent call last):
    ...
    metrics.io.model.FileFormatError: topics.txt:2: expected 4 columns (qid subtopic docid grade), found 3
    """
    path = readable(source, name)
    if not isinstance(path, InMemory):
        if not path.exists():
            raise FileNotFoundError(2, "No such file or directory", str(path))
        if path.is_dir():
            raise IsADirectoryError(21, "Is a directory", str(path))
    return parse_subtopic_qrels(read_bytes(path, max_bytes), str(path))


def parse_subtopic_qrels(data: bytes, source: str) -> dict[str, dict[str, dict[str, int]]]:
    """Parse the bytes of a subtopic qrels file named ``source`` (see :func:`read_subtopic_qrels`).

    >>> parse_subtopic_qrels(b"q1 s1 d1 x\\nq1 s1 d1 1\\nq1 s1 d1 2\\n", "t.txt")
    Traceback (most recent call last):
    ...
    metrics.io.model.FileFormatError: t.txt:1: grade 'x' is not an integer
    t.txt:3: document 'd1' is judged twice for subtopic 's1' of query 'q1' (first at line 2)
    """
    problems = Problems(source)
    out: dict[str, dict[str, dict[str, int]]] = {}
    first_line: dict[tuple[str, str, str], int] = {}
    for number, raw in enumerate(data.splitlines(), 1):
        if len(raw) > MAX_LINE:
            problems.add(number, f"line longer than {MAX_LINE} characters")
            continue
        fields = raw.split()  # ASCII whitespace only, as the TREC readers split
        if not fields or fields[0].startswith(b"#"):
            continue
        try:
            parts = [f.decode("utf-8") for f in fields]
        except UnicodeDecodeError:
            problems.add(number, "not UTF-8 text")
            continue
        if len(parts) != 4:
            problems.add(number, f"expected 4 columns (qid subtopic docid grade), found {len(parts)}")
            continue
        qid, subtopic, doc, text = parts
        if not _INTEGER.fullmatch(text):
            problems.add(number, f"grade {_short(text)} is not an integer")
            continue
        grade = int(text)
        if abs(grade) > MAX_GRADE:
            problems.add(number, f"grade {grade} is out of range (|grade| <= {MAX_GRADE})")
            continue
        key = (qid, subtopic, doc)
        if key in first_line:
            problems.add(number, f"document {_short(doc)} is judged twice for subtopic {_short(subtopic)} "
                                 f"of query {_short(qid)} (first at line {first_line[key]})")
            continue
        first_line[key] = number
        out.setdefault(qid, {}).setdefault(doc, {})[subtopic] = grade
    problems.raise_if_any()
    return out


def _short(text: str, limit: int = 40) -> str:
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")
