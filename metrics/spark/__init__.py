"""Evaluation on Apache Spark, for runs larger than one machine: ``pip install 'ranklab[spark]'``.

:func:`evaluate` takes two Spark DataFrames — judgments (``qid``, ``docid``, ``grade``) and
a run (``qid``, ``docid``, ``score``) — and evaluates every query with Ranklab's own batch
kernels (:mod:`metrics.batch`), so each query's value has the same bits as on one machine.
The plan:

1. Every row gets a bucket, a hash of its query id modulo ``buckets``, so all rows of a
   query, run and judgments alike, share one bucket.
2. ``groupBy(bucket).cogroup(...).applyInArrow`` hands each bucket's run rows and judgments,
   as two Arrow tables, to :func:`evaluate_bucket` on an executor. That is one call of the
   vectorised kernels for many whole queries (one call per query would spend its time in
   Python's per-call overhead). A query judged but absent from the run, or retrieved but
   never judged, is handled there as :func:`metrics.batch.evaluate_batch` handles it.
3. The driver gathers the per-query values (one row per query: a run of 10 billion lines
   with 1,000 lines a query gives 10 million rows) and averages them in the order the
   queries first appear in the judgments, one after the other, as the single-machine path
   does (:func:`metrics.core.aggregate`), so the averages have the same bits too.

Bad data found on an executor (a document retrieved twice, a null or infinite score ...)
comes back as a row that names the problem; the driver raises it as a ``ValueError`` with
the file and line where it knows them, never a Java stack trace.

pyspark is imported only inside the functions that need it: this module (and
:func:`evaluate_bucket`, which is plain pyarrow) imports without it.

Examples
--------
The work of one bucket, without Spark: q1's relevant ``a`` ranks second, q2 is not judged.

>>> import pyarrow as pa
>>> run = pa.table({"qid": ["q1", "q1", "q2"], "docid": ["a", "b", "c"], "score": [1.0, 2.0, 5.0]})
>>> qrels = pa.table({"qid": ["q1"], "docid": ["a"], "grade": [1], "_row": [0]})
>>> out = evaluate_bucket(run, qrels, measures=["RR"])
>>> out.column("qid").to_pylist(), out.column("status").to_pylist(), out.column("v0").to_pylist()
(['q1', 'q2'], ['evaluated', 'no_qrels'], [0.5, None])
"""

from __future__ import annotations

import functools
import os
import sys
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from .. import _check
from ..batch import measure_columns, prepare_batch
from ..core import MISSING, Evaluation, aggregate, counted_as_zero
from ..io.dedup import DEDUP
from ..io.keys import duplicate_groups, take
from ..io.model import Qrels, Run
from ..measures import Measure, parse_many

__all__ = ["evaluate", "evaluate_bucket", "SparkEvaluation", "Source", "session", "BUCKETS_PER_SPLIT"]

BUCKETS_PER_SPLIT = 3  # buckets per partition of the run as read: ~1 million TREC lines each
LOG_CONFIG = Path(__file__).with_name("log4j2.properties").as_uri()
ROW = "_row"  # optional column: the row's place in its file, for the query order and messages
INTEGER_TYPES = ("tinyint", "smallint", "int", "bigint")
# the Spark column types each input column may have: (what a message calls them, the test)
COLUMN_KINDS = {
    "id": ("a string or an integer", lambda t: t == "string" or t in INTEGER_TYPES),
    "grade": ("an integer", lambda t: t in INTEGER_TYPES),
    "score": ("a number", lambda t: t in INTEGER_TYPES + ("float", "double") or t.startswith("decimal(")),
}


@dataclass
class Source:
    """A DataFrame with where it came from: ``name`` for messages, ``line_of(row)`` to turn a
    ``_row`` value into a 1-based file line, and the run tag of its first line."""

    df: object
    name: str
    line_of: Callable[[int], int] | None = None
    tag: str | None = None


