"""RBP, ERR, INST and Judged@k against independent oracles, on random queries with a fixed seed.

Oracles and their conventions:

- ``cwl-eval`` 1.0.x (Azzopardi, Thomas & Moffat), for RBP and INST with residuals. It reads
  a gain file (``topic 0 doc gain``, gains in [0, 1]) and a TREC run whose *line order* is
  the ranking (rank and score columns are ignored). Documents missing from the gain file are
  unjudged: gain 0 for the lower bound, ``--max_gain`` (1) for the upper one; rankings are
  padded to ``--max_depth`` (1000) ranks with the same rule, and W is normalised over those
  1000 ranks. Ranklab's RBP sums the infinite tail in closed form (p^d), which differs from
  cwl-eval's 1000 ranks by p^1000 (1e-97 for p = 0.8). We call its Python classes (the CLI
  prints 4 decimals) and check the CLI once.
- ``gdeval.pl`` (TREC Web track, shipped inside ir_measures; run with perl), for ERR@k. Its
  gain is (2^g - 1) / 2^4 (``$MAX_JUDGMENT`` = 4); negative grades count 0; ties by score
  descending then document id descending (trec_eval's order); it prints 5 decimals and
  reports only queries with a relevant document.
- ir_measures' Judged provider, for Judged@k: a document is judged when it has a qrels line
  (any grade); the denominator is min(k, retrieved); ties by document id ascending.
- Hand-computed cases from the definitions (Moffat & Zobel 2008; Chapelle et al. 2009;
  Moffat et al. 2015).
"""

from __future__ import annotations

import importlib.resources
import importlib.util
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import metrics
from metrics.batch import evaluate_batch
from tests.strength import scaled

N_QUERIES = 1200
GRADES = (-1, 0, 0, 1, 1, 2, 3, 4)


def random_queries(seed: int, n: int = N_QUERIES):
    """qrels and run (doc -> score) with graded and -1 labels, unjudged documents, ties, empty
    rankings and queries without any relevant document."""
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for i in range(n):
        qid = str(i + 1)
        pool = [f"d{j}" for j in range(int(rng.integers(1, 40)))]
        judged = {d: int(rng.choice(GRADES)) for d in pool if rng.random() < 0.6}
        if not judged:
            judged = {"unretrieved": int(rng.choice(GRADES))}
        qrels[qid] = judged
        size = 0 if rng.random() < 0.05 else int(rng.integers(1, len(pool) + 1))
        docs = rng.choice(pool, size=size, replace=False).tolist()
        scores = rng.integers(0, 6, size=size).astype(float) / 2  # many ties
        run[qid] = dict(zip(docs, scores.tolist(), strict=True))
    return qrels, run


QRELS, RUN = random_queries(20261125)


def ordered(qid: str, ties: str = "docid-desc") -> list[str]:
    return metrics.prepare(RUN[qid], QRELS[qid], ties=ties).docs


# --------------------------------------------------------------------------- cwl-eval

def cwl_values(metric, gains_of, residuals: bool = True):
    """cwl-eval's lower bound and residual for every query (its own classes, full precision)."""
    from cwl.ruler.ranking import RankingMaker
    from cwl.seeker.trec_qrel_handler import TrecQrelHandler

    handler = TrecQrelHandler()
    for qid, judged in QRELS.items():
        for doc, grade in judged.items():
            handler.put_value(qid, doc, gains_of(grade))
    out = {}
    for qid in QRELS:
        maker = RankingMaker(qid, handler, None, max_gain=1.0, min_gain=0.0, max_n=1000)
        for doc in ordered(qid):
            maker.add(doc, "_")
        metric.residuals = residuals
        metric.measure(maker.get_ranking())
        out[qid] = (metric.expected_utility, metric.residual_expected_utility)
    return out


@pytest.mark.parametrize("p, rel", [(0.8, 1), (0.5, 2), (0.95, 1)])
def test_rbp_and_residual_match_cwl_eval(p, rel):
    from cwl.ruler.measures.cwl_rbp import RBPCWLMetric

    oracle = cwl_values(RBPCWLMetric(p), lambda g: 1.0 if g >= rel else 0.0)
    name = f"RBP(p={p},rel={rel})"
    lower = metrics.evaluate(QRELS, RUN, name, missing="zero").per_query
    resid = metrics.evaluate(QRELS, RUN, f"RBP(p={p},rel={rel},bound='residual')", missing="zero").per_query
    upper = evaluate_batch(QRELS, RUN, f"RBP(p={p},rel={rel},bound='upper')", missing="zero").per_query
    key = str(metrics.parse(name))
    for qid, (eu, res) in oracle.items():
        assert lower[qid][key] == pytest.approx(eu, abs=1e-9), qid
        assert next(iter(resid[qid].values())) == pytest.approx(res, abs=1e-9), qid
        assert next(iter(upper[qid].values())) == pytest.approx(eu + res, abs=1e-9), qid


