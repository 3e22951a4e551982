"""The rest of trec_eval 9.0.8's measures, checked against pytrec_eval and by hand.

Oracle: pytrec_eval (pytrec-eval-terrier = trec_eval 9.0.8) for gm_map, gm_bpref, infAP,
Rprec_mult, utility, binG, G, Rndcg, ndcg_rel, relative_P, set_relative_P, set_map and
num_nonrel_judged_ret, on 1,200 random queries per relevance level (graded labels, score
ties, -1 labels, unjudged documents, judged documents never retrieved, queries with an
empty ranking), through both ``metrics.evaluate`` and the batch path. pytrec_eval cannot
take gain maps (``G.1=3.5,2=7``: it splits parameters at commas and then fails) nor
utility's coefficients (it returns 0 for any ``utility.a,b,c,d``), so those are
hand-computed below.
"""

from __future__ import annotations

import math
import random

import pytest

import metrics
from metrics.batch import evaluate_batch
from tests.metrics.test_pytrec_agreement import random_query

pytrec_eval = pytest.importorskip("pytrec_eval")

# Ranklab measure -> pytrec_eval measure name
PAIRS = {
    "GMAP": "gm_map", "GMBpref": "gm_bpref", "infAP": "infAP",
    "RprecMult@0.2": "Rprec_mult_0.20", "RprecMult@0.6": "Rprec_mult_0.60", "RprecMult@1": "Rprec_mult_1.00",
    "RprecMult@1.4": "Rprec_mult_1.40", "RprecMult@2": "Rprec_mult_2.00",
    "Utility": "utility", "binG": "binG", "G": "G", "Rndcg": "Rndcg", "nDCG_rel": "ndcg_rel",
    "RelP@5": "relative_P_5", "RelP@10": "relative_P_10", "RelP@100": "relative_P_100",
    "RelP": "set_relative_P", "SetAP": "set_map", "NumNonRelJudgedRet": "num_nonrel_judged_ret",
}
FAMILIES = {"gm_map", "gm_bpref", "infAP", "Rprec_mult", "utility", "binG", "G", "Rndcg", "ndcg_rel",
            "relative_P", "set_relative_P", "set_map", "num_nonrel_judged_ret"}


def random_collection(seed: int, n: int = 1200):
    rng = random.Random(seed)
    qrels, run = {}, {}
    for i in range(n):
        grades, ranking = random_query(rng)
        if rng.random() < 0.03:
            ranking = {}  # a judged query with an empty ranking
        qrels[f"q{i}"], run[f"q{i}"] = grades, ranking
    return {q: g for q, g in qrels.items() if g}, run


@pytest.mark.parametrize("rel", [1, 2])
@pytest.mark.parametrize("path", ["evaluate", "batch"])
def test_new_measures_agree_with_pytrec_eval(rel, path):
    qrels, run = random_collection(20261125 + rel)
    expected = pytrec_eval.RelevanceEvaluator(qrels, FAMILIES, relevance_level=rel).evaluate(run)
    ms = [metrics.parse(m) for m in PAIRS]
    ms = [m.with_params(rel=rel) if m.family.params.get("rel") == 1 else m for m in ms]
    if path == "batch":
        run = {q: r for q, r in run.items() if r}  # a TREC run file has no empty ranking
        expected = {q: v for q, v in expected.items() if q in run}
    got = (metrics.evaluate if path == "evaluate" else evaluate_batch)(qrels, run, ms)
    assert set(got.per_query) == set(expected)
    bad = [(q, str(m), got.per_query[q][str(m)], values[name])
           for q, values in expected.items() for m, name in zip(ms, PAIRS.values(), strict=True)
           if abs(got.per_query[q][str(m)] - values[name]) > 1e-9]
    assert not bad, bad[:10]
    # GMAP's summary is the geometric mean of AP (floored at 1e-5), as trec_eval prints it
    aps = [max(v["gm_map"], math.log(1e-5)) for v in expected.values()]
    assert got.aggregate[str(ms[0])] == pytest.approx(math.exp(sum(aps) / len(aps)), rel=1e-12)


def test_each_new_measure_explains_itself():
    """The step table and the formula come from the same kernel as the value."""
    grades = {"a": 2, "b": 0, "c": 1, "d": -1, "z": 3}
    ranking = ["a", "x", "b", "d", "c"]
    for name in PAIRS:
        e = metrics.explain(name, ranking, grades)
        assert e.value == metrics.score(name, ranking, grades)
        assert e.formula and e.definition
        assert len(e.steps) <= len(ranking)


# hand-computed cases (pytrec_eval lacks gain maps and utility's coefficients)

