"""``ranklab evaluate --engine spark``: the same evaluation and output, on a Spark cluster."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from .errors import UsageError

__all__ = ["evaluate_spark"]

TEXT_FORMATS = ("auto", "trec")


def evaluate_spark(args, ms):
    """(result, judged queries scored 0 by -c, run tag) computed by :mod:`metrics.spark`."""
    for option, value in (("--qrels-format", args.qrels_format), ("--run-format", args.run_format)):
        if value not in TEXT_FORMATS:
            raise UsageError(f"--engine spark reads Parquet or TREC text, not {option} {value}")
    if args.partitions is not None and args.partitions < 1:
        raise UsageError(f"--partitions must be a positive integer, got {args.partitions}")
    for path in (args.qrels, args.run):
        if path.lower().removesuffix(".gz").removesuffix(".bz2").endswith((".jsonl", ".json", ".csv", ".tsv")):
            raise UsageError(f"--engine spark reads Parquet or TREC text files, not {path}")
    for path in (args.qrels, args.run):  # a local path that is not there: exit 3, as --engine local
        if "://" not in path and not Path(path).exists():
            raise FileNotFoundError(2, "No such file or directory", path)
    if importlib.util.find_spec("pyspark") is None:
        raise UsageError("--engine spark needs pyspark: pip install 'ranklab[spark]' (and Java 17)")
    from pyspark.errors import PySparkException

    from ..spark import evaluate, session
    from ..spark.files import read_qrels_df, read_run_df

    try:
        spark = session(args.master, partitions=args.partitions)
    except PySparkException as err:  # no Java, a master that does not answer ...
        raise UsageError(f"cannot start Spark (is Java 17 installed? is the master reachable?): {err}") from None
    spark.sparkContext.setLogLevel("ERROR")
    try:
        qrels = read_qrels_df(spark, args.qrels)
        run = read_run_df(spark, args.run)
        out = evaluate(qrels, run, ms, missing="zero" if args.complete else "skip", depth=args.depth,
                       dedup=args.dedup, buckets=args.partitions, judged_only=args.judged_only,
                       trec_eval=args.trec_eval_version)
    except PySparkException as err:  # a path Spark cannot read ...
        text = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise ValueError(f"Spark: {text}") from None
    return out.result, out.zero_scored, run.tag
