"""``python -m metrics`` is the ``ranklab`` command."""

from .cli import console

console()
