"""JSONL ground truth and results (the Azure AI Search README's layout): one query per line, documents in a list.

Ground truth::

    {"query_id": "q1", "query": "refund policy", "ground_truth": [
        {"filename": "policy.pdf", "page_number": 3, "grade": 2},
        {"filename": "faq.pdf", "page_number": 1}]}

Results::

    {"query_id": "q1", "results": [
        {"filename": "faq.pdf", "page_number": 1, "score": 12.5},
        {"filename": "policy.pdf", "page_number": 3, "score": 11.0}]}

A document's id joins its ``id_fields`` (default ``filename`` and ``page_number``) with
``#``: ``policy.pdf#3``. ``grade`` defaults to 1; without ``score`` the list order is the
ranking. A list entry may also be a plain string, taken as the document id. Ids (the query
id and each id field) are non-empty strings or integers; grades are JSON integers, scores
finite JSON numbers. Every line needs the query id and the list (``[]`` for a query with
nothing in it).

Line rules as in every reader (:mod:`metrics.io.source`): ``\\n``, ``\\r\\n`` or a lone
``\\r`` ends a line; blank lines and lines whose first non-blank character is ``#`` are
skipped. Each line is parsed on its own with Python's :func:`json.loads` (never a parser
that could crash the process on hostile input): a line longer than :data:`MAX_LINE_BYTES`
or nested deeper than Python's recursion limit is an error naming the line.
"""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import numpy as np

from .._check import MAX_GRADE
from .columns import Columns
from .model import FileFormatError, Problems, Qrels, Run, set_line_map
from .source import InMemory, format_size, normalise_line_ends, read_bytes

__all__ = ["read_jsonl_qrels", "read_jsonl_run", "ID_FIELDS", "SEPARATOR", "MAX_LINE_BYTES"]

ID_FIELDS = ("filename", "page_number")
SEPARATOR = "#"
MAX_LINE_BYTES = 64 * 2**20  # one query's line; json.loads needs several times that in memory


def _id(value) -> str | None:
    """An id's text: a non-empty string or an integer, else None."""
    if isinstance(value, str):
        return value if value else None
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    return None


def _describe(value) -> str:
    text = json.dumps(value) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 30 else text[:30] + "..."


def _entry(entry, i: int, list_key: str, id_fields, value_key: str, kind: str):
    """(document id, value or None) of one list entry, or a reason string for an error."""
    if isinstance(entry, str):
        if not entry:
            return f"{list_key}[{i}] is an empty document id"
        doc, value = entry, None
    elif isinstance(entry, dict):
        parts = []
        for f in id_fields:
            if entry.get(f) in (None, ""):
                return f"{list_key}[{i}] has no {f!r}"
            part = _id(entry[f])
            if part is None:
                return f"{list_key}[{i}].{f} must be a string or an integer, got {_describe(entry[f])}"
            parts.append(part)
        doc = SEPARATOR.join(parts)
        value = entry.get(value_key)
    else:
        return f"{list_key}[{i}] must be an object or a string, got {_describe(entry)}"
    if value is not None:
        if kind == "qrels":
            if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_GRADE:
                return f"{list_key}[{i}].{value_key} must be an integer, got {_describe(value)}"
        else:
            try:
                number = None if isinstance(value, bool) or not isinstance(value, int | float) else float(value)
            except OverflowError:  # an integer beyond the float range
                number = None
            if number is None or not math.isfinite(number):
                return f"{list_key}[{i}].{value_key} must be a finite number, got {_describe(value)}"
            value = number
    return doc, value


_ID_TYPES = {str, int}


def _fast_entries(entries: list, id_fields, value_key: str, kind: str):
    """(document ids, values or None) of a list whose every entry is plainly valid, else None.

    The common case in bulk (list comprehensions, C-speed checks); anything unusual returns
    None and the entry-by-entry loop names the problem.
    """
    if not entries:
        return [], None
    try:
        columns = [[e[f] for e in entries] for f in id_fields]
    except (KeyError, TypeError):  # not all objects with every field: maybe all strings
        if all(type(e) is str for e in entries) and "" not in entries:
            return entries, None
        return None
    for column in columns:
        if not set(map(type, column)) <= _ID_TYPES or "" in column:
            return None
    if len(columns) == 2:
        docs = [f"{a}{SEPARATOR}{b}" for a, b in zip(*columns, strict=True)]
    elif len(columns) == 1:
        docs = list(map(str, columns[0]))
    else:
        docs = [SEPARATOR.join(map(str, parts)) for parts in zip(*columns, strict=True)]
    values = [e.get(value_key) for e in entries]
    types = set(map(type, values))
    if types == {type(None)}:
        return docs, None
    if kind == "qrels":
        if types != {int} or max(values) > MAX_GRADE or min(values) < -MAX_GRADE:
            return None
        return docs, values
    if not types <= {int, float}:
        return None
    try:
        values = list(map(float, values))
    except OverflowError:
        return None
    if not all(map(math.isfinite, values)):
        return None
    return docs, values


