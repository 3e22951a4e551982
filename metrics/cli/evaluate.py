"""``ranklab evaluate QRELS RUN``: evaluate a run file, with output that diffs against trec_eval."""

from __future__ import annotations

import argparse
import os
import sys
import time
from types import SimpleNamespace

from ..batch import (
    evaluate_groups,
    evaluate_prefs,
    evaluate_prepared,
    evaluate_stream,
    prepare_batch,
    relstrings,
)
from ..core import evaluate
from ..io import (
    CLI_MAX_BYTES,
    DEDUP,
    FORMATS,
    detect_format,
    parse_size,
    read_qrels,
    read_qrels_jg,
    read_run,
)
from ..io.prefs import read_prefs, read_qrels_prefs
from ..io.source import FileTooLargeError, format_size
from ..io.stream import COMPRESSION_RATIO, STREAM_THRESHOLD, RunStream, should_stream
from ..io.subtopics import read_subtopic_qrels
from ..io.zscores import read_zscores
from ..measures import parse_many
from ..ranking.preferences import PREF_FAMILIES
from ..report import OUTPUT_FORMATS, as_printed, as_zscores, notes, trec_summary_overrides, write
from ..trec_args import Asked, expand, read_asked
from .errors import UsageError

# trec_eval's default measures (its "official" set: runid is printed, not computed)
DEFAULT_MEASURES = tuple(str(m) for m in parse_many([t for t in expand("official") if t != "runid"]))


EXAMPLES = """\
examples:
  ranklab evaluate assets/collection/qrels.txt assets/collection/run_bm25.txt
  ranklab evaluate qrels.txt run.txt -m P@10 -m "nDCG@10 AP" -q --format json
  ranklab evaluate qrels.txt run.txt -m ndcg_cut.5,10 -m map -q > ours.txt
      (diff it against: trec_eval -q -m ndcg_cut.5,10 -m map qrels.txt run.txt)
  ranklab evaluate qrels.txt run.txt -l 2 -M 100 -c -J       trec_eval's -l, -M, -c and -J
  ranklab evaluate qrels.txt run.txt -m all_trec -q         every trec_eval 9.0.8 measure
  ranklab evaluate qrels.txt run.txt -m all_trec --trec-eval-version 10.0   10.0's (rbp, unj ...)
  ranklab evaluate qrels.txt run.txt -m map -m P.10 -q -Z zscores.txt        trec_eval's -Z
  ranklab evaluate qrels.txt run.txt -m ndcg.1=3.5,2=7 -m set_F.0.5 -m P
  ranklab evaluate gt.jsonl results.jsonl --id-fields filename,page_number
  ranklab evaluate -R prefs prefs.txt run.txt -m all_prefs -q   trec_eval's preference measures
  ranklab evaluate -R qrels_prefs qrels.txt run.txt -m prefs_simp -m prefs_pair

measures: ir_measures notation (P@10, nDCG(dcg='exp-log2')@10, AP(denominator='retrieved'),
nDCG(gains='1=3.5,2=7')) or trec_eval names and parameters (P_10, ndcg_cut.5,10, map,
recip_rank, ndcg.1=3.5,2=7, set_F.0.5, 11pt_avg.0.0,0.5,1.0, utility.1,-1,0,0, relstring.20),
printed under trec_eval's labels (ndcg_1=3.5,2=7, set_F_0.5 ...); trec_eval 10.0's rbp
(rbp.p=0.95), rbp_resid and unj too (Ranklab's own RBP is another measure).
A bare trec_eval family gives its default cutoffs (-m P: P_5 ... P_1000; -m recall,
map_cut, ndcg_cut, relative_P, success, iprec_at_recall, Rprec_mult likewise); the
nicknames official (the default), all_trec and set give trec_eval 9.0.8's sets; qrels_jg,
prefs and all_prefs its sets for -R qrels_jg and -R prefs / qrels_prefs.
preferences (-R prefs: 'qid jg jsg docid level' lines; -R qrels_prefs: a qrels file, its
second column naming the judgment group): within a judgment (sub-)group a higher level is
preferred to a lower one, ties are not ordered. Only the prefs_* measures and num_q are
computed, as in trec_eval (default: -m prefs); the run is ordered by score, ties by docid
ascending (trec_eval orders it so for these measures); -l and -J change nothing.
Version: --trec-eval-version 9.0.8 (default) compares run scores as float32, so scores
equal in float32 tie (broken by document id, descending), and IPrec reaches recall r at
floor(r*R + 0.9) relevant; 10.0 compares doubles and uses lround(r*R). With -c, 9.0.8 never
scores a missing query (it adds 0, and has no -q line); 10.0 scores it as an empty ranking.
-J: a query left with no judged document prints -nan for iprec_at_recall_0.00 and 11pt_avg,
as trec_eval (0/0).
-c -l N: trec_eval's num_rel summary line then counts every grade > 0 in the whole qrels,
ignoring -l (its per-query lines follow -l); --format trec prints that line as trec_eval
does, the other formats keep the sum of the per-query values.
Queries follow trec_eval 9.0.8: only queries both judged and in the run are averaged; with
-c, judged queries missing from the run count as 0. A document retrieved twice for one
query is an error (as in trec_eval) unless --dedup says which line to keep.

input: lines end at \\n, \\r\\n or \\r; a line whose first non-blank character is '#' is a
comment; grades are decimal integers, scores finite decimal numbers (no 0x10, 1_0, inf,
nan); .gz, .bz2 and .zst files are decompressed as they are read; a file larger than
--max-bytes (default 4G, plain or once decompressed) is refused, except a streamed run.

large runs: a TREC, Parquet or Arrow run larger than 256 MB (a compressed one: 50 MB) is read
in blocks of whole queries, in bounded memory, with the same numbers (--stream / --no-stream to choose).
It must be grouped by query (as every TREC writer does); if it is not, sort it first:
  LC_ALL=C sort -s -k1,1 run.txt > sorted.txt

exit codes: 0 success; 1 bad input data (malformed line, duplicate document); 2 bad usage
(unknown measure, bad option); 3 a file that cannot be read; 130 interrupted.
"""


