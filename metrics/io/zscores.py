r"""trec_eval's ``-Z zscores_file``: each query's values as z-scores against reference runs.

The file has ``qid measure mean stddev`` lines (whitespace-separated; ``measure`` is the name
trec_eval prints, ``P_10``, ``utility_2,-1,0,0``). trec_eval reads the mean and the stddev with
C's ``atof`` (get_zscores.c, ``te_get_zscores``), which reads the longest number at the start of
the text: ``nan``, ``inf``, ``1e3``, ``0x1p3`` and the ``3`` of ``3abc`` are accepted, as
:func:`atof_prefix` reads them; a text with no number at its start (``abc``), which ``atof``
would silently read as 0, is refused here with its ``file:line``.

Each value of a query becomes (value - mean) / stddev (convert_zscores.c,
``te_convert_to_zscore``): a query or a measure the file does not list gives trec_eval's
MISSING_ZSCORE_VALUE, -1000000; a stddev of 0 gives 0 when the value equals the mean exactly,
else -1000000 (both trec_eval 9.0.8 and 10.0). A NaN mean or stddev (``nan`` in the file) makes
the z-score NaN, printed ``   nan`` as C's printf prints it.

>>> table = read_zscores(b"q1 P_5 0.2 0.1\nq1 map 0.5 0\nq1 ndcg nan nan\n", name="z.txt")
>>> zscore(table, "q1", "P_5", 0.4)  # (0.4 - 0.2) / 0.1
2.0
>>> zscore(table, "q1", "map", 0.5), zscore(table, "q1", "map", 0.25)  # stddev 0: at the mean, or not
(0.0, -1000000.0)
>>> zscore(table, "q2", "map", 0.5), zscore(table, "q1", "ndcg", 0.3)  # q2 not in the file; a NaN mean
(-1000000.0, nan)
"""

from __future__ import annotations

import math
import re
from pathlib import Path

from .model import Problems
from .source import normalise_line_ends, read_bytes, readable

__all__ = ["MISSING", "atof_prefix", "read_zscores", "zscore"]

MISSING = -1000000.0  # trec_eval.h's MISSING_ZSCORE_VALUE

# what C's strtod (and so atof) reads at the start of a text, in the C locale: a hexadecimal
# number (0x1.8p3), a decimal one (1., .5, 1e-3; an exponent only with digits), inf/infinity,
# nan/nan(chars), any case, with an optional sign
_ATOF = re.compile(rb"""[+-]?(?:
      0[xX](?P<hex>(?:[0-9a-fA-F]+\.?[0-9a-fA-F]*|\.[0-9a-fA-F]+)(?:[pP][+-]?[0-9]+)?)
    | (?P<dec>(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)
    | (?P<inf>[iI][nN][fF](?:[iI][nN][iI][tT][yY])?)
    | (?P<nan>[nN][aA][nN](?:\([0-9A-Za-z_]*\))?)
)""", re.X)

_NEGATIVE_NAN = -math.nan  # trec_eval's 0/0 (-J): the x86-64 default NaN, sign bit set, printed -nan


def atof_prefix(text: bytes) -> float | None:
    """The number C's ``atof`` reads at the start of ``text`` (the rest is ignored, as atof
    ignores it), or None where ``atof`` finds no number and would return 0.

    >>> [atof_prefix(t) for t in (b"1e3", b"3abc", b"-0x1p3", b"INF", b"1e", b"abc", b".")]
    [1000.0, 3.0, -8.0, inf, 1.0, None, None]
    >>> x = atof_prefix(b"-nan"); x != x, math.copysign(1.0, x)  # NaN, with its sign
    (True, -1.0)
    """
    m = _ATOF.match(text)
    if m is None:
        return None
    sign = -1.0 if text[:1] == b"-" else 1.0
    if m.group("nan") is not None:
        return math.copysign(math.nan, sign)
    if m.group("inf") is not None:
        return sign * math.inf
    if m.group("dec") is not None:
        return float(m.group())
    try:
        return sign * float.fromhex(m.group("hex").decode("ascii"))
    except OverflowError:  # strtod: HUGE_VAL
        return sign * math.inf


def read_zscores(source: str | Path | bytes, *, name: str | None = None,
                 max_bytes: int | None = None) -> dict[tuple[str, str], tuple[float, float]]:
    """``{(qid, measure): (mean, stddev)}`` from a zscores file; a malformed line is a
    :class:`~metrics.io.model.FileFormatError` naming ``file:line``. Means and stddevs are read
    as trec_eval's ``atof`` reads them (:func:`atof_prefix`); one with no number at its start
    is an error (atof would make it 0)."""
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
            value = atof_prefix(text)
            if value is None:
                found.add(number, f"{what} {text.decode('utf-8', 'replace')[:40]!r} is not a number "
                                  "(trec_eval's atof would read it as 0)")
                break
            values.append(value)
        if len(values) == 2:
            table[(qid, measure)] = (values[0], values[1])
    found.raise_if_any()
    return table


def zscore(table: dict[tuple[str, str], tuple[float, float]], qid: str, measure: str, value: float) -> float:
    """One value as trec_eval's -Z turns it (te_convert_to_zscore, see the module). The
    arithmetic is C's: a stddev that is NaN counts as non-zero, and a NaN operand passes into the
    result with its sign (a NaN value is trec_eval's 0/0, ``-nan``)."""
    found = table.get((qid, measure))
    if found is None:
        return MISSING
    mean, sd = found
    if value != value:
        value = _NEGATIVE_NAN
    if sd:
        return (value - mean) / sd
    return 0.0 if value == mean else MISSING
