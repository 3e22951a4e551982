"""The ``ranklab`` command line.

Each subcommand lives in its own module of this package (:mod:`.evaluate`, :mod:`.compare`,
:mod:`.fuse`, :mod:`.qa`),
which declares its ``NAME``, ``HELP``, ``DESCRIPTION`` and ``EXAMPLES``, adds its options in
``add_arguments(parser)`` and does the work in ``run(args)`` (which returns nothing on
success and raises on failure). The subcommands never import this module back: ``main`` alone turns every expected error into
a one-line message and one of the exit codes below, never a traceback.

Exit codes: 0 success; 1 bad input data (malformed file, duplicate documents ...);
2 bad usage (unknown measure, bad option); 3 a file that cannot be read (missing,
unreadable) or an output that cannot be written; 4 an internal error (a bug in Ranklab,
not in the input: please report it); 130 interrupted.
"""

from __future__ import annotations

import argparse
import os
import sys
from importlib import import_module

from ..trec_args import MeasureArgumentError
from .errors import UsageError, WriteError, internal

__all__ = ["main", "console", "build_parser", "UsageError", "EXIT_OK", "EXIT_DATA", "EXIT_USAGE",
           "EXIT_FILE", "EXIT_INTERNAL", "EXIT_INTERRUPTED"]

# the modules that provide subcommands, by command name, in the order `ranklab --help` lists
# them; imported when needed, so that `ranklab evaluate` does not pay for the others' imports
SUBCOMMANDS = {"evaluate": "evaluate", "compare": "compare", "diagnose": "diagnose", "fuse": "fuse", "reader": "qa"}

EXIT_OK, EXIT_DATA, EXIT_USAGE, EXIT_FILE, EXIT_INTERNAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 4, 130


EXAMPLES = """\
Examples:
  ranklab evaluate assets/collection/qrels.txt assets/collection/run_bm25.txt
  ranklab evaluate qrels.txt run.txt -m P@10 -m nDCG@10 -q --format json
  ranklab compare qrels.txt a.txt b.txt c.txt -m "AP nDCG@10" --format latex
  ranklab fuse a.txt b.txt --method rrf --k 60 -o fused.txt
  ranklab diagnose qrels.txt run.txt -m nDCG@10 --theirs their_numbers.txt
  ranklab COMMAND --help        (each command's options and more examples)

"""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand, or of the one named ``only`` (what ``main`` builds
    when the command line starts with a subcommand's name)."""
    parser = argparse.ArgumentParser(
        prog="ranklab",
        description="Ranklab: ranking metrics, checked against trec_eval and explained.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EXAMPLES + "Exit codes:" + __doc__.split("Exit codes:", 1)[1],
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, module in SUBCOMMANDS.items():
        if only not in (None, name):
            continue
        module = import_module(f".{module}", __name__)
        p = sub.add_parser(module.NAME, help=module.HELP, description=module.DESCRIPTION,
                           formatter_class=argparse.RawDescriptionHelpFormatter, epilog=module.EXAMPLES)
        module.add_arguments(p)
        p.set_defaults(func=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else argv
    parser = build_parser(words[0] if words and words[0] in SUBCOMMANDS else None)
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help(sys.stdout)
        return EXIT_OK
    try:
        args.func(args)
        return EXIT_OK
    except KeyboardInterrupt:
        print("ranklab: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except (UsageError, MeasureArgumentError) as err:  # a bad option, a bad -m
        print(f"ranklab: error: {err}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        return EXIT_OK
    except OSError as err:  # missing, a directory, no permission, a full disk, an I/O error ...
        verb = "write" if isinstance(err, WriteError) else "read"
        print(f"ranklab: error: cannot {verb} {err.filename or ''}: {err.strerror or err}", file=sys.stderr)
        return EXIT_FILE
    except UnicodeDecodeError as err:
        print(f"ranklab: error: {err}", file=sys.stderr)
        return EXIT_DATA
    except (ValueError, TypeError) as err:
        if internal(err):
            return _internal(err)
        print(f"ranklab: error: {err}", file=sys.stderr)
        return EXIT_DATA
    except MemoryError:
        print("ranklab: error: out of memory", file=sys.stderr)
        return EXIT_DATA
    except Exception as err:  # noqa: BLE001 - a bug: one line and its own exit code, not a traceback
        return _internal(err)


def _internal(err: BaseException) -> int:
    text = str(err)
    text = text if len(text) <= 300 else text[:300] + " ..."
    print(f"ranklab: internal error: {type(err).__name__}: {text} (a bug in Ranklab, not in your files: "
          "please report it with the command line)", file=sys.stderr)
    return EXIT_INTERNAL


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
