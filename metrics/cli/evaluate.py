"""``ranklab evaluate QRELS RUN``: evaluate a run file, with output that diffs against trec_eval."""

from __future__ import annotations

import argparse
import re
import sys
import time

from ..batch import evaluate_batch
from ..io import CLI_MAX_BYTES, DEDUP, FORMATS, detect_format, parse_size, read_qrels, read_run
from ..io.source import FileTooLargeError, format_size
from ..io.writers import write_csv, write_json, write_table, write_trec
from ..measures import Measure, parse, parse_many
from .errors import UsageError

# trec_eval's default measures (its "official" set), as far as Ranklab implements them
# (built from Measure, as every measure string is)
DEFAULT_MEASURES = tuple(str(m) for m in (
    parse_many("NumQ NumRet NumRel NumRelRet AP Rprec Bpref RR")
    + [parse("IPrec@0.5").with_cutoff(i / 10) for i in range(11)]
    + [parse("P@5").with_cutoff(k) for k in (5, 10, 15, 20, 30, 100, 200, 500, 1000)]
))


EXAMPLES = """\
examples:
  ranklab evaluate assets/collection/qrels.txt assets/collection/run_bm25.txt
  ranklab evaluate qrels.txt run.txt -m P@10 -m "nDCG@10 AP" -q --format json
  ranklab evaluate qrels.txt run.txt -m ndcg_cut.5,10 -m map -q > ours.txt
      (diff it against: trec_eval -q -m ndcg_cut.5,10 -m map qrels.txt run.txt)
  ranklab evaluate qrels.txt run.txt -l 2 -M 100 -c          trec_eval's -l, -M and -c
  ranklab evaluate gt.jsonl results.jsonl --id-fields filename,page_number

measures: ir_measures notation (P@10, nDCG(dcg='exp-log2')@10, AP(denominator='retrieved'))
or trec_eval names (P_10, ndcg_cut.5,10, map, recip_rank). Default: trec_eval's default set.
Queries follow trec_eval 9.0.8: only queries both judged and in the run are averaged; with
-c, judged queries missing from the run count as 0. A document retrieved twice for one
query is an error (as in trec_eval) unless --dedup says which line to keep.

input: lines end at \\n, \\r\\n or \\r; a line whose first non-blank character is '#' is a
comment; grades are decimal integers, scores finite decimal numbers (no 0x10, 1_0, inf,
nan); a file larger than --max-bytes (default 4G, plain or once decompressed) is refused.

exit codes: 0 success; 1 bad input data (malformed line, duplicate document); 2 bad usage
(unknown measure, bad option); 3 a file that cannot be read; 130 interrupted.
"""


NAME = "evaluate"
HELP = "evaluate a run file against qrels (trec_eval-compatible output)"
DESCRIPTION = "Evaluate a run against relevance judgments, per query and on average."


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("qrels", metavar="QRELS", help="judgments: TREC qrels, .jsonl, .csv or .tsv (.gz too)")
    p.add_argument("run", metavar="RUN", help="run: TREC run, 'qid docid' list, .jsonl, .csv or .tsv (.gz too)")
    p.add_argument("-m", "--measure", action="append", metavar="MEASURE",
                   help="measure(s) to compute; repeatable (default: trec_eval's default set)")
    p.add_argument("-q", "--per-query", action="store_true", help="also print the value of each query")
    p.add_argument("--format", choices=("trec", "json", "csv", "table"), default="trec",
                   help="output format (default: trec, trec_eval's own layout)")
    p.add_argument("-l", "--level", type=int, metavar="N",
                   help="binary measures count grade >= N as relevant (trec_eval -l; nDCG ignores it)")
    p.add_argument("-c", "--complete", action="store_true",
                   help="judged queries missing from the run count as 0 (trec_eval -c)")
    p.add_argument("-M", "--depth", type=int, metavar="DEPTH",
                   help="evaluate only the first DEPTH documents of each ranking (trec_eval -M)")
    p.add_argument("--dedup", choices=DEDUP, default="error",
                   help="a document retrieved twice for one query: error (default, as trec_eval), "
                        "or keep the first, last or highest-scored line")
    p.add_argument("--qrels-format", choices=[f for f in FORMATS if f != "list"], default="auto")
    p.add_argument("--run-format", choices=FORMATS, default="auto",
                   help="list = two columns 'qid docid' in rank order (auto-detected)")
    p.add_argument("--max-bytes", type=_size, default=CLI_MAX_BYTES, metavar="SIZE",
                   help="refuse a file larger than SIZE, plain or once decompressed (e.g. 500M, 4G; "
                        f"0 = no limit; default {format_size(CLI_MAX_BYTES).replace(' ', '')})")
    p.add_argument("--id-fields", default="filename,page_number", metavar="FIELDS",
                   help="JSONL: fields joined with '#' into a document id (default: filename,page_number)")
    spark = p.add_argument_group("Spark (pip install 'ranklab[spark]'; Java 17)")
    spark.add_argument("--engine", choices=("local", "spark"), default="local",
                       help="local: this process (default); spark: a Spark cluster, for Parquet or "
                            "TREC text files (.gz, .bz2) of any size, local or hdfs:// s3a:// ...")
    spark.add_argument("--master", metavar="URL",
                       help="Spark master: local[4], spark://host:7077, yarn ... (default: the one "
                            "spark-submit set, else local[*])")
    spark.add_argument("--partitions", type=int, metavar="N",
                       help="groups of whole queries evaluated as one task, and shuffle partitions "
                            "(default: about one per million run lines)")