NAME = "evaluate"
HELP = "evaluate a run file against qrels (trec_eval-compatible output)"
DESCRIPTION = "Evaluate a run against relevance judgments, per query and on average."


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("qrels", metavar="QRELS", help="judgments: TREC qrels, .jsonl, .csv, .tsv (.gz, .bz2, .zst "
                   "too), .parquet or .arrow (columns qid, docid, grade)")
    p.add_argument("run", metavar="RUN", help="run: TREC run, 'qid docid' list, .jsonl, .csv, .tsv (.gz, .bz2, "
                   ".zst too), .parquet or .arrow (columns qid, docid, score)")
    p.add_argument("-m", "--measure", action="append", metavar="MEASURE",
                   help="measure(s) to compute; repeatable (default: trec_eval's default set)")
    p.add_argument("-q", "--per-query", action="store_true", help="also print the value of each query")
    p.add_argument("--format", choices=OUTPUT_FORMATS, default="trec",
                   help="output format (default: trec, trec_eval's own layout)")
    p.add_argument("-l", "--level", type=int, metavar="N",
                   help="binary measures count grade >= N as relevant (trec_eval -l; nDCG ignores it)")
    p.add_argument("-c", "--complete", action="store_true",
                   help="judged queries missing from the run count as 0 (trec_eval -c)")
    p.add_argument("-M", "--depth", type=int, metavar="DEPTH",
                   help="evaluate only the first DEPTH documents of each ranking (trec_eval -M)")
    p.add_argument("-J", "--judged-only", action="store_true",
                   help="drop documents without a grade >= 0 before scoring, ranks closing up "
                        "(trec_eval -J, after -M)")
    p.add_argument("-R", "--rel-format", choices=REL_FORMATS, default="qrels",
                   help="judgments format (trec_eval -R): qrels; qrels_jg ('qid group docid grade', "
                        "for map_avgjg, P_avgjg and Rprec_mult_avgjg; default measures then -m qrels_jg); "
                        "prefs ('qid jg jsg docid level') or qrels_prefs (a qrels file read as "
                        "preferences), for the prefs_* measures (default measures then -m prefs)")
    p.add_argument("--trec-eval-version", choices=("9.0.8", "10.0"), default="9.0.8",
                   help="whose conventions to follow where the versions differ: 9.0.8 (default) "
                        "compares scores as float32 and cuts IPrec at floor(r*R + 0.9); 10.0 "
                        "compares doubles and uses lround(r*R)")
    p.add_argument("-Z", "--zscores", metavar="FILE",
                   help="trec_eval -Z: print each query's values as z-scores, (value - mean) / stddev, "
                        "from FILE's 'qid measure mean stddev' lines, as Z<measure> with 4 decimals, counts "
                        "too; -1000000 where FILE has none, or where stddev is 0 and the value is not the "
                        "mean; the summary is the mean of the z-scores (their sum for the counts); FILE's "
                        "numbers are read as trec_eval's atof reads them (nan, inf, 1e3)")
    p.add_argument("--dedup", choices=DEDUP, default="error",
                   help="a document retrieved twice for one query: error (default, as trec_eval), "
                        "or keep the first, last or highest-scored line")
    p.add_argument("--subtopics", action="store_true",
                   help="QRELS holds judgments per subtopic, 'qid subtopic docid grade' (ndeval's "
                        "format, for alpha_nDCG); other measures read each document's best grade")
    p.add_argument("--qrels-format", choices=[f for f in FORMATS if f != "list"], default="auto")
    p.add_argument("--run-format", choices=FORMATS, default="auto",
                   help="list = two columns 'qid docid' in rank order (auto-detected)")
    p.add_argument("--max-bytes", type=_size, default=DEFAULT_LIMIT, metavar="SIZE",
                   help="refuse a file larger than SIZE, plain or once decompressed (e.g. 500M, 4G; "
                        f"0 = no limit; default {format_size(CLI_MAX_BYTES).replace(' ', '')}, and none "
                        "for a streamed run)")
    p.add_argument("--stream", action=argparse.BooleanOptionalAction, default=None,
                   help="read the run in blocks of whole queries, in bounded memory (default: for a "
                        f"TREC run over {format_size(STREAM_THRESHOLD)} as stored, a compressed one over "
                        f"{format_size(STREAM_THRESHOLD // COMPRESSION_RATIO)})")
    p.add_argument("--progress", action=argparse.BooleanOptionalAction, default=None,
                   help="show progress on stderr (default: when stderr is a terminal)")
    p.add_argument("--threads", type=_threads, default=None, metavar="N",
                   help="a streamed run: up to N blocks parsed and N chunks of queries evaluated at once "
                        f"(default: every core this process may use, here {default_threads()}); the numbers "
                        "are the same for any N")
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