def test_g_by_hand():
    # ideal gains 3 (z), 2 (a), 1 (c); run a, x, c. Cost so far: max(1,3)=3, 3+2=5, 5+1=6;
    # gain so far 2, 2, 3. G = (2/log2(2+3-2) + 1/log2(2+6-3)) / (3+2+1)
    g = (2 / math.log2(3) + 1 / math.log2(5)) / 6
    assert metrics.score("G", ["a", "x", "c"], {"a": 2, "c": 1, "z": 3}) == pytest.approx(g, abs=1e-12)
    # gains 1=5: c's gain is 5, so the ideal is 5 (c), 3 (z), 2 (a); cost 5, 8, 10; so far 2, 2, 7
    g = (2 / math.log2(2 + 5 - 2) + 5 / math.log2(2 + 10 - 7)) / 10
    got = metrics.score("G(gains='1=5')", ["a", "x", "c"], {"a": 2, "c": 1, "z": 3})
    assert got == pytest.approx(g, abs=1e-12)


def test_rndcg_and_ndcg_rel_by_hand():
    grades = {"a": 2, "b": 2, "c": 1}  # ideal gains 2, 2, 1: the gain changes after ranks 2 and 3
    ranking = ["c", "x", "a", "y", "z", "b"]
    d = [1 / math.log2(2), 0, 2 / math.log2(4), 0, 0, 2 / math.log2(7)]
    dcg = [sum(d[:i]) for i in range(7)]
    idcg = [0, 2, 2 + 2 / math.log2(3), 2 + 2 / math.log2(3) + 1 / math.log2(4)]
    # R levels at 2 and 3; the list (6) goes on past rank P + 1 = 4, so also at 6 with the full ideal
    want = (dcg[2] / idcg[2] + dcg[3] / idcg[3] + dcg[6] / idcg[3]) / 3
    assert metrics.score("Rndcg", ranking, grades) == pytest.approx(want, abs=1e-12)
    # ndcg_rel: c at 1, a at 3, b at 6: DCG@i / IDCG@min(i, 3), averaged over P = 3
    want = (dcg[1] / idcg[1] + dcg[3] / idcg[3] + dcg[6] / idcg[3]) / 3
    assert metrics.score("nDCG_rel", ranking, grades) == pytest.approx(want, abs=1e-12)
    # with gains 1=0 the ideal is 2, 2: c gains nothing; level changes only at 2
    want = (dcg[2] - d[0]) / idcg[2]
    got = metrics.score("Rndcg(gains='1=0')", ranking, grades)
    want_tail = ((dcg[6] - d[0]) / idcg[2])  # and at n = 6 > P + 1 = 3
    assert got == pytest.approx((want + want_tail) / 2, abs=1e-12)


def test_utility_coefficients_by_hand():
    run, grades = ["a", "b", "c", "d"], {"a": 1, "c": 1, "e": 1, "b": 0}
    # 2 relevant retrieved, 2 others retrieved, 1 relevant missed
    assert metrics.score("Utility", run, grades) == 0.0
    assert metrics.score("Utility(a=3,b=-1,c=-2)", run, grades) == 3 * 2 - 2 - 2 * 1
    assert str(metrics.parse("Utility(a=1,b=-1,c=0)")) == "Utility"


def test_gmap_summary_and_batch_agree():
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1}}
    run = {"q1": ["a"], "q2": ["x", "b"], "q3": ["y"]}
    e = evaluate_batch(qrels, run, "GMAP AP")
    # AP 1, 1/2, 0 (floored at 1e-5): (1 * 0.5 * 1e-5) ** (1/3)
    assert e.aggregate["GMAP"] == pytest.approx((0.5 * 1e-5) ** (1 / 3), rel=1e-12)
    assert e.per_query["q2"]["GMAP"] == pytest.approx(math.log(0.5), abs=1e-15)


@pytest.mark.parametrize("bad, words", [
    ("G(gains='1')", "grade=gain"), ("G(gains='x=1')", "integer grade"), ("G(gains='1=2,1=3')", "twice"),
    ("G(gains='1=inf')", "finite"), ("G(gains='-1=2')", "integer grade"), ("G(gains=3)", "text"),
    ("RprecMult", "multiple of R"), ("RprecMult@0", "above 0"), ("Utility(a='x')", "a must be a number"),
    ("infAP@5", "takes no cutoff"),
])
def test_bad_parameters_name_the_problem(bad, words):
    with pytest.raises(ValueError) as err:
        metrics.parse(bad)
    assert words in str(err.value)


