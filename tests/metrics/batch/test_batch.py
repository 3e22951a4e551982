"""Batch evaluation agrees with metrics.evaluate and with pytrec_eval (trec_eval 9.0.8)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import pytrec_eval

import metrics
from metrics import batch
from metrics.batch import evaluate_batch, evaluate_chunks
from metrics.io import qrels_from_dict, read_qrels, read_run, run_from_dict
from metrics.measures import FAMILIES as MEASURE_FAMILIES
from tests.metrics.io.test_io import simple_qrels_parse, simple_run_parse

DATA = Path(__file__).resolve().parents[2] / "data"

# every family, several conventions
OURS = [
    "P@1", "P@5", "P", "R@3", "R", "F1@5", "F1", "Success@3", "RR", "RR@3", "AP", "AP@5",
    "AP(denominator='retrieved')@5", "AP(denominator='min(k,R)')@5", "AP(denominator='min(k,R)')",
    "nDCG", "nDCG@5", "nDCG(dcg='exp-log2')@5", "nDCG(dcg='jarvelin')", "nDCG(ideal='ranking')@5",
    "nDCG(rel=2)@5", "DCG@5", "CG@3", "IDCG@4", "Rprec", "Bpref", "IPrec@0.0", "IPrec@0.3",
    "IPrec@0.7", "11pt", "NumRet", "NumRet@5", "NumRel", "NumRelRet", "NumRelRet@3", "NumQ",
    "P(rel=2)@5", "Bpref(rel=2)", "AP(rel=3)",
]

# trec_eval name -> ours, for what both compute
TREC = {
    "P_1": "P@1", "P_5": "P@5", "P_10": "P@10", "recall_3": "R@3", "recall_10": "R@10",
    "map": "AP", "map_cut_5": "AP@5", "ndcg": "nDCG", "ndcg_cut_3": "nDCG@3", "ndcg_cut_10": "nDCG@10",
    "recip_rank": "RR", "Rprec": "Rprec", "bpref": "Bpref", "iprec_at_recall_0.00": "IPrec@0.0",
    "iprec_at_recall_0.30": "IPrec@0.3", "iprec_at_recall_0.70": "IPrec@0.7",
    "iprec_at_recall_1.00": "IPrec@1.0", "11pt_avg": "11pt", "num_ret": "NumRet", "num_rel": "NumRel",
    "num_rel_ret": "NumRelRet", "set_P": "P", "set_recall": "R", "set_F": "F1", "success_1": "Success@1",
    "success_5": "Success@5",
}
FAMILIES = {"P.1,5,10", "recall.3,10", "map", "map_cut.5", "ndcg", "ndcg_cut.3,10", "recip_rank",
            "Rprec", "bpref", "iprec_at_recall", "11pt_avg", "num_ret", "num_rel", "num_rel_ret",
            "set_P", "set_recall", "set_F", "success.1,5"}


def assert_nested(got: dict, want: dict):
    assert got.keys() == want.keys()
    for qid, values in want.items():
        assert got[qid] == pytest.approx(values, abs=1e-12), qid


def random_case(seed: int, *, docs=15, queries=6, int_scores=True):
    rng = random.Random(seed)
    names = [f"d{i}" for i in range(rng.randint(1, docs))]
    qrels, run = {}, {}
    for q in range(rng.randint(1, queries)):
        qid = f"q{q}"
        if rng.random() < 0.9:
            qrels[qid] = {d: rng.choice([-1, 0, 0, 1, 2, 3]) for d in rng.sample(names, rng.randint(0, len(names)))}
        if rng.random() < 0.85:
            picked = rng.sample(names, rng.randint(0, len(names)))
            run[qid] = {d: float(rng.randint(0, 4)) if int_scores else rng.random() for d in picked}
    return qrels, run


def trec_order(ranking: dict[str, float]) -> list[str]:
    """trec_eval's order, written independently: score descending, then doc id descending."""
    by_doc = sorted(ranking.items(), key=lambda kv: kv[0].encode(), reverse=True)
    return [d for d, _ in sorted(by_doc, key=lambda kv: -kv[1])]  # stable: ties keep doc order


