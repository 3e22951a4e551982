"""The permalink codec: an example as a compact URL-safe string, and back, validated.

The link's text is ``"1."`` + base64url(zlib(JSON)). Its JSON uses short field names
(:data:`LINK`); a preset file (:mod:`ranklab_ui.core.presets`) holds the same fields under their long
names (:data:`FILE`). Both are read by :func:`from_data`, the same checks, then
:func:`ranklab_ui.core.validation.validate`.

>>> from ranklab_ui.core.model import Example, Item, Query
>>> ex = Example((Query("cat", (Item("1", "🐱 cat", 0), Item("2", "📦 box", 1))),), k=2)
>>> decode(encode(ex)) == ex   # the permalink round-trips exactly
True
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from collections.abc import Mapping
from dataclasses import dataclass

from .i18n import N_, _
from .model import MODES, Example, Item, Query
from .validation import LIMITS, ExampleError, shown, validate

__all__ = ["PARAM", "VERSION", "Form", "LINK", "FILE", "encode", "decode", "permalink_params", "to_data",
           "from_data"]

PARAM = "ex"  # the URL query parameter holding the encoded example
VERSION = 1   # bump when the encoded form changes; decode refuses unknown versions


@dataclass(frozen=True)
class Form:
    """How an example is written as JSON: the key of each field, and how a mode is spelled."""

    keys: Mapping[str, str]    # field → its key (version, k, mode, current, queries; name, ranking, tray, groups)
    modes: Mapping[str, str]   # mode → how it is written


LINK = Form({"version": "v", "k": "k", "mode": "m", "current": "c", "queries": "q",
             "name": "n", "ranking": "r", "tray": "t", "groups": "g"},
            {mode: mode[0] for mode in MODES})
FILE = Form({"version": "version", "k": "k", "mode": "mode", "current": "current", "queries": "queries",
             "name": "name", "ranking": "ranking", "tray": "not_retrieved", "groups": "groups"},
            {mode: mode for mode in MODES})
_TOP = ("version", "k", "mode", "current", "queries")
_QUERY = ("name", "ranking", "tray", "groups")


def to_data(example: Example, form: Form = LINK) -> dict:
    """The example as JSON-ready data in ``form`` (an empty tray and no groups are left out).

    >>> ex = Example((Query("q", (Item("a", "A", 1),)),), k=1)
    >>> to_data(ex)
    {'v': 1, 'k': 1, 'm': 'b', 'c': 0, 'q': [{'n': 'q', 'r': [['a', 'A', 1]]}]}
    >>> to_data(ex, FILE)["queries"]
    [{'name': 'q', 'ranking': [['a', 'A', 1]]}]
    """
    key = form.keys

    def rows(items):
        return [[i.id, i.label, i.grade] for i in items]

    qs = []
    for q in example.queries:
        d = {key["name"]: q.name, key["ranking"]: rows(q.ranking)}
        if q.tray:
            d[key["tray"]] = rows(q.tray)
        if q.groups is not None:
            d[key["groups"]] = [list(g) for g in q.groups]
        qs.append(d)
    return {key["version"]: VERSION, key["k"]: example.k, key["mode"]: form.modes[example.mode],
            key["current"]: example.current, key["queries"]: qs}


def from_data(data, form: Form = LINK, *, what: str | None = None) -> Example:
    """The example in decoded JSON ``data`` written in ``form``; every field's type is checked
    before it is used, then the example is validated. Messages call the source ``what``.

    >>> from_data({"version": 1, "k": 2, "mode": "graded", "queries": [{"name": "q", "ranking": []}]},
    ...           FILE, what="the preset").mode
    'graded'
    >>> from_data({"v": 1, "k": 2, "m": "g", "q": [], "x": 0})
    Traceback (most recent call last):
    ...
    ranklab_ui.core.validation.ExampleError: the link holds an unknown field 'x'
    """
    what = _("the link") if what is None else _(what)
    key = form.keys
    if not isinstance(data, dict):
        raise ExampleError(_("{what}'s data is not an object").format(what=what))
    version = data.get(key["version"])
    if isinstance(version, bool) or not isinstance(version, int) or version != VERSION:
        raise ExampleError(_('{what} has version {version}, this app reads version {ours}').format(what=what, version=shown(version, 10), ours=VERSION))
    unknown = set(data) - {key[f] for f in _TOP}
    if unknown:
        raise ExampleError(_('{what} holds an unknown field {field}').format(what=what, field=shown(sorted(map(str, unknown))[0], 10)))
    written = data.get(key["mode"])
    modes = {text: mode for mode, text in form.modes.items()}
    mode = modes.get(written) if isinstance(written, str) else None
    if mode is None:
        raise ExampleError(_("{what}'s mode is neither binary nor graded").format(what=what))
    qs = data.get(key["queries"])
    if not isinstance(qs, list):
        raise ExampleError(_('{what} holds no list of queries').format(what=what))
    if len(qs) > LIMITS.queries:
        raise ExampleError(_('{n} queries is too many (at most {queries})').format(n=len(qs), queries=LIMITS.queries))

    def items(rows, where):
        if not isinstance(rows, list):
            raise ExampleError(_('{where} is not a list').format(where=where))
        if len(rows) > LIMITS.items:
            raise ExampleError(_('{where}: {n} items is too many (at most {items})').format(where=where, n=f"{len(rows):,}", items=f"{LIMITS.items:,}"))
        out = []
        for pos, row in enumerate(rows, start=1):
            if not (isinstance(row, list) and len(row) == 3 and isinstance(row[0], str)
                    and isinstance(row[1], str)):
                raise ExampleError(_('{where}, position {pos}: expected [id, label, grade]').format(where=where, pos=pos))
            out.append(Item(row[0], row[1], row[2]))
        return tuple(out)

    query_keys = {key[f] for f in _QUERY}
    queries = []
    for n, q in enumerate(qs, start=1):
        if not isinstance(q, dict) or not isinstance(q.get(key["name"]), str) or set(q) - query_keys:
            raise ExampleError(_('query {n} of {what} is malformed').format(n=n, what=what))
        groups = q.get(key["groups"])
        if groups is not None:
            if not isinstance(groups, list) or not all(
                    isinstance(g, list) and all(isinstance(d, str) for d in g) for g in groups):
                raise ExampleError(_('query {n} of {what}: groups must be lists of ids').format(n=n, what=what))
            groups = tuple(tuple(g) for g in groups)
        queries.append(Query(q[key["name"]], items(q.get(key["ranking"], []), _("query {n}, ranking").format(n=n)),
                             items(q.get(key["tray"], []), _("query {n}, not retrieved").format(n=n)), groups))
    return validate(Example(tuple(queries), data.get(key["k"]), mode, data.get(key["current"], 0)))


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

    >>> encode(Example((Query("q"),)))[:2]
    '1.'
    """
    raw = json.dumps(to_data(example), separators=(",", ":"), ensure_ascii=False).encode()
    packed = base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")
    return f"{VERSION}.{packed}"


