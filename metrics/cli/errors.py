"""The errors a subcommand raises for :func:`metrics.cli.main` to turn into an exit code.

Bad data is a ``ValueError``/``TypeError`` and an unreadable file an ``OSError``, as
everywhere in :mod:`metrics`; only a bad option needs a class of its own.
"""

from __future__ import annotations

__all__ = ["UsageError"]


class UsageError(ValueError):
    """A bad option or measure name: exit code 2 (``EXIT_USAGE``)."""
