"""Bad input: a defined result or a ValueError/TypeError naming the argument and the value."""

from __future__ import annotations

import math

import pytest

import metrics


@pytest.mark.parametrize("ranking, exc, words", [
    (["a", "b", "a"], ValueError, "'a' appears twice (ranks 1 and 3)"),
    ("abc", TypeError, "got a single string"),
    (5, TypeError, "must be a list of document ids"),
    ([1.5], TypeError, "ranking[0]: document ids must be strings or integers"),
    ([None], TypeError, "ranking[0]"),
    ([""], ValueError, "empty document id"),
    ({"a": float("nan")}, ValueError, "ranking['a']: score must be finite, got nan"),
    ({"a": float("inf")}, ValueError, "score must be finite"),
    ({"a": "high"}, TypeError, "ranking['a']: score must be a number"),
    ({"a": True}, TypeError, "score must be a number"),
    ({"a", "b"}, TypeError, "got a set, whose order is arbitrary"),
    (frozenset({"a"}), TypeError, "must be ordered"),
])
def test_bad_rankings(ranking, exc, words):
    with pytest.raises(exc) as err:
        metrics.score("P@5", ranking, {"a": 1})
    assert words in str(err.value)


@pytest.mark.parametrize("judgments, exc, words", [
    ({"a": 1.5}, ValueError, "judgments['a']: grade must be an integer, got 1.5"),
    ({"a": float("nan")}, ValueError, "grade must be a finite integer, got nan"),
    ({"a": "2"}, TypeError, "judgments['a']: grade must be an integer, got '2'"),
    ({"a": None}, TypeError, "grade must be an integer"),
    ({"a": True}, TypeError, "grade must be an integer"),
    ({"a": 10**12}, ValueError, "out of range"),
    ([("a", 1)], TypeError, "judgments must be a mapping"),
    ({1: 1, "1": 2}, ValueError, "appears twice"),
])
def test_bad_judgments(judgments, exc, words):
    with pytest.raises(exc) as err:
        metrics.score("P@5", ["a"], judgments)
    assert words in str(err.value)


def test_integral_floats_and_numpy_values_are_accepted():
    np = pytest.importorskip("numpy")
    assert metrics.score("P@1", np.array(["a", "b"]), {"a": np.int64(2)}) == 1.0
    assert metrics.score("P@1", ["a"], {"a": 2.0}) == 1.0
    assert metrics.score("RR", [1, 2, 3], {3: 1}) == pytest.approx(1 / 3)  # integer ids


def test_huge_grades_are_fine_linearly_but_refused_for_exponential_gain():
    assert metrics.score("nDCG", ["a"], {"a": 2**31 - 1}) == 1.0
    with pytest.raises(ValueError, match="too large for the 2\\^grade - 1 gain"):
        metrics.score("nDCG(dcg='exp-log2')", ["a"], {"a": 5000})


def test_empty_ranking_scores_zero_everywhere_except_num_rel():
    judgments = {"a": 1, "b": 2}
    for m in ["P@5", "R@5", "F1@5", "RR", "AP", "nDCG@5", "nDCG", "Rprec", "Bpref", "11pt", "IPrec@0.0",
              "Success@3", "NumRet", "NumRelRet", "CG@3", "DCG@3"]:
        e = metrics.explain(m, [], judgments)
        assert e.value == 0.0 and e.steps == () and e.formula, m
    assert metrics.score("NumRel", [], judgments) == 2
    assert metrics.score("IDCG@2", [], judgments) == pytest.approx(2 + 1 / math.log2(3))


def test_empty_judgments_give_zero_not_a_division_error():
    for m in ["P@5", "R@5", "AP", "nDCG@5", "Rprec", "Bpref", "RR", "11pt"]:
        assert metrics.score(m, ["a", "b"], {}) == 0.0


