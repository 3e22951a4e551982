"""Negative qrels grades: every one is "in the pool, not judged", never "absent from the qrels".

trec_eval's ``form_res_rels`` maps every negative grade to RELVALUE_UNJUDGED and a document
missing from the qrels to RELVALUE_NONPOOL, so a real grade of -2 (or -5) must never be read
as a sentinel. Oracles: trec_eval's printed output as the bug report quotes it (both versions
print ``.1`` and 0.7500), and pytrec_eval (trec_eval 9.0.8) on seeded random qrels with grades
from -5 to 5, through every engine (per query, batch, stream, Spark).
"""

from __future__ import annotations

import random

import pytest

import metrics
from metrics.batch import evaluate_batch, evaluate_stream
from metrics.cli import main
from metrics.io import qrels_from_dict, read_qrels
from metrics.io.stream import RunStream
from tests.metrics.test_pytrec_agreement import PAIRS as MAIN_PAIRS
from tests.metrics.test_trec_parity import PAIRS as MORE_PAIRS

pytrec_eval = pytest.importorskip("pytrec_eval")
PAIRS = MAIN_PAIRS | MORE_PAIRS


def reproducer(tmp_path):
    q, r = tmp_path / "qrels", tmp_path / "run"
    q.write_text("a 0 d1 1\na 0 d3 -2\na 0 d5 0\n")
    r.write_text("a Q0 d3 1 9 r\na Q0 d1 2 5 r\n")
    return q, r


@pytest.mark.parametrize("flags", [[], ["--trec-eval-version", "10.0"]])
def test_a_grade_of_minus_two_is_pooled_not_absent(tmp_path, capsys, flags):
    q, r = reproducer(tmp_path)
    assert main(["evaluate", "-q", "-m", "relstring", "-m", "infAP", *flags, str(q), str(r)]) == 0
    lines = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    assert [x.strip() for x in lines[0]] == ["relstring", "a", "'.1'"]
    # d3 (pooled, unjudged) above d1: 1/2 + 1/2 * 1 * (0 + eps)/(0 + 2 eps) = 0.75, over R = 1
    assert [x.strip() for x in lines[1]] == ["infAP", "a", "0.7500"]


def test_relstring_marks_absence_apart_from_every_grade():
    from metrics.batch import prepare_batch, relstrings
    from metrics.io import run_from_dict
    grades = {"g-5": -5, "g-2": -2, "g-1": -1, "g0": 0, "g3": 3, "g12": 12}
    ranking = ["g-5", "x", "g-2", "g-1", "g0", "g3", "g12", "y"]
    b = prepare_batch(qrels_from_dict({"q": grades}), run_from_dict({"q": ranking}))
    assert relstrings(b, 20) == {"q": ".-..03>-"}  # m_relstring.c: '.' in pool, '-' not in pool


def random_qrels(seed: int, n: int = 500):
    rng = random.Random(seed)
    qrels, run = {}, {}
    for i in range(n):
        pool = [f"d{j:03d}" for j in range(rng.randint(1, 30))]
        grades = {d: rng.randint(-5, 5) for d in rng.sample(pool, rng.randint(1, len(pool)))}
        if max(grades.values()) <= -2:
            continue  # trec_eval (and pytrec_eval) crash on such a query: nothing to compare
        qrels[f"q{i}"] = grades
        run[f"q{i}"] = {d: float(rng.randint(0, 5)) for d in rng.sample(pool, rng.randint(1, len(pool)))}
    return qrels, run


def write(tmp_path, qrels, run):
    q, r = tmp_path / "qrels.txt", tmp_path / "run.txt"
    q.write_text("".join(f"{qid} 0 {d} {g}\n" for qid, gs in qrels.items() for d, g in gs.items()))
    r.write_text("".join(f"{qid} Q0 {d} {i + 1} {s!r} r\n"
                         for qid, scores in run.items() for i, (d, s) in enumerate(scores.items())))
    return q, r


@pytest.mark.parametrize("rel", [1, 2])
@pytest.mark.parametrize("engine", ["per-query", "batch", "stream"])
def test_grades_from_minus_five_to_five_agree_with_pytrec_eval(tmp_path, rel, engine):
    qrels, run = random_qrels(20261127 + rel)
    expected = pytrec_eval.RelevanceEvaluator(qrels, set(PAIRS.values()), relevance_level=rel).evaluate(run)
    ms = [metrics.parse(m) for m in PAIRS]
    ms = [m.with_params(rel=rel) if m.family.params.get("rel") == 1 else m for m in ms]
    if engine == "per-query":
        got = metrics.evaluate(qrels, run, ms)
    elif engine == "batch":
        got = evaluate_batch(qrels, run, ms)
    else:
        q, r = write(tmp_path, qrels, run)
        got = evaluate_stream(read_qrels(q), RunStream(r, block_size=97), ms)
    assert set(got.per_query) == set(expected)
    bad = [(qid, str(m), got.per_query[qid][str(m)], values[name])
           for qid, values in expected.items() for m, name in zip(ms, PAIRS.values(), strict=True)
           if abs(got.per_query[qid][str(m)] - values[name]) > 1e-9]
    assert not bad, bad[:10]
