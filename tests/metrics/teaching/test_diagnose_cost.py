"""What one convention set costs ``diagnose``: one vectorised evaluation, never a walk through the
per-query kernels for the DCG family (the tie-aware rule once took that walk and made a
3,000-query search four times slower), and the vectorised tie-aware DCG equals the kernels'."""

from __future__ import annotations

import numpy as np
import pytest

import metrics.core
from metrics.io.theirs import Number, Theirs
from metrics.teaching import diagnose as dg


def _collection(queries=120, seed=5):
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for i in range(queries):
        q = f"q{i}"
        qrels[q] = {f"d{j}": int(rng.integers(0, 4)) for j in rng.choice(60, 12, replace=False)}
        # one decimal: many ties, inside the top 10 too
        run[q] = {f"d{j}": round(float(s), 1) for j, s in zip(rng.choice(60, 25, replace=False), rng.random(25),
                                                            strict=True)}
    qrels["lonely"] = {"d1": 1}  # judged, missing from the run: -c is a convention to try
    return qrels, run


@pytest.fixture
def counted(monkeypatch):
    calls = {"kernel": 0, "formula": 0, "sets": 0}
    kernel = metrics.core.trace

    def counting_kernel(*args, **kwargs):
        calls["kernel"] += 1
        return kernel(*args, **kwargs)

    monkeypatch.setattr(metrics.core, "trace", counting_kernel)
    for name in dg.BATCH_FAMILIES:
        formula = dg.BATCH_FAMILIES[name]

        def counting_formula(*args, _formula=formula, **kwargs):
            calls["formula"] += 1
            return _formula(*args, **kwargs)

        monkeypatch.setitem(dg.BATCH_FAMILIES, name, counting_formula)
    evaluate_under = dg.evaluate_under

    def counting_sets(*args, **kwargs):
        calls["sets"] += 1
        return evaluate_under(*args, **kwargs)

    monkeypatch.setattr(dg, "evaluate_under", counting_sets)
    return calls


@pytest.mark.parametrize("measure", ["nDCG@10", "DCG@5", "nDCG(dcg='exp-log2')"])
def test_a_convention_set_costs_one_vectorised_evaluation(counted, measure):
    qrels, run = _collection()
    p = dg.prepare(qrels, run)
    d = dg.diagnose(None, None, measure, theirs=Theirs(aggregate=Number(0.123, "0.123", 5e-4)), prepared=p)
    assert d.evaluations >= 20  # the whole bounded search ran, tie-aware sets among them
    assert any("ties=average" in str(c) for alt in [d.changes] for c in alt) or d.evaluations > 20
    assert counted["kernel"] <= 1  # no set walks the per-query kernels (one probe of available(), at most)
    # the search's sets, the baseline, the set found, and one set left out per change found
    assert counted["sets"] <= d.evaluations + 2 + len(d.changes)
    # at most two formulas per set: the measure and, under the tie-aware rule, its ideal
    assert counted["formula"] <= 2 * counted["sets"]


def test_tie_average_sets_need_no_kernel_even_when_they_win(counted):
    qrels, run = _collection()
    truth = metrics.core.evaluate(qrels, run, "nDCG@10", ties="average")
    counted["kernel"] = 0
    theirs = Theirs({q: Number(v["nDCG@10"], "x", 1e-9) for q, v in truth.per_query.items()})
    d = dg.diagnose(qrels, run, "nDCG@10", theirs=theirs)
    assert d.matched and [str(c) for c in d.changes] == ["ties=average"]
    assert counted["kernel"] == 0


@pytest.mark.parametrize("measure", ["nDCG@10", "DCG@3", "CG@5", "IDCG@10", "nDCG", "nDCG(dcg='exp-log2')@10",
                                     "nDCG(ideal='ranking')@10", "nDCG(rel=2)@10", "nDCG(dcg='jarvelin')@10",
                                     "nDCG(gains='1=0.5,3=9')@10"])
@pytest.mark.parametrize("extra", [(), (("missing", 1),), (("scores", 1),), (("gain", 2),)])
def test_vectorised_tie_average_equals_the_per_query_kernels(measure, extra):
    qrels, run = _collection(queries=60, seed=9)
    p = dg.prepare(qrels, run)
    m = dg.parse(measure)
    options = [dg._ROWS["ties"].options[3]] + [dg._ROWS[key].options[i] for key, i in extra]
    if ("gain", 2) in extra and m["gains"] is not None:
        pytest.skip("a gain map and the exponential gain are exclusive")
    for depth in (None, 4):
        chosen = options + ([dg._o("4", "-M 4", transform={"depth": depth})] if depth else [])
        fast = dg.evaluate_under(p, m, chosen)
        _, t, evaluation = dg._settings(chosen)
        slow = dg._via_evaluate(p, m.with_params(**dg._settings(chosen)[0]), t, evaluation)
        assert fast.per_query.keys() == slow.per_query.keys()
        for q in slow.per_query:
            assert fast.per_query[q] == pytest.approx(slow.per_query[q], abs=1e-12), (q, depth)
        assert fast.aggregate == pytest.approx(slow.aggregate, abs=1e-12)