@dataclass
class SparkEvaluation:
    """What :func:`evaluate` returns.

    ``result``: the numbers as a :class:`metrics.Evaluation` on the driver (its
    ``per_query`` dict in the judgments' query order), for the writers of the CLI.
    ``zero_scored``: judged queries absent from the run, scored 0 (``missing="zero"``).
    ``per_query``: a Spark DataFrame, ``qid`` then one double column per measure (canonical
    names, as :attr:`metrics.Evaluation.measures`), one row per evaluated query.
    ``aggregate``: a one-row Spark DataFrame of the same columns, ``qid`` = ``"all"``.
    Both DataFrames are made when first asked for (the CLI never asks).
    """

    result: Evaluation
    zero_scored: list[str]
    spark: object
    table: pa.Table

    @property
    def per_query(self):
        names = self.result.measures
        return self.spark.createDataFrame(_per_query_rows(self.table, len(names)),
                                          _spark_schema(len(names), only_values=True)).toDF("qid", *names)

    @property
    def aggregate(self):
        names = self.result.measures
        row = ("all", *(self.result.aggregate[n] for n in names))
        return self.spark.createDataFrame([row], _spark_schema(len(names), only_values=True)).toDF("qid", *names)


# --------------------------------------------------------------------------- one bucket

def _schema(n_measures: int) -> pa.Schema:
    return pa.schema([("qid", pa.string()), ("order", pa.int64()), ("status", pa.string()),
                      ("problem", pa.string())] + [(f"v{i}", pa.float64()) for i in range(n_measures)])


def _problem(n_measures: int, reason: str, status: str = "problem", row: int = -1) -> pa.Table:
    return pa.Table.from_pylist([{"qid": None, "order": row, "status": status, "problem": reason}],
                                schema=_schema(n_measures))


def _codes(qids: pa.ChunkedArray) -> tuple[list[str], np.ndarray]:
    """Query ids in order of first appearance, and one int32 code per row."""
    encoded = pc.dictionary_encode(qids.combine_chunks() if isinstance(qids, pa.ChunkedArray) else qids)
    return encoded.dictionary.to_pylist(), encoded.indices.to_numpy(zero_copy_only=False).astype(np.int32)


def _first_row(codes: np.ndarray, rows: np.ndarray | None, n: int) -> np.ndarray:
    """For each query code, the smallest ``_row`` among its rows (or -1 without rows)."""
    if rows is None or len(codes) == 0:
        return np.full(n, -1, dtype=np.int64)
    out = np.full(n, np.iinfo(np.int64).max, dtype=np.int64)
    np.minimum.at(out, codes, rows)
    return out


def _check_values(table: pa.Table, value: str, what: str) -> tuple[str, int] | None:
    """The first bad row of a bucket, as (reason, _row), or None: nulls, empty ids, a
    score that is not finite, a grade out of range, or a line the text reader refused."""
    rows = table.column(ROW).to_numpy(zero_copy_only=False) if ROW in table.column_names else None

    def at(mask) -> tuple[int, int]:
        hits = np.flatnonzero(np.asarray(mask))
        if rows is None:
            return int(hits[0]), -1
        i = int(hits[np.argmin(rows[hits])])
        return i, int(rows[i])

    if "_bad" in table.column_names:
        bad = table.column("_bad")
        if bad.null_count < len(bad):
            i, row = at(pc.is_valid(bad).to_numpy(zero_copy_only=False))
            return bad[i].as_py(), row
    for name in ("qid", "docid", value):
        col = table.column(name)
        if col.null_count:
            i, row = at(pc.is_null(col).to_numpy(zero_copy_only=False))
            return f"{what}: {name} is missing (null)" + _query_of(table, i), row
    for name in ("qid", "docid"):
        empty = pc.equal(pc.utf8_length(table.column(name)), 0).to_numpy(zero_copy_only=False)
        if empty.any():
            i, row = at(empty)
            return f"{what}: empty {'query' if name == 'qid' else 'document'} id" + _query_of(table, i), row
    v = table.column(value).to_numpy()
    if value == "score":
        bad = ~np.isfinite(v)
        if bad.any():
            i, row = at(bad)
            return f"{what}: score must be finite, got {float(v[i])!r}" + _query_of(table, i, True), row
    else:
        bad = np.abs(v) > _check.MAX_GRADE
        if bad.any():
            i, row = at(bad)
            return (f"{what}: grade {int(v[i])} is out of range (|grade| <= {_check.MAX_GRADE})"
                    + _query_of(table, i, True)), row
    return None