def truncated(run: dict, depth: int) -> dict:
    return {q: {d: ranking[d] for d in trec_order(ranking)[:depth]} for q, ranking in run.items()}


def pytrec(qrels, run, level=1):
    qrels = {q: j for q, j in qrels.items() if j}  # pytrec_eval needs at least one judgment
    ev = pytrec_eval.RelevanceEvaluator(qrels, FAMILIES, relevance_level=level)
    return ev.evaluate({q: r for q, r in run.items() if r})


def assert_same_as_pytrec(ours, ref, level=1):
    assert set(ref) <= set(ours.per_query)
    for qid, values in ref.items():
        for trec_name, ours_name in TREC.items():
            m = metrics.parse(ours_name)
            if level != 1 and "rel" in m.family.params and m.family.params["rel"] is not None:
                m = m.with_params(rel=level)
            got = ours.per_query[qid][str(m)]
            assert got == pytest.approx(values[trec_name], abs=1e-9), (qid, trec_name, got, values[trec_name])


# ----------------------------------------------------------------------------- vs metrics.evaluate


@pytest.mark.parametrize("seed", range(120))
def test_same_as_evaluate_on_random_data(seed):
    qrels, run = random_case(seed)
    for missing in ("skip", "zero"):
        for depth in (None, 3):
            want = metrics.evaluate(qrels, run, OURS, missing=missing, depth=depth)
            got = evaluate_batch(qrels, run, OURS, missing=missing, depth=depth)
            assert got.per_query.keys() == want.per_query.keys()
            assert got.missing_from_run == want.missing_from_run
            assert got.missing_from_qrels == want.missing_from_qrels
            for qid, values in want.per_query.items():
                for m, v in values.items():
                    assert got.per_query[qid][m] == pytest.approx(v, abs=1e-12), (qid, m)
            for m, v in want.aggregate.items():
                assert got.aggregate[m] == pytest.approx(v, abs=1e-12), m


def test_lists_as_rankings():
    qrels = {"q": {"b": 1, "d": 2}}
    run = {"q": ["d", "c", "b", "a"]}
    want = metrics.evaluate(qrels, run, OURS)
    got = evaluate_batch(qrels, run, OURS)
    for m, v in want.per_query["q"].items():
        assert got.per_query["q"][m] == pytest.approx(v, abs=1e-12), m


def test_every_measure_family_has_a_batch_formula():
    # there is no per-query fallback: a family added to the registry needs its batch formula
    assert set(batch.BATCH_FAMILIES) == set(MEASURE_FAMILIES)


