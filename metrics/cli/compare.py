"""``ranklab compare QRELS RUN1 RUN2 [RUN3 ...]``: compare N systems with significance tests."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Mapping
from pathlib import Path

from ..comparison import (
    ALPHA,
    CORRECTION,
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
from ..stats import CORRECTIONS, RESAMPLES, ROUNDS, SEED
from .errors import UsageError

MAX_PAIRS = 20_000  # pairs tested at once without --baseline (200 runs make 19,900)
MAX_RUNS = 200

NAME = "compare"
HELP = "compare two or more runs: means with CIs, paired tests, corrections, Tukey's HSD"
DESCRIPTION = ("Compare runs on the same judged topics. For each measure: each system's mean with a seeded "
               "percentile-bootstrap CI; for each pair the mean delta and its CI, Cohen's d_z, the paired t-test, "
               "Wilcoxon signed-rank (SciPy's defaults), Fisher's randomization test (exact up to 13 topics), "
               "Tukey's HSD over all systems, and p-values corrected over the pairs.")
EXAMPLES = f"""\
examples:
  ranklab compare assets/collection/qrels.txt assets/collection/run_bm25.txt assets/collection/run_tf.txt \\
      -m "AP nDCG@10"
  ranklab compare qrels.txt a.txt b.txt c.txt -m AP --test randomization --correction bh --format latex
  ranklab compare qrels.txt a.txt b.txt -m nDCG@10 --topics-needed

Topics judged in the qrels but missing from a run score 0 in that run (trec_eval -c), so every
system is measured on the same topics. Systems are named by their file names (--names to change).

Many runs: every pair is tested up to {MAX_PAIRS:,} pairs ({MAX_RUNS} runs). Beyond that ranklab
refuses unless --baseline NAME is given: each run is then tested against that one run only
(N - 1 pairs; Tukey's HSD still spans every run). Runs are read and evaluated one at a time (one
run in memory at once). A progress bar is shown on stderr when it is a terminal, or with --progress.
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
    p.add_argument("--correction", choices=CORRECTIONS + ("none",), default=CORRECTION,
                   help="correction over the pairs of each measure (default: %(default)s; Tukey needs none)")
    p.add_argument("--alpha", type=float, default=ALPHA, help="significance level (default %(default)s)")
    p.add_argument("--resamples", type=int, default=RESAMPLES, help="bootstrap resamples (default %(default)s)")
    p.add_argument("--rounds", type=int, default=ROUNDS,
                   help="randomization test: sign patterns drawn when 2^topics is larger (default %(default)s)")
    p.add_argument("--seed", type=int, default=SEED,
                   help="seed of the bootstrap and randomization (default %(default)s)")
    p.add_argument("--topics-needed", action="store_true",
                   help="also estimate (bootstrap) how many topics the t-test needs to detect each delta")
    p.add_argument("--baseline", metavar="NAME",
                   help="test each run against this run only (its name, as --names or the file name gives it)")
    p.add_argument("--progress", action="store_true",
                   help="show a progress bar on stderr even when it is not a terminal")


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
    if args.baseline is not None and args.baseline not in names:
        shown = args.baseline if len(args.baseline) <= 60 else args.baseline[:60] + "..."
        raise UsageError(f"--baseline {shown!r} is not the name of a run (names: {', '.join(names[:5])}"
                         f"{', ...' if len(names) > 5 else ''})")
    pairs = len(names) * (len(names) - 1) // 2
    if args.baseline is None and pairs > MAX_PAIRS:
        raise UsageError(f"{len(names):,} runs make {pairs:,} pairs; every pair is tested for at most "
                         f"{MAX_PAIRS:,} pairs ({MAX_RUNS} runs). Give --baseline NAME to test each run against "
                         "one run, or compare fewer runs")
    try:
        qrels = read_qrels(args.qrels, max_bytes=CLI_MAX_BYTES)
        runs = _Runs(dict(zip(names, args.runs, strict=True)))
        bar = _Progress(sys.stderr) if args.progress or _is_terminal(sys.stderr) else None
        try:
            c = compare_systems(qrels, runs, measures, alpha=args.alpha, test=args.test,
                                correction=args.correction, resamples=args.resamples, rounds=args.rounds,
                                seed=args.seed, baseline=args.baseline, progress=bar)
        finally:  # an error's message then starts on a line of its own
            if bar is not None:
                bar.close()
    except FileTooLargeError as err:
        raise ValueError(str(err)) from None
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


class _Runs(Mapping):
    """Run files by name, each read when asked and not kept: one run in memory at a time."""

    def __init__(self, files: dict[str, str]):
        self._files = files

    def __getitem__(self, name: str):
        return read_run(self._files[name], max_bytes=CLI_MAX_BYTES)

    def __iter__(self):
        return iter(self._files)

    def __len__(self) -> int:
        return len(self._files)


def _is_terminal(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


class _Progress:
    """One line on stderr, redrawn at most ten times a second: what is being done, a bar, counts."""

    WIDTH = 30

    def __init__(self, stream):
        self._stream = stream
        self._last = 0.0
        self._shown = False

    def __call__(self, stage: str, done: int, total: int) -> None:
        now = time.monotonic()
        if done < total and now - self._last < 0.1:
            return
        self._last = now
        what = "reading runs" if stage == "runs" else f"testing pairs, {stage[:40]}"
        filled = self.WIDTH * done // max(total, 1)
        self._stream.write(f"\rranklab: {what} [{'#' * filled}{'.' * (self.WIDTH - filled)}] {done:,}/{total:,} ")
        self._stream.flush()
        self._shown = True

    def close(self) -> None:
        if self._shown:
            self._stream.write("\n")
            self._stream.flush()