def _query_of(table: pa.Table, i: int, doc: bool = False) -> str:
    qid = table.column("qid")[i].as_py()
    out = "" if qid is None else f" (query {_short(qid)}"
    if doc and out:
        out += f", document {_short(table.column('docid')[i].as_py())!r}"
    return out + ")" if out else out


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[:limit] + "..."


def _deduplicated(run: Run, how: str, what: str) -> Run | str:
    """The run with each (query, document) pair once, or the message that refuses it."""
    groups = duplicate_groups(run.query, run.doc, run.pair_keys())
    if not groups:
        return run
    if how == "error":
        g = min(groups, key=lambda g: (run.queries[run.query[g[0]]], run.doc[int(g[0])].as_py()))
        return (f"{what}: query {_short(run.queries[run.query[g[0]]])}: document "
                f"{_short(run.doc[int(g[0])].as_py())!r} appears {len(g)} times; trec_eval refuses "
                "this — choose --dedup first|last|max to keep one")
    drop = []
    for g in groups:  # rows are in file order (sorted by _row) for first/last
        keep = g[0] if how == "first" else g[-1] if how == "last" else g[int(np.argmax(run.score[g]))]
        drop.extend(int(r) for r in g if r != keep)
    mask = np.ones(len(run), dtype=bool)
    mask[drop] = False
    return Run(run.queries, run.query[mask], take(run.doc, np.flatnonzero(mask)), run.score[mask], run.source)


def evaluate_bucket(run: pa.Table, qrels: pa.Table, *, measures: Sequence[str], missing: str = "skip",
                    depth: int | None = None, dedup: str = "error",
                    names: tuple[str, str] = ("<qrels>", "<run>"), judged_only: bool = False,
                    trec_eval: str = "9.0.8") -> pa.Table:
    """Evaluate the whole queries of one bucket: what each Spark task runs.

    Parameters
    ----------
    run : pyarrow.Table
        ``qid``, ``docid`` (strings), ``score`` (float64); optionally ``_row`` (its place in
        the file, needed by ``dedup="first"``/``"last"``) and ``_bad`` (a reader's message).
    qrels : pyarrow.Table
        ``qid``, ``docid``, ``grade`` (int64), ``_row`` (the queries' order: the order of
        :attr:`metrics.Evaluation.per_query`); optionally ``_bad``.
    measures, missing, depth : as :func:`metrics.batch.evaluate_batch`
    dedup : {"error", "first", "last", "max"}
        A document retrieved twice for one query (see :func:`metrics.io.deduplicate`).

    Returns
    -------
    pyarrow.Table
        One row per query of the bucket: ``qid``, ``order`` (first ``_row`` in the qrels, or
        in the run for a query judged nowhere), ``status`` (``evaluated``; ``zero``: judged,
        absent from the run, scored 0; ``no_run``: judged, absent from the run, skipped;
        ``no_qrels``: in the run only), and ``v0``, ``v1`` ... one value per measure. Bad
        data gives a single row of status ``problem``, ``problem:qrels`` or ``problem:run``
        whose ``problem`` says what and ``order`` where (a ``_row``, or -1).

    Examples
    --------
    >>> import pyarrow as pa
    >>> run = pa.table({"qid": ["q1", "q1"], "docid": ["a", "a"], "score": [1.0, 2.0]})
    >>> qrels = pa.table({"qid": ["q1"], "docid": ["a"], "grade": [1], "_row": [0]})
    >>> evaluate_bucket(run, qrels, measures=["P@1"]).column("problem")[0].as_py()[:45]
    "<run>: query q1: document 'a' appears 2 times"
    >>> evaluate_bucket(run, qrels, measures=["P@1"], dedup="max").column("v0").to_pylist()
    [1.0]
    """
    ms = parse_many(list(measures))
    n = len(ms)
    qrels_name, run_name = names
    for table, value, what, status in ((qrels, "grade", qrels_name, "problem:qrels"),
                                       (run, "score", run_name, "problem:run")):
        found = _check_values(table, value, what)
        if found is not None:
            return _problem(n, found[0], status, found[1])
    if ROW in run.column_names and len(run):
        run = run.sort_by(ROW)
    if len(qrels):
        qrels = qrels.sort_by(ROW)
    queries, codes = _codes(qrels.column("qid"))
    judged = Qrels(queries, codes, qrels.column("docid"), qrels.column("grade").to_numpy().astype(np.int64),
                   qrels_name)
    run_queries, run_codes = _codes(run.column("qid"))
    ranked = Run(run_queries, run_codes, run.column("docid"), run.column("score").to_numpy().astype(np.float64),
                 run_name)
    ranked = _deduplicated(ranked, dedup, run_name)
    if isinstance(ranked, str):
        return _problem(n, ranked, "problem")
    try:
        b = prepare_batch(judged, ranked, missing=missing, depth=depth, judged_only=judged_only, trec_eval=trec_eval)
    except (ValueError, TypeError) as err:  # a document judged twice ...
        return _problem(n, str(err))
    columns = measure_columns(ms, b, trec_eval)
    qrels_first = _first_row(codes, qrels.column(ROW).to_numpy(), len(queries))
    run_rows = run.column(ROW).to_numpy() if ROW in run.column_names else None
    run_first = _first_row(run_codes, run_rows, len(run_queries))
    in_run = set(run_queries)
    index = {q: i for i, q in enumerate(queries)}
    qids = list(b.queries) + b.missing_from_run + b.missing_from_qrels
    order = [int(qrels_first[index[q]]) for q in b.queries + b.missing_from_run]
    run_index = {q: i for i, q in enumerate(run_queries)}
    order += [int(run_first[run_index[q]]) for q in b.missing_from_qrels]
    status = (["evaluated" if q in in_run else "zero" for q in b.queries] + ["no_run"] * len(b.missing_from_run)
              + ["no_qrels"] * len(b.missing_from_qrels))
    pad = len(qids) - b.size
    data = {"qid": qids, "order": order, "status": status, "problem": [None] * len(qids)}
    for i, m in enumerate(ms):
        data[f"v{i}"] = pa.array(np.r_[columns[str(m)], np.full(pad, np.nan)], mask=np.r_[np.zeros(b.size, bool),
                                                                                         np.ones(pad, bool)])
    return pa.table(data, schema=_schema(n))