def _parse_line(raw: bytes):
    """(the JSON value of one line, None) or (None, the reason it cannot be read)."""
    if len(raw) > MAX_LINE_BYTES:
        return None, f"line longer than {format_size(MAX_LINE_BYTES)}"
    try:
        return json.loads(raw), None
    except UnicodeDecodeError:
        return None, "undecodable bytes (the file must be UTF-8)"
    except json.JSONDecodeError as err:
        return None, f"not valid JSON ({err.msg} at column {err.colno})"
    except RecursionError:
        return None, "JSON nested too deeply"
    except ValueError as err:  # e.g. an integer of more than 4300 digits
        return None, f"not valid JSON ({err})"


def _read(path, query_key, list_key, id_fields, value_key, kind, max_bytes):
    id_fields = tuple(id_fields)
    if not id_fields:
        raise ValueError("id_fields: give at least one field name")
    source = str(path)
    data = normalise_line_ends(read_bytes(path, max_bytes))
    if not data.strip():
        raise FileFormatError(source, [(None, "the file is empty")])
    found = Problems(source)
    out = Columns("i" if kind == "qrels" else "d")
    with_values = without_values = 0
    first_with = first_without = None  # the lines named when a run mixes the two
    for number, raw in enumerate(io.BytesIO(data), start=1):
        stripped = raw.strip()
        if not stripped or stripped.startswith(b"#"):
            continue
        obj, reason = _parse_line(raw)
        if reason:
            found.add(number, reason)
            continue
        if not isinstance(obj, dict):
            found.add(number, f"expected a JSON object, found {_json_type(obj)}")
            continue
        if obj.get(query_key) in (None, ""):
            found.add(number, f"{query_key!r} missing" if query_key not in obj
                      else f"{query_key!r} is empty")
            continue
        qid = _id(obj[query_key])
        if qid is None:
            found.add(number, f"{query_key!r} must be a string or an integer, got {_describe(obj[query_key])}")
            continue
        if list_key not in obj:
            found.add(number, f"{list_key!r} missing")
            continue
        entries = obj[list_key]
        if not isinstance(entries, list):
            found.add(number, f"{list_key!r} must be a list of documents, got {_describe(entries)}")
            continue
        try:
            qid.encode("utf-8")
        except UnicodeEncodeError:
            found.add(number, f"{query_key!r} is not valid Unicode (a lone surrogate)")
            continue
        out.add_query(qid)
        fast = None if found.total else _fast_entries(entries, id_fields, value_key, kind)
        if fast is not None:
            docs, values = fast
            try:
                out.add_many(qid, docs, values, number)
                if values is None:
                    without_values += len(docs)
                    first_without = first_without or (number if docs else None)
                else:
                    with_values += len(docs)
                    first_with = first_with or (number if docs else None)
                continue
            except UnicodeEncodeError:
                pass  # the entry by entry loop names it
        for i, entry in enumerate(entries):
            got = _entry(entry, i, list_key, id_fields, value_key, kind)
            if isinstance(got, str):
                found.add(number, got)
                continue
            doc, value = got
            if value is None:
                without_values += 1
                first_without = first_without or number
            else:
                with_values += 1
                first_with = first_with or number
            if found.total:
                continue
            try:
                out.add(qid, doc, (1 if kind == "qrels" else 0.0) if value is None else value, number)
            except UnicodeEncodeError:
                found.add(number, f"{list_key}[{i}] is not valid Unicode (a lone surrogate)")
    del data
    found.raise_if_any()
    if not len(out):
        raise FileFormatError(source, [(None, "no documents found")])
    if kind == "run" and with_values and without_values:
        raise FileFormatError(source, sorted([
            (first_with, f"the first line whose results have a {value_key!r}"),
            (first_without, f"the first line with a result without a {value_key!r} (give every result "
                            f"a {value_key!r}, or none)")]))
    queries, codes, docs, values, lines = out.finish()
    if kind == "run" and not with_values:
        values = None
    return queries, codes, docs, values, lines.__getitem__


def _json_type(obj) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false", type(None): "null",
            int: "a number", float: "a number"}.get(type(obj), type(obj).__name__)


def read_jsonl_qrels(path: str | Path | InMemory, *, query_key: str = "query_id", list_key: str = "ground_truth",
                     id_fields=ID_FIELDS, grade_key: str = "grade", max_bytes: int | None = None) -> Qrels:
    """Read JSONL ground truth (see the module notes for the layout)."""
    queries, codes, docs, grades, line_of = _read(path, query_key, list_key, id_fields, grade_key, "qrels",
                                                  max_bytes)
    return set_line_map(Qrels(queries, codes, docs, np.asarray(grades, dtype=np.int64), str(path)), line_of)


def read_jsonl_run(path: str | Path | InMemory, *, query_key: str = "query_id", list_key: str = "results",
                   id_fields=ID_FIELDS, score_key: str = "score", max_bytes: int | None = None) -> Run:
    """Read JSONL results (see the module notes for the layout)."""
    queries, codes, docs, scores, line_of = _read(path, query_key, list_key, id_fields, score_key, "run",
                                                  max_bytes)
    if scores is None:
        scores = -np.arange(len(codes), dtype=np.float64)  # list order is the ranking
    return set_line_map(Run(queries, codes, docs, np.asarray(scores, dtype=np.float64), str(path)), line_of)