REL_FORMATS = ("qrels", "qrels_jg", "prefs", "qrels_prefs")
PREF_FORMATS = ("prefs", "qrels_prefs")
DEFAULT_NICKNAME = {"qrels_jg": "qrels_jg", "prefs": "prefs", "qrels_prefs": "prefs"}
DEFAULT_LIMIT = -1  # --max-bytes not given (argparse would parse a string default)


MAX_THREADS = 256


def default_threads() -> int:
    """The cores this process may run on (its CPU affinity), else the machine's."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def _threads(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number of threads, got {text[:40]!r}") from None
    if not 1 <= n <= MAX_THREADS:
        raise argparse.ArgumentTypeError(f"expected 1 to {MAX_THREADS} threads, got {n}")
    return n


def _size(text: str) -> int | None:
    try:
        return parse_size(text)
    except ValueError as err:
        raise argparse.ArgumentTypeError(str(err)) from None


def asked_from(args) -> Asked:
    """The measures asked for (with -l applied to the binary ones), runid and relstring."""
    texts = args.measure or [DEFAULT_NICKNAME.get(getattr(args, "rel_format", "qrels"), "official")]
    asked = read_asked(texts, version=getattr(args, "trec_eval_version", "9.0.8"), level=args.level,
                       judged_only=getattr(args, "judged_only", False))
    if args.depth is not None and args.depth < 1:
        raise UsageError(f"-M must be a positive integer, got {args.depth}")
    return asked


class Progress:
    """Stage messages and, for a streamed run, a progress bar, on stderr.

    On by default only when stderr is a terminal (``--progress`` / ``--no-progress``). The bar
    appears once an evaluation has run for a second: lines and queries read, throughput,
    and the share of the file done with an ETA when the file's size is known.
    """

    DELAY = 1.0

    def __init__(self, on: bool | None = None):
        self.on = sys.stderr.isatty() if on is None else on
        self.start = time.perf_counter()

    def __call__(self, text: str) -> None:
        if self.on:
            print(f"\r\033[K{text} ({time.perf_counter() - self.start:.1f} s)", end="", file=sys.stderr, flush=True)

    def bar(self, done: int, total: int, rows: int, queries: int) -> None:
        """One update of the streaming bar: ``done`` of ``total`` stored bytes (total 0: unknown)."""
        elapsed = time.perf_counter() - self.start
        if self.on and elapsed >= self.DELAY:
            print(f"\r\033[K{bar_text(done, total, rows, queries, elapsed)}", end="", file=sys.stderr, flush=True)

    def follow(self, stream: RunStream):
        """The stream's chunks, updating the bar after each."""
        for chunk in stream:
            self.bar(stream.bytes_read, stream.total_bytes, stream.rows, stream.queries)
            yield chunk

    def done(self) -> None:
        if self.on:
            print("\r\033[K", end="", file=sys.stderr, flush=True)