def test_chunks_give_the_same_answer():
    qrels, run = random_case(11, queries=8)
    want = evaluate_batch(qrels, run, "AP nDCG@5 NumRet")
    chunks = []
    qids = list(qrels)
    for part in (qids[: len(qids) // 2], qids[len(qids) // 2:]):
        chunks.append((qrels_from_dict({q: qrels[q] for q in part}),
                       run_from_dict({q: run[q] for q in part if q in run})))
    got = evaluate_chunks(chunks, "AP nDCG@5 NumRet")
    assert_nested(got.per_query, want.per_query)
    assert got.aggregate == pytest.approx(want.aggregate)


def test_hand_computed_ties_and_depth():
    # scores tie at 1.0: trec_eval ranks the larger doc id first: c, b, a
    qrels = {"q": {"a": 1, "c": 0, "z": 2}}
    run = {"q": {"a": 1.0, "b": 1.0, "c": 1.0, "d": 0.5}}
    e = evaluate_batch(qrels, run, "RR AP NumRet", depth=3)
    assert e.per_query["q"]["RR"] == 1 / 3
    assert e.per_query["q"]["AP"] == (1 / 3) / 2  # R = 2 (a and z)
    assert e.per_query["q"]["NumRet"] == 3.0


# ----------------------------------------------------------------------------- vs pytrec_eval


@pytest.mark.parametrize("seed", range(60))
def test_same_as_pytrec_eval_on_random_data(seed):
    qrels, run = random_case(seed, docs=25, int_scores=seed % 2 == 0)
    assert_same_as_pytrec(evaluate_batch(qrels, run, list(TREC.values())), pytrec(qrels, run))


@pytest.mark.parametrize("level", [1, 2])
@pytest.mark.parametrize("depth", [None, 2, 4])
def test_messy_files_agree_with_pytrec_eval(level, depth):
    qrels_dict = simple_qrels_parse(DATA / "qrels_messy.txt")
    run_dict = simple_run_parse(DATA / "run_messy.txt")
    ms = [metrics.parse(n) for n in TREC.values()]
    ms = [m.with_params(rel=level) if m.family.params.get("rel") == 1 else m for m in ms]
    got = evaluate_batch(read_qrels(DATA / "qrels_messy.txt"), read_run(DATA / "run_messy.txt"), ms, depth=depth)
    ref = pytrec(qrels_dict, truncated(run_dict, depth) if depth else run_dict, level)
    assert sorted(ref) == sorted(got.per_query) == ["101", "102", "104", "105"]
    assert got.missing_from_run == ["103"] and got.missing_from_qrels == ["106"]
    assert_same_as_pytrec(got, ref, level)


def test_ties_between_ids_of_one_width_with_non_ascii_bytes_agree_with_pytrec_eval(tmp_path):
    # every id three bytes of UTF-8 (so the ties are broken on numpy's bytes, not Arrow's):
    # é and ü (bytes >= 0x80) must sort above every ASCII id, as in trec_eval's strcmp
    rng = random.Random(11)
    pool = [f"{c}{d}" for c in "éüñ" for d in range(10)] + [f"{a}{b}{d}" for a in "Az" for b in "bY" for d in range(10)]
    assert {len(d.encode()) for d in pool} == {3}
    qrels, run, lines = {}, {}, []
    for q in range(30):
        qid = f"q{q}"
        docs = rng.sample(pool, 40)
        run[qid] = {d: float(rng.randint(0, 2)) for d in docs}
        qrels[qid] = {d: rng.choice([0, 1, 2]) for d in rng.sample(docs, 12)}
        lines += [f"{qid} Q0 {d} 0 {s} t" for d, s in sorted(run[qid].items(), key=lambda kv: -kv[1])]
    (tmp_path / "run.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "qrels.txt").write_text("".join(f"{q} 0 {d} {g}\n" for q, j in qrels.items() for d, g in j.items()),
                                        encoding="utf-8")
    got = evaluate_batch(read_qrels(tmp_path / "qrels.txt"), read_run(tmp_path / "run.txt"), list(TREC.values()))
    assert_same_as_pytrec(got, pytrec(qrels, run))


def test_unsorted_interleaved_file_with_many_ties(tmp_path):
    rng = random.Random(3)
    lines, qrels, run = [], {}, {}
    for q in range(40):
        qid = str(q)
        docs = rng.sample(range(300), 60)
        qrels[qid] = {f"D{d}": rng.choice([0, 1, 2, -1]) for d in rng.sample(docs, 10) + rng.sample(range(300, 320), 2)}
        for d in docs:
            run.setdefault(qid, {})[f"D{d}"] = float(rng.randint(0, 5))
    for qid, ranking in run.items():
        for d, s in ranking.items():
            lines.append(f"{qid} Q0 {d} 0 {s} tag")
    rng.shuffle(lines)  # interleaved topics, no order at all
    (tmp_path / "run.txt").write_text("\n".join(lines) + "\n")
    (tmp_path / "qrels.txt").write_text("".join(f"{q} 0 {d} {g}\n" for q, j in qrels.items() for d, g in j.items()))
    got = evaluate_batch(read_qrels(tmp_path / "qrels.txt"), read_run(tmp_path / "run.txt"), list(TREC.values()))
    assert_same_as_pytrec(got, pytrec(qrels, run))
    deep = evaluate_batch(read_qrels(tmp_path / "qrels.txt"), read_run(tmp_path / "run.txt"),
                          list(TREC.values()), depth=7)
    assert_same_as_pytrec(deep, pytrec(qrels, truncated(run, 7)))
