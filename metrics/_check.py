"""Input validation at the public boundary, in one place.

Every public entry point (``score``, ``explain``, ``evaluate``, ``grouped.*``) cleans its
inputs here; errors are ``TypeError``/``ValueError`` naming the argument and the value.
"""

from __future__ import annotations

import math
from collections.abc import KeysView, Mapping, Sequence, Set
from numbers import Integral, Real

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

MAX_GRADE = 2**31 - 1  # trec_eval stores grades as C ints
TIES = ("docid-desc", "docid-asc", "input", "average", "threshold")
# trec_eval 9.0.8 stores run scores as float32 (scores equal in float32 tie); 10.0 compares doubles
TREC_EVAL_VERSIONS = ("9.0.8", "10.0")


def as_float32(value: float) -> float:
    """A score as trec_eval 9.0.8 stores it (float32; beyond its range, +-inf).

    >>> as_float32(1.000000001) == as_float32(1.0), as_float32(1e300)
    (True, inf)
    """
    with np.errstate(over="ignore"):
        return float(np.float32(value))


def _short(value, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def doc_id(value, where: str) -> str:
    """A document id: a non-empty string, or an integer (turned into its decimal string)."""
    if isinstance(value, bool) or not isinstance(value, str | Integral):
        raise TypeError(f"{where}: document ids must be strings or integers, got {_short(value)} "
                        f"({type(value).__name__})")
    text = str(value)
    if text == "":
        raise ValueError(f"{where}: empty document id")
    return text


def query_ids(value: Mapping, name: str) -> dict[str, object]:
    """Each query id's string form → the key it has in ``value``; two keys with one string
    form (``1`` and ``"1"``) are an error, not a query silently dropped.

    >>> query_ids({1: {}, "q2": {}}, "qrels")
    {'1': 1, 'q2': 'q2'}
    >>> query_ids({1: {}, "1": {}}, "qrels")
    Traceback (most recent call last):
    ...
    ValueError: qrels: query '1' appears twice (as 1 and '1')
    """
    out: dict[str, object] = {}
    for key in value:
        qid = doc_id(key, f"{name} query id")
        if qid in out:
            raise ValueError(f"{name}: query {qid!r} appears twice (as {_short(out[qid])} and {_short(key)})")
        out[qid] = key
    return out


def grade(value, where: str) -> int:
    """A relevance grade: an integer (an integral float such as 2.0 is accepted)."""
    if isinstance(value, bool):
        raise TypeError(f"{where}: grade must be an integer, got {value!r}")
    if isinstance(value, Integral):
        g = int(value)
    elif isinstance(value, Real):
        f = float(value)
        if math.isnan(f) or math.isinf(f):
            raise ValueError(f"{where}: grade must be a finite integer, got {f!r}")
        if not f.is_integer():
            raise ValueError(f"{where}: grade must be an integer, got {f!r}")
        g = int(f)
    else:
        raise TypeError(f"{where}: grade must be an integer, got {_short(value)} ({type(value).__name__})")
    if abs(g) > MAX_GRADE:
        raise ValueError(f"{where}: grade {g} is out of range (|grade| <= {MAX_GRADE})")
    return g


def score_value(value, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, Real):
        raise TypeError(f"{where}: score must be a number, got {_short(value)} ({type(value).__name__})")
    f = float(value)
    if math.isnan(f) or math.isinf(f):
        raise ValueError(f"{where}: score must be finite, got {f!r}")
    return f


def judgments(value, name: str = "judgments") -> dict[str, int]:
    """Clean a mapping doc id → integer grade."""
    if not isinstance(value, Mapping):
        raise TypeError(f"{name} must be a mapping of document id to grade, got {type(value).__name__}")
    if all(type(d) is str and d and type(g) is int and -MAX_GRADE <= g <= MAX_GRADE
           for d, g in value.items()):
        return dict(value)  # the common case, checked in one pass
    out: dict[str, int] = {}
    for doc, g in value.items():
        d = doc_id(doc, f"{name}")
        if d in out:
            raise ValueError(f"{name}: document {d!r} appears twice (as {doc!r} and its string form)")
        out[d] = grade(g, f"{name}[{d!r}]")
    return out


def subtopic_judgments(value, name: str = "judgments") -> tuple[dict[str, int], dict[str, dict[str, int]]]:
    """Clean judgments per subtopic, doc id → {subtopic: grade}; also return each document's
    best grade, the judgments every other measure reads.

    >>> subtopic_judgments({"d1": {"s1": 1, "s2": 0}, "d2": {"s2": -1}})
    ({'d1': 1, 'd2': -1}, {'d1': {'s1': 1, 's2': 0}, 'd2': {'s2': -1}})
    """
    if not isinstance(value, Mapping):
        raise TypeError(f"{name} must be a mapping of document id to {{subtopic: grade}}, got {type(value).__name__}")
    flat: dict[str, int] = {}
    out: dict[str, dict[str, int]] = {}
    for doc, per in value.items():
        d = doc_id(doc, name)
        if d in out:
            raise ValueError(f"{name}: document {d!r} appears twice (as {doc!r} and its string form)")
        if not isinstance(per, Mapping) or not per:
            raise TypeError(f"{name}[{d!r}] must be a non-empty mapping subtopic → grade, got {_short(per)}")
        grades = {}
        for s, g in per.items():
            sid = doc_id(s, f"{name}[{d!r}] subtopic")
            if sid in grades:
                raise ValueError(f"{name}[{d!r}]: subtopic {sid!r} appears twice")
            grades[sid] = grade(g, f"{name}[{d!r}][{sid!r}]")
        out[d] = grades
        flat[d] = max(grades.values())
    return flat, out


def is_subtopic_judgments(value) -> bool:
    """Whether judgments are given per subtopic (a mapping whose values are mappings)."""
    return isinstance(value, Mapping) and any(isinstance(v, Mapping) for v in value.values())


def ranking(value, name: str = "ranking", *, ties: str = "docid-desc", trec_eval: str = "9.0.8") -> list[str]:
    """Clean a ranking: a sequence of doc ids best first, or a mapping doc id → score.

    A mapping is ordered as trec_eval orders a run: score descending, ties broken by
    document id descending (``ties='docid-asc'`` or ``'input'`` choose otherwise). Under
    ``trec_eval='9.0.8'`` (the default) scores are compared as float32, as 9.0.8 stores them;
    ``'10.0'`` compares them as doubles. Duplicate ids are an error, as in trec_eval.
    """
    if ties not in TIES:
        raise ValueError(f"ties must be one of {', '.join(map(repr, TIES))}, got {ties!r}")
    choice(trec_eval, "trec_eval", TREC_EVAL_VERSIONS)
    if isinstance(value, Mapping):
        fast = _clean_scores_order(value, ties, trec_eval)
        if fast is not None:
            return fast
        items = [(doc_id(d, name), score_value(s, f"{name}[{d!r}]")) for d, s in value.items()]
        if trec_eval == "9.0.8":
            items = [(d, as_float32(s)) for d, s in items]
        seen: set[str] = set()
        for d, _ in items:
            if d in seen:
                raise ValueError(f"{name}: document {d!r} appears twice")
            seen.add(d)
        if ties in ("average", "threshold"):
            ties = "docid-desc"  # the order within a tie group does not matter to these rules
        if ties == "input":
            order = sorted(range(len(items)), key=lambda i: -items[i][1])
            return [items[i][0] for i in order]
        # two stable sorts: by id (desc or asc), then by score descending
        items.sort(key=lambda t: t[0], reverse=(ties == "docid-desc"))
        items.sort(key=lambda t: t[1], reverse=True)
        return [d for d, _ in items]
    if isinstance(value, str | bytes):
        raise TypeError(f"{name} must be a list of document ids, got a single string {_short(value)}")
    if isinstance(value, Set) and not isinstance(value, KeysView):  # a set has no order to rank by
        raise TypeError(f"{name} must be ordered (a list of document ids best first, or a mapping "
                        f"id → score), got a {type(value).__name__}, whose order is arbitrary")
    if not isinstance(value, Sequence):
        try:
            value = list(value)  # generators, numpy arrays, pandas Series
        except TypeError:
            raise TypeError(f"{name} must be a list of document ids or a mapping id → score, "
                            f"got {type(value).__name__}") from None
    if all(type(d) is str for d in value) and "" not in value:
        docs = list(value)  # the common case: plain strings
    else:
        docs = [doc_id(d, f"{name}[{i}]") for i, d in enumerate(value)]
    if len(set(docs)) != len(docs):
        first: dict[str, int] = {}
        for i, d in enumerate(docs):
            if d in first:
                raise ValueError(f"{name}: document {d!r} appears twice (ranks {first[d] + 1} and {i + 1})")
            first[d] = i
    return docs


def _clean_scores_order(value: Mapping, ties: str, trec_eval: str) -> list[str] | None:
    """The order of a clean mapping of scores (every id a non-empty ``str``, every score a finite
    ``float``), sorted in Arrow as the two stable Python sorts below sort it; None for any other
    input, which the general path checks and names. A ``dict``'s keys are distinct already.
    Arrow compares strings byte by byte in UTF-8, which is Python's code point order."""
    if type(value) is not dict or len(value) < 1000 or "" in value:
        return None  # small rankings: the general path is as fast
    ids = list(value)
    if set(map(type, ids)) != {str}:
        return None
    scores = list(value.values())
    if set(map(type, scores)) != {float}:
        return None
    s = np.array(scores, dtype=np.float64)
    if not np.isfinite(s).all():
        return None
    if trec_eval == "9.0.8":
        with np.errstate(over="ignore"):
            s = s.astype(np.float32).astype(np.float64)
    try:
        doc = pa.array(ids, type=pa.string())
    except (pa.ArrowException, UnicodeEncodeError):  # a lone surrogate: the general path orders it
        return None
    keys = [("score", "descending")]
    if ties not in ("input",):  # average and threshold do not depend on the order within a tie
        keys.append(("doc", "ascending" if ties == "docid-asc" else "descending"))
    order = pc.sort_indices(pa.table({"score": s, "doc": doc}), sort_keys=keys)  # stable
    return np.array(ids, dtype=object)[order.to_numpy(zero_copy_only=False)].tolist()


def positive_int(value, name: str, *, allow_none: bool = True) -> int | None:
    """``k``-like arguments: a positive integer, or None (the whole ranking) when allowed."""
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise TypeError(f"{name} must be a positive integer{' or None' if allow_none else ''}, got {value!r}")
    if value < 1:
        raise ValueError(f"{name} must be a positive integer, got {value}")
    return int(value)


def choice(value, name: str, choices: Sequence[str]) -> str:
    if value not in choices:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, choices))}, got {value!r}")
    return value