def bar_text(done: int, total: int, rows: int, queries: int, elapsed: float, width: int = 24) -> str:
    """The progress line.

    >>> bar_text(50, 200, 1_500_000, 1_500, 3.0)
    '[######------------------]  25% 1,500,000 lines, 1,500 queries, 500,000 lines/s, ETA 9 s'
    >>> bar_text(50, 0, 1000, 1, 2.0)  # size unknown (a pipe)
    '1,000 lines, 1 queries, 500 lines/s'
    """
    rate = rows / elapsed if elapsed > 0 else 0.0
    text = f"{rows:,} lines, {queries:,} queries, {rate:,.0f} lines/s"
    if total <= 0:
        return text
    share = min(done / total, 1.0)
    filled = int(share * width)
    eta = elapsed * (1 - share) / share if share > 0 else float("inf")
    eta_text = "?" if eta == float("inf") else (f"{eta:.0f} s" if eta < 120 else f"{eta / 60:.0f} min")
    return f"[{'#' * filled}{'-' * (width - filled)}] {share:4.0%} {text}, ETA {eta_text}"


def use_stream(args) -> bool:
    """Whether to stream the run: as asked, else one larger than STREAM_THRESHOLD (should_stream)."""
    fmt = args.run_format if args.run_format != "auto" else detect_format(args.run)
    try:
        # the threshold is this module's name, read at each call, so that a test may lower it
        return should_stream(args.run, format=fmt, asked=args.stream, threshold=STREAM_THRESHOLD)
    except ValueError:  # --stream for a format that cannot stream
        raise UsageError(f"--stream reads TREC runs, two-column lists, Parquet and Arrow files, not {fmt} files") \
            from None


