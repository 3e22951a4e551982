"""trec_eval's ``qrels_jg`` format: judgments by several judgment groups (users).

Each line is ``qid group docid grade``: the second column, which plain qrels ignore, names
the group that judged. :func:`read_qrels_jg` gives one :class:`~metrics.io.model.Qrels` per
group, and the ``*_avgjg`` measures average a measure over the groups that judged a query.
Lines follow the TREC readers' rules (``\\n``, ``\\r\\n`` or ``\\r`` endings, whole-line
``#`` comments, blank lines skipped, decimal integer grades); a document judged twice by
the same group for one query is an error, as in trec_eval.

>>> groups = read_qrels_jg(b"q1 u1 a 1\\nq1 u2 a 0\\nq1 u2 b 2\\n", name="jg.txt")
>>> {g: q.to_dict() for g, q in groups.items()}
{'u1': {'q1': {'a': 1}}, 'u2': {'q1': {'a': 0, 'b': 2}}}
"""

from __future__ import annotations

from pathlib import Path

from .._check import MAX_GRADE
from .model import Problems, Qrels, qrels_from_dict
from .source import normalise_line_ends, read_bytes, readable
from .trec import GRADE

__all__ = ["read_qrels_jg"]


def read_qrels_jg(source: str | Path | bytes, *, name: str | None = None,
                  max_bytes: int | None = None) -> dict[str, Qrels]:
    """Read a ``qrels_jg`` file: judgment group -> its judgments (groups in file order)."""
    path = readable(source, name)
    data = normalise_line_ends(read_bytes(path, max_bytes))
    found = Problems(str(path))
    groups: dict[str, dict[str, dict[str, int]]] = {}
    seen: dict[tuple[str, str, str], int] = {}
    for number, raw in enumerate(data.split(b"\n"), 1):
        parts = raw.split()
        if not parts or parts[0].startswith(b"#"):
            continue
        if len(parts) != 4:
            found.add(number, f"expected 4 columns (qid group docid grade), found {len(parts)}")
            continue
        try:
            qid, group, doc = (p.decode("utf-8") for p in parts[:3])
        except UnicodeDecodeError:
            found.add(number, "not UTF-8 text")
            continue
        if not GRADE.fullmatch(parts[3]) or abs(int(parts[3])) > MAX_GRADE:
            found.add(number, f"grade {parts[3].decode('utf-8', 'replace')[:40]!r} is not an integer "
                              f"from {-MAX_GRADE} to {MAX_GRADE}")
            continue
        key = (group, qid, doc)
        if key in seen:
            found.add(number, f"query {qid}: document {doc!r} is judged twice by group {group!r} "
                              f"(line {seen[key]})")
            continue
        seen[key] = number
        groups.setdefault(group, {}).setdefault(qid, {})[doc] = int(parts[3])
    found.raise_if_any()
    if not groups:
        found.add(None, "no judgments")
        found.raise_if_any()
    return {g: qrels_from_dict(q, source=str(path)) for g, q in groups.items()}
