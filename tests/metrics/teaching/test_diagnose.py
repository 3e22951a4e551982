"""Diagnose a discrepancy: for each convention, a reproducer whose "their" numbers come from the
real peer (pytrec_eval, scikit-learn, ir_measures) or, where the peer is not installed, from the
published numbers of the issue it comes from, rebuilt as a small case checked by hand.
``diagnose`` must name the convention, and nothing else, for each."""

from __future__ import annotations

import math

import ir_measures
import numpy as np
import pytest
import pytrec_eval
from sklearn.metrics import average_precision_score, ndcg_score

from metrics.io import read_qrels, read_run
from metrics.io.theirs import Number, Theirs, number
from metrics.teaching import diagnose as dg


def exact(x: float) -> Number:
    """A number printed with every digit (a peer's float)."""
    return Number(x, repr(x), 1e-12)


def per_query(values: dict) -> Theirs:
    return Theirs({q: exact(float(v)) for q, v in values.items()})


def names(d) -> list[str]:
    return [str(c) for c in d.changes]


def all_names(d) -> set[frozenset]:
    return {frozenset(str(c) for c in alt) for alt in d.alternatives}


# --------------------------------------------------------------------------- tie order

def test_ties_docid_ascending_from_ir_measures_rr_cutoff():
    # ir_measures' RR@k path breaks ties by doc id ascending; pytrec_eval (trec_eval) descending
    qrels = {"q1": {"a": 1, "b": 0}, "q2": {"c": 1, "d": 0}, "q3": {"e": 1}}
    # input order puts the larger id first, so only doc id ascending puts "a" and "e" first
    run = {"q1": {"b": 2.0, "a": 2.0, "z": 1.0}, "q2": {"d": 3.0, "c": 1.0}, "q3": {"f": 1.0, "e": 1.0}}
    res = {str(m.query_id): m.value for m in ir_measures.iter_calc([ir_measures.RR @ 10], qrels, run)}
    assert res == {"q1": 1.0, "q2": 0.5, "q3": 1.0}
    d = dg.diagnose(qrels, run, "RR@10", theirs=per_query(res))
    assert d.matched and names(d) == ["ties=docid-asc"]
    moved = {r.qid: r.moved_by for r in d.rows if r.moved_by}
    assert moved == {"q1": ("ties=docid-asc",), "q3": ("ties=docid-asc",)}  # q2 has no tie


def test_ties_input_order_pytrec_eval_56():
    # pytrec_eval#56: ties broken by doc id, not by the order given. A tool keeping the input
    # order ranks d1 first: RR = 1; trec_eval orders the tie d2, d1, d0: RR = 1/2 (by hand);
    # doc id ascending (d0, d1, d2) gives 1/2 too, so only the input order reproduces 1.
    qrels = {"q": {"d1": 1}}
    run = {"q": {"d1": 0.7, "d2": 0.7, "d0": 0.7}}
    d = dg.diagnose(qrels, run, "RR", theirs=Theirs(aggregate=number("1.0")))
    assert d.baseline.aggregate == 0.5
    assert names(d) == ["ties=input"] and d.found.aggregate == 1.0


# --------------------------------------------------------------------------- float32 scores

