"""``ranklab diagnose QRELS RUN --theirs FILE|VALUE|TOOL -m MEASURE``: why another tool's numbers differ."""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from pathlib import Path

from ..io import CLI_MAX_BYTES, FORMATS, parse_size, read_qrels, read_run
from ..io.source import format_size
from ..io.theirs import MAX_THEIRS_BYTES, Theirs, number, read_theirs
from ..measures import parse_many
from ..teaching import diagnose as dg
from .errors import UsageError

NAME = "diagnose"
HELP = "find the conventions that make Ranklab print another tool's numbers"
DESCRIPTION = ("Search the named conventions (tie order, float32 scores, gain, ideal list, AP denominator, "
               "duplicates, identical ids, missing queries, relevance level, -M, flattened queries) for the set "
               "that reproduces another tool's numbers, and name per query the convention that moved the value.")
EXAMPLES = f"""\
examples:
  ranklab diagnose qrels.txt run.txt -m nDCG@10 --theirs their_trec_eval_q.txt
  ranklab diagnose qrels.txt run.txt -m AP --theirs 0.4381
  ranklab diagnose qrels.txt run.txt -m AP --theirs sklearn        (what sklearn would do differently)
  ranklab diagnose qrels.txt run.txt -m RR --theirs pytrec.json --format json

--theirs: a number (their aggregate; 41.4% works), a tool name ({', '.join(dg.TOOLS)}), or a file:
  trec_eval -q output ('measure qid value'; the 'all' line is the aggregate), JSON {{qid: value}}
  or {{qid: {{measure: value}}}} (an inner value of another measure is refused), ranklab evaluate
  --format json's output, or CSV 'qid,value' (a header line is allowed).
A number matches within the precision it was printed with, in every form (0.4167: within 0.00005).

search: trec_eval's defaults first, then each convention alone, then pairs of the {dg.MAX_PAIRED}
best single changes, then a greedy walk adding one change at a time (at most {dg.MAX_CHANGES}
changes, at most {dg.MAX_EVALUATIONS} convention sets in all).

exit codes: 0 success (reproduced or not: see the verdict); 1 bad input data; 2 bad usage;
3 a file that cannot be read.
"""
MAX_SHOWN_ROWS = 40
MAX_PATH = 4096  # characters of a file name given to --theirs (Linux's PATH_MAX)
_NUMBER_LIKE = re.compile(r"[+-]?[\d.]+(?:[eE][+-]?\d+)?%?")


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("qrels", metavar="QRELS", help="judgments: TREC qrels, .jsonl, .csv or .tsv (.gz too)")
    p.add_argument("run", metavar="RUN", help="run: TREC run, 'qid docid' list, .jsonl, .csv or .tsv (.gz too); "
                                              "duplicates are kept, each way of resolving them is tried")
    p.add_argument("--theirs", required=True, metavar="FILE|VALUE|TOOL",
                   help="their numbers (a file or one value) or a tool's name")
    p.add_argument("-m", "--measure", required=True, metavar="MEASURE",
                   help="the one measure their numbers are for (nDCG@10, map, ndcg_cut_10 ...)")
    p.add_argument("--format", choices=("text", "json"), default="text")
    p.add_argument("--all", action="store_true", help="list every query, not only those that differ")
    p.add_argument("--qrels-format", choices=[f for f in FORMATS if f != "list"], default="auto")
    p.add_argument("--run-format", choices=FORMATS, default="auto")
    p.add_argument("--max-bytes", type=_size, default=CLI_MAX_BYTES, metavar="SIZE",
                   help=f"refuse a file larger than SIZE (default {format_size(CLI_MAX_BYTES).replace(' ', '')})")


