"""The app's language.

Every text the app shows goes through `_()` (or `ngettext()` for counts) where it is shown.
A text defined at import time (a module constant, a table of names) is marked with `N_()`
so the extractor finds it, and translated with `_()` where it is shown.

This first version returns English; issue 14 puts gettext catalogs behind the same names.
"""


def _(message: str) -> str:
    """The current session's translation of `message`."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The current session's translation of a text whose form depends on the count `n`."""
    return singular if n == 1 else plural


def N_(message: str) -> str:
    """Mark `message` for extraction only; translate it with `_()` where it is shown."""
    return message