def run(args) -> None:
    asked = asked_from(args)
    # read first: a bad -Z file fails before a long evaluation, not after
    args.zscores_table = read_zscores(args.zscores) if getattr(args, "zscores", None) else None
    ms = asked.measures
    prefs_format = args.rel_format in PREF_FORMATS
    if not prefs_format and any(m.name in PREF_FAMILIES for m in ms):
        names = ", ".join(str(m) for m in ms if m.name in PREF_FAMILIES)
        raise UsageError(f"{names}: the preference measures need -R prefs or -R qrels_prefs (as trec_eval)")
    if prefs_format:
        other = [str(m) for m in ms if m.name not in (*PREF_FAMILIES, "NumQ")]
        if other or asked.relstring is not None:
            shown = ", ".join(other or ["relstring"])
            raise UsageError(f"-R {args.rel_format}: only the prefs_* measures and num_q are computed, as in "
                             f"trec_eval; not {shown}")
        if args.engine == "spark" or args.subtopics or args.stream:
            raise UsageError(f"-R {args.rel_format} goes with the local engine, without --subtopics or --stream")
    if args.engine == "spark":
        return _run_spark(args, asked)
    if args.master or args.partitions is not None:
        raise UsageError("--master and --partitions go with --engine spark")
    if not args.subtopics and any(m.name == "alpha_nDCG" for m in ms):
        raise UsageError("alpha_nDCG needs judgments per subtopic: give --subtopics and a QRELS file "
                         "of 'qid subtopic docid grade' lines")
    progress = Progress(args.progress)
    default_limit = args.max_bytes == DEFAULT_LIMIT
    limit = CLI_MAX_BYTES if default_limit else args.max_bytes
    fields = tuple(f.strip() for f in args.id_fields.split(",") if f.strip())
    jsonl = {"id_fields": fields}
    options = {"missing": "zero" if args.complete else "skip", "depth": args.depth,
               "judged_only": args.judged_only, "trec_eval": args.trec_eval_version}
    # relstring needs the whole run's rows, judgment groups read every group against it: read whole
    stream = use_stream(args) and args.rel_format == "qrels" and asked.relstring is None \
        and not args.subtopics
    threads = args.threads or default_threads()
    parsing = {"parse_workers": threads}  # (blocks shrink beyond 8 threads: RunStream's block_for)
    batch = None
    chunks = None
    try:
        if stream:  # the run's first blocks are parsed while the judgments are read
            try:
                chunks = RunStream(args.run, format=args.run_format, dedup=args.dedup,
                                   max_bytes=None if default_limit else limit, **parsing).start()
            except (OSError, ValueError):
                chunks = None  # made again below, after the judgments: the same error, in the same order
        progress(f"reading {args.qrels}")
        if args.subtopics:
            return _run_subtopics(args, asked, progress, limit)
        if prefs_format:
            return _run_prefs(args, asked, progress, limit, options)
        if args.rel_format == "qrels_jg":
            groups = read_qrels_jg(args.qrels, max_bytes=limit)
            qrels = None
        else:
            groups = None
            qrels = read_qrels(args.qrels, format=args.qrels_format, max_bytes=limit,
                               **(jsonl if _is_jsonl(args.qrels, args.qrels_format) else {}))
        if stream:
            progress(f"evaluating {args.run} in blocks against {len(qrels.queries):,} judged queries")
            if chunks is None:
                chunks = RunStream(args.run, format=args.run_format, dedup=args.dedup,
                                   max_bytes=None if default_limit else limit, **parsing)
            result = evaluate_stream(qrels, progress.follow(chunks), ms, threads=threads, **options)
            tag, in_run = chunks.tag, chunks.seen
        else:
            progress(f"reading {args.run}")
            run_ = read_run(args.run, format=args.run_format, dedup=args.dedup, max_bytes=limit,
                            **(jsonl if _is_jsonl(args.run, args.run_format) else {}))
            judged_queries = qrels.queries if groups is None else {q for g in groups.values() for q in g.queries}
            progress(f"evaluating {len(judged_queries):,} judged queries, {len(run_):,} run lines")
            if groups is not None:
                if asked.relstring is not None:
                    raise UsageError("relstring needs -R qrels")
                try:
                    result = evaluate_groups(groups, run_, ms, **options)
                except ValueError as err:
                    raise UsageError(str(err)) from None
            else:
                batch = prepare_batch(qrels, run_, **options)
                result = evaluate_prepared(batch, ms)
            tag, in_run = run_.tag, set(run_.queries)
    except FileTooLargeError as err:
        raise ValueError(f"{err}; raise it with --max-bytes SIZE (0 = no limit)") from None
    finally:
        if chunks is not None:
            chunks.close()
    progress.done()
    judged = qrels if groups is None else list(groups.values())
    summary = trec_summary_overrides(ms, qrels, args.complete) if groups is None else {}
    _report(args, asked, result, judged, tag, in_run, batch=batch, summary=summary)


