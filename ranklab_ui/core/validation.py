"""Validation of an example: every field checked, with a message that says what and where.

:func:`validate` is the one gate every example passes: an edit, a permalink
(:func:`ranklab_ui.core.codec.decode`), a preset file (:mod:`ranklab_ui.core.presets`), a paste. It returns a cleaned
copy or raises :class:`ExampleError`; :data:`LIMITS` says what the app accepts.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from numbers import Integral, Real

from .i18n import N_, _
from .model import MODES, Example, Item, Query

__all__ = ["ExampleError", "Limits", "LIMITS", "UNJUDGED", "validate", "printable", "shown"]


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


class ExampleError(ValueError):
    """An example (a permalink, a preset file) that cannot be used; the message says what and where."""


# text that cannot be shown or sent to the browser: control characters (C0, DEL, C1) and
# lone surrogates (they make the permalink and every Streamlit message fail to encode)
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def shown(value, limit: int = 20) -> str:
    """A short, printable rendering of a bad value for an error message (never fails):
    text quoted and cut, numbers as they are (a huge one only by its size), others by type.

    >>> shown("ab\\x00c"), shown(10**400), shown(2.5), shown([1])
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


def check_text(value, where: str, limit: int, *, allow_empty: bool = False, strip: bool = True) -> str:
    """Printable text of at most ``limit`` characters (stripped unless ``strip=False``)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        value = ""
    if isinstance(value, int | float) and not isinstance(value, bool) and abs(value) < 1e15:
        value = str(value)   # a number typed where text belongs (a label of digits)
    if not isinstance(value, str):
        raise ExampleError(_('{where}: expected text, got {name}').format(where=where, name=type(value).__name__))
    if len(value) > limit + 1000:   # checked before any work on it
        raise ExampleError(_('{where}: {n} characters is too long (at most {limit})').format(where=where, n=f"{len(value):,}", limit=limit))
    stripped = value.strip()
    if strip:
        value = stripped
    if not stripped and not allow_empty:
        raise ExampleError(_('{where}: empty text').format(where=where))
    if len(value) > limit:
        raise ExampleError(_('{where}: {n} characters is too long (at most {limit})').format(where=where, n=f"{len(value):,}", limit=limit))
    bad = _UNPRINTABLE.search(value)
    if bad:
        code = ord(bad.group())
        what = _("a lone surrogate") if 0xD800 <= code <= 0xDFFF else _("a control character")
        raise ExampleError(_('{where}: {what} (U+{code}) at character {value}; only printable text is accepted').format(where=where, what=what, code=f"{code:04X}", value=bad.start() + 1))
    return value


def printable(text: str) -> str:
    """``text`` with every character :func:`validate` refuses (control characters, lone
    surrogates) replaced by U+FFFD, for text from files that is only shown.

    >>> printable("a\\tb\\ud800")
    'a\ufffdb\ufffd'
    """
    return _UNPRINTABLE.sub("\ufffd", text)


class _Where:
    """Where a value is, written out only when a message shows it: an edit of a 100-item list
    validated every item, and naming each one's place (two translations an item) took a third
    of the run's translating for messages that were almost never shown.

    >>> f"{_Where('{where}, position {pos}', where='ranking', pos=3)}: label"
    'ranking, position 3: label'
    """

    __slots__ = ("text", "parts")

    def __init__(self, text: str, **parts) -> None:
        self.text, self.parts = text, parts

    def __str__(self) -> str:
        return _(self.text).format(**{k: str(v) for k, v in self.parts.items()})

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def _doc_id(value, where: str) -> str:
    """A document id: any printable text up to ``LIMITS.id_chars``, kept exactly as given
    (ids in the wild hold ``#``, ``/``, spaces, addresses and every script)."""
    return check_text(value, _Where("{where}: id", where=where), LIMITS.id_chars, strip=False)


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
    ranklab_ui.core.validation.ExampleError: rank 4: grade '1e3' is not allowed: use a whole number from 0 to 10, or ? for unjudged
    """
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return None
    if isinstance(value, str):
        text = value.strip()
        if text in ("", UNJUDGED):
            return None
        if not _WHOLE.fullmatch(text) or int(text) > LIMITS.grade_max:
            raise ExampleError(_('{where}: grade {value} is not allowed: use a whole number from 0 to {grade_max}, or {unjudged} for unjudged').format(where=where, value=shown(value), grade_max=LIMITS.grade_max, unjudged=UNJUDGED))
        return int(text)
    if isinstance(value, bool) or not isinstance(value, Real):
        raise ExampleError(_('{where}: grade {value} is not a number').format(where=where, value=shown(value)))
    if isinstance(value, Integral):   # exact: float() of 10**400 overflows
        ok = 0 <= value <= LIMITS.grade_max
    else:
        try:
            f = float(value)
        except (OverflowError, ValueError):
            f = math.nan
        ok = math.isfinite(f) and f.is_integer() and 0 <= f <= LIMITS.grade_max
    if not ok:
        raise ExampleError(_('{where}: grade {value} is not allowed: use a whole number from 0 to {grade_max}, or {unjudged} for unjudged').format(where=where, value=shown(value), grade_max=LIMITS.grade_max, unjudged=UNJUDGED))
    return int(value)


def _items(items, where: str, seen: set[str]) -> tuple[Item, ...]:
    if not isinstance(items, tuple | list):
        raise ExampleError(_('{where}: expected a list of items, got {name}').format(where=where, name=type(items).__name__))
    if len(items) > LIMITS.items:
        raise ExampleError(_('{where}: {n} items is too many (at most {items})').format(where=where, n=f"{len(items):,}", items=f"{LIMITS.items:,}"))
    out = []
    for pos, item in enumerate(items, start=1):
        at = _Where(N_("{where}, position {pos}"), where=where, pos=pos)
        if not isinstance(item, Item):
            raise ExampleError(_('{at}: expected an item, got {name}').format(at=at, name=type(item).__name__))
        doc = _doc_id(item.id, at)
        if doc in seen:
            raise ExampleError(_('{at}: id {doc} appears twice').format(at=at, doc=shown(doc, 40)))
        seen.add(doc)
        out.append(Item(doc, check_text(item.label, _Where(N_("{at}: label"), at=at), LIMITS.label_chars, allow_empty=True),
                        _grade(item.grade, at)))
    return tuple(out)


def validate(example: Example) -> Example:
    """Check every field of an example and return a cleaned copy, or raise :class:`ExampleError`.

    >>> validate(Example((Query("q", (Item("a", "A", 99),)),)))
    Traceback (most recent call last):
    ...
    ranklab_ui.core.validation.ExampleError: query 1 'q', ranking, position 1: grade 99 is not allowed: use a whole number from 0 to 10, or ? for unjudged
    """
    if not isinstance(example, Example):
        raise ExampleError(_('expected an Example, got {name}').format(name=type(example).__name__))
    if not isinstance(example.queries, tuple | list):
        raise ExampleError(_('the queries must be a list, got {name}').format(name=type(example.queries).__name__))
    if not example.queries:
        raise ExampleError(_('the example needs at least one query'))
    if len(example.queries) > LIMITS.queries:
        raise ExampleError(_('{n} queries is too many (at most {queries})').format(n=len(example.queries), queries=LIMITS.queries))
    if not isinstance(example.mode, str) or example.mode not in MODES:
        raise ExampleError(_("mode must be 'binary' or 'graded', got {mode}").format(mode=shown(example.mode)))
    if isinstance(example.k, bool) or not isinstance(example.k, Integral) or not 1 <= example.k <= LIMITS.k_max:
        raise ExampleError(_('k must be a whole number from 1 to {k_max}, got {k}').format(k_max=LIMITS.k_max, k=shown(example.k)))
    if isinstance(example.current, bool) or not isinstance(example.current, Integral) \
            or not 0 <= example.current < len(example.queries):
        raise ExampleError(_('current query {current} does not exist').format(current=shown(example.current)))
    queries = []
    for n, q in enumerate(example.queries, start=1):
        if not isinstance(q, Query):
            raise ExampleError(_('query {n}: expected a query, got {name}').format(n=n, name=type(q).__name__))
        name = check_text(q.name, _("query {n}: name").format(n=n), LIMITS.name_chars)
        where = _("query {n} {name}").format(n=n, name=shown(name, 30))
        seen: set[str] = set()
        ranking = _items(q.ranking, _("{where}, ranking").format(where=where), seen)
        tray = _items(q.tray, _("{where}, not retrieved").format(where=where), seen)
        groups = None
        if q.groups is not None:
            if len(q.groups) > LIMITS.items:
                raise ExampleError(_('{where}: {n} groups is too many (at most {items})').format(where=where, n=f"{len(q.groups):,}", items=f"{LIMITS.items:,}"))
            groups = []
            for i, g in enumerate(q.groups, start=1):
                if len(g) > LIMITS.items:
                    raise ExampleError(_('{where}, group {i}: {n} ids is too many (at most {items})').format(where=where, i=i, n=f"{len(g):,}", items=f"{LIMITS.items:,}"))
                ids = tuple(_doc_id(d, _("{where}, group {i}").format(where=where, i=i)) for d in g)
                if not ids:
                    raise ExampleError(_('{where}, group {i}: a group needs at least one id').format(where=where, i=i))
                groups.append(ids)
            groups = tuple(groups)
        queries.append(Query(name, ranking, tray, groups))
    return Example(tuple(queries), int(example.k), example.mode, int(example.current))