def test_float32_scores_are_the_default_and_doubles_a_convention():
    # pytrec_eval (trec_eval 9.0.8) stores scores as float32: 1.000000001 and 1.0 tie, and the
    # tie goes to the larger doc id (c, b, a: RR 1/2): Ranklab's default reproduces it.
    qrels = {"q1": {"b": 1}, "q2": {"c": 1, "d": 0}}
    run = {"q1": {"c": 1.0, "a": 1.0, "b": 1.000000001}, "q2": {"c": 2.0, "d": 1.0}}
    res = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate(run)
    assert res["q1"]["recip_rank"] == 0.5
    d = dg.diagnose(qrels, run, "RR", theirs=per_query({q: v["recip_rank"] for q, v in res.items()}))
    assert d.matched and names(d) == []
    # a tool comparing doubles (trec_eval 10.0, sklearn, ranx) ranks "b" first: RR 1 on q1, by hand;
    # no tie rule gives 1 (doc id ascending: a, b, c: 1/2; input order c, a, b: 1/3)
    d = dg.diagnose(qrels, run, "RR", theirs=per_query({"q1": 1.0, "q2": 1.0}))
    assert names(d) == ["scores=double"]
    assert [(r.qid, r.moved_by) for r in d.rows if r.moved_by] == [("q1", ("scores=double",))]
    # with an evaluate() keyword too (tie-aware averaging), doubles stay doubles
    both = dg.evaluate_under(dg.prepare(qrels, run), dg.parse("RR"),
                             [next(o for o in c.options if o.value == v) for c, v in
                              ((dg.CONVENTIONS[0], "average"), (dg._ROWS["scores"], "double"))])
    assert both.per_query["q1"] == 1.0  # no tie in doubles: "b" first


# --------------------------------------------------------------------------- gain

QRELS_GRADED = {"q1": {"a": 3, "b": 2, "c": 1, "d": 0}, "q2": {"x": 2, "y": 1}, "q3": {"m": 1, "n": 3}}
RUN_GRADED = {"q1": {"c": 4.0, "b": 3.0, "a": 2.0, "e": 1.0}, "q2": {"y": 2.0, "z": 1.5, "x": 1.0},
              "q3": {"m": 5.0, "o": 4.0}}


def exponential_ndcg(qrels, run, k):
    """pytrec_eval's (linear) nDCG on grades replaced by 2^grade - 1: the exponential gain.
    (ir_measures sends dcg='exp-log2' to gdeval.pl, which fails on this machine.)"""
    remapped = {q: {d: 2 ** g - 1 for d, g in docs.items()} for q, docs in qrels.items()}
    res = pytrec_eval.RelevanceEvaluator(remapped, {f"ndcg_cut_{k}"}).evaluate(run)
    return {q: v[f"ndcg_cut_{k}"] for q, v in res.items()}


def test_exponential_gain_from_pytrec_eval_on_remapped_grades():
    res = exponential_ndcg(QRELS_GRADED, RUN_GRADED, 10)
    d = dg.diagnose(QRELS_GRADED, RUN_GRADED, "nDCG@10", theirs=per_query(res))
    assert d.matched and names(d) == ["gain=exponential"]
    assert {r.qid for r in d.rows if r.moved_by == ("gain=exponential",)} == {"q1", "q2", "q3"}


def test_gdeval_gain_opennir_14():
    # OpenNIR#14: gdeval's nDCG is lower than trec_eval's (gain 2^g - 1), and gdeval leaves queries
    # without a relevant document out of the mean. By hand, q1: ranking b(1), a(2):
    # DCG = 1 + 3/log2(3) = 2.8928, IDCG = 3 + 1/log2(3) = 3.6309 -> 0.7967; q2 has no relevant
    # document: trec_eval averages (0.7967 + 0) / 2, gdeval reports 0.7967 alone.
    qrels = {"q1": {"a": 2, "b": 1}, "q2": {"z": 0}}
    run = {"q1": {"b": 2.0, "a": 1.0}, "q2": {"z": 1.0}}
    value = (1 + 3 / math.log2(3)) / (3 + 1 / math.log2(3))
    d = dg.diagnose(qrels, run, "nDCG@20", theirs=Theirs(aggregate=number(f"{value:.5f}")))
    assert names(d) == ["gain=gdeval"]
    assert abs(d.found.aggregate - value) < 1e-12


# --------------------------------------------------------------------------- ideal list