@pytest.mark.parametrize("T, max_grade", [(1.0, 1), (2.0, 4), (3.0, 2), (0.5, 1)])
def test_inst_and_residual_match_cwl_eval(T, max_grade):
    from cwl.ruler.measures.cwl_inst import INSTCWLMetric

    oracle = cwl_values(INSTCWLMetric(T), lambda g: min(max(g, 0), max_grade) / max_grade)
    base = f"INST(T={T},max_grade={max_grade}"
    lower = evaluate_batch(QRELS, RUN, base + ")", missing="zero").per_query
    resid = evaluate_batch(QRELS, RUN, base + ",bound='residual')", missing="zero").per_query
    for qid, (eu, res) in oracle.items():
        assert next(iter(lower[qid].values())) == pytest.approx(eu, abs=1e-9), qid
        assert next(iter(resid[qid].values())) == pytest.approx(res, abs=1e-9), qid


def test_inst_kernel_matches_cwl_eval_on_a_sample():
    """The per-query kernel (explain) on 150 of the queries; the batch path on all of them above."""
    from cwl.ruler.measures.cwl_inst import INSTCWLMetric

    oracle = cwl_values(INSTCWLMetric(2.0), lambda g: min(max(g, 0), 2) / 2)
    for qid in list(QRELS)[:150]:
        e = metrics.explain("INST(T=2,max_grade=2,bound='upper')", RUN[qid], QRELS[qid])
        eu, res = oracle[qid]
        assert e.summary["lower"] == pytest.approx(eu, abs=1e-9)
        assert e.value == pytest.approx(eu + res, abs=1e-9)


def test_cwl_eval_command_line_agrees(tmp_path):
    """The cwl-eval command itself (4 decimals), run on files written from the same queries."""
    gains = tmp_path / "gains.txt"
    run = tmp_path / "run.txt"
    metric_file = tmp_path / "metrics.txt"
    queries = [q for q in list(QRELS)[:200] if RUN[q]]
    gains.write_text("".join(f"{q} 0 {d} {1 if g >= 1 else 0}\n" for q in queries for d, g in QRELS[q].items()))
    run.write_text("".join(f"{q} Q0 {d} {i + 1} {RUN[q][d]} r\n" for q in queries for i, d in enumerate(ordered(q))))
    metric_file.write_text("RBPCWLMetric(0.8)\nINSTCWLMetric(1.0)\n")
    # what the cwl-eval console script runs (the script itself imports distutils, gone in 3.12)
    script = importlib.util.find_spec("cwl.cwl_eval").origin
    out = subprocess.run([sys.executable, script, str(gains), str(run), "-m", str(metric_file), "-r"], cwd=tmp_path,
                         capture_output=True, text=True, timeout=300, check=True).stdout
    rbp = metrics.evaluate({q: QRELS[q] for q in queries}, RUN, "RBP RBP(bound='residual') INST").per_query
    seen = 0
    for line in out.splitlines():
        qid, name, eu, *_rest = line.split("\t")
        res = float(line.split("\t")[7])
        if name.startswith("RBP"):
            assert rbp[qid]["RBP"] == pytest.approx(float(eu), abs=6e-5)
            assert rbp[qid]["RBP(bound='residual')"] == pytest.approx(res, abs=6e-5)
        else:
            assert rbp[qid]["INST"] == pytest.approx(float(eu), abs=6e-5)
        seen += 1
    assert seen == 2 * len(queries)


# --------------------------------------------------------------------------- gdeval (ERR)

def gdeval(tmp_path, k: int, qrels_of=QRELS, run_of=RUN) -> dict[str, float]:
    script = tmp_path / "gdeval.pl"
    script.write_bytes(importlib.resources.files("ir_measures").joinpath("bin/gdeval.pl").read_bytes())
    qrels = tmp_path / "qrels.txt"
    run = tmp_path / "run.txt"
    qrels.write_text("".join(f"{q} 0 {d} {g}\n" for q, j in qrels_of.items() for d, g in j.items()))
    run.write_text("".join(f"{q} Q0 {d} 1 {s!r} r\n" for q, r in run_of.items() for d, s in r.items()))
    out = subprocess.run(["perl", str(script), str(qrels), str(run), str(k)], capture_output=True,
                         text=True, timeout=300, check=True).stdout
    rows = [line.split(",") for line in out.splitlines()[1:] if line and not line.startswith("?")]
    return {qid: float(err) for _run, qid, _ndcg, err in rows if qid != "amean"}