def _report(args, asked, result, judged, tag, in_run, *, batch=None, summary=None) -> None:
    """Warnings on stderr, then the values in the chosen format (``in_run``: the run's query ids)."""
    ms = asked.measures
    result, hidden = as_printed(result, ms, judged, in_run, args.complete, getattr(args, "trec_eval_version", "9.0.8"))
    zscores = getattr(args, "zscores_table", None) is not None
    if zscores:
        result = as_zscores(result, ms, args.zscores_table, hidden, asked.labels)
    said = notes(result, judged, in_run, args.complete)
    for line in said:
        # ids can be megabytes long: a warning stays readable
        print(f"ranklab: warning: {line if len(line) <= 500 else line[:500] + ' ...'}", file=sys.stderr)
    if asked.relstring is not None and not (args.format == "trec" and args.per_query and batch is not None):
        print("ranklab: warning: relstring is printed per query only, with --format trec -q (as trec_eval)",
              file=sys.stderr)
    if not result.per_query:
        print("ranklab: warning: no query is both judged and in the run; nothing to average",
              file=sys.stderr)
    strings = (relstrings(batch, asked.relstring)
               if batch is not None and asked.relstring is not None and args.per_query else None)
    write(sys.stdout, args.format, ms, result, args.per_query, tag=tag if asked.runid else None, notes=said,
          summary=summary or {}, hidden=hidden, labels=asked.labels, relstrings=strings,
          relstring_label=asked.relstring_label, zscores=zscores)


def _run_spark(args, asked) -> None:
    """``--engine spark``: the run evaluated by Spark (metrics.spark), printed as the local engine prints it."""
    from .spark import evaluate_spark

    if args.subtopics or args.rel_format == "qrels_jg" or asked.relstring is not None:
        raise UsageError("--engine spark evaluates plain qrels (-R qrels) without --subtopics or relstring")
    if args.stream:
        raise UsageError("--stream goes with the local engine (Spark reads the run in its own partitions)")
    if any(m.name == "alpha_nDCG" for m in asked.measures):
        raise UsageError("alpha_nDCG needs judgments per subtopic, evaluated by the local engine")
    result, zero, tag = evaluate_spark(args, asked.measures)
    in_run = set(result.per_query) - set(zero)
    judged = SimpleNamespace(queries=list(result.per_query) + list(result.missing_from_run))
    _report(args, asked, result, judged, tag, in_run)


def _run_prefs(args, asked, progress, limit, options) -> None:
    """Preference judgments (-R prefs / qrels_prefs): read them, then evaluate query by query."""
    reader = read_prefs if args.rel_format == "prefs" else read_qrels_prefs
    prefs = reader(args.qrels, max_bytes=limit)
    progress(f"reading {args.run}")
    run_ = read_run(args.run, format=args.run_format, dedup=args.dedup, max_bytes=limit)
    progress(f"evaluating {len(prefs.queries):,} judged queries, {len(run_):,} run lines")
    result = evaluate_prefs(prefs, run_, asked.measures, missing=options["missing"], depth=options["depth"],
                            trec_eval=options["trec_eval"])
    progress.done()
    _report(args, asked, result, SimpleNamespace(queries=list(prefs.queries)), run_.tag, set(run_.queries))


def _run_subtopics(args, asked, progress, limit) -> None:
    """Judgments per subtopic: read them, then evaluate query by query (metrics.evaluate)."""
    per_subtopic = read_subtopic_qrels(args.qrels, max_bytes=limit)
    run_ = read_run(args.run, format=args.run_format, dedup=args.dedup, max_bytes=limit)
    progress(f"evaluating {len(per_subtopic):,} judged queries")
    result = evaluate(per_subtopic, run_.to_dict(), asked.measures, missing="zero" if args.complete else "skip",
                      depth=args.depth, judged_only=args.judged_only, trec_eval=args.trec_eval_version)
    progress.done()
    _report(args, asked, result, SimpleNamespace(queries=list(per_subtopic)), run_.tag, set(run_.queries))


def _is_jsonl(path: str, fmt: str) -> bool:
    return fmt == "jsonl" or (fmt == "auto" and detect_format(path) == "jsonl")
