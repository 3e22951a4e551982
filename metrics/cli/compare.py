"""``ranklab compare QRELS RUN1 RUN2 [RUN3 ...]``: compare N systems with significance tests."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..comparison import (
    FORMATS,
    TESTS,
    compare_systems,
    topics_needed,
    write_csv,
    write_json,
    write_latex,
    write_table,
)
from ..io import CLI_MAX_BYTES, read_qrels, read_run
from ..io.source import FileTooLargeError
from ..measures import parse_many
from ..stats import CORRECTIONS
from .errors import UsageError

NAME = "compare"
HELP = "compare two or more runs: means with CIs, paired tests, corrections, Tukey's HSD"
DESCRIPTION = ("Compare runs on the same judged topics. For each measure: each system's mean with a seeded "
               "percentile-bootstrap CI; for each pair the mean delta and its CI, Cohen's d_z, the paired t-test, "
               "Wilcoxon signed-rank (SciPy's defaults), Fisher's randomization test (exact up to 13 topics), "
               "Tukey's HSD over all systems, and p-values corrected over the pairs.")
EXAMPLES = """\
examples:
  ranklab compare assets/collection/qrels.txt assets/collection/run_bm25.txt assets/collection/run_tf.txt \\
      -m "AP nDCG@10"
  ranklab compare qrels.txt a.txt b.txt c.txt -m AP --test randomization --correction bh --format latex
  ranklab compare qrels.txt a.txt b.txt -m nDCG@10 --topics-needed

Topics judged in the qrels but missing from a run score 0 in that run (trec_eval -c), so every
system is measured on the same topics. Systems are named by their file names (--names to change).
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("qrels", metavar="QRELS", help="judgments: TREC qrels, .jsonl, .csv or .tsv (.gz too)")
    p.add_argument("runs", metavar="RUN", nargs="+", help="two or more runs")
    p.add_argument("-m", "--measure", action="append", metavar="MEASURE",
                   help='measure(s), e.g. -m "AP nDCG@10"; repeatable (default: AP nDCG@10)')
    p.add_argument("--names", metavar="A,B,...", help="names of the runs, comma-separated (default: file names)")
    p.add_argument("--format", choices=FORMATS, default="table")
    p.add_argument("--test", choices=TESTS, default="t",
                   help="the test that marks significance (default: t); all are computed and shown")
    p.add_argument("--correction", choices=CORRECTIONS + ("none",), default="holm",
                   help="correction over the pairs of each measure (default: holm; Tukey needs none)")
    p.add_argument("--alpha", type=float, default=0.05, help="significance level (default 0.05)")
    p.add_argument("--resamples", type=int, default=10_000, help="bootstrap resamples (default 10000)")
    p.add_argument("--rounds", type=int, default=10_000,
                   help="randomization test: sign patterns drawn when 2^topics is larger (default 10000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the bootstrap and randomization (default 0)")
    p.add_argument("--topics-needed", action="store_true",
                   help="also estimate (bootstrap) how many topics the t-test needs to detect each delta")


def run(args) -> None:
    if len(args.runs) < 2:
        raise UsageError("compare needs QRELS and at least two runs")
    if not 0 < args.alpha < 1:
        raise UsageError(f"--alpha must be between 0 and 1, got {args.alpha}")
    for flag, value, top in (("--resamples", args.resamples, 1_000_000), ("--rounds", args.rounds, 10_000_000)):
        if not 1 <= value <= top:
            raise UsageError(f"{flag} must be between 1 and {top:,}, got {value}")
    if not 0 <= args.seed < 2**32:
        raise UsageError(f"--seed must be between 0 and 2^32 - 1, got {args.seed}")
    names = [n.strip() for n in args.names.split(",")] if args.names else [Path(Path(r).name.removesuffix('.gz')).stem for r in args.runs]
    if len(names) != len(args.runs):
        raise UsageError(f"--names gives {len(names)} names for {len(args.runs)} runs")
    bad = next((n for n in names if not n.isprintable()), None)
    if bad is not None:
        raise UsageError(f"run name {bad!r} has a control character; name the runs with --names")
    if len(set(names)) != len(names) or not all(names):
        raise UsageError("each run needs its own non-empty name (two files share a name: use --names)")
    measures = " ".join(args.measure) if args.measure else "AP nDCG@10"
    try:
        parse_many(measures)
    except (ValueError, TypeError) as err:
        raise UsageError(str(err)) from None
    try:
        qrels = read_qrels(args.qrels, max_bytes=CLI_MAX_BYTES)
        runs = {n: read_run(r, max_bytes=CLI_MAX_BYTES) for n, r in zip(names, args.runs, strict=True)}
    except FileTooLargeError as err:
        raise ValueError(str(err)) from None
    c = compare_systems(qrels, runs, measures, alpha=args.alpha, test=args.test, correction=args.correction,
                        resamples=args.resamples, rounds=args.rounds, seed=args.seed)
    for w in c.warnings:
        print(f"ranklab: warning: {w if len(w) <= 500 else w[:500] + ' ...'}", file=sys.stderr)
    out = sys.stdout
    {"table": write_table, "latex": write_latex, "json": write_json, "csv": write_csv}[args.format](out, c)
    if args.topics_needed and len(c.queries) >= 2:
        print("\ntopics needed for the paired t-test to find each delta 80% of the time "
              f"(bootstrap from these {len(c.queries)} topics, alpha {args.alpha}):", file=out)
        for m in c.measures:
            for p in c.results[m].pairs:
                t = topics_needed(p.deltas, alpha=args.alpha, seed=args.seed)
                need = f"about {t.needed}" if t.needed else f"more than {t.sizes[-1]}"
                print(f"  {m}: {c.names[p.j]} - {c.names[p.i]} ({p.delta:+.4f}): {need}", file=out)