@pytest.mark.parametrize("k", [5, 20])
def test_err_matches_gdeval(tmp_path, k):
    oracle = gdeval(tmp_path, k)
    assert len(oracle) > 900
    ours = evaluate_batch(QRELS, RUN, f"ERR@{k}", missing="zero").per_query
    scalar = metrics.evaluate(QRELS, RUN, f"ERR@{k}", missing="zero").per_query
    for qid, value in oracle.items():
        assert ours[qid][f"ERR@{k}"] == pytest.approx(value, abs=5.1e-6), qid
        assert scalar[qid][f"ERR@{k}"] == pytest.approx(ours[qid][f"ERR@{k}"], abs=1e-12)
    # a query gdeval leaves out has nothing relevant: every R_i = 0
    for qid in set(QRELS) - set(oracle):
        assert ours[qid][f"ERR@{k}"] == 0.0


@pytest.mark.parametrize("k", [5, 20])
def test_err_upper_bound_matches_gdeval_with_unjudged_at_the_top_grade(tmp_path, k):
    """The upper bound is ERR with every unjudged document, and k - n documents appended past
    the end of a short ranking, judged at the top grade (4): gdeval computes exactly that."""
    qrels, run = {}, {}
    for qid, judged in QRELS.items():
        ranking = RUN[qid]
        low = min(ranking.values(), default=0.0)
        padding = {f"zz_pad{j}": low - 1 - j for j in range(max(0, k - len(ranking)))}
        run[qid] = {**ranking, **padding}
        qrels[qid] = {**judged, **{d: 4 for d in run[qid] if d not in judged}}
    oracle = gdeval(tmp_path, k, qrels, run)
    assert len(oracle) == len(QRELS)  # every query now has a relevant document
    upper = evaluate_batch(QRELS, RUN, f"ERR(bound='upper')@{k}", missing="zero").per_query
    resid = metrics.evaluate(QRELS, RUN, f"ERR(bound='residual')@{k}", missing="zero").per_query
    lower = evaluate_batch(QRELS, RUN, f"ERR@{k}", missing="zero").per_query
    for qid, value in oracle.items():
        up = upper[qid][f"ERR(bound='upper')@{k}"]
        assert up == pytest.approx(value, abs=5.1e-6), qid
        assert resid[qid][f"ERR(bound='residual')@{k}"] == pytest.approx(up - lower[qid][f"ERR@{k}"], abs=1e-12)


def test_err_upper_bound_of_an_empty_ranking_by_hand():
    # max_grade 1: every rank satisfies with 1/2; sum of (1/2)^i / i over i >= 1 = ln 2
    # (1,000 ranks, as INST: the rest is below 2^-1000)
    assert metrics.score("ERR(max_grade=1,bound='upper')", [], {"a": 1}) == pytest.approx(np.log(2))


# --------------------------------------------------------------------------- ir_measures (Judged)

@pytest.mark.parametrize("k", [None, 1, 5, 10])
def test_judged_matches_ir_measures(k):
    import ir_measures
    from ir_measures import Judged

    measure = Judged if k is None else Judged @ k
    provider = ir_measures.providers.registry["judged"]
    # an empty ranking has no rows, so ir_measures scores it with its default, 0 (given as a
    # query without documents, its Judged@k divides by zero)
    run = {q: r for q, r in RUN.items() if r}
    oracle = {m.query_id: m.value for m in provider.iter_calc([measure], QRELS, run)}
    assert len(oracle) == len(QRELS) > len(run)
    run = RUN
    name = "Judged" if k is None else f"Judged@{k}"
    for qid, value in oracle.items():  # ir_measures breaks ties by document id ascending
        assert metrics.score(name, run[qid], QRELS[qid], ties="docid-asc") == pytest.approx(value, abs=1e-12)


# --------------------------------------------------------------------------- batch = kernel

