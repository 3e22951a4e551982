"""A seeded random comparison with pytrec_eval (trec_eval 9.0.8) under -J and -c, grades -5..5.

pytrec_eval takes ``judged_docs_only_flag`` (-J) but has no -c: there the expected means are
built from its per-query values by trec_eval's own rule (meas_avg.c): a judged query missing
from the run adds 0 (log 10^-5 for gm_map and gm_bpref) and counts in the number of queries.
The only difference allowed is none: NaN (trec_eval's 0/0 under -J) must be NaN on both sides.
"""

from __future__ import annotations

import math
import random

import pytest

import metrics
from metrics.batch import evaluate_batch
from tests.metrics.test_trec_negative_grades import PAIRS

pytrec_eval = pytest.importorskip("pytrec_eval")


def collection(seed: int, n: int = 300):
    rng = random.Random(seed)
    qrels, run = {}, {}
    for i in range(n):
        pool = [f"d{j:03d}" for j in range(rng.randint(1, 25))]
        grades = {d: rng.randint(-5, 5) for d in rng.sample(pool, rng.randint(1, len(pool)))}
        if max(grades.values()) <= -2:
            continue  # trec_eval crashes on such a query
        qrels[f"q{i:03d}"] = grades
        if rng.random() < 0.1:
            continue  # judged, missing from the run
        run[f"q{i:03d}"] = {d: float(rng.randint(0, 4)) for d in rng.sample(pool, rng.randint(1, len(pool)))}
    return qrels, run


def same(a: float, b: float) -> bool:
    return (a != a and b != b) or abs(a - b) <= 1e-9


def measures(rel: int, judged_only: bool):
    ms = [metrics.parse(m) for m in PAIRS]
    ms = [m.with_params(rel=rel) if m.family.params.get("rel") == 1 else m for m in ms]
    return [m.with_params(empty_ranking="nan") for m in ms] if judged_only else ms


@pytest.mark.parametrize("rel", [1, 2])
@pytest.mark.parametrize("engine", [metrics.evaluate, evaluate_batch])
def test_judged_only_agrees_with_pytrec_eval(engine, rel):
    qrels, run = collection(20261127 + rel)
    want = pytrec_eval.RelevanceEvaluator(qrels, set(PAIRS.values()), relevance_level=rel,
                                          judged_docs_only_flag=True).evaluate(run)
    ms = measures(rel, True)
    got = engine(qrels, run, ms, judged_only=True).per_query
    assert set(got) == set(want)
    pairs = list(zip(ms, PAIRS.values(), strict=True))
    bad = [(q, str(m), got[q][str(m)], v[name]) for q, v in want.items() for m, name in pairs
           if not same(got[q][str(m)], v[name])]
    assert not bad, bad[:10]
    assert any(math.isnan(v["11pt_avg"]) for v in want.values())  # the -nan case is exercised


@pytest.mark.parametrize("engine", [metrics.evaluate, evaluate_batch])
def test_complete_means_follow_trec_eval_9_0_8(engine):
    qrels, run = collection(7)
    want = pytrec_eval.RelevanceEvaluator(qrels, set(PAIRS.values())).evaluate(run)
    ms = measures(1, False)
    got = engine(qrels, run, ms, missing="zero").aggregate
    n, absent = len(qrels), len(qrels) - len(want)
    assert absent > 10
    for m, name in zip(ms, PAIRS.values(), strict=True):
        values = [v[name] for v in want.values()]
        if name in ("gm_map", "gm_bpref"):
            expected = math.exp((sum(values) + absent * math.log(1e-5)) / n)
        elif m.family.aggregate == "sum":
            # num_rel: trec_eval's -c summary counts every judged query's relevant documents
            expected = sum(values) + (sum(sum(g >= 1 for g in qrels[q].values()) for q in qrels if q not in want)
                                      if name == "num_rel" else 0)
        else:
            expected = sum(values) / n
        assert got[str(m)] == pytest.approx(expected, abs=1e-12), name


def test_all_trec_with_complete_prints_trec_eval_9_0_8s_lines(tmp_path, capsys):
    """-m all_trec -q -c: the per-query lines of the queries in the run only, and summary lines
    averaged over every judged query by meas_avg.c's rule (pytrec_eval's per-query values)."""
    from metrics.cli import main
    from tests.metrics.cli.test_trec_cli import COUNTS, differences, write_files
    qrels, run = collection(99)
    q, r = write_files(tmp_path, qrels, run)
    assert main(["evaluate", "-m", "all_trec", "-q", "-c", str(q), str(r)]) == 0
    got = {x for x in capsys.readouterr().out.splitlines() if not x.startswith(("runid", "relstring"))}
    ref = pytrec_eval.RelevanceEvaluator(qrels, {"all_trec"}).evaluate(run)
    n, absent = len(qrels), len(qrels) - len(ref)
    names = sorted({k for v in ref.values() for k in v} - {"runid", "relstring", "num_q"})

    def fmt(name, v):
        return str(int(round(v))) if name in COUNTS else f"{v:6.4f}"
    want = {f"{k:<22}\t{qid}\t{fmt(k, v[k])}" for qid, v in ref.items() for k in names
            if k not in ("gm_map", "gm_bpref")}
    for k in names:
        total = sum(v[k] for v in ref.values())
        if k == "num_rel":  # -c: trec_eval recounts every grade > 0 of the qrels
            value = sum(g > 0 for grades in qrels.values() for g in grades.values())
        elif k in COUNTS:
            value = total
        elif k in ("gm_map", "gm_bpref"):
            value = math.exp((total + absent * math.log(1e-5)) / n)
        else:
            value = total / n
        want.add(f"{k:<22}\tall\t{fmt(k, value)}")
    want.add(f"{'num_q':<22}\tall\t{n}")
    assert absent > 10
    assert not differences(got, want)
