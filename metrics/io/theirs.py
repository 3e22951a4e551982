"""Another tool's numbers, as ``ranklab diagnose --theirs`` and the Diagnose page read them.

Three forms, chosen by what the text looks like (not by the file name):

- trec_eval's output, ``measure qid value`` on each line (``-q``), whitespace-separated;
  the line whose qid is ``all`` is the aggregate. Lines of other measures are skipped.
- JSON: ``{qid: value}`` or ``{qid: {measure: value}}`` (pytrec_eval's ``evaluate()``,
  ranx's ``to_dict()``); a key ``"all"`` is the aggregate. An inner value is taken only for
  the measure asked (a lone key that names another measure is refused). Ranklab's own
  ``evaluate --format json`` (``{"aggregate": {...}, "per_query": {...}}``) is read too.
- CSV/TSV: ``qid,value`` per line, an optional header line first; ``all`` is the aggregate.
- One number alone: the aggregate.

Every value keeps the text it was printed with, because the number of decimals printed is
the precision it can be matched to (``0.4167`` matches anything within ±0.00005).
Everything is validated: a bad line is ``name:line: reason``, never a traceback.

>>> t = read_theirs(b"ndcg_cut_10 q1 0.5000\\nndcg_cut_10 all 0.5000\\n", "theirs.txt", "nDCG@10")
>>> t.per_query["q1"].value, t.per_query["q1"].tolerance, t.aggregate.value
(0.5, 5e-05, 0.5)
>>> read_theirs(b'{"q1": {"ndcg_cut_10": 0.25}, "q2": {"ndcg_cut_10": 1.0}}', "t.json", "nDCG@10").per_query["q2"].value
1.0
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass, field

from ..measures import Measure, parse
from .model import FileFormatError, Problems

__all__ = ["Number", "Theirs", "read_theirs", "number", "MAX_THEIRS_BYTES", "MAX_QUERIES", "MAX_TOLERANCE"]

MAX_THEIRS_BYTES = 64 * 1024 * 1024
MAX_QUERIES = 1_000_000
MAX_ID = 1000  # characters of a query id
EXACT = 1e-9  # the slack of a number printed with every digit (JSON floats)
MAX_TOLERANCE = 0.005  # "1" or "0.5" typed: within 0.005 (as Check my calculation)
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d{1,3})?%?")


@dataclass(frozen=True)
class Number:
    """A value as another tool printed it: the value, and how far off it may be
    (half a unit of the last decimal printed, at most :data:`MAX_TOLERANCE`; :data:`EXACT`
    for 15 or more decimals, in JSON as in text)."""

    value: float
    text: str
    tolerance: float

    def matches(self, x: float) -> bool:
        return abs(x - self.value) <= self.tolerance + EXACT


@dataclass(frozen=True)
class Theirs:
    """Their per-query values (qid -> :class:`Number`, may be empty) and their aggregate."""

    per_query: dict[str, Number] = field(default_factory=dict)
    aggregate: Number | None = None
    source: str = "<theirs>"

    @property
    def empty(self) -> bool:
        return not self.per_query and self.aggregate is None

    @property
    def mean(self) -> float | None:
        """The mean of their per-query values (None without any).

        >>> Theirs({"q1": number("0.5"), "q2": number("0.25")}).mean
        0.375
        """
        if not self.per_query:
            return None
        return sum(n.value for n in self.per_query.values()) / len(self.per_query)


def number(text: str, where: str = "value") -> Number:
    """Read one printed number: decimals, an exponent, or a percentage.

    >>> number("0.4167")
    Number(value=0.4167, text='0.4167', tolerance=5e-05)
    >>> number("41.4%").value, number("41.4%").tolerance
    (0.414, 0.0005)
    >>> number("nan")
    Traceback (most recent call last):
    ...
    ValueError: value: 'nan' is not a finite number
    """
    if not isinstance(text, str):
        raise ValueError(f"{where}: expected a number, got {type(text).__name__}")
    s = text.strip()
    if len(s) > 40 or not _NUMBER.fullmatch(s):
        shown = s if len(s) <= 40 else s[:37] + "..."
        raise ValueError(f"{where}: {shown!r} is not a finite number")
    percent = s.endswith("%")
    body = s[:-1] if percent else s
    mantissa, _, exponent = body.lower().partition("e")
    decimals = len(mantissa.partition(".")[2]) - (int(exponent) if exponent else 0) + (2 if percent else 0)
    value = float(body) / (100.0 if percent else 1.0)
    if not math.isfinite(value):
        raise ValueError(f"{where}: {s!r} is not a finite number")
    tolerance = EXACT if decimals >= 15 else min(MAX_TOLERANCE, 0.5 * 10.0 ** -max(decimals, 0))
    return Number(value, s, tolerance)


class _Printed(str):
    """A JSON number as it was written, so that its decimals give its precision."""


def _json_number(value, where: str) -> Number:
    """A JSON number, matched within the precision it was printed with, as in the other forms:
    ``0.4167`` within 0.00005; a double written with every digit (``0.30000000000000004``) almost exactly.
    """
    if isinstance(value, _Printed):
        text = value if len(value) <= 40 else value[:37] + "..."
        try:
            return number(value, where)
        except ValueError:  # 1e999, a 400-digit number ...
            raise ValueError(f"{where}: {text} is not a finite number within range") from None
    raise ValueError(f"{where}: expected a number, got {json.dumps(value)[:40]}")


def _same_measure(name: str, measure: Measure) -> bool:
    try:
        return parse(name) == measure
    except (ValueError, TypeError):
        return False


def read_theirs(data: bytes | str, name: str, measure: str | Measure) -> Theirs:
    """Parse another tool's numbers for ``measure`` (see the module notes for the forms).

    ``name`` is shown in every message. Raises :class:`~metrics.io.FileFormatError`
    (``name:line: reason``) or ``ValueError``.

    >>> t = read_theirs("qid,ndcg\\nq1,0.61\\nq2,0.3\\n", "theirs.csv", "nDCG")
    >>> sorted(t.per_query), t.per_query["q2"].tolerance
    (['q1', 'q2'], 0.005)
    >>> read_theirs("q1,0.6\\nq1,0.7\\n", "theirs.csv", "nDCG")
    Traceback (most recent call last):
    ...
    metrics.io.model.FileFormatError: theirs.csv:2: query 'q1' given twice (first on line 1)
    """
    m = parse(measure)
    if isinstance(data, str):
        data = data.encode("utf-8", "surrogatepass")
    if not isinstance(data, bytes | bytearray):
        raise TypeError(f"{name}: expected bytes or text, got {type(data).__name__}")
    if len(data) > MAX_THEIRS_BYTES:
        raise FileFormatError(name, [(None, f"larger than {MAX_THEIRS_BYTES // (1024 * 1024)} MB")])
    try:
        text = bytes(data).decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = bytes(data)[: err.start].count(b"\n") + 1
        raise FileFormatError(name, [(line, "not UTF-8 text")]) from None
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    stripped = text.lstrip()
    if not stripped:
        raise FileFormatError(name, [(None, "empty: no numbers found")])
    if stripped[0] == "{":  # a query id may start with "[": only an object is JSON here
        return _read_json(text, name, m)
    single = stripped.rstrip()
    if "\n" not in single and len(single.split()) == 1 and "," not in single:
        try:  # one number alone: their aggregate
            return Theirs(aggregate=number(single, f"{name}:1"), source=name)
        except ValueError:
            pass
    return _read_lines(text, name, m)


def _read_json(text: str, name: str, m: Measure) -> Theirs:
    try:
        obj = json.loads(text, parse_float=_Printed, parse_int=_Printed, parse_constant=_Printed)
    except RecursionError:
        raise FileFormatError(name, [(None, "JSON nested too deeply")]) from None
    except json.JSONDecodeError as err:
        raise FileFormatError(name, [(err.lineno, f"not valid JSON: {err.msg}")]) from None
    except ValueError as err:  # a number too long for int() (over 4300 digits)
        raise FileFormatError(name, [(None, f"not valid JSON: {str(err)[:80]}")]) from None
    if not isinstance(obj, dict):
        raise FileFormatError(name, [(1, "JSON must be an object {qid: value} or {qid: {measure: value}}")])
    aggregate_obj = None
    if isinstance(obj.get("per_query"), dict) and set(obj) <= {"aggregate", "per_query", "warnings"}:
        # Ranklab's own `evaluate --format json`: {"aggregate": {measure: value}, "per_query": {qid: {...}}}
        aggregate_obj, obj = obj.get("aggregate"), obj["per_query"]
    if len(obj) > MAX_QUERIES:
        raise FileFormatError(name, [(None, f"more than {MAX_QUERIES} queries")])
    problems = Problems(name)
    per_query: dict[str, Number] = {}
    aggregate = None
    entries = list(obj.items())
    if aggregate_obj is not None:
        entries.append(("all", aggregate_obj))
    for qid, value in entries:
        where = "the aggregate" if qid == "all" and aggregate_obj is not None else f"query {_short(qid)!r}"
        line = _json_line(text, "aggregate" if where == "the aggregate" else qid)
        if not qid.strip() or len(qid) > MAX_ID:
            problems.add(line, f"{where}: a query id must be 1 to {MAX_ID} characters")
            continue
        if isinstance(value, dict):
            value, why = _inner_value(value, m)
            if why:
                problems.add(line, f"{where}: {why}")
                continue
        try:
            n = _json_number(value, where)
        except ValueError as err:
            problems.add(line, str(err))
            continue
        if qid == "all":
            aggregate = n
        else:
            per_query[qid] = n
    problems.raise_if_any()
    if not per_query and aggregate is None:
        raise FileFormatError(name, [(None, "no numbers found")])
    return Theirs(per_query, aggregate, name)


def _inner_value(value: dict, m: Measure):
    """(the value of ``{measure: value}`` for ``m``, None) or (None, why there is none).
    A lone key that names no measure ("value", "score") is taken as ``m``'s; one that names
    another measure is not, lest AP's numbers be compared as nDCG's."""
    keys = [k for k in value if _same_measure(k, m)]
    if not keys and len(value) == 1:
        (key,) = value
        if not _is_measure(key):
            keys = [key]
    if len(keys) == 1:
        return value[keys[0]], None
    found = ", ".join(_short(k, 20) for k in list(value)[:5])
    return None, f"no single value for {m} (found: {found or 'nothing'})"


def _is_measure(name: str) -> bool:
    try:
        parse(name)
    except (ValueError, TypeError):
        return False
    return True


def _json_line(text: str, key: str) -> int | None:
    """The line where the key ``"key":`` is written (the first such place), if it can be found.

    >>> _json_line('{\\n "q1": 1,\\n "q2": "x"}', "q2")
    3
    """
    for spelled in (json.dumps(key, ensure_ascii=False), json.dumps(key)):
        at = text.find(spelled + ":")
        if at < 0:
            at = text.find(spelled + " :")
        if at >= 0:
            return text.count("\n", 0, at) + 1
    return None


def _read_lines(text: str, name: str, m: Measure) -> Theirs:
    problems = Problems(name)
    per_query: dict[str, tuple[Number, int]] = {}
    aggregate: tuple[Number, int] | None = None
    other_measures: set[str] = set()
    first_data = True
    for lineno, line in enumerate(text.split("\n"), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if "," in line:
            fields = [f.strip() for f in line.split(",")]
        elif "\t" in line and len(line.split("\t")) == 2:
            fields = [f.strip() for f in line.split("\t")]
        else:
            fields = line.split()
        if len(fields) == 3:  # trec_eval: measure qid value
            measure_name, qid, raw = fields
            if not _same_measure(measure_name, m):
                if len(other_measures) < 1000:
                    other_measures.add(measure_name[:40])
                first_data = False
                continue
        elif len(fields) == 2:
            qid, raw = fields
        else:
            problems.add(lineno, f"expected 'qid value' or trec_eval's 'measure qid value', found {len(fields)} "
                                 "fields")
            first_data = False
            continue
        header, first_data = first_data, False
        try:
            n = number(raw, "value")
        except ValueError as err:
            if header and len(fields) == 2:
                continue  # a header line such as "qid,value"
            problems.add(lineno, str(err))
            continue
        if not qid or len(qid) > MAX_ID:
            problems.add(lineno, f"a query id must be 1 to {MAX_ID} characters")
            continue
        if qid == "all":
            if aggregate is not None:
                problems.add(lineno, f"the aggregate 'all' given twice (first on line {aggregate[1]})")
            aggregate = (n, lineno)
            continue
        if qid in per_query:
            problems.add(lineno, f"query {_short(qid)!r} given twice (first on line {per_query[qid][1]})")
            continue
        if len(per_query) >= MAX_QUERIES:
            problems.add(lineno, f"more than {MAX_QUERIES} queries")
            break
        per_query[qid] = (n, lineno)
    problems.raise_if_any()
    if not per_query and aggregate is None:
        found = f" (found measures: {', '.join(sorted(other_measures)[:5])})" if other_measures else ""
        raise FileFormatError(name, [(None, f"no value for {m}{found}")])
    return Theirs({q: n for q, (n, _) in per_query.items()}, aggregate[0] if aggregate else None, name)


def _short(text: str, limit: int = 40) -> str:
    return text if len(text) <= limit else text[:limit] + "..."