# --------------------------------------------------------------------------- the driver

def session(master: str | None = None, *, partitions: int | None = None, app: str = "ranklab"):
    """A SparkSession for Ranklab: the given master (``local[2]``, ``spark://host:7077``,
    ``yarn``; by default the one spark-submit set, else ``local[*]``), ``partitions`` shuffle
    partitions, Arrow on, the executors' Python the driver's own in local mode."""
    from pyspark.sql import SparkSession

    # pyspark 4.x checks the pandas version even where only Arrow is used (as here)
    warnings.filterwarnings("ignore", "PySpark does not yet fully support pandas", FutureWarning)
    builder = SparkSession.builder.appName(app)
    submitted = "PYSPARK_GATEWAY_PORT" in os.environ  # spark-submit started us and set the master
    if master or not submitted:
        master = master or os.environ.get("MASTER", "local[*]")
        builder = builder.master(master)
        if master.startswith("local"):
            os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        # a JVM started here logs errors only (spark-submit's JVM keeps its cluster's settings)
        builder = builder.config("spark.driver.extraJavaOptions", f"-Dlog4j2.configurationFile={LOG_CONFIG}")
    if partitions:
        builder = builder.config("spark.sql.shuffle.partitions", str(partitions))
    return (builder.config("spark.sql.execution.arrow.pyspark.enabled", "true")
            .config("spark.ui.showConsoleProgress", "false").getOrCreate())


def _column_types(df, needed: dict[str, str], what: str) -> None:
    """Each needed column is there, with a type of its kind (:data:`COLUMN_KINDS`)."""
    types = dict(df.dtypes)
    for name, kind in needed.items():
        if name not in types:
            raise ValueError(f"{what}: no column {name!r} (columns: {', '.join(types) or 'none'})")
        described, ok = COLUMN_KINDS[kind]
        if not ok(types[name]):
            raise TypeError(f"{what}: column {name!r} must be {described}, got {types[name]}")