def test_ideal_from_ranking_from_sklearn_pytrec_eval_51():
    # pytrec_eval#51: sklearn's ndcg_score takes the ideal from the list it is given
    qrels = {"q1": {"a": 3, "b": 1, "g": 2}, "q2": {"x": 1, "y": 2, "w": 3}}
    run = {"q1": {"b": 0.9, "c": 0.5, "a": 0.1}, "q2": {"x": 0.8, "y": 0.3, "v": 0.2}}
    theirs = {}
    for q, docs in run.items():
        ids = list(docs)
        y_true = np.array([[qrels[q].get(doc, 0) for doc in ids]])
        y_score = np.array([[docs[doc] for doc in ids]])
        theirs[q] = ndcg_score(y_true, y_score)
    d = dg.diagnose(qrels, run, "nDCG", theirs=per_query(theirs))
    assert names(d) == ["ideal=ranking"]


# --------------------------------------------------------------------------- AP denominator

def test_ap_denominator_from_sklearn():
    qrels = {"q1": {"a": 1, "b": 1, "c": 1}, "q2": {"x": 1, "y": 1}}
    run = {"q1": {"a": 0.9, "n": 0.8, "b": 0.7, "m": 0.1}, "q2": {"k": 0.9, "y": 0.5, "j": 0.2}}
    theirs = {}
    for q, docs in run.items():
        ids = list(docs)
        theirs[q] = average_precision_score([1 if qrels[q].get(doc, 0) > 0 else 0 for doc in ids],
                                            [docs[doc] for doc in ids])
    d = dg.diagnose(qrels, run, "AP", theirs=per_query(theirs))
    assert names(d) == ["denominator=retrieved"]


def test_map_several_gold_documents_haystack_7758():
    # haystack's DocumentMAPEvaluator divides by the relevant documents retrieved (haystack#7758,
    # PR#12255): two gold documents, one retrieved at rank 1 -> 1.0, where trec_eval gives 1/2.
    d = dg.diagnose({"q": {"a": 1, "b": 1}}, {"q": ["a", "x"]}, "AP", theirs=Theirs(aggregate=number("1.0")))
    assert d.baseline.aggregate == 0.5
    assert names(d) == ["denominator=retrieved"]


# --------------------------------------------------------------------------- duplicates

def _run_file(tmp_path, lines: str):
    path = tmp_path / "run.txt"
    path.write_text(lines)
    return read_run(path, dedup=None)


def test_duplicates_kept_haystack_pr_11959(tmp_path):
    # haystack PR#11959: ground truth A, retrieved A, A -> nDCG 1.6309297535714575 before the fix
    # (1 + 1/log2(3), divided by an ideal of 1)
    qrels = read_qrels(b"q 0 A 1\n", name="qrels.txt")
    run = _run_file(tmp_path, "q Q0 A 1 2.0 t\nq Q0 A 2 1.0 t\n")
    d = dg.diagnose(qrels, run, "nDCG", theirs=Theirs(aggregate=number("1.6309297535714575")))
    assert names(d) == ["duplicates=kept"]
    assert d.baseline.aggregate == 1.0


def test_duplicates_last_from_pytrec_eval_dict(tmp_path):
    # a dict built from the run's lines keeps the last score of a document (pytrec_eval's input)
    text = "q1 Q0 a 1 3.0 t\nq1 Q0 b 2 2.0 t\nq1 Q0 a 3 1.0 t\nq2 Q0 c 1 1.0 t\n"
    qrels = {"q1": {"a": 1}, "q2": {"c": 1}}
    as_dict: dict = {}
    for line in text.splitlines():
        q, _, doc, _, score, _ = line.split()
        as_dict.setdefault(q, {})[doc] = float(score)
    res = pytrec_eval.RelevanceEvaluator(qrels, {"recip_rank"}).evaluate(as_dict)
    d = dg.diagnose(qrels, _run_file(tmp_path, text), "RR",
                    theirs=per_query({q: v["recip_rank"] for q, v in res.items()}))
    assert res["q1"]["recip_rank"] == 0.5
    assert names(d) == ["duplicates=last"]


# --------------------------------------------------------------------------- identical ids

