"""metrics.spark.evaluate in local[2]: the numbers of the single-machine path, bit for bit.

Oracles: :func:`metrics.batch.evaluate_batch` (the single-machine path, itself checked
against pytrec_eval in tests/metrics/test_pytrec_agreement.py), pytrec_eval directly on the bundled
collection, and values worked out by hand for trec_eval's global rules.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
import pytrec_eval

from metrics.batch import evaluate_batch
from metrics.cli.evaluate import DEFAULT_MEASURES
from metrics.io import read_qrels, read_run, run_from_dict

ROOT = Path(__file__).resolve().parents[2]
COLLECTION = ROOT / "assets" / "collection"
MEASURES = list(DEFAULT_MEASURES) + ["nDCG@10", "nDCG", "R@100", "F1@10", "Success@5", "11pt",
                                     "nDCG(dcg='exp-log2')@20", "AP(rel=2)", "DCG@5", "CG@10", "IDCG@10"]


def qrels_df(spark, rows):
    return spark.createDataFrame(pa.table(dict(zip(("qid", "docid", "grade"), zip(*rows, strict=True), strict=True))))


def run_df(spark, rows):
    table = pa.table({"qid": [r[0] for r in rows], "docid": [r[1] for r in rows],
                      "score": pa.array([float(r[2]) for r in rows], pa.float64())})
    return spark.createDataFrame(table)


def tables(qrels, run):
    """The Arrow forms of a Qrels and a Run read by metrics.io, as Spark takes them."""
    q = pa.table({"qid": [qrels.queries[i] for i in qrels.query], "docid": qrels.doc,
                  "grade": pa.array(qrels.grade, pa.int64())})
    r = pa.table({"qid": [run.queries[i] for i in run.query], "docid": run.doc,
                  "score": pa.array(run.score, pa.float64())})
    return q, r


def same(spark_result, local):
    """Equal bits: the per-query values, their order, the averages and the query lists."""
    r = spark_result.result
    assert list(r.per_query) == list(local.per_query)
    assert r.per_query == local.per_query
    assert r.aggregate == local.aggregate
    assert r.missing_from_run == local.missing_from_run
    assert sorted(r.missing_from_qrels) == sorted(local.missing_from_qrels)


@pytest.mark.parametrize("name", ["bm25", "tf"])
@pytest.mark.parametrize("missing", ["skip", "zero"])
def test_bundled_collection_equals_the_single_machine_path(spark, name, missing):
    from metrics.spark import evaluate

    qrels, run = read_qrels(COLLECTION / "qrels.txt"), read_run(COLLECTION / f"run_{name}.txt")
    # drop three queries from the run, so that -c (missing="zero") has something to do
    kept = {qid: ranking for qid, ranking in run.to_dict().items() if qid not in ("101", "106", "110")}
    run = run_from_dict(kept)
    q, r = tables(qrels, run)
    local = evaluate_batch(qrels, run, MEASURES, missing=missing)
    got = evaluate(spark.createDataFrame(q), spark.createDataFrame(r), MEASURES, missing=missing, buckets=3)
    same(got, local)
    assert len(got.result.per_query) == (30 if missing == "zero" else 27)
    # the DataFrames carry the same numbers
    rows = {row["qid"]: row.asDict() for row in got.per_query.collect()}
    assert rows.keys() == local.per_query.keys()
    assert all(rows[q]["AP"] == local.per_query[q]["AP"] for q in rows)
    (agg,) = got.aggregate.collect()
    assert agg["qid"] == "all" and agg["nDCG@10"] == local.aggregate["nDCG@10"]


def test_bundled_collection_agrees_with_pytrec_eval(spark):
    from metrics.spark import evaluate

    qrels, run = read_qrels(COLLECTION / "qrels.txt"), read_run(COLLECTION / "run_bm25.txt")
    q, r = tables(qrels, run)
    got = evaluate(spark.createDataFrame(q), spark.createDataFrame(r), "AP nDCG@10 P@5 RR Bpref")
    oracle = pytrec_eval.RelevanceEvaluator(qrels.to_dict(), {"map", "ndcg_cut_10", "P_5", "recip_rank", "bpref"})
    expected = oracle.evaluate(run.to_dict())
    for qid, values in got.result.per_query.items():
        assert values["AP"] == pytest.approx(expected[qid]["map"], abs=1e-12)
        assert values["nDCG@10"] == pytest.approx(expected[qid]["ndcg_cut_10"], abs=1e-12)
        assert values["P@5"] == pytest.approx(expected[qid]["P_5"], abs=1e-12)
        assert values["RR"] == pytest.approx(expected[qid]["recip_rank"], abs=1e-12)
        assert values["Bpref"] == pytest.approx(expected[qid]["bpref"], abs=1e-12)


def test_trec_eval_global_rules_by_hand(spark):
    from metrics.spark import evaluate

    qrels = qrels_df(spark, [("q1", "a", 1), ("q1", "c", 2), ("q2", "x", 1), ("q3", "z", 1), ("q4", "n", 0)])
    run = run_df(spark, [
        ("q1", "a", 1.0), ("q1", "b", 1.0), ("q1", "c", 3.0),   # c first; a and b tie: b (larger id) first
        ("q2", "y", 2.0),                                        # x never retrieved
        ("q4", "n", 1.0),                                        # judged, nothing relevant
        ("q9", "a", 1.0),                                        # not judged: ignored
    ])
    skip = evaluate(qrels, run, "RR P@3 NumQ NumRet", buckets=2)
    # q1: c rank 1, b rank 2, a rank 3 -> RR 1, P@3 2/3; q2: RR 0; q4: RR 0; q3 skipped
    assert list(skip.result.per_query) == ["q1", "q2", "q4"]
    assert skip.result.per_query["q1"]["P@3"] == 2 / 3
    assert skip.result.aggregate["RR"] == (1 + 0 + 0) / 3
    assert skip.result.aggregate["NumQ"] == 3 and skip.result.aggregate["NumRet"] == 5
    assert skip.result.missing_from_run == ["q3"] and skip.result.missing_from_qrels == ["q9"]
    zero = evaluate(qrels, run, "RR NumQ", missing="zero", buckets=2)
    # -c: q3 counts as 0, in the judgments' order
    assert list(zero.result.per_query) == ["q1", "q2", "q3", "q4"]
    assert zero.result.aggregate["RR"] == 1 / 4 and zero.zero_scored == ["q3"]
    deep = evaluate(qrels, run, "P@3", depth=2)  # -M 2: a (rank 3) is cut
    assert deep.result.per_query["q1"]["P@3"] == 1 / 3


def test_a_document_retrieved_twice_is_an_error_unless_dedup_says(spark):
    from metrics.spark import evaluate

    qrels = qrels_df(spark, [("q1", "a", 1)])
    run = run_df(spark, [("q1", "a", 1.0), ("q1", "b", 2.0), ("q1", "a", 3.0)])
    with pytest.raises(ValueError, match=r"<run>: query q1: document 'a' appears 2 times; trec_eval refuses"):
        evaluate(qrels, run, "RR")
    # max keeps a at 3.0: a ranks first
    assert evaluate(qrels, run, "RR", dedup="max").result.aggregate["RR"] == 1.0
    with pytest.raises(ValueError, match="needs the run's line order"):
        evaluate(qrels, run, "RR", dedup="first")


@pytest.mark.parametrize("rows, schema, message", [
    ([("q1", "a", float("nan"))], "qid string, docid string, score double", "score must be finite, got nan"),
    ([("q1", "a", float("inf"))], "qid string, docid string, score double", "score must be finite, got inf"),
    ([("q1", None, 1.0)], "qid string, docid string, score double", "docid is missing"),
    ([("q1", "", 1.0)], "qid string, docid string, score double", "empty document id"),
    ([("q1", "a", "high")], "qid string, docid string, score string", "column 'score' must be a number, got string"),
])
def test_bad_run_values_are_named(spark, rows, schema, message):
    from metrics.spark import evaluate

    qrels = qrels_df(spark, [("q1", "a", 1)])
    with pytest.raises((ValueError, TypeError), match=message):
        evaluate(qrels, spark.createDataFrame(rows, schema), "RR")


def test_bad_judgments_are_named(spark):
    from metrics.spark import evaluate

    run = run_df(spark, [("q1", "a", 1.0)])
    twice = qrels_df(spark, [("q1", "a", 1), ("q1", "a", 2)])
    with pytest.raises(ValueError, match="query q1: document 'a' is judged 2 times"):
        evaluate(twice, run, "RR")
    huge = spark.createDataFrame([("q1", "a", 2**40)], "qid string, docid string, grade bigint")
    with pytest.raises(ValueError, match="grade 1099511627776 is out of range"):
        evaluate(huge, run, "RR")
    with pytest.raises(ValueError, match="no column 'grade'"):
        evaluate(spark.createDataFrame([("q1", "a")], "qid string, docid string"), run, "RR")
    with pytest.raises(ValueError, match="Unknown measure|unknown measure"):
        evaluate(qrels_df(spark, [("q1", "a", 1)]), run, "Pricision@5")


@pytest.mark.slow
def test_a_million_line_run_equals_the_single_machine_path(spark, tmp_path):
    """2,000 queries × 500 documents, scores rounded so that many tie, sparse graded judgments."""
    from metrics.io import Qrels, Run
    from metrics.spark import evaluate
    from metrics.spark.files import read_qrels_df, read_run_df

    rng = np.random.default_rng(17)
    nq, depth = 2_000, 500
    qids = np.array([f"q{i}" for i in range(nq)], dtype=object)
    docs = rng.integers(0, 100_000, (nq, depth))
    docs = np.sort(docs, axis=1)  # make each ranking's documents distinct
    docs[:, 1:] += np.arange(1, depth)  # strictly increasing within a query
    doc_names = pa.array(np.char.add("d", docs.ravel().astype(str)).astype(object), pa.string())
    scores = np.round(rng.gamma(2.0, 1.0, nq * depth), 2)  # two decimals: many ties
    query = np.repeat(np.arange(nq, dtype=np.int32), depth)
    run = Run(list(qids), query, pa.chunked_array([doc_names]), scores)
    # judge ~8 documents per query, most from the run, grades 0-3; 50 judged queries never retrieved
    picked = rng.integers(0, depth, (nq, 8))
    jq = np.repeat(np.arange(nq), 8)
    jdoc = docs[jq, picked.ravel()]
    pairs = np.unique(np.stack([jq, jdoc], axis=1), axis=0)
    extra_q = np.arange(nq, nq + 50)
    all_q = np.r_[pairs[:, 0], extra_q]
    all_doc = np.r_[pairs[:, 1], np.zeros(50, dtype=np.int64)]
    judged_names = [f"q{i}" for i in range(nq + 50)]
    qrels = Qrels(judged_names, all_q.astype(np.int32),
                  pa.chunked_array([pa.array(np.char.add("d", all_doc.astype(str)).astype(object), pa.string())]),
                  rng.integers(0, 4, len(all_q)).astype(np.int64))
    assert len(run) == 1_000_000
    q, r = tables(qrels, run)
    measures = ["AP", "nDCG@10", "P@10", "RR", "Bpref", "Rprec", "11pt", "NumRelRet"]
    # through Parquet files, as a cluster reads them (createDataFrame of a million rows is slow)
    pq.write_table(q, tmp_path / "qrels.parquet")
    pq.write_table(r, tmp_path / "run.parquet", row_group_size=200_000)
    local = evaluate_batch(qrels, run, measures, missing="zero")
    got = evaluate(read_qrels_df(spark, str(tmp_path / "qrels.parquet")),
                   read_run_df(spark, str(tmp_path / "run.parquet")), measures, missing="zero")
    same(got, local)
    assert len(got.result.per_query) == 2050 and len(got.zero_scored) == 50


def test_a_grade_of_minus_two_is_pooled_not_absent(spark):
    """trec_eval prints infAP 0.7500 here (d3, graded -2, is in the pool but unjudged)."""
    from metrics.spark import evaluate
    qrels = qrels_df(spark, [("a", "d1", 1), ("a", "d3", -2), ("a", "d5", 0)])
    run = run_df(spark, [("a", "d3", 9), ("a", "d1", 5)])
    assert evaluate(qrels, run, ["infAP"]).result.per_query == {"a": {"infAP": pytest.approx(0.75, abs=1e-12)}}


def test_complete_in_9_0_8_counts_a_missing_query_as_zero(spark):
    """trec_eval 9.0.8 -c: query b, missing from the run, adds 0 (not Utility's -c*R = -1)."""
    from metrics.spark import evaluate
    qrels = qrels_df(spark, [("a", "d1", 1), ("b", "e1", 1)])
    run = run_df(spark, [("a", "d1", 1)])
    got = evaluate(qrels, run, ["Utility(c=-1)"], missing="zero")
    assert got.result.aggregate == {"Utility(c=-1)": 0.5}
    rows = {r["qid"]: r["Utility(c=-1)"] for r in got.per_query.collect()}
    assert rows == {"a": 1.0, "b": 0.0}
    assert evaluate(qrels, run, ["Utility(c=-1)"], missing="zero", trec_eval="10.0").result.aggregate == {
        "Utility(c=-1)": 0.0}