def test_evaluate_arguments():
    with pytest.raises(ValueError, match="missing must be one of"):
        metrics.evaluate({}, {}, "P@5", missing="drop")
    with pytest.raises(TypeError, match="qrels must be a mapping"):
        metrics.evaluate([], {}, "P@5")
    with pytest.raises(ValueError, match="query q1: ranking: document 'a' appears twice"):
        metrics.evaluate({"q1": {"a": 1}}, {"q1": ["a", "a"]}, "P@5")
    with pytest.raises(ValueError, match="depth must be a positive integer, got 0"):
        metrics.evaluate({}, {}, "P@5", depth=0)
    with pytest.raises(ValueError, match="ties must be one of"):
        metrics.score("P@1", {"a": 1.0}, {}, ties="random")


def test_query_set_rules_follow_trec_eval():
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    run = {"q1": ["a"], "q3": ["c"]}
    e = metrics.evaluate(qrels, run, "P@1 NumQ NumRel")
    assert list(e.per_query) == ["q1"] and e.aggregate["P@1"] == 1.0
    assert e.missing_from_run == ["q2"] and e.missing_from_qrels == ["q3"]
    assert any("judged but absent from the run: q2" in w for w in e.warnings)
    complete = metrics.evaluate(qrels, run, "P@1 NumQ NumRel", missing="zero")  # trec_eval -c
    assert complete.per_query["q2"]["P@1"] == 0.0 and complete.aggregate["P@1"] == 0.5
    assert complete.aggregate["NumQ"] == 2 and complete.aggregate["NumRel"] == 2  # counts are summed


def test_ties_in_a_score_mapping():
    run = {"a": 1.0, "b": 1.0, "c": 2.0}
    assert metrics.explain("P@3", run, {}).columns["doc"] == ["c", "b", "a"]  # trec_eval: docid descending
    assert metrics.explain("P@3", run, {}, ties="docid-asc").columns["doc"] == ["c", "a", "b"]
    assert metrics.explain("P@3", {"b": 1.0, "a": 1.0}, {}, ties="input").columns["doc"] == ["b", "a"]


def test_depth_truncates_like_trec_eval_M():
    e = metrics.evaluate({"q": {"c": 1}}, {"q": ["a", "b", "c"]}, "RR", depth=2)
    assert e.per_query["q"]["RR"] == 0.0


def test_hostile_ids_are_kept_as_plain_data():
    doc = "<img src=x onerror=alert(1)> **bold** [link](http://x)" + "x" * 10000
    e = metrics.explain("P@1", [doc], {doc: 1})
    assert e.value == 1.0 and e.columns["doc"] == [doc]
    assert doc not in e.formula  # formulas never carry user text


def test_dict_keys_keep_their_order():
    # a dict's keys are ordered (insertion order): "b" first, so P@1 = 0 / 1
    assert metrics.score("P@1", {"b": 0, "a": 0}.keys(), {"a": 1}) == 0.0


@pytest.mark.parametrize("qrels, run", [
    ({1: {"a": 1}, "1": {"b": 1}}, {"1": ["a"]}),   # two qrels queries named '1'
    ({"1": {"a": 1}}, {1: ["a"], "1": ["b"]}),      # two run queries named '1'
])
def test_query_ids_equal_as_text_are_refused(qrels, run):
    # before: one query silently replaced the other
    with pytest.raises(ValueError, match="query '1' appears twice"):
        metrics.evaluate(qrels, run, "P@1")


def test_integer_query_ids_still_match_their_text():
    # qrels key 1 and run key "1" are the same query: P@1 = 1 / 1
    assert metrics.evaluate({1: {"a": 1}}, {"1": ["a"]}, "P@1").aggregate["P@1"] == 1.0


@pytest.mark.parametrize("measures", ["", "  , ", [], ()])
def test_no_measure_is_an_error(measures):
    # an empty list was accepted (and evaluated nothing) while "" was refused
    with pytest.raises(ValueError, match="no measure given"):
        metrics.evaluate({"q": {"a": 1}}, {"q": ["a"]}, measures)


@pytest.mark.parametrize("qrels, run", [
    ({1: {"a": 1}, "1": {"b": 1}}, {"1": ["a"]}),
    ({"1": {"a": 1}}, {1: ["a"], "1": ["b"]}),
])
def test_the_batch_path_refuses_query_ids_equal_as_text_too(qrels, run):
    from metrics.batch import evaluate_batch

    with pytest.raises(ValueError, match="query '1' appears twice"):
        evaluate_batch(qrels, run, "P@1")