def test_identical_ids_ignored_from_pytrec_eval_beir_91():
    # beir#91: BEIR pops every document whose id equals the query id before calling pytrec_eval
    qrels = {"q1": {"d1": 1, "d2": 1}, "q2": {"d3": 2}}
    run = {"q1": {"q1": 9.0, "d1": 5.0, "x": 4.0, "d2": 3.0}, "q2": {"q2": 3.0, "z": 2.0, "d3": 1.0}}
    beir_run = {q: {doc: s for doc, s in docs.items() if doc != q} for q, docs in run.items()}
    res = pytrec_eval.RelevanceEvaluator(qrels, {"ndcg_cut_10"}).evaluate(beir_run)
    d = dg.diagnose(qrels, run, "nDCG@10", theirs=per_query({q: v["ndcg_cut_10"] for q, v in res.items()}))
    assert names(d) == ["identical=ignored"]


# --------------------------------------------------------------------------- missing queries

def test_missing_queries_zero_from_ir_measures():
    # ir_measures counts a judged query absent from the run as 0 in the mean (trec_eval -c)
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1}}
    run = {"q1": {"x": 2.0, "a": 1.0}, "q2": {"b": 1.0}}
    value = ir_measures.calc_aggregate([ir_measures.AP], qrels, run)[ir_measures.AP]
    d = dg.diagnose(qrels, run, "AP", theirs=Theirs(aggregate=exact(value)))
    assert names(d) == ["missing=zero"]
    assert d.found.per_query["q3"] == 0.0


# --------------------------------------------------------------------------- relevance level

def test_relevance_level_from_pytrec_eval():
    qrels = {"q1": {"a": 1, "b": 2, "c": 2}, "q2": {"x": 1, "y": 2}}
    run = {"q1": {"a": 3.0, "b": 2.0, "z": 1.0}, "q2": {"x": 2.0, "w": 1.5, "y": 1.0}}
    res = pytrec_eval.RelevanceEvaluator(qrels, {"map"}, relevance_level=2).evaluate(run)
    d = dg.diagnose(qrels, run, "AP", theirs=per_query({q: v["map"] for q, v in res.items()}))
    assert names(d) == ["rel=2"]


# --------------------------------------------------------------------------- cutoff -M

def test_depth_from_ir_measures_rr_at_10():
    # ir_measures' RR@10 (ranx mrr@10) is 0 when the first relevant document is below rank 10:
    # RR with -M 10. No ties here, so its doc-id-ascending tie rule plays no part.
    qrels = {"q1": {"d12": 1}, "q2": {"d2": 1}}
    run = {"q1": {f"d{i}": 100.0 - i for i in range(1, 16)}, "q2": {f"d{i}": 100.0 - i for i in range(1, 16)}}
    res = {str(m.query_id): m.value for m in ir_measures.iter_calc([ir_measures.RR @ 10], qrels, run)}
    d = dg.diagnose(qrels, run, "RR", theirs=per_query(res))
    assert res["q1"] == 0.0
    assert {"depth=10"} in [set(map(str, alt)) for alt in d.alternatives]
    assert d.matched


# --------------------------------------------------------------------------- flattened queries

def test_flattened_queries_torchmetrics_3216():
    # torchmetrics#3216: per-query nDCG 0.6309 and 1.0 (mean 0.8155); the 2-D call flattens both
    # queries into one list and prints 0.9197. By hand: the six scores sorted put q2's relevant
    # document first and q1's third: DCG = 1 + 1/log2(4) = 1.5, IDCG = 1 + 1/log2(3) -> 0.9197.
    qrels = {"q1": {"a": 0, "b": 1, "c": 0}, "q2": {"x": 1, "y": 0, "z": 0}}
    run = {"q1": {"a": 0.1, "b": 0.2, "c": 0.3}, "q2": {"x": 0.8, "y": 0.1, "z": 0.05}}
    d = dg.diagnose(qrels, run, "nDCG", theirs=Theirs(aggregate=number("0.9197")))
    assert round(d.baseline.per_query["q1"], 4) == 0.6309 and round(d.baseline.aggregate, 4) == 0.8155
    assert names(d) == ["flatten=flattened"]
    assert abs(d.found.aggregate - 1.5 / (1 + 1 / math.log2(3))) < 1e-12


