"""The errors a subcommand raises for :func:`metrics.cli.main` to turn into an exit code.

Bad data is a ``ValueError``/``TypeError`` and an unreadable file an ``OSError``, as
everywhere in :mod:`metrics`; only a bad option and a failed write need classes of their own.
A ``ValueError`` or ``TypeError`` that no ``raise`` of Ranklab's own made (Python's
``'>=' not supported ...``, numpy's shape errors) is not the user's data at fault but a bug,
and :func:`internal` tells the two apart so that the user is not told to fix good input.
"""

from __future__ import annotations

import linecache
from pathlib import Path

__all__ = ["UsageError", "WriteError", "internal"]

_PACKAGE = str(Path(__file__).resolve().parent.parent)


class UsageError(ValueError):
    """A bad option: exit code 2 (``EXIT_USAGE``), as a bad measure name is
    (:class:`metrics.trec_args.MeasureArgumentError`)."""


class WriteError(OSError):
    """An output file that cannot be written (exit code 3, ``EXIT_FILE``, reported as a write)."""


def internal(err: BaseException) -> bool:
    """Whether ``err`` (a ``ValueError`` or ``TypeError``) is a bug rather than bad input: True
    unless the innermost frame of its traceback is a ``raise`` statement in :mod:`metrics`.

    >>> try:
    ...     1 >= None  # Python's own TypeError, outside any check of Ranklab's
    ... except TypeError as e:
    ...     internal(e)
    True
    """
    tb = err.__traceback__
    if tb is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    filename = str(Path(tb.tb_frame.f_code.co_filename).resolve())
    if not filename.startswith(_PACKAGE):
        return True
    return not linecache.getline(filename, tb.tb_lineno).lstrip().startswith("raise")
