"""``ranklab fuse RUN1 RUN2 ...``: fuse runs by RRF, CombSUM or CombMNZ into one TREC run."""

from __future__ import annotations

import argparse
import math
import os
import sys

from ..fusion import METHODS, NORMS, fuse, write_trec_run
from ..io import CLI_MAX_BYTES, read_run
from ..io.source import FileTooLargeError
from .errors import UsageError, WriteError

NAME = "fuse"
HELP = "fuse two or more runs (reciprocal rank fusion, CombSUM, CombMNZ) into a TREC run"
DESCRIPTION = ("Fuse runs into one, written in TREC format (qid Q0 doc rank score tag) and evaluated like any "
               "other run. rrf: score = sum over runs of 1/(k + rank), ranks from 1 (with k = 60 a run adds at "
               "most 1/61 = 0.0164 and, at depth D, at least 1/(60 + D)); combsum: the sum of each run's "
               "per-query normalised scores; combmnz: that sum times the number of runs that retrieved the "
               "document.")
EXAMPLES = """\
examples:
  ranklab fuse assets/collection/run_bm25.txt assets/collection/run_tf.txt -o fused.txt
  ranklab fuse a.txt b.txt c.txt --method combmnz --norm zscore -o fused.txt
  ranklab evaluate assets/collection/qrels.txt fused.txt -m "AP nDCG@10"
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("runs", metavar="RUN", nargs="+", help="two or more runs (TREC, list, .jsonl, .csv; .gz too)")
    p.add_argument("--method", choices=METHODS, default="rrf", help="default: rrf")
    p.add_argument("--k", type=float, default=60.0, help="RRF's constant k >= 0 (default 60)")
    p.add_argument("--norm", choices=NORMS, default="minmax",
                   help="CombSUM/CombMNZ score normalisation per query (default: minmax)")
    p.add_argument("--depth", type=int, default=1000, help="documents kept per query (default 1000)")
    p.add_argument("--tag", default=None, help="run tag of the output (default: the method's name)")
    p.add_argument("-o", "--output", metavar="OUT", help="write the fused run here (default: standard output)")


def run(args) -> None:
    if len(args.runs) < 2:
        raise UsageError("fuse needs at least two runs")
    if not math.isfinite(args.k) or args.k < 0:
        raise UsageError(f"--k must be a finite number >= 0, got {args.k}")
    if args.depth < 1:
        raise UsageError(f"--depth must be a positive integer, got {args.depth}")
    tag = args.tag or f"fused-{args.method}"
    if any(ch.isspace() for ch in tag):
        raise UsageError(f"--tag must be one word, got {tag!r}")
    if args.output and any(_same_file(args.output, r) for r in args.runs):
        raise UsageError(f"-o {_shown(args.output)} is one of the runs to fuse: it would be overwritten; "
                         "write the fused run elsewhere")
    try:
        runs = [read_run(r, max_bytes=CLI_MAX_BYTES) for r in args.runs]
    except FileTooLargeError as err:
        raise ValueError(str(err)) from None
    fused = fuse(runs, method=args.method, k=args.k, norm=args.norm, depth=args.depth)
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8", newline="\n") as out:
                write_trec_run(out, fused, tag)
        except OSError as err:  # a missing folder, no permission, a full disk: a write, not a read
            raise WriteError(err.errno, err.strerror or str(err), _shown(args.output)) from None
        n = sum(len(v) for v in fused.values())
        print(f"ranklab: wrote {n} lines for {len(fused)} queries to {args.output}", file=sys.stderr)
    else:
        write_trec_run(sys.stdout, fused, tag)


def _same_file(output: str, run: str) -> bool:
    """Whether writing ``output`` would overwrite ``run`` (the same file by any path or link)."""
    try:
        return os.path.samefile(output, run)
    except (OSError, ValueError):  # either is missing (nothing to overwrite) or not a valid path
        return False


def _shown(path: str, limit: int = 200) -> str:
    return path if len(path) <= limit else path[:limit] + "..."
