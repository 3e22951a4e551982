"""The app's shared state: the current example, every session key, and the permalink codec.

Every page works on one **example**: a list of queries, each with a ranked list of items
and a tray of relevant documents the system did not retrieve, plus the cutoff ``k`` and
the mode (``"binary"``: every positive grade counts as 1; ``"graded"``: grades as given).

The model is immutable (frozen dataclasses); change it with :func:`set_example` (or
:func:`load_preset`), read it with :func:`get_example`. Both live in ``st.session_state``
under the keys listed in :data:`KEYS`, and every change is mirrored into the URL
(query parameter ``ex``) so the browser's address is a permalink to the example.

>>> ex = build_preset("cat")
>>> q = ex.queries[0]
>>> [item.label for item in q.ranking][:3]
['🐱 cat', '🐱📦 cat in a box', '📦 box']
>>> ranking, judgments = q.inputs(ex.mode)
>>> ranking[:3], judgments["2"]
(['1', '2', '3'], 1)
>>> decode(encode(ex)) == ex   # the permalink round-trips exactly
True

Widget keys follow ``"<page>.<name>"``; keys owned by this module start with ``"state."``.
"""

from __future__ import annotations

import base64
import binascii
import json
import math
import re
import time
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from numbers import Integral, Real

__all__ = [
    "Item", "Query", "Example", "ExampleError", "PRESETS", "Preset", "MODES", "LIMITS",
    "build_preset", "validate", "printable", "encode", "decode", "permalink_params",
    "get_example", "set_example", "load_preset", "current_query", "set_current_query",
    "effective_k", "take_messages", "editor_key", "reset_editors", "KEYS", "PARAM", "UNJUDGED",
]

MODES = ("binary", "graded")
PARAM = "ex"  # the URL query parameter holding the encoded example
VERSION = 1   # bump when the encoded form changes; decode refuses unknown versions


@dataclass(frozen=True)
class Limits:
    """What the app accepts; anything beyond gets a clear message and is not applied."""

    items: int = 1000          # per list (ranking, tray)
    queries: int = 20
    label_chars: int = 200
    name_chars: int = 100
    id_chars: int = 200
    grade_max: int = 10
    k_max: int = 1000
    url_chars: int = 16_000    # longer examples are not mirrored into the URL
    json_bytes: int = 2_000_000
    json_depth: int = 8        # the encoded form nests 5 deep (query list, query, ranking, row)


LIMITS = Limits()

KEYS = {
    "example": "state.example",        # the current Example
    "url": "state.url",                # the last ``ex`` value read from or written to the URL
    "messages": "state.messages",      # messages for the user, shown once by the next page
    "version": "state.version",        # bumped on every change not made by a data editor
    "preset": "state.preset",          # name of the preset last loaded (or None)
    "published": "state.published",    # [(code, time)] of the last links written to the URL
    "encoded": "state.encoded",        # (example, its link code): the last example encoded
}


class ExampleError(ValueError):
    """An example (or a permalink) that cannot be used; the message says what and where."""


# --------------------------------------------------------------------------- the model

@dataclass(frozen=True)
class Item:
    """One document: a stable ``id`` (what metrics see), a ``label`` shown to people, a grade
    (``None``: unjudged, shown as ``?``; like trec_eval's −1, it is not in the judgments)."""

    id: str
    label: str
    grade: int | None = 0


