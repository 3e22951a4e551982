"""The ``ranklab`` command line (minimal until the CLI issue lands)."""

from __future__ import annotations

import argparse
import sys

from . import __doc__ as _doc


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="ranklab", description=(_doc or "").splitlines()[0])
    parser.parse_args(argv)
    parser.print_help(sys.stdout)
    return 0