_DAMAGED = N_("this link is damaged (its data does not unpack); the example was not changed")


def decode(text: str) -> Example:
    """Read an :func:`encode`-d example back, validating everything.

    Whatever the text, this returns a valid :class:`~ranklab_ui.core.model.Example` or raises
    :class:`~ranklab_ui.core.validation.ExampleError` (never another exception): a damaged link must
    leave the app as it was.

    >>> decode("1.AAAA")
    Traceback (most recent call last):
    ...
    ranklab_ui.core.validation.ExampleError: this link is damaged (its data does not unpack); the example was not changed
    """
    if not isinstance(text, str) or not text:
        raise ExampleError(_('the link holds no example'))
    if len(text) > LIMITS.url_chars * 4:
        raise ExampleError(_('this link is too long ({n} characters)').format(n=f"{len(text):,}"))
    version, _dot, packed = text.partition(".")
    if version != str(VERSION) or not packed:
        raise ExampleError(_('this link was made by another version of Ranklab ({version}); the example was not changed').format(version=shown(version, 10)))
    try:
        blob = base64.urlsafe_b64decode(packed.encode("ascii") + b"=" * (-len(packed) % 4))
        unpacker = zlib.decompressobj()
        raw = unpacker.decompress(blob, LIMITS.json_bytes)
        if unpacker.unconsumed_tail or not unpacker.eof:
            raise ValueError(_('truncated or too large'))
        raw = raw.decode("utf-8")
        if _json_depth(raw) > LIMITS.json_depth:
            raise ValueError(_('nested too deeply'))
        data = json.loads(raw)
    except (binascii.Error, zlib.error, ValueError, UnicodeError, RecursionError, MemoryError):
        raise ExampleError(_(_DAMAGED)) from None
    try:
        return from_data(data)
    except ExampleError as err:
        raise ExampleError(_('this link is invalid: {err}; the example was not changed').format(err=err)) from None
    except (TypeError, ValueError, OverflowError, RecursionError) as err:   # a gap in the checks above
        raise ExampleError(_('this link is invalid ({name}); the example was not changed').format(name=type(err).__name__)) from None


def permalink_params(example: Example) -> dict[str, str]:
    """The URL query parameters that restore ``example`` (empty when it is too large).

    >>> list(permalink_params(Example((Query("q"),))))
    ['ex']
    """
    text = encode(example)
    return {PARAM: text} if len(text) <= LIMITS.url_chars else {}