@pytest.mark.parametrize("name", ["RBP", "RBP(p=0.5,bound='upper')@5", "RBP(bound='residual')@3", "ERR",
                                  "ERR(max_grade=2)@3", "ERR(bound='upper')@7", "ERR(bound='residual')", "INST@10", "INST(T=2,bound='residual')@8",
                                  "Judged", "Judged@3", "DCG(base=10)@5", "AP(denominator='retrieved',empty=1)@5", "nDCG(base=3.5,dcg='jarvelin')"])
def test_batch_equals_kernel(name):
    qrels = dict(list(QRELS.items())[:300])
    fast = evaluate_batch(qrels, RUN, name, missing="zero")
    slow = metrics.evaluate(qrels, RUN, name, missing="zero")
    for qid, values in slow.per_query.items():
        for key, value in values.items():
            assert fast.per_query[qid][key] == pytest.approx(value, abs=1e-12), (qid, key)


# --------------------------------------------------------------------------- by hand

def test_rbp_by_hand():
    # p = 0.5; relevant at ranks 1 and 3, rank 2 unjudged, rank 4 judged non-relevant
    e = metrics.explain("RBP(p=0.5)", ["a", "b", "c", "d"], {"a": 1, "c": 1, "d": 0})
    assert e.value == pytest.approx(0.5 * (1 + 0.25))
    # residual: rank 2's weight 0.5 * 0.5, plus the tail 0.5^4 past rank 4
    assert e.summary["residual"] == pytest.approx(0.25 + 0.0625)
    assert metrics.score("RBP(p=0.5,bound='upper')", ["a", "b", "c", "d"], {"a": 1, "c": 1, "d": 0}) == \
        pytest.approx(0.625 + 0.3125)
    assert e.columns["weight"] == pytest.approx([0.5, 0.25, 0.125, 0.0625])
    assert "0.5^{0} + 0.5^{2}" in e.formula
    # an empty ranking: nothing known, all of the weight is residual
    assert metrics.score("RBP(bound='residual')", [], {"a": 1}) == 1.0


def test_err_by_hand():
    # Chapelle et al.: R = (2^g - 1) / 16 for grades 4, 0, 2: 15/16, 0, 3/16
    e = metrics.explain("ERR@3", ["a", "b", "c"], {"a": 4, "b": 0, "c": 2})
    assert e.columns["stop"] == pytest.approx([15 / 16, 0, 3 / 16])
    assert e.columns["reach"] == pytest.approx([1, 1 / 16, 1 / 16])
    assert e.value == pytest.approx(15 / 16 + (1 / 16) * (3 / 16) / 3)
    # grades above max_grade count as max_grade; -1 as 0
    assert metrics.score("ERR(max_grade=1)", ["a", "b"], {"a": 3, "b": -1}) == pytest.approx(0.5)


def test_inst_by_hand():
    # T = 1, relevant at rank 1, depth 2: C_1 = ((1 + 1 + 0 - 1) / 2)^2 = 1/4, W = (1, 1/4) / 1.25
    e = metrics.explain("INST@2", ["a", "b"], {"a": 1, "b": 0})
    assert e.columns["continue"][0] == pytest.approx(0.25)
    assert e.columns["weight"] == pytest.approx([0.8, 0.2])
    assert e.value == pytest.approx(0.8)
    # nothing relevant: C_i = ((i + 1) / (i + 2))^2, W_1 = 1 / (1 + (2/3)^2) at depth 2
    e = metrics.explain("INST(bound='upper')@2", ["a"], {"a": 0})
    # upper bound: rank 2 (past the end) gets gain 1; C_1 = (2/3)^2 as before
    w2 = (4 / 9) / (1 + 4 / 9)
    assert e.value == pytest.approx(w2)


def test_judged_by_hand():
    assert metrics.score("Judged@4", ["a", "b", "c"], {"a": -1, "c": 0}) == pytest.approx(2 / 3)
    assert metrics.score("Judged@2", ["a", "b", "c"], {"a": -1, "c": 0}) == pytest.approx(1 / 2)
    assert metrics.score("Judged", [], {"a": 1}) == 0.0