def _prepared(source: Source, value: str, bucket_count: int, with_row: bool):
    import pyspark.sql.functions as F

    df = source.df
    _column_types(df, {"qid": "id", "docid": "id", value: value}, source.name)
    cols = [F.col("qid").cast("string").alias("qid"), F.col("docid").cast("string").alias("docid"),
            F.col(value).cast("bigint" if value == "grade" else "double").alias(value)]
    if ROW in df.columns:
        cols.append(F.col(ROW))
    elif with_row:
        cols.append(F.monotonically_increasing_id().alias(ROW))
    if "_bad" in df.columns:
        cols.append(F.col("_bad"))
    out = df.select(*cols)
    return out.withColumn("_bucket", F.pmod(F.xxhash64("qid"), F.lit(bucket_count)))


def evaluate(qrels_df, run_df, measures, *, missing: str = "skip", depth: int | None = None,
             dedup: str = "error", buckets: int | None = None, judged_only: bool = False,
             trec_eval: str = "9.0.8") -> SparkEvaluation:
    """Evaluate a run held in Spark, with the numbers of :func:`metrics.batch.evaluate_batch`.

    Parameters
    ----------
    qrels_df : pyspark.sql.DataFrame or Source
        ``qid``, ``docid`` (string or integer) and ``grade`` (integer) columns. The order of
        its rows, as Spark reads them, is the query order of the averages (a file's order
        when read straight from one file); a ``_row`` column, if present, gives it instead.
    run_df : pyspark.sql.DataFrame or Source
        ``qid``, ``docid`` and ``score`` (a number) columns; its row order does not matter
        (ties are broken by document id descending, as trec_eval does), except for
        ``dedup="first"``/``"last"``, which need a ``_row`` column.
    measures : str or list
        ``"P@10 nDCG@10"``; trec_eval names accepted.
    missing : {"skip", "zero"}
        A judged query absent from the run is skipped (trec_eval 9.0.8) or scores 0 (``-c``).
    depth : int, optional
        Keep only the first ``depth`` documents of each ranking (trec_eval ``-M``).
    dedup : {"error", "first", "last", "max"}
        A document retrieved twice for one query: an error (trec_eval), or which to keep.
    buckets : int, optional
        How many groups of whole queries the work is cut into (one Arrow call each);
        default: ``BUCKETS_PER_SPLIT`` per partition of the run as read, at least twice
        the cores.

    Returns
    -------
    SparkEvaluation

    Examples
    --------
    With a session (tests/spark/ runs this in ``local[2]``)::

        spark = session("local[2]", partitions=4)
        run = spark.createDataFrame([("q1", "a", 1.0), ("q1", "b", 2.0)], "qid string, docid string, score double")
        qrels = spark.createDataFrame([("q1", "a", 1)], "qid string, docid string, grade int")
        evaluate(qrels, run, "RR").result.aggregate     # {'RR': 0.5}: a ranks second
    """
    ms = parse_many(measures) if not isinstance(measures, Measure) else [measures]
    _check.choice(missing, "missing", MISSING)
    _check.choice(dedup, "dedup", DEDUP)
    depth = _check.positive_int(depth, "depth")
    buckets = _check.positive_int(buckets, "buckets")
    _check.choice(trec_eval, "trec_eval", _check.TREC_EVAL_VERSIONS)
    qrels = qrels_df if isinstance(qrels_df, Source) else Source(qrels_df, "<qrels>")
    run = run_df if isinstance(run_df, Source) else Source(run_df, "<run>")
    if dedup in ("first", "last") and ROW not in run.df.columns:
        raise ValueError(f"dedup={dedup!r} needs the run's line order: a {ROW!r} column in the run")
    spark = run.df.sparkSession
    if buckets is None:
        # a file split (128 MB, ~3 million TREC lines) gives about BUCKETS_PER_SPLIT buckets
        cores = spark.sparkContext.defaultParallelism
        buckets = max(2 * cores, BUCKETS_PER_SPLIT * run.df.rdd.getNumPartitions())
    run_in = _prepared(run, "score", buckets, with_row=False)
    qrels_in = _prepared(qrels, "grade", buckets, with_row=True)
    names = [str(m) for m in ms]
    task = functools.partial(_bucket_task, measures=names, missing=missing, depth=depth, dedup=dedup,
                             names=(qrels.name, run.name), judged_only=bool(judged_only), trec_eval=trec_eval)
    schema = _spark_schema(len(ms))
    out = (run_in.groupBy("_bucket").cogroup(qrels_in.groupBy("_bucket")).applyInArrow(task, schema))
    table = out.toArrow()
    _raise_problem(table, qrels, run)
    result, zero = _gathered(table, ms)
    if zero and trec_eval == "9.0.8":
        result = counted_as_zero(result, ms, zero, trec_eval)
        table = _with_values(table, result, ms)
    return SparkEvaluation(result, zero, spark, table)


