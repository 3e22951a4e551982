"""The translation hook of ``metrics``' teaching texts (feedback, exercise prompts, pitfalls).

``metrics`` never imports Streamlit, so it cannot know which session asks. Its shown texts go
through :func:`_` and :func:`ngettext` here, which are English until an application installs
its translator with :func:`install` (the app's :mod:`ranklab_ui.core.i18n` does, with a translator that
reads the current session's language). A text defined at import time is marked with
:func:`N_` and translated where it is shown. The API (names, errors of the CLI) stays English.

>>> _("Every number you typed is right.")
'Every number you typed is right.'
>>> ngettext("{n} query", "{n} queries", 2).format(n=2)
'2 queries'
"""

from __future__ import annotations

from collections.abc import Callable

__all__ = ["_", "ngettext", "N_", "install"]

_gettext: Callable[[str], str] = str
_ngettext: Callable[[str, str, int], str] = lambda singular, plural, n: singular if n == 1 else plural  # noqa: E731


def install(gettext: Callable[[str], str], ngettext: Callable[[str, str, int], str]) -> None:
    """Route this package's shown texts through ``gettext`` and ``ngettext``."""
    global _gettext, _ngettext
    _gettext, _ngettext = gettext, ngettext


def _(message: str) -> str:
    """The installed translation of ``message`` (English by default)."""
    return _gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The installed translation of a text whose form depends on the count ``n``."""
    return _ngettext(singular, plural, n)


def N_(message: str) -> str:
    """Mark ``message`` for extraction only; translate it with :func:`_` where it is shown."""
    return message