@pytest.mark.parametrize("text, message", [
    ("RBP(p=1)", "p must be a number in (0.0, 1.0)"), ("RBP(p=0)", "p must be"), ("RBP(p='x')", "p must be"),
    ("INST(T=0)", "T must be"), ("INST(T=0.0)", "T must be"), ("ERR(max_grade=0)", "max_grade must be"),
    ("ERR(max_grade=2.5)", "max_grade must be an integer"), ("RBP(bound='middle')", "bound must be one of"),
    ("INST@1000000", "at most 100000"), ("ERR(bound='upper')@1000000", "at most 100000"), ("Judged@0", "positive integer"), ("ERR(p=0.5)", "has no parameter"),
])
def test_bad_parameters(text, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        metrics.parse(text)


def test_notation_round_trips():
    for text in ["RBP(p=0.9,bound='residual')@10", "ERR(max_grade=3)@20", "INST(T=3)", "Judged@10"]:
        m = metrics.parse(text)
        assert metrics.parse(str(m)) == m
    assert str(metrics.parse("RBP(p=0.8)")) == "RBP" and str(metrics.parse("INST(T=1)")) == "INST"


# --------------------------------------------------------------------------- the command line

def test_ranklab_evaluate_prints_rbp_and_inst_as_cwl_eval_computes_them():
    import json
    from pathlib import Path

    from cwl.ruler.measures.cwl_inst import INSTCWLMetric
    from cwl.ruler.measures.cwl_rbp import RBPCWLMetric
    from cwl.ruler.ranking import RankingMaker
    from cwl.seeker.trec_qrel_handler import TrecQrelHandler

    from tests.metrics.io.test_io import simple_qrels_parse, simple_run_parse

    root = Path(__file__).resolve().parents[3] / "assets" / "collection"
    qrels, run = simple_qrels_parse(root / "qrels.txt"), simple_run_parse(root / "run_bm25.txt")
    handler = TrecQrelHandler()
    for qid, judged in qrels.items():
        for doc, grade in judged.items():
            handler.put_value(qid, doc, 1.0 if grade >= 1 else 0.0)
    sums = {"RBP": 0.0, "RBP(bound='residual')": 0.0, "INST": 0.0}
    for qid in qrels:
        maker = RankingMaker(qid, handler, None, max_n=1000)
        # trec_eval's order, by hand: score descending, then document id descending
        for doc, _ in sorted(sorted(run.get(qid, {}).items(), reverse=True), key=lambda t: -t[1]):
            maker.add(doc, "_")
        ranking = maker.get_ranking()
        rbp = RBPCWLMetric(0.8)
        rbp.residuals = True
        rbp.measure(ranking)
        sums["RBP"] += rbp.expected_utility
        sums["RBP(bound='residual')"] += rbp.residual_expected_utility
        sums["INST"] += INSTCWLMetric(1.0).measure(ranking)
    out = subprocess.run([sys.executable, "-m", "metrics", "evaluate", str(root / "qrels.txt"),
                          str(root / "run_bm25.txt"), "-c", "-m", "RBP(p=0.8)", "-m", "RBP(bound='residual')",
                          "-m", "INST(T=1)", "--format", "json"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    printed = json.loads(out.stdout)["aggregate"]
    for name, total in sums.items():
        assert printed[name] == pytest.approx(total / len(qrels), abs=1e-9)


# --------------------------------------------------------------------------- invariants

@st.composite
def query(draw):
    docs = draw(st.lists(st.sampled_from([f"d{i}" for i in range(12)]), max_size=12, unique=True))
    judged = draw(st.dictionaries(st.sampled_from([f"d{i}" for i in range(15)]), st.integers(-1, 5), max_size=15))
    return docs, judged


@settings(max_examples=scaled(150), deadline=None)
@given(query(), st.sampled_from([None, 1, 3, 20]), st.sampled_from([0.5, 0.8, 0.95]))
def test_bounds_hold(q, k, p):
    docs, judged = q
    at = "" if k is None else f"@{k}"
    low = metrics.score(f"RBP(p={p}){at}", docs, judged)
    high = metrics.score(f"RBP(p={p},bound='upper'){at}", docs, judged)
    resid = metrics.score(f"RBP(p={p},bound='residual'){at}", docs, judged)
    assert 0.0 <= low <= high <= 1.0 + 1e-12
    assert resid == pytest.approx(high - low)
    il = metrics.score(f"INST{at}", docs, judged)
    iu = metrics.score(f"INST(bound='upper'){at}", docs, judged)
    assert 0.0 <= il <= iu + 1e-12 <= 1.0 + 1e-9
    for name in (f"ERR{at}", f"Judged{at}", f"ERR(max_grade=5){at}"):
        assert 0.0 <= metrics.score(name, docs, judged) <= 1.0
    # judging every retrieved document leaves no residual but the tail past the end
    full = {d: judged.get(d, 0) for d in docs}
    depth = len(docs) if k is None else min(k, len(docs))
    assert metrics.score(f"RBP(p={p},bound='residual'){at}", docs, full) == pytest.approx(p ** depth)