def _size(text: str) -> int | None:
    try:
        return parse_size(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


_TREC_LIST = re.compile(r"^([A-Za-z_]+)\.([0-9.]+(?:,[0-9.]+)*)$")


def measures_from(args) -> list[Measure]:
    """The measures asked for, with -l applied to the binary ones."""
    texts = args.measure or DEFAULT_MEASURES
    expanded: list[str] = []
    for text in texts:
        text = text.strip()
        if text in ("official", "all_trec"):
            expanded += DEFAULT_MEASURES
            continue
        m = _TREC_LIST.match(text)  # trec_eval's -m ndcg_cut.5,10
        if m:
            name = m.group(1).rstrip("_")
            if name == "iprec_at_recall":
                expanded += [f"{name}_{float(v):.2f}" for v in m.group(2).split(",")]
            else:
                expanded += [f"{name}_{v}" for v in m.group(2).split(",")]
        else:
            expanded.append(text)
    try:
        ms = parse_many(expanded)
    except (ValueError, TypeError) as err:  # UnknownMeasureError too: a bad -m is bad usage
        raise UsageError(str(err)) from None
    if args.level is not None:
        if args.level < 1:
            raise UsageError(f"-l must be an integer >= 1, got {args.level}")
        ms = [m.with_params(rel=args.level) if "rel" in m.family.params and m.family.params["rel"] is not None
              and not any(k == "rel" for k, _ in m.params) else m for m in ms]
    if args.depth is not None and args.depth < 1:
        raise UsageError(f"-M must be a positive integer, got {args.depth}")
    return ms


class Progress:
    """Stage messages on stderr, only when stderr is a terminal."""

    def __init__(self):
        self.on = sys.stderr.isatty()
        self.start = time.perf_counter()

    def __call__(self, text: str) -> None:
        if self.on:
            print(f"\r\033[K{text} ({time.perf_counter() - self.start:.1f} s)", end="", file=sys.stderr, flush=True)

    def done(self) -> None:
        if self.on:
            print("\r\033[K", end="", file=sys.stderr, flush=True)


def run(args) -> None:
    ms = measures_from(args)
    if args.engine == "spark":
        from .spark import evaluate_spark

        result, zero, tag = evaluate_spark(args, ms)
    else:
        result, zero, tag = _evaluate_local(args, ms)
    notes = warnings(result, zero)
    for line in notes:
        # ids can be megabytes long: a warning stays readable
        print(f"ranklab: warning: {line if len(line) <= 500 else line[:500] + ' ...'}", file=sys.stderr)
    if not result.per_query:
        print("ranklab: warning: no query is both judged and in the run; nothing to average",
              file=sys.stderr)
    out = sys.stdout
    default = not args.measure
    if args.format == "trec":
        write_trec(out, ms, result, args.per_query, tag if default else None)
    elif args.format == "json":
        write_json(out, result, args.per_query, notes)
    elif args.format == "csv":
        write_csv(out, ms, result, args.per_query)
    else:
        write_table(out, ms, result, args.per_query)


def _evaluate_local(args, ms):
    """(result, judged queries scored 0 by -c, run tag), all in this process."""
    if args.master or args.partitions is not None:
        raise UsageError("--master and --partitions go with --engine spark")
    progress = Progress()
    fields = tuple(f.strip() for f in args.id_fields.split(",") if f.strip())
    jsonl = {"id_fields": fields}
    try:
        progress(f"reading {args.qrels}")
        qrels = read_qrels(args.qrels, format=args.qrels_format, max_bytes=args.max_bytes,
                           **(jsonl if _is_jsonl(args.qrels, args.qrels_format) else {}))
        progress(f"reading {args.run}")
        run_ = read_run(args.run, format=args.run_format, dedup=args.dedup, max_bytes=args.max_bytes,
                        **(jsonl if _is_jsonl(args.run, args.run_format) else {}))
    except FileTooLargeError as err:
        raise ValueError(f"{err}; raise it with --max-bytes SIZE (0 = no limit)") from None
    progress(f"evaluating {len(qrels.queries):,} judged queries, {len(run_):,} run lines")
    result = evaluate_batch(qrels, run_, ms, missing="zero" if args.complete else "skip", depth=args.depth)
    progress.done()
    zero = []
    if args.complete:
        in_run = set(run_.queries)
        zero = [q for q in qrels.queries if q not in in_run]
    return result, zero, run_.tag


def _is_jsonl(path: str, fmt: str) -> bool:
    return fmt == "jsonl" or (fmt == "auto" and detect_format(path) == "jsonl")


def warnings(result, zero_scored: list[str]) -> list[str]:
    """The result's notes, and the judged queries that -c scored 0."""
    out = list(result.warnings)
    if zero_scored:
        shown = ", ".join(zero_scored[:5]) + (", ..." if len(zero_scored) > 5 else "")
        out.append(f"{len(zero_scored)} quer{'y' if len(zero_scored) == 1 else 'ies'} judged but absent from the run "
                   f"scored 0 (-c): {shown}")
    return out