@dataclass(frozen=True)
class Query:
    """One query: its ranked ``ranking`` (best first) and the ``tray`` of judged documents
    that were not retrieved. ``groups`` (seed 001) optionally lists groups of ids of which
    any one satisfies the group; then :mod:`metrics.grouped` applies too."""

    name: str
    ranking: tuple[Item, ...] = ()
    tray: tuple[Item, ...] = ()
    groups: tuple[tuple[str, ...], ...] | None = None

    def inputs(self, mode: str = "graded") -> tuple[list[str], dict[str, int]]:
        """``(ranking, judgments)`` for :func:`metrics.explain`.

        Grade 0 is judged not relevant; an unjudged item (grade ``None``) is left out of the
        judgments, as a document trec_eval finds in no qrels line. In ``"binary"`` mode every
        positive grade becomes 1.

        >>> q = Query("q", (Item("a", "A", 3), Item("b", "B", 0), Item("u", "U", None)), (Item("c", "C", 2),))
        >>> q.inputs("graded")
        (['a', 'b', 'u'], {'a': 3, 'b': 0, 'c': 2})
        >>> q.inputs("binary")[1]
        {'a': 1, 'b': 0, 'c': 1}
        """
        binary = mode == "binary"
        judgments = {}
        for item in (*self.ranking, *self.tray):
            if item.grade is None:
                continue
            judgments[item.id] = (1 if item.grade > 0 else 0) if binary else item.grade
        return [item.id for item in self.ranking], judgments

    def labels(self) -> dict[str, str]:
        """Doc id → label, for tables that show what each id stands for."""
        return {item.id: item.label for item in (*self.ranking, *self.tray)}

    def group_lists(self) -> list[list[str]]:
        """The groups as lists, for :mod:`metrics.grouped` (empty when there are none)."""
        return [list(g) for g in (self.groups or ())]


@dataclass(frozen=True)
class Example:
    """The shared example: queries, the cutoff ``k``, the mode, and which query is current."""

    queries: tuple[Query, ...]
    k: int = 5
    mode: str = "binary"
    current: int = 0

    @property
    def query(self) -> Query:
        """The current query."""
        return self.queries[self.current]


def effective_k(example: Example, query: Query | None = None) -> int:
    """``k`` clipped to the length of the query's ranking (at least 1).

    >>> effective_k(build_preset("cat")), effective_k(replace(build_preset("cat"), k=50))
    (2, 8)
    """
    q = example.query if query is None else query
    return max(1, min(example.k, len(q.ranking)))


# --------------------------------------------------------------------------- validation

# text that cannot be shown or sent to the browser: control characters (C0, DEL, C1) and
# lone surrogates (they make the permalink and every Streamlit message fail to encode)
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def _shown(value, limit: int = 20) -> str:
    """A short, printable rendering of a bad value for an error message (never fails):
    text quoted and cut, numbers as they are (a huge one only by its size), others by type.

    >>> _shown("ab\\x00c"), _shown(10**400), _shown(2.5), _shown([1])
    ("'ab\ufffdc'", 'a 401-digit number', '2.5', 'a list')
    """
    if isinstance(value, str):
        text = _UNPRINTABLE.sub("\ufffd", value[: limit + 1])
        return repr(text[:limit] + ("…" if len(text) > limit else ""))
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 64:
        return f"a {len(str(value)) if value.bit_length() < 14_000 else 'many'}-digit number"
    if value is None or isinstance(value, bool | int | float):
        return repr(value)
    return f"a {type(value).__name__}"


