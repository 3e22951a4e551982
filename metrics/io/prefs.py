"""trec_eval's preference judgments: the ``prefs`` and ``qrels_prefs`` formats (``-R``).

``prefs`` lines are ``qid jg jsg docid level``: within one judgment sub-group (jsg) of a
judgment group (jg, one user's information need), a document with a higher level is
preferred to every document with a lower one; documents at the same level are not
preferred to each other. The levels' values are only compared (0 marks a document the user
judged non-relevant). Several sub-groups of one group give a partial order, closed by
transitivity; different groups may disagree. ``qrels_prefs`` reads a standard qrels file
(``qid iter docid grade``) as preferences: the second column names the judgment group and
every group has one sub-group, so a usual qrels file (iter ``0``) is one group per query
whose grades order its documents.

Lines follow the TREC readers' rules (``\\n``, ``\\r\\n`` or ``\\r`` endings, whole-line
``#`` comments, blank lines skipped). A level is a finite decimal number (trec_eval reads
it with ``atof``, which turns any text into a number; here ``abc`` or ``nan`` is an error).
A document listed twice in one sub-group is an error (trec_eval counts its preferences
twice, or stops when the two levels differ).

>>> p = read_prefs(b"q1 u1 s1 a 2\\nq1 u1 s1 b 1\\n", name="prefs.txt")
>>> p.queries["q1"]
[Pref(jg='u1', jsg='s1', doc='a', level=2.0, line=1), Pref(jg='u1', jsg='s1', doc='b', level=1.0, line=2)]
>>> read_qrels_prefs(b"q1 0 a 1\\n", name="qrels.txt").queries["q1"][0].jsg  # one sub-group
'0'
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from .model import Problems
from .source import normalise_line_ends, read_bytes, readable
from .trec import SCORE

__all__ = ["Pref", "Prefs", "read_prefs", "read_qrels_prefs", "prefs_from_dict"]


class Pref(NamedTuple):
    """One judgment line: document ``doc`` at ``level`` in sub-group ``jsg`` of group ``jg``."""

    jg: str
    jsg: str
    doc: str
    level: float
    line: int = 0  # 1-based line of the file (0: not read from a file)


@dataclass(frozen=True)
class Prefs:
    """Preference judgments: query id -> its judgment lines (queries in file order)."""

    queries: dict[str, list[Pref]] = field(default_factory=dict)
    source: str = "<prefs>"

    def __len__(self) -> int:
        return sum(len(v) for v in self.queries.values())


def read_prefs(source: str | Path | bytes, *, name: str | None = None, max_bytes: int | None = None) -> Prefs:
    """Read a ``prefs`` file (``qid jg jsg docid level`` lines)."""
    return _read(source, name, max_bytes, columns=5)


def read_qrels_prefs(source: str | Path | bytes, *, name: str | None = None,
                     max_bytes: int | None = None) -> Prefs:
    """Read a qrels file (``qid iter docid grade``) as preferences (trec_eval ``-R qrels_prefs``):
    the iter column names the judgment group, with one sub-group ``0``."""
    return _read(source, name, max_bytes, columns=4)


def _read(source, name, max_bytes, *, columns: int) -> Prefs:
    path = readable(source, name)
    data = normalise_line_ends(read_bytes(path, max_bytes))
    found = Problems(str(path))
    what = "qid jg jsg docid level" if columns == 5 else "qid jg docid level"
    queries: dict[str, list[Pref]] = {}
    seen: dict[tuple[str, str, str, str], int] = {}
    levels: dict[bytes, float | None] = {}  # a file has few distinct levels
    for number, raw in enumerate(data.split(b"\n"), 1):
        parts = raw.split()
        if not parts or parts[0].startswith(b"#"):
            continue
        if len(parts) != columns:
            found.add(number, f"expected {columns} columns ({what}), found {len(parts)}")
            continue
        try:
            texts = [p.decode("utf-8") for p in parts[:-1]]
        except UnicodeDecodeError:
            found.add(number, "not UTF-8 text")
            continue
        qid, jg, jsg, doc = texts if columns == 5 else (texts[0], texts[1], "0", texts[2])
        level = levels.get(parts[-1], False)
        if level is False:
            level = levels[parts[-1]] = _level(parts[-1])
        if level is None:
            found.add(number, f"level {parts[-1].decode('utf-8', 'replace')[:40]!r} is not a finite decimal number")
            continue
        key = (qid, jg, jsg, doc)
        if key in seen:
            where = f"sub-group {jsg!r} of group {jg!r}" if columns == 5 else f"group {jg!r}"
            found.add(number, f"query {qid}: document {doc!r} is listed twice in {where} (line {seen[key]})")
            continue
        seen[key] = number
        queries.setdefault(qid, []).append(Pref(jg, jsg, doc, level, number))
    found.raise_if_any()
    if not queries:
        found.add(None, "no judgments")
        found.raise_if_any()
    return Prefs(queries, str(path))


def _level(text: bytes) -> float | None:
    """A decimal number as a float, or None (hex, nan, inf, 1_0 and overflow refused).

    >>> _level(b"2"), _level(b"-1.5e1"), _level(b"nan"), _level(b"1e999")
    (2.0, -15.0, None, None)
    """
    if not SCORE.fullmatch(text):
        return None
    value = float(text)
    return value if math.isfinite(value) else None


def prefs_from_dict(prefs, source: str = "<prefs>") -> Prefs:
    """:class:`Prefs` from ``{qid: [(jg, jsg, doc, level), ...]}``, or from plain qrels
    ``{qid: {doc: grade}}`` read as ``qrels_prefs`` (one group ``0``).

    >>> prefs_from_dict({"q1": {"a": 1, "b": 0}}).queries["q1"][1]
    Pref(jg='0', jsg='0', doc='b', level=0.0, line=0)
    """
    if not isinstance(prefs, dict):
        raise TypeError(f"prefs must be a mapping qid -> judgments, got {type(prefs).__name__}")
    out: dict[str, list[Pref]] = {}
    for qid, items in prefs.items():
        rows = [("0", "0", d, g) for d, g in items.items()] if isinstance(items, dict) else list(items)
        seen = set()
        lines = []
        for row in rows:
            if not isinstance(row, tuple | list) or len(row) != 4:
                raise ValueError(f"prefs[{qid!r}]: expected (jg, jsg, doc, level) tuples, got {row!r}")
            jg, jsg, doc, level = row
            if isinstance(level, bool) or not isinstance(level, int | float) or not math.isfinite(level):
                raise ValueError(f"prefs[{qid!r}]: level of {doc!r} must be a finite number, got {level!r}")
            key = (str(jg), str(jsg), str(doc))
            if key in seen:
                raise ValueError(f"prefs[{qid!r}]: document {doc!r} is listed twice in sub-group {jsg!r} "
                                 f"of group {jg!r}")
            seen.add(key)
            lines.append(Pref(*key, float(level)))
        out[str(qid)] = lines
    return Prefs(out, source)
