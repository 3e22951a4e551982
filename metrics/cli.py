"""The ``ranklab`` command line.

Each subcommand lives in its own module exposing ``register(subparsers)``, which adds its
parser and sets ``func`` (a callable taking the parsed arguments and returning an exit
code). ``main`` turns every expected error into a one-line message and an exit code,
never a traceback.

Exit codes: 0 success; 1 bad input data (malformed file, duplicate documents ...);
2 bad usage (unknown measure, bad option); 3 a file that cannot be read (missing,
unreadable); 130 interrupted.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys

# modules that provide subcommands, in the order `ranklab --help` lists them
SUBCOMMANDS: tuple[str, ...] = ("metrics.cli_evaluate", "metrics.cli_reader")

EXIT_OK, EXIT_DATA, EXIT_USAGE, EXIT_FILE, EXIT_INTERRUPTED = 0, 1, 2, 3, 130


EXAMPLES = """\
Examples:
  ranklab evaluate assets/collection/qrels.txt assets/collection/run_bm25.txt
  ranklab evaluate qrels.txt run.txt -m P@10 -m nDCG@10 -q --format json
  ranklab COMMAND --help        (each command's options and more examples)

"""


class UsageError(ValueError):
    """A bad option or measure name: exit code 2."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="ranklab",
        description="Ranklab: ranking metrics, checked against trec_eval and explained.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EXAMPLES + "Exit codes:" + __doc__.split("Exit codes:", 1)[1],
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in SUBCOMMANDS:
        importlib.import_module(name).register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stdout)
        return EXIT_OK
    try:
        return int(args.func(args) or 0)
    except KeyboardInterrupt:
        print("ranklab: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except UsageError as err:
        print(f"ranklab: error: {err}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_OK
    except OSError as err:  # missing, a directory, no permission, an I/O error ...
        print(f"ranklab: error: cannot read {err.filename or ''}: {err.strerror or err}", file=sys.stderr)
        return EXIT_FILE
    except (ValueError, TypeError, UnicodeDecodeError) as err:
        print(f"ranklab: error: {err}", file=sys.stderr)
        return EXIT_DATA
    except MemoryError:
        print("ranklab: error: out of memory", file=sys.stderr)
        return EXIT_DATA


def console() -> None:
    """The ``ranklab`` script and ``python -m metrics``: :func:`main`, then exit at once.

    Exiting with ``os._exit`` after flushing skips the interpreter's teardown, where
    pyarrow's worker threads can rarely abort the process after all output was written
    ("terminate called without an active exception", apache/arrow#34314).
    """
    code = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (BrokenPipeError, ValueError):
            pass
    os._exit(code)
