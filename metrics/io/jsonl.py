"""JSONL ground truth and results (seed 003): one query per line, documents in a list.

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
ranking. A list entry may also be a plain string, taken as the document id.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.json as pajson

from .._check import MAX_GRADE
from .arrays import as_numpy
from .model import FileFormatError, Problems, Qrels, Run, _chunked, _codes
from .trec import open_bytes

__all__ = ["read_jsonl_qrels", "read_jsonl_run", "ID_FIELDS", "SEPARATOR"]

ID_FIELDS = ("filename", "page_number")
SEPARATOR = "#"


def _fast(path, query_key, list_key, id_fields, value_key, kind):
    """pyarrow's JSON reader, or None when the file needs the line-by-line pass."""
    try:
        with pa.input_stream(str(path), compression="detect") as stream:
            table = pajson.read_json(stream)
        lists = table.column(list_key).combine_chunks()
        if not pa.types.is_list(lists.type) or not pa.types.is_struct(lists.type.value_type):
            return None
        qids = pc.cast(table.column(query_key), pa.string()).combine_chunks()
        if qids.null_count:
            return None
        parents = as_numpy(pc.list_parent_indices(lists))
        flat = pc.list_flatten(lists)
        parts = []
        for name in id_fields:
            field = flat.field(name)
            if pa.types.is_floating(field.type):
                return None
            parts.append(pc.cast(field, pa.string()))
        doc = pc.binary_join_element_wise(*parts, SEPARATOR) if len(parts) > 1 else parts[0]
        if doc.null_count:
            return None
        if value_key in flat.type.names:
            values = flat.field(value_key)
            if values.null_count:
                return None
            if kind == "qrels":
                if not pa.types.is_integer(values.type):
                    return None
                values = as_numpy(values).astype(np.int64)
                if values.size and np.abs(values).max() > MAX_GRADE:
                    return None
            else:
                if not (pa.types.is_floating(values.type) or pa.types.is_integer(values.type)):
                    return None
                values = as_numpy(values).astype(np.float64)
                if not np.isfinite(values).all():
                    return None
        else:
            values = None
    except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError, KeyError, UnicodeDecodeError):
        return None
    all_qids = qids.to_pylist()
    queries, codes = _codes(all_qids)
    return queries, codes[parents] if len(parents) else np.zeros(0, np.int32), pa.chunked_array([doc]), values


def _slow(path, query_key, list_key, id_fields, value_key, kind):
    """Line by line, naming every problem as file:line."""
    source = str(path)
    found = Problems(source)
    qids, docs, values = [], [], []
    has_values = False

    bad = found.add

    data = open_bytes(path)
    if not data.strip():
        raise FileFormatError(source, [(None, "the file is empty")])
    for number, raw in enumerate(data.split(b"\n"), start=1):
        if number == 1:
            raw = raw.removeprefix(b"\xef\xbb\xbf")
        if not raw.strip():
            continue
        try:
            obj = json.loads(raw)
        except UnicodeDecodeError:
            bad(number, "undecodable bytes (the file must be UTF-8)")
            continue
        except json.JSONDecodeError as err:
            bad(number, f"not valid JSON ({err.msg} at column {err.colno})")
            continue
        if not isinstance(obj, dict):
            bad(number, f"expected a JSON object, found {type(obj).__name__}")
            continue
        if query_key not in obj or obj[query_key] in (None, ""):
            bad(number, f"missing {query_key!r}")
            continue
        entries = obj.get(list_key)
        if not isinstance(entries, list):
            bad(number, f"{list_key!r} must be a list of documents")
            continue
        qid = str(obj[query_key])
        for i, entry in enumerate(entries):
            if isinstance(entry, str):
                doc, value = entry, None
            elif isinstance(entry, dict):
                missing = [f for f in id_fields if entry.get(f) in (None, "")]
                if missing:
                    bad(number, f"{list_key}[{i}] has no {', '.join(map(repr, missing))}")
                    continue
                doc = SEPARATOR.join(str(entry[f]) for f in id_fields)
                value = entry.get(value_key)
            else:
                bad(number, f"{list_key}[{i}] must be an object or a string")
                continue
            if value is not None:
                has_values = True
                if kind == "qrels":
                    if isinstance(value, bool) or not isinstance(value, int) or abs(value) > MAX_GRADE:
                        bad(number, f"{list_key}[{i}].{value_key} must be an integer, got {value!r}")
                        continue
                elif isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
                    bad(number, f"{list_key}[{i}].{value_key} must be a finite number, got {value!r}")
                    continue
            qids.append(qid)
            docs.append(doc)
            values.append(value)
    found.raise_if_any()
    if not qids:
        raise FileFormatError(source, [(None, "no documents found")])
    queries, codes = _codes(qids)
    if kind == "qrels":
        out = np.array([1 if v is None else v for v in values], dtype=np.int64)
    elif has_values:
        if any(v is None for v in values):
            raise FileFormatError(source, [(None, f"some results have a {value_key!r} and some do not")])
        out = np.array(values, dtype=np.float64)
    else:
        out = None
    return queries, codes, _chunked(docs), out


def _read(path, query_key, list_key, id_fields, value_key, kind):
    id_fields = tuple(id_fields)
    if not id_fields:
        raise ValueError("id_fields: give at least one field name")
    got = _fast(path, query_key, list_key, id_fields, value_key, kind)
    return got if got is not None else _slow(path, query_key, list_key, id_fields, value_key, kind)


def read_jsonl_qrels(path: str | Path, *, query_key: str = "query_id", list_key: str = "ground_truth",
                     id_fields=ID_FIELDS, grade_key: str = "grade") -> Qrels:
    """Read JSONL ground truth (see the module notes for the layout)."""
    queries, codes, docs, grades = _read(path, query_key, list_key, id_fields, grade_key, "qrels")
    if grades is None:
        grades = np.ones(len(codes), dtype=np.int64)
    return Qrels(queries, codes, docs, grades, str(path))


def read_jsonl_run(path: str | Path, *, query_key: str = "query_id", list_key: str = "results",
                   id_fields=ID_FIELDS, score_key: str = "score") -> Run:
    """Read JSONL results (see the module notes for the layout)."""
    queries, codes, docs, scores = _read(path, query_key, list_key, id_fields, score_key, "run")
    if scores is None:
        scores = -np.arange(len(codes), dtype=np.float64)  # list order is the ranking
    return Run(queries, codes, docs, scores, str(path))