# every measure pytrec_eval computes, for the flags and conventions below
ALL_PAIRS = {
    "P@5": "P_5", "P@10": "P_10", "R@10": "recall_10", "P": "set_P", "R": "set_recall", "F1": "set_F",
    "Success@5": "success_5", "RR": "recip_rank", "AP": "map", "AP@10": "map_cut_10", "nDCG": "ndcg",
    "nDCG@10": "ndcg_cut_10", "Rprec": "Rprec", "Bpref": "bpref", "IPrec@0.3": "iprec_at_recall_0.30",
    "IPrec@0.7": "iprec_at_recall_0.70", "11pt": "11pt_avg", "NumRet": "num_ret", "NumRel": "num_rel",
    "NumRelRet": "num_rel_ret", **PAIRS,
}
ALL_FAMILIES = {"P", "recall", "set_P", "set_recall", "set_F", "success", "recip_rank", "map", "map_cut",
                "ndcg", "ndcg_cut", "Rprec", "bpref", "iprec_at_recall", "11pt_avg", "num_ret", "num_rel",
                "num_rel_ret", *FAMILIES}


def compare_all(qrels, run, path, *, rel=1, pairs=ALL_PAIRS, families=ALL_FAMILIES, **flags):
    expected = pytrec_eval.RelevanceEvaluator(
        qrels, families, relevance_level=rel, judged_docs_only_flag=flags.get("judged_only", False)).evaluate(run)
    ms = [metrics.parse(m) for m in pairs]
    ms = [m.with_params(rel=rel) if m.family.params.get("rel") == 1 else m for m in ms]
    if path == "batch":
        run = {q: r for q, r in run.items() if r}
        expected = {q: v for q, v in expected.items() if q in run}
    got = (metrics.evaluate if path == "evaluate" else evaluate_batch)(qrels, run, ms, **flags)
    assert set(got.per_query) == set(expected)
    bad = [(q, str(m), got.per_query[q][str(m)], values[name])
           for q, values in expected.items() for m, name in zip(ms, pairs.values(), strict=True)
           if abs(got.per_query[q][str(m)] - values[name]) > 1e-9]
    assert not bad, bad[:10]
    return got


def near_ties(seed: int, n: int = 1000):
    """Scores 1 + i * 1e-9: distinct as doubles, mostly equal as float32 (spacing 1.2e-7)."""
    rng = random.Random(seed)
    qrels, run = {}, {}
    for i in range(n):
        grades, ranking = random_query(rng)
        run[f"q{i}"] = {d: 1.0 + rng.randint(0, 300) * 1e-9 + rng.choice([0.0, 0.5]) for d in ranking}
        qrels[f"q{i}"] = grades
    return {q: g for q, g in qrels.items() if g}, run


@pytest.mark.parametrize("path", ["evaluate", "batch"])
def test_scores_tie_as_float32_by_default(path):
    """pytrec_eval is trec_eval 9.0.8: scores equal in float32 tie, broken by doc id descending."""
    qrels, run = near_ties(11)
    compare_all(qrels, run, path)


@pytest.mark.parametrize("path", ["evaluate", "batch"])
def test_the_issue_example_under_both_versions(path):
    # 9.0.8 (and pytrec_eval): a and b tie in float32, so b (larger id) ranks first: RR 1/2
    qrels = {"q1": {"a": 1}}
    run = {"q1": {"a": 1.000000001, "b": 1.0}}
    fn = metrics.evaluate if path == "evaluate" else evaluate_batch
    assert fn(qrels, run, "RR").per_query["q1"]["RR"] == 0.5
    assert fn(qrels, run, "RR", trec_eval="10.0").per_query["q1"]["RR"] == 1.0
    # IPrec recall cut-off: R = 3, relevant at ranks 1 and 5: 9.0.8 needs floor(0.4*3 + 0.9) = 2
    # relevant (precision 2/5 at rank 5); 10.0 needs lround(1.2) = 1 (precision 1 at rank 1)
    qrels = {"q1": {"a": 1, "e": 1, "z": 1}}
    run = {"q1": ["a", "b", "c", "d", "e"]}
    assert fn(qrels, run, "IPrec@0.4").per_query["q1"]["IPrec@0.4"] == 0.4
    m = "IPrec(version='10.0')@0.4"
    assert fn(qrels, run, m).per_query["q1"][m] == 1.0


@pytest.mark.parametrize("rel", [1, 2])
@pytest.mark.parametrize("path", ["evaluate", "batch"])
def test_judged_only_agrees_with_pytrec_eval(rel, path):
    """-J: documents without a grade >= 0 are dropped and the ranks close up."""
    qrels, run = random_collection(7 + rel, n=1000)
    compare_all(qrels, run, path, rel=rel, judged_only=True)


@pytest.mark.parametrize("path", ["evaluate", "batch"])
def test_trec_parameters_agree_with_pytrec_eval(path):
    """set_F.0.5, 11pt_avg with levels, P/recall/relative_P/iprec at other cutoffs."""
    qrels, run = random_collection(31, n=1000)
    pairs = {"F1(beta=0.5)": "set_F", "11pt(levels='0,0.25,0.5,1')": "11pt_avg", "P@3": "P_3", "P@7": "P_7",
             "R@7": "recall_7", "RelP@3": "relative_P_3", "IPrec@0.25": "iprec_at_recall_0.25",
             "RprecMult@0.5": "Rprec_mult_0.50"}
    families = {"set_F.0.5", "11pt_avg.0.0,0.25,0.5,1.0", "P.3,7", "recall.7", "relative_P.3",
                "iprec_at_recall.0.25", "Rprec_mult.0.5"}
    compare_all(qrels, run, path, pairs=pairs, families=families)


