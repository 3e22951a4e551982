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
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from numbers import Integral, Real

__all__ = [
    "Item", "Query", "Example", "ExampleError", "PRESETS", "Preset", "MODES", "LIMITS",
    "build_preset", "validate", "encode", "decode", "permalink_params",
    "get_example", "set_example", "load_preset", "current_query", "set_current_query",
    "effective_k", "take_messages", "editor_key", "reset_editors", "KEYS", "PARAM",
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
    id_chars: int = 64
    grade_max: int = 10
    k_max: int = 1000
    url_chars: int = 16_000    # longer examples are not mirrored into the URL
    json_bytes: int = 2_000_000


LIMITS = Limits()

KEYS = {
    "example": "state.example",        # the current Example
    "url": "state.url",                # the last ``ex`` value read from or written to the URL
    "messages": "state.messages",      # messages for the user, shown once by the next page
    "version": "state.version",        # bumped on every change not made by a data editor
    "preset": "state.preset",          # name of the preset last loaded (or None)
}


class ExampleError(ValueError):
    """An example (or a permalink) that cannot be used; the message says what and where."""


# --------------------------------------------------------------------------- the model

@dataclass(frozen=True)
class Item:
    """One document: a stable ``id`` (what metrics see), a ``label`` shown to people, a grade."""

    id: str
    label: str
    grade: int = 0


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

        Every item is judged (grade 0 = judged not relevant); in ``"binary"`` mode every
        positive grade becomes 1.

        >>> q = Query("q", (Item("a", "A", 3), Item("b", "B", 0)), (Item("c", "C", 2),))
        >>> q.inputs("graded")
        (['a', 'b'], {'a': 3, 'b': 0, 'c': 2})
        >>> q.inputs("binary")[1]
        {'a': 1, 'b': 0, 'c': 1}
        """
        binary = mode == "binary"
        judgments = {}
        for item in (*self.ranking, *self.tray):
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

_ID = re.compile(r"[A-Za-z0-9_.:\-]+")


def _text(value, where: str, limit: int, *, allow_empty: bool = False) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        value = ""
    if not isinstance(value, str):
        value = str(value)
    value = value.strip()
    if not value and not allow_empty:
        raise ExampleError(f"{where}: empty text")
    if len(value) > limit:
        raise ExampleError(f"{where}: {len(value):,} characters is too long (at most {limit})")
    return value


def _grade(value, where: str) -> int:
    """A grade from a number or a numeric string, 0..grade_max; anything else is an error."""
    raw = value
    if value is None:
        raise ExampleError(f"{where}: the grade is empty (use 0 for not relevant)")
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            raise ExampleError(f"{where}: grade {raw[:20]!r} is not a number") from None
    if isinstance(value, bool) or not isinstance(value, Real):
        raise ExampleError(f"{where}: grade {str(raw)[:20]!r} is not a number")
    f = float(value)
    if math.isnan(f):
        raise ExampleError(f"{where}: the grade is empty (use 0 for not relevant)")
    if math.isinf(f) or not f.is_integer():
        raise ExampleError(f"{where}: grade {str(raw)[:20]} must be a whole number")
    g = int(f)
    if not 0 <= g <= LIMITS.grade_max:
        raise ExampleError(f"{where}: grade {g:,} is out of range (0 to {LIMITS.grade_max})")
    return g


def _items(items, where: str, seen: set[str]) -> tuple[Item, ...]:
    items = tuple(items)
    if len(items) > LIMITS.items:
        raise ExampleError(f"{where}: {len(items):,} items is too many (at most {LIMITS.items:,})")
    out = []
    for pos, item in enumerate(items, start=1):
        at = f"{where}, position {pos}"
        doc = _text(item.id, f"{at}: id", LIMITS.id_chars)
        if not _ID.fullmatch(doc):
            raise ExampleError(f"{at}: id {doc[:20]!r} may only use letters, digits and _ . : -")
        if doc in seen:
            raise ExampleError(f"{at}: id {doc!r} appears twice")
        seen.add(doc)
        out.append(Item(doc, _text(item.label, f"{at}: label", LIMITS.label_chars, allow_empty=True),
                        _grade(item.grade, at)))
    return tuple(out)


def validate(example: Example) -> Example:
    """Check every field of an example and return a cleaned copy, or raise :class:`ExampleError`.

    >>> validate(Example((Query("q", (Item("a", "A", 99),)),)))
    Traceback (most recent call last):
    ...
    ui.state.ExampleError: query 1 'q', ranking, position 1: grade 99 is out of range (0 to 10)
    """
    if not isinstance(example, Example):
        raise ExampleError(f"expected an Example, got {type(example).__name__}")
    if not example.queries:
        raise ExampleError("the example needs at least one query")
    if len(example.queries) > LIMITS.queries:
        raise ExampleError(f"{len(example.queries)} queries is too many (at most {LIMITS.queries})")
    if example.mode not in MODES:
        raise ExampleError(f"mode must be 'binary' or 'graded', got {str(example.mode)[:20]!r}")
    if isinstance(example.k, bool) or not isinstance(example.k, Integral) or not 1 <= example.k <= LIMITS.k_max:
        raise ExampleError(f"k must be a whole number from 1 to {LIMITS.k_max}, got {str(example.k)[:20]}")
    if isinstance(example.current, bool) or not isinstance(example.current, Integral) \
            or not 0 <= example.current < len(example.queries):
        raise ExampleError(f"current query {str(example.current)[:20]} does not exist")
    queries = []
    for n, q in enumerate(example.queries, start=1):
        name = _text(q.name, f"query {n}: name", LIMITS.name_chars)
        where = f"query {n} {name[:30]!r}"
        seen: set[str] = set()
        ranking = _items(q.ranking, f"{where}, ranking", seen)
        tray = _items(q.tray, f"{where}, not retrieved", seen)
        groups = None
        if q.groups is not None:
            groups = []
            for i, g in enumerate(q.groups, start=1):
                ids = tuple(_text(d, f"{where}, group {i}", LIMITS.id_chars) for d in g)
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


def _from_payload(data) -> Example:
    if not isinstance(data, dict):
        raise ExampleError("the link's data is not an object")
    if data.get("v") != VERSION:
        raise ExampleError(f"the link has version {str(data.get('v'))[:10]}, this app reads version {VERSION}")
    mode = {"b": "binary", "g": "graded"}.get(data.get("m"))
    if mode is None:
        raise ExampleError("the link's mode is neither binary nor graded")
    qs = data.get("q")
    if not isinstance(qs, list):
        raise ExampleError("the link holds no list of queries")

    def items(rows, where):
        if not isinstance(rows, list):
            raise ExampleError(f"{where} is not a list")
        out = []
        for pos, row in enumerate(rows, start=1):
            if not (isinstance(row, list) and len(row) == 3 and isinstance(row[0], str)
                    and isinstance(row[1], str)):
                raise ExampleError(f"{where}, position {pos}: expected [id, label, grade]")
            out.append(Item(row[0], row[1], row[2]))
        return tuple(out)

    queries = []
    for n, q in enumerate(qs, start=1):
        if not isinstance(q, dict) or not isinstance(q.get("n"), str):
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


def encode(example: Example) -> str:
    """The example as a compact URL-safe string: ``"1."`` + base64url(zlib(JSON)).

    >>> encode(build_preset("cat"))[:2]
    '1.'
    """
    raw = json.dumps(_to_payload(example), separators=(",", ":"), ensure_ascii=False).encode()
    packed = base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")
    return f"{VERSION}.{packed}"


def decode(text: str) -> Example:
    """Read an :func:`encode`-d example back, validating everything; raise :class:`ExampleError`.

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
        raise ExampleError(f"this link was made by another version of Ranklab ({version[:10]!r}); "
                           "the example was not changed")
    try:
        blob = base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4))
        unpacker = zlib.decompressobj()
        raw = unpacker.decompress(blob, LIMITS.json_bytes)
        if unpacker.unconsumed_tail or not unpacker.eof:
            raise ValueError("truncated or too large")
        data = json.loads(raw.decode("utf-8"))
    except (binascii.Error, zlib.error, ValueError, UnicodeDecodeError):
        raise ExampleError("this link is damaged (its data does not unpack); "
                           "the example was not changed") from None
    try:
        return _from_payload(data)
    except ExampleError as err:
        raise ExampleError(f"this link is invalid: {err}; the example was not changed") from None


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


def _publish(st, example: Example) -> None:
    """Mirror the example into the URL (or drop the parameter if it is too large)."""
    params = permalink_params(example)
    text = params.get(PARAM)
    if text is None:
        if PARAM in st.query_params:
            del st.query_params[PARAM]
    elif st.query_params.get(PARAM) != text:
        st.query_params[PARAM] = text
    st.session_state[KEYS["url"]] = text


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
    if text and text != ss.get(KEYS["url"]):
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
    previous = ss.get(KEYS["example"])
    if previous == example:
        return True
    ss[KEYS["example"]] = example
    _changed(previous, example)
    if not from_editor:
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
