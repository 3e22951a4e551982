"""``python -m metrics`` is the ``ranklab`` command."""

from .cli import main

raise SystemExit(main())