def test_ndcg_gain_map_by_hand():
    """pytrec_eval cannot parse gain maps, so: grades a=1, b=2; gains 1 -> 3.5, 2 -> 7."""
    run, grades = ["a", "x", "b"], {"a": 1, "b": 2, "c": 0}
    dcg = 3.5 + 7 / math.log2(4)
    idcg = 7 + 3.5 / math.log2(3)
    for m in ("nDCG(gains='1=3.5,2=7')", "nDCG(gains='2=7,1=3.5')"):
        assert metrics.score(m, run, grades) == pytest.approx(dcg / idcg, abs=1e-12)
    e = evaluate_batch({"q1": grades}, {"q1": run}, "nDCG(gains='1=3.5,2=7')")
    assert e.aggregate["nDCG(gains='1=3.5,2=7')"] == pytest.approx(dcg / idcg, abs=1e-12)
    # a grade mapped to a negative gain lowers DCG; the ideal keeps only positive gains
    dcg = 1 + -2 / math.log2(4)
    assert metrics.score("DCG(gains='2=-2')", run, grades) == pytest.approx(dcg, abs=1e-12)
    assert metrics.score("IDCG(gains='2=-2')", run, grades) == 1.0
    # grade 0 given a gain counts for judged documents only (x is unjudged)
    assert metrics.score("CG(gains='0=0.5')", ["c", "x"], grades) == 0.5


def test_every_suggestion_parses():
    """An unknown or incomplete name is answered with a name that itself parses (fixed seed)."""
    from metrics.measures import NAMES, UnknownMeasureError, known_names

    rng = random.Random(515)
    seeds = [n.text.replace("{k}", "").replace("{r}", "") for n in NAMES] + known_names()
    seeds += ["iprec_at_recall", "iprec_at_recall_10", "Rprec_mult", "relative_P", "set_F_0.5", "gm_ap"]
    texts = list(seeds)
    letters = "abcdefghijklmnopqrstuvwxyz_0123456789.@"
    for _ in range(3000):
        s = list(rng.choice(seeds))
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(s) + 1)
            op = rng.random()
            if op < 0.4 and s:
                del s[min(i, len(s) - 1)]
            elif op < 0.8:
                s.insert(i, rng.choice(letters))
            elif s:
                s[min(i, len(s) - 1)] = rng.choice(letters)
        texts.append("".join(s))
    suggested = 0
    for text in texts:
        try:
            metrics.parse(text)
        except UnknownMeasureError as err:
            if err.suggestion is not None:
                suggested += 1
                metrics.parse(err.suggestion)  # raises if the suggestion is not valid
        except ValueError:
            pass
    assert suggested > 500


@pytest.mark.parametrize("path", ["evaluate", "batch"])
def test_yaap_by_hand(path):
    """yaap is not in trec_eval 9.0.8 (nor pytrec_eval): log((1 + S) / (1 + R - S)), S = AP * R."""
    qrels = {"q1": {"a": 1, "c": 1, "z": 1}, "q2": {"b": 1}, "q3": {"x": 0}}
    run = {"q1": ["a", "b", "c"], "q2": ["b"], "q3": ["x"]}
    fn = metrics.evaluate if path == "evaluate" else evaluate_batch
    e = fn(qrels, run, "YAAP yaap")
    S = 1 + 2 / 3  # precision 1/1 at a, 2/3 at c
    assert e.per_query["q1"]["YAAP"] == pytest.approx(math.log((1 + S) / (1 + 3 - S)), abs=1e-15)
    assert e.per_query["q2"]["YAAP"] == pytest.approx(math.log(2 / 1), abs=1e-15)
    assert e.per_query["q3"]["YAAP"] == 0.0  # log(1 / 1): nothing relevant
    assert metrics.parse("yaap").trec_name == "yaap"


def test_normalised_new_measures_stay_within_0_and_1():
    """Every new family flagged normalised gives values in [0, 1] on the random collection."""
    qrels, run = random_collection(404, n=1000)
    names = [n for n in PAIRS if metrics.parse(n).family.normalised] + ["AP_avgjg", "P_avgjg@5"]
    assert "infAP" in names and "Rndcg" in names and "G" not in names
    e = evaluate_batch(qrels, {q: r for q, r in run.items() if r}, names)
    for values in e.per_query.values():
        for name in names:
            assert 0.0 <= values[str(metrics.parse(name))] <= 1.0 + 1e-12, name