def _with_values(table: pa.Table, result: Evaluation, ms: list[Measure]) -> pa.Table:
    """The per-query rows of ``table`` holding ``result``'s values (9.0.8's -c rewrites the
    queries missing from the run), so the per_query DataFrame says what the result says."""
    qids = table.column("qid").to_pylist()
    rows = [i for i, q in enumerate(qids) if q in result.per_query]
    for i, m in enumerate(ms):
        values = table.column(f"v{i}").to_pylist()
        for r in rows:
            values[r] = result.per_query[qids[r]][str(m)]
        table = table.set_column(table.schema.get_field_index(f"v{i}"), f"v{i}", pa.array(values, pa.float64()))
    return table


def _bucket_task(run: pa.Table, qrels: pa.Table, **args) -> pa.Table:
    """What each Spark task calls on one bucket (picklable, with its options bound)."""
    return evaluate_bucket(run.drop_columns(["_bucket"]), qrels.drop_columns(["_bucket"]), **args)


def _spark_schema(n: int, only_values: bool = False) -> str:
    values = ", ".join(f"v{i} double" for i in range(n))
    if only_values:
        return "qid string" + (", " + values if n else "")
    return "qid string, order bigint, status string, problem string" + (", " + values if n else "")


def _raise_problem(table: pa.Table, qrels: Source, run: Source) -> None:
    status = table.column("status").to_pylist()
    problems = [i for i, s in enumerate(status) if s.startswith("problem")]
    if not problems:
        return
    order = table.column("order").to_pylist()
    messages = table.column("problem").to_pylist()
    # the first in file order, where rows are known
    i = min(problems, key=lambda i: (order[i] < 0, order[i], messages[i]))
    source = {"problem:qrels": qrels, "problem:run": run}.get(status[i])
    reason = messages[i]
    if source is not None and source.line_of is not None and order[i] >= 0:
        where = f"{source.name}:{source.line_of(order[i])}"
        reason = reason.removeprefix(source.name)
        raise ValueError(f"{where}{reason}")
    raise ValueError(reason)


def _gathered(table: pa.Table, ms: list[Measure]) -> tuple[Evaluation, list[str]]:
    """The driver's :class:`metrics.Evaluation`: queries in the judgments' order."""
    table = table.sort_by([("order", "ascending"), ("qid", "ascending")])
    status = np.asarray(table.column("status").to_pylist(), dtype=object)
    qids = table.column("qid").to_pylist()
    evaluated = np.flatnonzero((status == "evaluated") | (status == "zero"))
    names = [str(m) for m in ms]
    columns = {name: table.column(f"v{i}").take(pa.array(evaluated)).to_pylist() for i, name in enumerate(names)}
    keys = [qids[i] for i in evaluated]
    per_query = {q: {name: columns[name][j] for name in names} for j, q in enumerate(keys)}
    means = aggregate(ms, per_query)  # in the judgments' query order, as the local engine adds
    missing_run = [qids[i] for i in np.flatnonzero(status == "no_run")]
    missing_qrels = [qids[i] for i in np.flatnonzero(status == "no_qrels")]
    zero = [qids[i] for i in np.flatnonzero(status == "zero")]
    return Evaluation(names, means, per_query, missing_run, missing_qrels), zero


def _per_query_rows(table: pa.Table, n: int):
    table = table.filter(pc.is_in(table.column("status"), pa.array(["evaluated", "zero"])))
    table = table.sort_by([("order", "ascending")])
    return table.select(["qid"] + [f"v{i}" for i in range(n)])
