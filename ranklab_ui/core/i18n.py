"""The app's languages: gettext catalogs and the translation of every text, in the language
of the block (:func:`language`) or of the session. No Streamlit here: the session's side (which
language a session speaks, its link) is :mod:`ranklab_ui.session.language`, the picker
:mod:`ranklab_ui.widgets.language`.

Every text the app shows goes through `_()` (or `ngettext()` for counts) where it is shown.
A text defined at import time (a module constant, a table of names) is marked with `N_()`
so the extractor finds it, and translated with `_()` where it is shown.

The catalogs are ``ranklab_ui/locales/<code>/LC_MESSAGES/messages.po`` (Babel extracts
``messages.pot`` from the code with ``make i18n``; ``make`` compiles each ``.po`` to its
``.mo``). The language is the session's, never the process's: app.py settles it at the top of
every run in the session's :data:`KEY` (``ranklab_ui.session.language.start``), and `_()` reads
it back through the lookup the session layer gives (:func:`use_session`). Outside a Streamlit
run (tests, doctests, exports made in a worker) :func:`language` sets it for a block.

>>> _("Language")
'Language'
>>> with language("fr"):
...     _("Language")
'Langue'
>>> with language("fr"):
...     ngettext("{measure} over {n} query", "{measure} over {n} queries", 3).format(measure="AP", n=3)
'AP sur 3 requêtes'
>>> normalise("FR"), normalise("zh"), normalise("klingon"), normalise(None)
('fr', 'zh', None, None)
"""

from __future__ import annotations

import contextvars
import gettext
import io
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

import metrics._i18n

__all__ = ["_", "ngettext", "N_", "LANGUAGES", "DEFAULT", "PARAM", "KEY", "LOCALEDIR", "DOMAIN",
           "normalise", "from_locale", "use_session", "current_language", "language", "shown"]

LANGUAGES = {"en": "English", "fr": "Français", "ko": "한국어", "zh": "简体中文"}  # each in its own words
DEFAULT = "en"
PARAM = "lang"        # the link's parameter: ?lang=ko
KEY = "i18n.lang"     # session key: this session's language (ranklab_ui.session.language.start)
LOCALEDIR = Path(__file__).resolve().parents[1] / "locales"
DOMAIN = "messages"

T = TypeVar("T")
_override: contextvars.ContextVar[str | None] = contextvars.ContextVar("ranklab_language", default=None)


def normalise(value: object) -> str | None:
    """The supported language code ``value`` names (``"fr"``, ``"FR"``), or None."""
    if not isinstance(value, str):
        return None
    code = value.strip().lower()
    return code if code in LANGUAGES else None


def from_locale(locale: object) -> str:
    """The supported language closest to a browser locale (``"fr-CA"``, ``"zh-Hans-CN"``),
    else English. Traditional Chinese is not Simplified Chinese: it gets English.

    >>> [from_locale(x) for x in ("fr-CA", "ko-KR", "zh-CN", "zh", "zh-TW", "de-DE", "", None, "??")]
    ['fr', 'ko', 'zh', 'zh', 'en', 'en', 'en', 'en', 'en']
    """
    if not isinstance(locale, str) or not locale or len(locale) > 64:
        return DEFAULT
    from babel import Locale, UnknownLocaleError

    try:
        parsed = Locale.parse(locale.replace("_", "-"), sep="-")
    except (ValueError, TypeError, UnknownLocaleError):
        return DEFAULT
    if parsed.language == "zh" and (parsed.script == "Hant"
                                    or (parsed.script is None and parsed.territory in ("TW", "HK", "MO"))):
        return DEFAULT
    return parsed.language if parsed.language in LANGUAGES else DEFAULT


# the running session's state, or None outside a session: the session layer (ranklab_ui.session.state)
# gives the lookup, so that this module, and every text, needs no Streamlit (a notebook, a script)
def _no_session() -> object:
    return None


_session: Callable[[], object] = _no_session


def use_session(lookup: Callable[[], object]) -> None:
    """Read the session's language (:data:`KEY`) from what ``lookup()`` returns: a mapping,
    or None outside a session."""
    global _session
    _session = lookup


def current_language() -> str:
    """The language of this block (:func:`language`), else this session's, else English."""
    code = _override.get()
    if code is not None:
        return code
    session = _session()
    if session is not None:
        try:
            code = session[KEY]
        except (KeyError, AttributeError):
            code = None
        else:
            code = code if isinstance(code, str) and code in LANGUAGES else None
    return code or DEFAULT


@contextmanager
def language(code: str) -> Iterator[str]:
    """Translate into ``code`` (a supported code, else English) inside the block."""
    token = _override.set(normalise(code) or DEFAULT)
    try:
        yield _override.get()
    finally:
        _override.reset(token)


def shown(format_func: Callable[[T], str]) -> Callable[[T], str]:
    """``format_func`` bound to the language of this run, for a widget's ``format_func``:
    Streamlit may call it after the run (AppTest does, from the test's thread), and then
    it must still name the options as this run did.

    >>> with language("fr"):
    ...     level = shown(lambda v: _(v))
    >>> level("Language")
    'Langue'
    """
    code = current_language()

    def in_language(value: T) -> str:
        with language(code):
            return format_func(value)

    return in_language


def _compiled(po: Path) -> bytes:
    """The ``.mo`` bytes of ``po``: the compiled file beside it when it is up to date, else
    compiled now in memory (an edited ``.po`` before ``make`` has run)."""
    mo = po.with_suffix(".mo")
    if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
        return mo.read_bytes()
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalog = read_po(f)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


@lru_cache(maxsize=len(LANGUAGES))
def catalog(code: str) -> gettext.NullTranslations:
    """The translations of ``code`` (English: the texts as written)."""
    po = LOCALEDIR / code / "LC_MESSAGES" / f"{DOMAIN}.po"
    if code == DEFAULT or not po.exists():
        return gettext.NullTranslations()
    return gettext.GNUTranslations(io.BytesIO(_compiled(po)))


def _(message: str) -> str:
    """The current session's translation of `message`."""
    return catalog(current_language()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The current session's translation of a text whose form depends on the count `n`."""
    return catalog(current_language()).ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark `message` for extraction only; translate it with `_()` where it is shown."""
    return message


metrics._i18n.install(_, ngettext)  # metrics' teaching texts follow the session too
