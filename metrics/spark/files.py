"""Qrels and runs as Spark DataFrames: Parquet, or TREC text (plain, ``.gz``, ``.bz2``).

TREC text follows the single-machine readers' rules (:mod:`metrics.io.trec`): columns split
at runs of spaces, tabs, form feeds or vertical tabs; blank lines and lines whose first
non-blank character is ``#`` skipped; qrels have 4 columns (``qid iter docid grade``), runs
at least 6 (``qid Q0 docid rank score tag``); grades ``[+-]?[0-9]+``, scores decimal numbers
with an optional exponent, finite. Spark splits lines at ``\\n``, ``\\r\\n`` and ``\\r``.
A malformed line is not dropped: it travels with a ``_bad`` message to the executor that
evaluates its query, and the driver reports the first one as ``file:line: reason``.

Parquet files (or folders of them) hold the columns by name: ``qid``, ``docid`` and
``grade`` or ``score`` (other columns are ignored).

Paths are whatever Spark reads: a local path, ``hdfs://``, ``s3a://`` ...
"""

from __future__ import annotations

from pathlib import PurePosixPath

from . import ROW, Source

__all__ = ["read_qrels_df", "read_run_df", "is_parquet", "SPLIT", "SCORE_TEXT", "GRADE_TEXT"]

SPLIT = r"[ \t\f\x0B]+"
GRADE_TEXT = r"^[+-]?[0-9]+$"  # as metrics.io.trec.GRADE
SCORE_TEXT = r"^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?$"  # as metrics.io.trec.SCORE
ID_FIELDS = 4  # qrels columns; a run has at least 6


def is_parquet(path: str) -> bool:
    """A Parquet file or folder, by its name.

    >>> is_parquet("runs/bm25.parquet"), is_parquet("run.txt.gz"), is_parquet("hdfs://nn/q.PARQUET/")
    (True, False, True)
    """
    return PurePosixPath(str(path).rstrip("/")).suffix.lower() in (".parquet", ".parq")


def _lines(spark, path: str):
    """The text file's lines, each with its place in the file (``_row``), and the turn of a
    ``_row`` into a 1-based line number (one count per partition, done only for a message)."""
    import pyspark.sql.functions as F

    lines = spark.read.text(path)
    numbered = lines.withColumn(ROW, F.monotonically_increasing_id())

    def line_of(row: int) -> int:
        part, offset = row >> 33, row & ((1 << 33) - 1)
        sizes = lines.rdd.mapPartitions(lambda rows: [sum(1 for _ in rows)]).collect()
        return sum(sizes[:part]) + offset + 1

    return numbered, line_of


def _columns(numbered):
    import pyspark.sql.functions as F

    text = F.regexp_replace(F.col("value"), r"^[ \t\f\x0B]+|[ \t\f\x0B]+$", "")
    data = numbered.select(text.alias("line"), F.col(ROW)).filter((F.col("line") != "") & ~F.col("line").startswith("#"))
    return data.select(F.split("line", SPLIT).alias("c"), F.col(ROW))


def _text_qrels(spark, path: str) -> Source:
    import pyspark.sql.functions as F

    numbered, line_of = _lines(spark, path)
    c, n = F.col("c"), F.size("c")
    grade = F.get(c, 3)
    bad = (F.when(n != ID_FIELDS, F.concat(F.lit("expected 4 columns (qid iter docid grade), got "),
                                           n.cast("string")))
           .when(~grade.rlike(GRADE_TEXT), F.concat(F.lit("grade must be an integer, got "), _quoted(grade)))
           .when(F.expr("try_cast(c[3] as bigint)").isNull(), F.concat(F.lit("grade out of range: "), _quoted(grade))))
    df = _columns(numbered).select(
        F.get(c, 0).alias("qid"), F.get(c, 2).alias("docid"),
        F.when(bad.isNull(), F.expr("try_cast(c[3] as bigint)")).alias("grade"), F.col(ROW),
        F.when(bad.isNotNull(), F.concat(F.lit(f"{path}: "), bad)).alias("_bad"))
    return Source(df, path, line_of)


def _text_run(spark, path: str) -> Source:
    import pyspark.sql.functions as F

    numbered, line_of = _lines(spark, path)
    c, n = F.col("c"), F.size("c")
    score = F.get(c, 4)
    bad = (F.when(n < 6, F.concat(F.lit("expected 6 columns (qid Q0 docid rank score tag), got "), n.cast("string")))
           .when(~score.rlike(SCORE_TEXT), F.concat(F.lit("score must be a decimal number, got "), _quoted(score))))
    value = F.expr("try_cast(c[4] as double)")
    bad = F.coalesce(bad, F.when(F.isnan(value) | (F.abs(value) == float("inf")),
                                 F.concat(F.lit("score is not finite: "), _quoted(score))))
    df = _columns(numbered).select(
        F.get(c, 0).alias("qid"), F.get(c, 2).alias("docid"),
        F.when(bad.isNull(), value).otherwise(F.lit(0.0)).alias("score"), F.col(ROW),
        F.when(bad.isNotNull(), F.concat(F.lit(f"{path}: "), bad)).alias("_bad"),
        F.get(c, 5).alias("tag"))
    first = df.select("tag").head(1)  # the first partition is read first: the file's first line
    return Source(df.drop("tag"), path, line_of, first[0]["tag"] if first else None)


def _quoted(column):
    import pyspark.sql.functions as F

    short = F.when(F.length(column) > 40, F.concat(F.substring(column, 1, 40), F.lit("..."))).otherwise(column)
    return F.concat(F.lit("'"), F.coalesce(short, F.lit("")), F.lit("'"))


def _parquet(spark, path: str, value: str) -> Source:
    import pyspark.sql.functions as F

    df = spark.read.parquet(path)
    if ROW not in df.columns:
        df = df.withColumn(ROW, F.monotonically_increasing_id())
    return Source(df, path)


def read_qrels_df(spark, path: str) -> Source:
    """Judgments as a :class:`metrics.spark.Source` (``qid``, ``docid``, ``grade``, ``_row``)."""
    return _parquet(spark, path, "grade") if is_parquet(path) else _text_qrels(spark, path)


def read_run_df(spark, path: str) -> Source:
    """A run as a :class:`metrics.spark.Source` (``qid``, ``docid``, ``score``, ``_row``), with
    the run tag of its first line for TREC text."""
    return _parquet(spark, path, "score") if is_parquet(path) else _text_run(spark, path)