def _size(text: str) -> int | None:
    try:
        return parse_size(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def theirs_from(text: str, measure) -> tuple[Theirs | None, str | None]:
    """``--theirs``: (their numbers, None) or (None, a tool's name)."""
    if not text.strip():
        raise UsageError(f"--theirs is empty: give a number, a tool name ({', '.join(dg.TOOLS)}) or a file")
    if dg.tool_name(text):
        return None, dg.tool_name(text)
    try:
        return Theirs(aggregate=number(text, "--theirs")), None
    except ValueError:
        pass
    shown = repr(text[:60]) + (f" ({len(text):,} characters)" if len(text) > 60 else "")
    if len(text.strip()) > 40 and _NUMBER_LIKE.fullmatch(text.strip()):
        # digits no tool prints (a number is read up to 40 characters) are not taken for a file name
        raise UsageError(f"--theirs: {shown} is too long for a number (at most 40 characters)")
    if len(text) > MAX_PATH:
        raise UsageError(f"--theirs: {shown} is too long for a file name (at most {MAX_PATH:,} characters)")
    path = Path(text)
    try:
        exists = path.exists()
    except (OSError, ValueError):  # a name the system cannot look up (too long a component, a NUL)
        exists = False
    if not exists:
        raise UsageError(f"--theirs: {shown} is not a number, a tool name ({', '.join(dg.TOOLS)}) "
                         "or an existing file")
    if path.is_dir():
        raise IsADirectoryError(21, "Is a directory", text)
    if path.stat().st_size > MAX_THEIRS_BYTES:
        raise ValueError(f"{text}: larger than {MAX_THEIRS_BYTES // (1024 * 1024)} MB")
    return read_theirs(path.read_bytes(), text, measure), None


def run(args) -> None:
    try:
        measures = parse_many(args.measure)
    except (ValueError, TypeError) as err:
        raise UsageError(str(err)) from None
    if len(measures) != 1:
        raise UsageError(f"-m: give exactly one measure, got {len(measures)}")
    m = measures[0]
    theirs, tool = theirs_from(args.theirs, m)
    qrels = read_qrels(args.qrels, format=args.qrels_format, max_bytes=args.max_bytes)
    run_ = read_run(args.run, format=args.run_format, dedup=None, max_bytes=args.max_bytes)
    d = dg.diagnose(qrels, run_, m, theirs=theirs, tool=tool)
    if args.format == "json":
        json.dump(dg.to_dict(d), sys.stdout, indent=2, ensure_ascii=False)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(text_report(d, every=args.all))


def _fmt(x) -> str:
    if x is None:
        return "-"
    if isinstance(x, float) and not math.isfinite(x):
        return str(x)
    return f"{0.0 if abs(x) < 5e-5 else x:.4f}"  # never "-0.0000"


def text_report(d: dg.Diagnosis, *, every: bool = False) -> str:
    """The plain-text report of a diagnosis (what the CLI prints)."""
    lines = [f"measure: {d.measure}", f"verdict: {d.verdict}"]
    if d.changes:
        lines.append("conventions (changed from trec_eval's defaults):")
        width = max(len(str(c)) for c in d.changes)
        lines += [f"  {str(c):<{width}}  {c.convention.title}: {c.option.label}" for c in d.changes]
    for alt in d.alternatives[1:6]:
        lines.append("  or: " + ", ".join(str(c) for c in alt))
    their_agg = d.theirs.aggregate.text if d.theirs is not None and d.theirs.aggregate else "-"
    label = "theirs" if d.tool is None or d.theirs is not None else d.tool
    lines.append(f"aggregate: ranklab {_fmt(d.baseline.aggregate)}   {label} "
                 f"{their_agg if d.theirs is not None else _fmt(d.found.aggregate)}   "
                 f"with the conventions {_fmt(d.found.aggregate)}")
    rows = d.rows if every else tuple(r for r in d.rows if r.ours != r.found or r.matches is False)
    if rows:
        shown = rows[:MAX_SHOWN_ROWS]
        if d.theirs is None:  # a tool's view: its values are the ones found
            head = ("query", "ranklab", d.tool or "", "moved by")
            table = [head] + [(r.qid[:30], _fmt(r.ours), _fmt(r.found), ", ".join(r.moved_by) or "-")
                              for r in shown]
        else:
            head = ("query", "ranklab", "theirs", "found", "residual", "moved by")
            table = [head] + [(r.qid[:30], _fmt(r.ours), r.theirs.text if r.theirs else "-", _fmt(r.found),
                               _fmt(r.residual) if r.residual is not None else "-",
                               ", ".join(r.moved_by) or ("(no match)" if r.matches is False else "-"))
                              for r in shown]
        widths = [max(len(row[i]) for row in table) for i in range(len(head))]
        lines.append(f"per query ({len(rows)} differ{'s' if len(rows) == 1 else ''}):" if not every
                     else f"per query ({len(rows)}):")
        lines += ["  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
                  for row in table]
        if len(rows) > len(shown):
            lines.append(f"  ... and {len(rows) - len(shown)} more (--format json lists them all)")
    elif d.theirs is not None and d.theirs.per_query:
        lines.append("per query: every query matches")
    lines.append(f"searched: {d.evaluations} convention set{'s' if d.evaluations != 1 else ''}")
    lines += [f"note: {n}" for n in d.notes]
    return "\n".join(lines) + "\n"
