"""``metrics.score`` on large rankings takes a vectorised path for a clean dict of float scores:
the same order as the general path (every tie rule, both trec_eval versions, non-ASCII ids), and
the same values as pytrec_eval."""

from __future__ import annotations

from types import MappingProxyType

import numpy as np
import pytest
import pytrec_eval

import metrics
from metrics import _check


def _ranking(n=5000, seed=3):
    rng = np.random.default_rng(seed)
    ids = [f"d{i}" if i % 7 else f"é{i}文" for i in range(n)]
    # two decimals: many exact ties; 1 + tiny: equal in float32, not as doubles
    scores = np.round(rng.random(n), 2)
    scores[::50] = 1.0 + 1e-9 * np.arange(len(scores[::50]))
    scores[1::97], scores[2::97] = -0.0, 0.0  # equal for Python's sort: a tie, not an order
    return {d: float(s) for d, s in zip(ids, scores, strict=True)}


@pytest.mark.parametrize("ties", ["docid-desc", "docid-asc", "input", "average"])
@pytest.mark.parametrize("version", ["9.0.8", "10.0"])
def test_the_fast_order_is_the_general_one(ties, version):
    ranking = _ranking()
    fast = _check.ranking(ranking, ties=ties, trec_eval=version)
    general = _check.ranking(MappingProxyType(ranking), ties=ties, trec_eval=version)  # not a dict
    assert _check._clean_scores_order(ranking, ties, version) is not None
    assert fast == general


def test_unclean_input_still_gets_the_general_checks():
    ranking = _ranking()
    ranking["bad"] = float("nan")
    with pytest.raises(ValueError, match=r"ranking\['bad'\]: score must be finite"):
        metrics.score("AP", ranking, {"d1": 1})
    ranking["bad"] = "0.5"
    with pytest.raises(TypeError, match=r"ranking\['bad'\]: score must be a number"):
        metrics.score("AP", ranking, {"d1": 1})


@pytest.mark.parametrize("measure, trec", [("AP", "map"), ("nDCG@10", "ndcg_cut_10"), ("nDCG", "ndcg"),
                                           ("P@100", "P_100"), ("RR", "recip_rank")])
def test_large_ranking_values_agree_with_pytrec_eval(measure, trec):
    ranking = _ranking(20_000)
    rng = np.random.default_rng(8)
    judged = {d: int(g) for d, g in zip(rng.choice(list(ranking), 300, replace=False).tolist(),
                                        rng.integers(0, 4, 300).tolist(), strict=True)}
    theirs = pytrec_eval.RelevanceEvaluator({"q": judged}, {trec.rsplit("_", 1)[0] if "cut" in trec or
                                                            trec.startswith("P_") else trec})
    expected = theirs.evaluate({"q": ranking})["q"][trec]
    assert metrics.score(measure, ranking, judged) == pytest.approx(expected, abs=1e-12)