# --------------------------------------------------------------------------- rounding, no match

def test_printed_precision_is_matched_and_nothing_else_changes():
    # trec_eval prints 4 decimals: (1 + 2/3) / 4 = 0.416666... printed 0.4167
    qrels = {"q": {"a": 1, "b": 1, "c": 1, "d": 1}}
    run = {"q": ["a", "x", "b"]}
    d = dg.diagnose(qrels, run, "AP", theirs=Theirs(aggregate=number("0.4167")))
    assert d.matched and d.changes == () and d.rounding == 0.00005
    assert "within the precision they were printed with" in d.verdict
    assert dg.diagnose(qrels, run, "AP", theirs=Theirs(aggregate=number(repr(5 / 12)))).rounding is None
    assert dg.diagnose(qrels, run, "AP", theirs=Theirs(aggregate=number("0.41667"))).changes == ()
    off = dg.diagnose(qrels, run, "AP", theirs=Theirs(aggregate=number("0.4166")))  # beyond +-0.00005
    assert not (off.matched and off.changes == ())


def test_nothing_reproduces_shows_closest_and_residuals():
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    run = {"q1": ["x", "a"], "q2": ["b"]}
    theirs = Theirs({"q1": number("0.123"), "q2": number("1.0")})
    d = dg.diagnose(qrels, run, "RR", theirs=theirs)
    assert not d.matched and d.verdict.startswith("No set of conventions")
    row = {r.qid: r for r in d.rows}
    assert row["q1"].matches is False and abs(row["q1"].residual - (0.123 - d.found.per_query["q1"])) < 1e-12
    assert row["q2"].matches is True
    assert d.evaluations <= dg.MAX_EVALUATIONS


def test_tie_aware_row_is_skipped_unless_metrics_has_it():
    qrels = {"q": {"a": 1}}
    run = {"q": {"a": 1.0, "b": 1.0}}
    option = next(o for o in dg.CONVENTIONS[0].options if o.value == "average")
    d = dg.diagnose(qrels, run, "RR", theirs=Theirs(aggregate=number("0.75")))
    if dg.available(option) is None:  # a build of metrics with ties="average": tried like any row
        changes, notes = dg.applicable(dg.prepare(qrels, run), dg.parse("RR"))
        assert "ties=average" in map(str, changes) and not any("not available" in n for n in notes)
    else:
        assert any("ties='average'" in n and "not available" in n for n in d.notes)
        assert not d.matched


# --------------------------------------------------------------------------- tools by name

def test_tool_view_names_each_tools_conventions():
    qrels = {"q1": {"a": 1, "b": 1}, "q2": {"q2": 1, "c": 1}}
    run = {"q1": {"a": 0.5, "x": 0.4}, "q2": {"q2": 0.9, "y": 0.8, "c": 0.1}}
    sk = dg.diagnose(qrels, run, "AP", tool="sklearn")
    threshold = next(o for o in dg.CONVENTIONS[0].options if o.value == "threshold")
    assert names(sk) == ([] if dg.available(threshold) else ["ties=threshold"]) + ["scores=double",
                                                                                   "denominator=retrieved"]
    # sklearn's own numbers agree with the tool view
    for q, docs in run.items():
        ids = list(docs)
        theirs = average_precision_score([1 if qrels[q].get(d, 0) > 0 else 0 for d in ids], [docs[d] for d in ids])
        assert abs(sk.found.per_query[q] - theirs) < 1e-12
    beir = dg.diagnose(qrels, run, "AP", tool="beir")
    assert "identical=ignored" in names(beir)
    assert [r.qid for r in beir.rows] == ["q2"]
    with pytest.raises(ValueError, match="tool must be one of"):
        dg.diagnose(qrels, run, "AP", tool="nope")