def _text(value, where: str, limit: int, *, allow_empty: bool = False, strip: bool = True) -> str:
    """Printable text of at most ``limit`` characters (stripped unless ``strip=False``)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        value = ""
    if isinstance(value, int | float) and not isinstance(value, bool) and abs(value) < 1e15:
        value = str(value)   # a number typed where text belongs (a label of digits)
    if not isinstance(value, str):
        raise ExampleError(f"{where}: expected text, got {type(value).__name__}")
    if len(value) > limit + 1000:   # checked before any work on it
        raise ExampleError(f"{where}: {len(value):,} characters is too long (at most {limit})")
    stripped = value.strip()
    if strip:
        value = stripped
    if not stripped and not allow_empty:
        raise ExampleError(f"{where}: empty text")
    if len(value) > limit:
        raise ExampleError(f"{where}: {len(value):,} characters is too long (at most {limit})")
    bad = _UNPRINTABLE.search(value)
    if bad:
        code = ord(bad.group())
        what = "a lone surrogate" if 0xD800 <= code <= 0xDFFF else "a control character"
        raise ExampleError(f"{where}: {what} (U+{code:04X}) at character {bad.start() + 1}; "
                           "only printable text is accepted")
    return value


def printable(text: str) -> str:
    """``text`` with every character :func:`validate` refuses (control characters, lone
    surrogates) replaced by U+FFFD, for text from files that is only shown.

    >>> printable("a\\tb\\ud800")
    'a\ufffdb\ufffd'
    """
    return _UNPRINTABLE.sub("\ufffd", text)


def _doc_id(value, where: str) -> str:
    """A document id: any printable text up to ``LIMITS.id_chars``, kept exactly as given
    (ids in the wild hold ``#``, ``/``, spaces, addresses and every script)."""
    return _text(value, f"{where}: id", LIMITS.id_chars, strip=False)


UNJUDGED = "?"  # how an unjudged grade is written and shown
_WHOLE = re.compile(r"[0-9]{1,6}")


def _grade(value, where: str) -> int | None:
    """A grade: a whole number 0..grade_max, or ``None`` (unjudged) for an empty cell or ``?``.

    Typed text is read strictly (ASCII digits only: no ``-1``, ``1e3``, ``2.5``, ``0x10``), so
    nothing a person types is bent into another grade.

    >>> _grade(" 3 ", "rank 1"), _grade("?", "rank 2"), _grade(2.0, "rank 3")
    (3, None, 2)
    >>> _grade("1e3", "rank 4")
    Traceback (most recent call last):
    ...
    ui.state.ExampleError: rank 4: grade '1e3' is not allowed: use a whole number from 0 to 10, or ? for unjudged
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, str):
        text = value.strip()
        if text in ("", UNJUDGED):
            return None
        if not _WHOLE.fullmatch(text) or int(text) > LIMITS.grade_max:
            raise ExampleError(f"{where}: grade {_shown(value)} is not allowed: use a whole number from 0 to "
                               f"{LIMITS.grade_max}, or {UNJUDGED} for unjudged")
        return int(text)
    if isinstance(value, bool) or not isinstance(value, Real):
        raise ExampleError(f"{where}: grade {_shown(value)} is not a number")
    if isinstance(value, Integral):   # exact: float() of 10**400 overflows
        ok = 0 <= value <= LIMITS.grade_max
    else:
        try:
            f = float(value)
        except (OverflowError, ValueError):
            f = math.nan
        ok = math.isfinite(f) and f.is_integer() and 0 <= f <= LIMITS.grade_max
    if not ok:
        raise ExampleError(f"{where}: grade {_shown(value)} is not allowed: use a whole number from 0 to "
                           f"{LIMITS.grade_max}, or {UNJUDGED} for unjudged")
    return int(value)


def _items(items, where: str, seen: set[str]) -> tuple[Item, ...]:
    if not isinstance(items, tuple | list):
        raise ExampleError(f"{where}: expected a list of items, got {type(items).__name__}")
    if len(items) > LIMITS.items:
        raise ExampleError(f"{where}: {len(items):,} items is too many (at most {LIMITS.items:,})")
    out = []
    for pos, item in enumerate(items, start=1):
        at = f"{where}, position {pos}"
        if not isinstance(item, Item):
            raise ExampleError(f"{at}: expected an item, got {type(item).__name__}")
        doc = _doc_id(item.id, at)
        if doc in seen:
            raise ExampleError(f"{at}: id {_shown(doc, 40)} appears twice")
        seen.add(doc)
        out.append(Item(doc, _text(item.label, f"{at}: label", LIMITS.label_chars, allow_empty=True),
                        _grade(item.grade, at)))
    return tuple(out)


def validate(example: Example) -> Example:
    """Check every field of an example and return a cleaned copy, or raise :class:`ExampleError`.

    >>> validate(Example((Query("q", (Item("a", "A", 99),)),)))
    Traceback (most recent call last):
    ...
    ui.state.ExampleError: query 1 'q', ranking, position 1: grade 99 is not allowed: use a whole number from 0 to 10, or ? for unjudged
    """
    if not isinstance(example, Example):
        raise ExampleError(f"expected an Example, got {type(example).__name__}")
    if not isinstance(example.queries, tuple | list):
        raise ExampleError(f"the queries must be a list, got {type(example.queries).__name__}")
    if not example.queries:
        raise ExampleError("the example needs at least one query")
    if len(example.queries) > LIMITS.queries:
        raise ExampleError(f"{len(example.queries)} queries is too many (at most {LIMITS.queries})")
    if not isinstance(example.mode, str) or example.mode not in MODES:
        raise ExampleError(f"mode must be 'binary' or 'graded', got {_shown(example.mode)}")
    if isinstance(example.k, bool) or not isinstance(example.k, Integral) or not 1 <= example.k <= LIMITS.k_max:
        raise ExampleError(f"k must be a whole number from 1 to {LIMITS.k_max}, got {_shown(example.k)}")
    if isinstance(example.current, bool) or not isinstance(example.current, Integral) \
            or not 0 <= example.current < len(example.queries):
        raise ExampleError(f"current query {_shown(example.current)} does not exist")
    queries = []
    for n, q in enumerate(example.queries, start=1):
        if not isinstance(q, Query):
            raise ExampleError(f"query {n}: expected a query, got {type(q).__name__}")
        name = _text(q.name, f"query {n}: name", LIMITS.name_chars)
        where = f"query {n} {_shown(name, 30)}"
        seen: set[str] = set()
        ranking = _items(q.ranking, f"{where}, ranking", seen)
        tray = _items(q.tray, f"{where}, not retrieved", seen)
        groups = None
        if q.groups is not None:
            if len(q.groups) > LIMITS.items:
                raise ExampleError(f"{where}: {len(q.groups):,} groups is too many (at most {LIMITS.items:,})")
            groups = []
            for i, g in enumerate(q.groups, start=1):
                if len(g) > LIMITS.items:
                    raise ExampleError(f"{where}, group {i}: {len(g):,} ids is too many (at most {LIMITS.items:,})")
                ids = tuple(_doc_id(d, f"{where}, group {i}") for d in g)
                if not ids:
                    raise ExampleError(f"{where}, group {i}: a group needs at least one id")
                groups.append(ids)
            groups = tuple(groups)
        queries.append(Query(name, ranking, tray, groups))
    return Example(tuple(queries), int(example.k), example.mode, int(example.current))


# --------------------------------------------------------------------------- permalink codec

def _to_payload(example: Example) -> dict:
    def rows(items):
        return [[i.id, i.label, i.grade] for i in items]

    qs = []
    for q in example.queries:
        d = {"n": q.name, "r": rows(q.ranking)}
        if q.tray:
            d["t"] = rows(q.tray)
        if q.groups is not None:
            d["g"] = [list(g) for g in q.groups]
        qs.append(d)
    return {"v": VERSION, "k": example.k, "m": example.mode[0], "c": example.current, "q": qs}


_PAYLOAD_KEYS = {"v", "k", "m", "c", "q"}
_QUERY_KEYS = {"n", "r", "t", "g"}


def _from_payload(data) -> Example:
    """The example in a decoded link's JSON; every field's type is checked before it is used."""
    if not isinstance(data, dict):
        raise ExampleError("the link's data is not an object")
    version = data.get("v")
    if isinstance(version, bool) or not isinstance(version, int) or version != VERSION:
        raise ExampleError(f"the link has version {_shown(version, 10)}, this app reads version {VERSION}")
    unknown = set(data) - _PAYLOAD_KEYS
    if unknown:
        raise ExampleError(f"the link holds an unknown field {_shown(sorted(unknown)[0], 10)}")
    mode = {"b": "binary", "g": "graded"}.get(data.get("m")) if isinstance(data.get("m"), str) else None
    if mode is None:
        raise ExampleError("the link's mode is neither binary nor graded")
    qs = data.get("q")
    if not isinstance(qs, list):
        raise ExampleError("the link holds no list of queries")
    if len(qs) > LIMITS.queries:
        raise ExampleError(f"{len(qs)} queries is too many (at most {LIMITS.queries})")

    def items(rows, where):
        if not isinstance(rows, list):
            raise ExampleError(f"{where} is not a list")
        if len(rows) > LIMITS.items:
            raise ExampleError(f"{where}: {len(rows):,} items is too many (at most {LIMITS.items:,})")
        out = []
        for pos, row in enumerate(rows, start=1):
            if not (isinstance(row, list) and len(row) == 3 and isinstance(row[0], str)
                    and isinstance(row[1], str)):
                raise ExampleError(f"{where}, position {pos}: expected [id, label, grade]")
            out.append(Item(row[0], row[1], row[2]))
        return tuple(out)

    queries = []
    for n, q in enumerate(qs, start=1):
        if not isinstance(q, dict) or not isinstance(q.get("n"), str) or set(q) - _QUERY_KEYS:
            raise ExampleError(f"query {n} of the link is malformed")
        groups = q.get("g")
        if groups is not None:
            if not isinstance(groups, list) or not all(
                    isinstance(g, list) and all(isinstance(d, str) for d in g) for g in groups):
                raise ExampleError(f"query {n} of the link: groups must be lists of ids")
            groups = tuple(tuple(g) for g in groups)
        queries.append(Query(q["n"], items(q.get("r", []), f"query {n}, ranking"),
                             items(q.get("t", []), f"query {n}, not retrieved"), groups))
    return validate(Example(tuple(queries), data.get("k"), mode, data.get("c", 0)))


def _json_depth(raw: str) -> int:
    """How deeply arrays and objects nest in JSON text, counted without parsing it
    (strings removed first), so a deeply nested link is refused before ``json.loads``
    recurses into it.

    >>> _json_depth('{"a": [[1], "]]]"]}')
    3
    """
    import numpy as np

    bare = _JSON_STRING.sub("", raw).encode("ascii", "ignore")
    codes = np.frombuffer(bare, dtype=np.uint8)
    step = np.isin(codes, (91, 123)).astype(np.int32) - np.isin(codes, (93, 125)).astype(np.int32)
    return int(np.cumsum(step).max(initial=0))


_JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)


def encode(example: Example) -> str:
    """The example as a compact URL-safe string: ``"1."`` + base64url(zlib(JSON)).

    >>> encode(build_preset("cat"))[:2]
    '1.'
    """
    raw = json.dumps(_to_payload(example), separators=(",", ":"), ensure_ascii=False).encode()
    packed = base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")
    return f"{VERSION}.{packed}"


_DAMAGED = "this link is damaged (its data does not unpack); the example was not changed"


def decode(text: str) -> Example:
    """Read an :func:`encode`-d example back, validating everything.

    Whatever the text, this returns a valid :class:`Example` or raises :class:`ExampleError`
    (never another exception): a damaged link must leave the app as it was.

    >>> decode("1.AAAA")
    Traceback (most recent call last):
    ...
    ui.state.ExampleError: this link is damaged (its data does not unpack); the example was not changed
    """
    if not isinstance(text, str) or not text:
        raise ExampleError("the link holds no example")
    if len(text) > LIMITS.url_chars * 4:
        raise ExampleError(f"this link is too long ({len(text):,} characters)")
    version, _, packed = text.partition(".")
    if version != str(VERSION) or not packed:
        raise ExampleError(f"this link was made by another version of Ranklab ({_shown(version, 10)}); "
                           "the example was not changed")
    try:
        blob = base64.urlsafe_b64decode(packed.encode("ascii") + b"=" * (-len(packed) % 4))
        unpacker = zlib.decompressobj()
        raw = unpacker.decompress(blob, LIMITS.json_bytes)
        if unpacker.unconsumed_tail or not unpacker.eof:
            raise ValueError("truncated or too large")
        raw = raw.decode("utf-8")
        if _json_depth(raw) > LIMITS.json_depth:
            raise ValueError("nested too deeply")
        data = json.loads(raw)
    except (binascii.Error, zlib.error, ValueError, UnicodeError, RecursionError, MemoryError):
        raise ExampleError(_DAMAGED) from None
    try:
        return _from_payload(data)
    except ExampleError as err:
        raise ExampleError(f"this link is invalid: {err}; the example was not changed") from None
    except (TypeError, ValueError, OverflowError, RecursionError) as err:   # a gap in the checks above
        raise ExampleError(f"this link is invalid ({type(err).__name__}); the example was not changed") from None


def permalink_params(example: Example) -> dict[str, str]:
    """The URL query parameters that restore ``example`` (empty when it is too large)."""
    text = encode(example)
    return {PARAM: text} if len(text) <= LIMITS.url_chars else {}


# --------------------------------------------------------------------------- presets

@dataclass(frozen=True)
class Preset:
    """A named example: ``title`` for the picker, ``source`` says where it comes from."""

    title: str
    source: str
    queries: tuple[Query, ...]
    k: int
    mode: str
    notes: tuple[str, ...] = field(default_factory=tuple)


_CAT = ["🐱 cat", "🐱📦 cat in a box", "📦 box", "🐱📦 cat in a box", "🐱📦 cat in a box", "🐱 cat",
        "🐱📦 cat in a box", "🐶📦 dog in a box"]


def _binary(name: str, labels: Iterable[str], relevant_ranks: Iterable[int]) -> Query:
    rel = set(relevant_ranks)
    return Query(name, tuple(Item(str(i), lab, int(i in rel)) for i, lab in enumerate(labels, start=1)))


def _graded(name: str, labels: Iterable[str], grades: Iterable[int], ids=None, tray=()) -> Query:
    labels, grades = list(labels), list(grades)
    ids = ids or [str(i) for i in range(1, len(labels) + 1)]
    return Query(name, tuple(Item(d, lab, g) for d, lab, g in zip(ids, labels, grades, strict=True)),
                 tuple(tray))


def _grouped(name: str, ids: list[str], groups: list[list[str]]) -> Query:
    members = {d for g in groups for d in g}
    ranking = tuple(Item(d, d, int(d in members)) for d in ids)
    tray = tuple(Item(d, d, 1) for g in groups for d in g if d not in ids)
    return Query(name, ranking, tray, tuple(tuple(g) for g in groups))


PRESETS: dict[str, Preset] = {
    "cat": Preset(
        "Cat in the box", "seed 004: eight images, relevant at ranks 2, 4, 5 and 7",
        (_binary("cat in the box", _CAT, (2, 4, 5, 7)),), k=2, mode="binary"),
    "white-cat": Preset(
        "White cat in the box (graded)", "seed 004: grades 0, 4, 1, 3, 4, 1, 3, 2",
        (_graded("white cat in the box",
                 ["🐈‍⬛ dark cat", "🤍🐱📦 white cat in a box", "📦 box", "🐱📦 cat in a box",
                  "🤍🐱📦 white cat in a box", "🐱 cat", "🐱📦 cat in a box", "🤍🐱 white cat"],
                 [0, 4, 1, 3, 4, 1, 3, 2]),), k=8, mode="graded"),
    "three-queries": Preset(
        "Three queries (MRR and MAP)", "seed 004: relevant ranks 2,4,5,7 / 1,4,5,7 / 5,8 of 8",
        (_binary("cat in the box", _CAT, (2, 4, 5, 7)),
         _binary("white cat", ["🤍🐱 white cat", "🐱📦 cat in a box", "📦 box", "🤍🐱 white cat",
                               "🤍🐱 white cat", "🐶 dog", "🤍🐱📦 white cat in a box", "🐈‍⬛ dark cat"],
                 (1, 4, 5, 7)),
         _binary("dark cat", ["🤍🐱 white cat", "🐶 dog", "📦 box", "🐱📦 cat in a box",
                              "🐈‍⬛ dark cat", "🤍🐱 white cat", "🐶📦 dog in a box", "🐈‍⬛ dark cat"],
                 (5, 8))), k=8, mode="binary"),
    "dcg": Preset(
        "DCG textbook example", "REFERENCE.md: grades 3,2,3,0,1,2; two more judged (3 and 2) not retrieved",
        (_graded("textbook DCG", [f"doc {i}" for i in range(1, 7)], [3, 2, 3, 0, 1, 2],
                 ids=[f"d{i}" for i in range(1, 7)],
                 tray=(Item("d7", "doc 7", 3), Item("d8", "doc 8", 2))),), k=6, mode="graded"),
    "grouped": Preset(
        "Grouped ground truth (seed 001)", "seed 001: any id of a group satisfies it; every group counts",
        (_grouped("test ids", ["test-1", "Prod-1", "test-2", "Prod-2"], [["test-1", "test-2"], ["test-3"]]),
         _grouped("ID-2 and ID-4", ["ID-1", "ID-2", "ID-3", "ID-4"], [["ID-2"], ["ID-4"]])),
        k=4, mode="binary"),
}
DEFAULT_PRESET = "cat"


def build_preset(name: str) -> Example:
    """The example of preset ``name`` (a key of :data:`PRESETS`)."""
    if name not in PRESETS:
        raise ExampleError(f"unknown preset {str(name)[:40]!r}; choose one of {', '.join(PRESETS)}")
    p = PRESETS[name]
    return Example(p.queries, p.k, p.mode, 0)


# --------------------------------------------------------------------------- session state

def _st():
    import streamlit as st  # lazy: the model and codec above work without a Streamlit session

    return st


def _messages(st) -> list:
    return st.session_state.setdefault(KEYS["messages"], [])


LAG_SECONDS = 5.0   # a URL holding a link this session wrote this recently is the browser lagging


def _publish(st, example: Example) -> None:
    """Mirror the example into the URL (or drop the parameter if it is too large).

    The code of the last example published is kept: every widget reads the example, and
    encoding 100 items a dozen times per run took 3 ms of each rerun."""
    ss = st.session_state
    cached = ss.get(KEYS["encoded"])
    if cached is not None and cached[0] is example:
        text = cached[1]
    else:
        text = permalink_params(example).get(PARAM)
        ss[KEYS["encoded"]] = (example, text)
    if text is None:
        if PARAM in st.query_params:
            del st.query_params[PARAM]
    elif st.query_params.get(PARAM) != text:
        st.query_params[PARAM] = text
    if text is not None and text != ss.get(KEYS["url"]):
        ss[KEYS["published"]] = [*ss.get(KEYS["published"], [])[-19:], (text, time.monotonic())]
    ss[KEYS["url"]] = text


def _lagging(ss, text: str) -> bool:
    """Whether ``text`` in the URL is a link this session wrote a moment ago.

    Quick actions outrun the browser's address bar: the request for the next rerun can still
    carry the link of two runs ago. Read as a permalink, it took the example back and dropped
    the edits made since (and a step of quick presses on the k slider). A link written more
    than :data:`LAG_SECONDS` ago is the browser's Back (or a link opened): that one is loaded.
    """
    now = time.monotonic()
    return any(code == text and now - when < LAG_SECONDS for code, when in ss.get(KEYS["published"], ()))


def get_example() -> Example:
    """The current example, created from the URL (a permalink) or the default preset.

    A permalink in the URL that this session has not seen yet replaces the example; a
    damaged one leaves it unchanged and queues a message (see :func:`take_messages`).
    """
    st = _st()
    ss = st.session_state
    example = previous = ss.get(KEYS["example"])
    if example is None:
        example = build_preset(DEFAULT_PRESET)
        ss[KEYS["example"]] = example
        ss[KEYS["preset"]] = DEFAULT_PRESET
        ss.setdefault(KEYS["version"], 0)
    text = st.query_params.get(PARAM)
    if text and text != ss.get(KEYS["url"]) and not _lagging(ss, text):
        try:
            example = decode(text)
        except ExampleError as err:
            _messages(st).append(("error", str(err)))
        else:
            ss[KEYS["example"]] = example
            ss[KEYS["preset"]] = None
            ss[KEYS["version"]] = ss.get(KEYS["version"], 0) + 1
            _changed(previous, example)
    _publish(st, example)
    return example


def set_example(example: Example, *, from_editor: bool = False) -> bool:
    """Validate and store a new example; on error keep the old one and queue the message.

    ``from_editor=True`` means the change came from a data editor's own edits, so the
    editors keep their widget state; any other change resets them (see :func:`editor_key`).
    Returns whether the example was applied.
    """
    st = _st()
    try:
        example = validate(example)
    except ExampleError as err:
        _messages(st).append(("error", f"{err}. The previous example is kept."))
        return False
    ss = st.session_state
    old = ss.get(KEYS["example"])
    if old == example:
        return True
    ss[KEYS["example"]] = example
    _changed(old, example)
    if not from_editor and (old is None or old.queries != example.queries):
        # the grids start again only when their rows changed (not for a new k or mode,
        # which used to remount every grid in the browser)
        ss[KEYS["version"]] = ss.get(KEYS["version"], 0) + 1
    _publish(st, example)
    return True


def _changed(before: Example | None, after: Example) -> None:
    """Tell the undo history (:mod:`ui.history`) about an applied change."""
    if before is not None:
        from .history import record

        record(before, after)


def update(**changes) -> bool:
    """:func:`set_example` with some fields of the current example replaced (``k=3``)."""
    return set_example(replace(get_example(), **changes))


def load_preset(name: str) -> bool:
    """Replace the example by preset ``name``."""
    st = _st()
    try:
        example = build_preset(name)
    except ExampleError as err:
        _messages(st).append(("error", str(err)))
        return False
    st.session_state[KEYS["preset"]] = name
    return set_example(example)


def current_query() -> Query:
    """The query the single-query pages work on."""
    return get_example().query


def set_current_query(query: Query, *, from_editor: bool = False, index: int | None = None) -> bool:
    """Replace one query (the current one by default) of the example."""
    ex = get_example()
    i = ex.current if index is None else index
    queries = list(ex.queries)
    queries[i] = query
    return set_example(replace(ex, queries=tuple(queries)), from_editor=from_editor)


def reset_editors(message: str | None = None) -> None:
    """Start every data editor afresh from the example (their pending edits are dropped)."""
    st = _st()
    st.session_state[KEYS["version"]] = st.session_state.get(KEYS["version"], 0) + 1
    if message:
        _messages(st).append(("error", message))


def take_messages() -> list[tuple[str, str]]:
    """Pending ``(level, text)`` messages for the user; they are removed once taken."""
    st = _st()
    msgs = list(_messages(st))
    st.session_state[KEYS["messages"]] = []
    return msgs


def editor_key(page: str, name: str = "editor", index: int = 0) -> str:
    """A data editor's widget key: ``"<page>.<name>.<index>.v<version>"``.

    The version changes whenever the example changes from outside the editors (a preset,
    a move, a permalink), so the editor restarts from the new rows instead of replaying
    its old edits on them.
    """
    version = _st().session_state.get(KEYS["version"], 0)
    return f"{page}.{name}.{index}.v{version}"


def item_rows(items: Iterable[Item]) -> list[dict]:
    """Rows for a table of items: id, label, grade."""
    return [{"id": i.id, "label": i.label, "grade": i.grade} for i in items]


def next_id(query: Query) -> str:
    """A fresh document id for a new item of ``query`` (``d<n>``, the first free n).

    >>> next_id(build_preset("dcg").queries[0])
    'd9'
    """
    used = {i.id for i in (*query.ranking, *query.tray)}
    n = 1
    while f"d{n}" in used:
        n += 1
    return f"d{n}"


def items_from_rows(rows: Iterable[Mapping], reserved: Iterable[str] = (), prefix: str = "n") -> tuple[Item, ...]:
    """Items from edited table rows (dicts with label, grade and maybe id).

    A row without an id (a row just added in an editor) gets ``<prefix><n>``, the first n
    not in ``reserved`` nor used by another row, so the same edits always give the same ids.
    Labels and grades are not checked here: :func:`set_example` validates them.

    >>> rows = [{"id": "d1", "label": "x", "grade": 1}, {"label": "new", "grade": 2}]
    >>> [i.id for i in items_from_rows(rows, reserved={"n1"})]
    ['d1', 'n2']
    """
    rows = list(rows)
    used = set(reserved)
    missing = set()
    for n, row in enumerate(rows):
        doc = row.get("id")
        if doc is None or (isinstance(doc, float) and math.isnan(doc)) or str(doc).strip() == "":
            missing.add(n)
        else:
            used.add(str(doc))
    out: list[Item] = []
    fresh = 1
    for n, row in enumerate(rows):
        doc = row.get("id")
        if n in missing:
            while f"{prefix}{fresh}" in used:
                fresh += 1
            doc = f"{prefix}{fresh}"
            used.add(doc)
        out.append(Item(str(doc), row.get("label"), row.get("grade")))
    return tuple(out)
