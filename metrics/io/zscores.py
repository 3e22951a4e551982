r"""trec_eval's ``-Z zscores_file``: each query's values as z-scores against reference runs.

The file has ``qid measure mean stddev`` lines (whitespace-separated; ``measure`` is the name
trec_eval prints, ``P_10``, ``utility_2,-1,0,0``). Each value of a query in the run becomes
(value - mean) / stddev (convert_zscores.c); a query or a measure the file does not list, or
a stddev of 0 with the value not at the mean, gives trec_eval's -1000000; a stddev of 0 with
the value at the mean gives 0. The means over queries are then of the z-scores, and a count
prints its integer part, as trec_eval's ``%ld`` of the value.

>>> table = read_zscores(b"q1 P_5 0.2 0.1\nq1 map 0.5 0\n", name="z.txt")
>>> zscore(table, "q1", "P_5", 0.4), zscore(table, "q1", "map", 0.5), zscore(table, "q2", "map", 0.5)
(2.0, 0.0, -1000000.0)
"""

from __future__ import annotations

import math
from pathlib import Path

from .model import Problems
from .source import normalise_line_ends, read_bytes, readable
from .trec import SCORE

__all__ = ["MISSING", "read_zscores", "zscore"]

MISSING = -1000000.0  # trec_eval.h's MISSING_ZSCORE_VALUE


def read_zscores(source: str | Path | bytes, *, name: str | None = None,
                 max_bytes: int | None = None) -> dict[tuple[str, str], tuple[float, float]]:
    """``{(qid, measure): (mean, stddev)}`` from a zscores file; a malformed line is a
    :class:`~metrics.io.model.FileFormatError` naming ``file:line``."""
    path = readable(source, name)
    data = normalise_line_ends(read_bytes(path, max_bytes))
    found = Problems(str(path))
    table: dict[tuple[str, str], tuple[float, float]] = {}
    for number, raw in enumerate(data.split(b"\n"), 1):
        parts = raw.split()
        if not parts:
            continue
        if len(parts) != 4:
            found.add(number, f"expected 4 columns (qid measure mean stddev), found {len(parts)}")
            continue
        try:
            qid, measure = parts[0].decode("utf-8"), parts[1].decode("utf-8")
        except UnicodeDecodeError:
            found.add(number, "not UTF-8 text")
            continue
        values = []
        for what, text in (("mean", parts[2]), ("stddev", parts[3])):
            value = float(text) if SCORE.fullmatch(text) else math.nan
            if not math.isfinite(value):
                found.add(number, f"{what} {text.decode('utf-8', 'replace')[:40]!r} is not a finite decimal number")
                break
            values.append(value)
        if len(values) == 2:
            table[(qid, measure)] = (values[0], values[1])
    found.raise_if_any()
    return table


def zscore(table: dict[tuple[str, str], tuple[float, float]], qid: str, measure: str, value: float) -> float:
    """One value as trec_eval's -Z turns it (see the module)."""
    found = table.get((qid, measure))
    if found is None:
        return MISSING
    mean, sd = found
    if sd:
        return (value - mean) / sd
    return 0.0 if value == mean else MISSING