def test_mistake_links_name_check_my_calculations_catalogue():
    from metrics.teaching.check import MISTAKES

    keys = {m.key for m in MISTAKES}
    linked = [o.mistake for c in dg.CONVENTIONS for o in c.options if o.mistake]
    assert linked and set(linked) <= keys
    # and the mistake recomputes what the convention does, on the Pinecone notebook's AP example
    ranking, judged = ["a", "x", "b", "y", "z"], {"a": 1, "b": 1, "c": 1, "d": 1}
    mistake = next(m for m in MISTAKES if m.key == "ap_retrieved")
    from metrics.teaching.check import check
    assert check("AP", ranking, judged, {"value": "0.8333"}).diagnosis.mistake == mistake
    d = dg.diagnose({"q": judged}, {"q": ranking}, "AP", theirs=Theirs(aggregate=number("0.8333")))
    assert names(d) == ["denominator=retrieved"] and d.changes[0].option.mistake == "ap_retrieved"


def test_every_convention_row_has_a_reproducer_here():
    # recall_cut, rbp_weights and ideal='trec_eval': tests/metrics/test_trec_conventions.py
    tested = {"ties", "scores", "gain", "ideal", "denominator", "duplicates", "identical", "missing", "rel",
              "depth", "flatten", "recall_cut", "rbp_weights"}
    assert {c.key for c in dg.CONVENTIONS} == tested


def test_search_is_fast_enough_on_thousands_of_queries():
    # 3,000 queries x 100 documents; their numbers: exponential gain and -c. Not timed here
    # (benchmarks time things); the bound on evaluations is what is checked.
    rng = np.random.default_rng(7)
    qrels, run = {}, {}
    for i in range(3000):
        q = f"q{i}"
        qrels[q] = {f"d{j}": int(rng.integers(0, 4)) for j in rng.choice(200, 20, replace=False)}
        run[q] = {f"d{j}": float(s) for j, s in zip(rng.choice(200, 100, replace=False), rng.random(100), strict=True)}
    for i in range(3000, 3010):
        qrels[f"q{i}"] = {"d1": 1}
    value = sum(exponential_ndcg(qrels, run, 10).values()) / len(qrels)  # -c: missing queries count 0
    d = dg.diagnose(qrels, run, "nDCG@10", theirs=Theirs(aggregate=exact(value)))
    assert set(names(d)) == {"gain=exponential", "missing=zero"}
    assert d.evaluations <= dg.MAX_EVALUATIONS


def test_the_bounded_search_recovers_any_one_or_two_conventions():
    # a round trip, not a value: numbers made under one or two random conventions (each applied by
    # its own transform or parameter) must be reproduced by the search, within its bound
    import random

    rng = random.Random(3)
    for _ in range(40):
        qrels, run = {}, {}
        for i in range(8):
            q = f"q{i}"
            qrels[q] = {f"d{j}": rng.randint(0, 3) for j in rng.sample(range(15), 6)}
            if rng.random() < 0.2:
                qrels[q][q] = 1
            if i == 7 and rng.random() < 0.5:
                continue  # a judged query missing from the run
            run[q] = {f"d{j}": round(rng.random(), 1) for j in rng.sample(range(15), 10)}  # ties
            if rng.random() < 0.3:
                run[q][q] = 0.95
        m = dg.parse(rng.choice(["AP", "nDCG@5", "RR", "P@5", "nDCG", "AP@5", "RR@3"]))
        p = dg.prepare(qrels, run)
        changes, _ = dg.applicable(p, m)
        picked: list = []
        size = rng.choice([1, 2])
        for c in rng.sample(changes, len(changes)):
            if c.convention.key not in {x.convention.key for x in picked}:
                picked.append(c)
            if len(picked) == size:
                break
        try:
            made = dg.evaluate_under(p, m, [c.option for c in picked])
        except ValueError:  # a pair with no definition (tie-aware averaging of flattened queries)
            continue
        d = dg.diagnose(None, None, m, theirs=per_query(made.per_query), prepared=p)
        assert d.matched, (str(m), [str(c) for c in picked])
        assert d.evaluations <= dg.MAX_EVALUATIONS
