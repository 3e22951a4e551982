"""QA (reader) metrics of metrics.qa: hand-computed cases, a SQuAD 2.0 oracle, the PIAF QA
notes' twelve metrics."""

from __future__ import annotations

import re
import string
from collections import Counter

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from metrics import qa
from metrics.qa import (
    READER_METRICS,
    correct_reading,
    evaluate_reader,
    exact_match,
    explain_answer,
    f1_score,
    is_answerable,
    is_no_answer,
    normalize_answer,
    normalize_steps,
)
from tests.strength import scaled

# --------------------------------------------------------------------------- the oracle
# Written here from the SQuAD 2.0 evaluation's definition, independently of metrics.qa.


def oracle_normalize(s: str) -> str:
    s = s.lower()
    s = "".join(c for c in s if c not in set(string.punctuation))
    s = re.sub(r"\b(a|an|the)\b", " ", s)
    return " ".join(s.split())


def oracle_golds(golds: list[str]) -> list[str]:
    kept = [g for g in golds if oracle_normalize(g)]
    return kept or [""]


def oracle_exact(golds: list[str], pred: str) -> float:
    return max(float(oracle_normalize(g) == oracle_normalize(pred)) for g in oracle_golds(golds))


def oracle_f1_one(gold: str, pred: str, split) -> float:
    g, p = split(oracle_normalize(gold)), split(oracle_normalize(pred))
    if not g or not p:
        return float(g == p)
    same = sum((Counter(g) & Counter(p)).values())
    if same == 0:
        return 0.0
    precision, recall = same / len(p), same / len(g)
    return 2 * precision * recall / (precision + recall)


def oracle_f1(golds, pred, unit="token"):
    split = str.split if unit == "token" else list
    return max(oracle_f1_one(g, pred, split) for g in oracle_golds(golds))


WORDS = ["The", "the", "a", "An", "an", "A.", "Denver", "denver", "Broncos", "broncos!",
         "no", "answer", "cat", "act", "x", "y", "...", "!", "-", "é", "Ünïcode", "an-d", "a.b",
         "theatre", "1998", "(", ")", "\t", "\n", "'s", "ß", "İ", "ΣΑ"]
phrases = st.lists(st.sampled_from(WORDS), max_size=6).map(" ".join)
texts = st.one_of(phrases, st.text(max_size=20))


def _plain_answer(pred: str) -> bool:
    """Ranklab's only departure from SQuAD: 'no answer' spellings abstain."""
    return oracle_normalize(pred) not in ("no answer", "noanswer")


# --------------------------------------------------------------------------- hand-computed


def test_issue_examples():
    assert exact_match("The Denver Broncos!", ["Denver Broncos"]) == 1.0
    assert f1_score("Broncos", ["Denver Broncos"]) == pytest.approx(2 / 3)  # P = 1, R = 1/2
    assert round(f1_score("Broncos", ["Denver Broncos"]), 3) == 0.667
    assert exact_match("", []) == 1.0 and f1_score("", []) == 1.0  # empty vs empty


def test_normalisation_stages_by_hand():
    steps = normalize_steps("The  Denver Broncos!")
    assert [s for s, _ in steps] == ["original", "lowercase", "remove punctuation",
                                     "remove articles", "collapse whitespace"]
    assert [t for _, t in steps] == ["The  Denver Broncos!", "the  denver broncos!",
                                     "the  denver broncos", "   denver broncos", "denver broncos"]
    # punctuation is deleted, not replaced by a space; articles only as whole words
    assert normalize_answer("<b>An</b> [link](http://x)") == "banb linkhttpx"
    assert normalize_answer("The theatre, a play.") == "theatre play"
    assert normalize_answer("no-answer") == "noanswer"
    assert normalize_answer("  \t\n ") == ""
    assert normalize_answer("Ça va") == "ça va"


def test_several_gold_answers_take_the_best():
    # "city of paris" vs "paris": P = 1/3, R = 1, F1 = 0.5; vs "city of paris": EM
    assert f1_score("city of Paris", ["Paris"]) == pytest.approx(0.5)
    assert f1_score("city of Paris", ["Paris", "the city of Paris"]) == 1.0
    assert exact_match("city of Paris", ["Paris", "the city of Paris"]) == 1.0
    # "red white" vs "red and white": c = 2, P = 1, R = 2/3, F1 = 0.8
    assert f1_score("red, white", ["red and white", "blue"]) == pytest.approx(0.8)


def test_multiset_overlap_counts_repeats_once_each():
    # pred "new new york" vs gold "new york": common {new: 1, york: 1} = 2, P = 2/3, R = 1
    assert f1_score("new new york", ["new york"]) == pytest.approx(0.8)


def test_character_f1_by_hand():
    # "denver" (6 chars) is inside "denver broncos" (14 chars, one space): P = 1, R = 6/14
    assert f1_score("Denver", ["Denver Broncos"], unit="char") == pytest.approx(12 / 20)
    assert f1_score("Denver", ["Denver Broncos"], unit="token") == pytest.approx(2 / 3)
    # a bag of characters: an anagram matches fully, tokens do not
    assert f1_score("cat", ["act"], unit="char") == 1.0
    assert f1_score("cat", ["act"]) == 0.0
    assert exact_match("cat", ["act"]) == 0.0


def test_unanswerable_questions_defined_as_documented():
    assert not is_answerable([]) and not is_answerable(["", "the", "?!"])
    assert is_answerable(["", "Paris"])
    for abstention in ("", None, "   ", "The.", "no answer", "No Answer!", "no-answer", "NoAnswer"):
        assert is_no_answer(abstention)
        assert exact_match(abstention, []) == 1.0
        assert f1_score(abstention, [""]) == 1.0
        assert correct_reading(abstention, [])
        # and on an answerable question an abstention scores 0
        assert exact_match(abstention, ["Paris"]) == 0.0
        assert f1_score(abstention, ["Paris"]) == 0.0
    for answer in ("Paris", "no", "answer", "not an answer", "0"):
        assert not is_no_answer(answer)
        assert exact_match(answer, []) == 0.0 and f1_score(answer, []) == 0.0
        assert not correct_reading(answer, [])


def test_correct_reading_is_any_common_token():
    assert correct_reading("the Denver", ["Denver Broncos"])
    assert not correct_reading("Carolina Panthers", ["Denver Broncos"])
    assert not correct_reading("the", ["Denver Broncos"])  # normalises to nothing: abstains
    assert correct_reading("Panthers", ["Denver Broncos", "Carolina Panthers"])


# --------------------------------------------------------------------------- oracle


@settings(max_examples=scaled(400), deadline=None)
@given(pred=texts, golds=st.lists(texts, max_size=3))
def test_agrees_with_squad2_oracle(pred, golds):
    assume(_plain_answer(pred))
    assert exact_match(pred, golds) == oracle_exact(golds, pred)
    assert f1_score(pred, golds) == pytest.approx(oracle_f1(golds, pred), abs=1e-12)
    assert f1_score(pred, golds, unit="char") == pytest.approx(oracle_f1(golds, pred, "char"),
                                                              abs=1e-12)
    assert normalize_answer(pred) == oracle_normalize(pred)


@settings(max_examples=scaled(200), deadline=None)
@given(pred=texts, golds=st.lists(texts, max_size=3), unit=st.sampled_from(["token", "char"]))
def test_explanation_agrees_with_scalars_and_bounds(pred, golds, unit):
    e = explain_answer(pred, golds, unit=unit)
    assert e.f1 == f1_score(pred, golds, unit=unit)
    assert e.em == exact_match(pred, golds)
    assert e.correct == correct_reading(pred, golds)
    assert 0.0 <= e.f1 <= 1.0 and e.em <= e.f1 + 1e-12  # an exact match has F1 = 1
    if e.answerable and not e.abstains:
        # the best row's numbers are consistent: P = c / n_p, R = c / n_g
        i = e.columns["gold"].index(golds[e.best])
        c, n_p, n_g = (e.columns[x][i] for x in ("n_common", "n_prediction", "n_gold"))
        assert len(e.common) == c
        assert e.precision == (c / n_p if n_p else 0.0) and e.recall == c / n_g
        assert Counter(e.common) == Counter(e.prediction_units) & Counter(e.gold_units)


def test_explain_by_hand():
    e = explain_answer("Broncos", ["Denver Broncos", "The Broncos!"], unit="token")
    # gold 2 normalises to "broncos": EM with it; the best is that one (F1 1 > 2/3)
    assert e.best == 1 and e.em == 1.0 and e.f1 == 1.0
    assert e.columns["normalized"] == ["denver broncos", "broncos"]
    assert e.columns["f1"][0] == pytest.approx(2 / 3)
    e = explain_answer("Broncos", ["Denver Broncos"])
    assert e.common == ("broncos",) and (e.precision, e.recall) == (1.0, 0.5)
    assert e.prediction_steps[-1] == ("collapse whitespace", "broncos")
    assert r"\frac{1}{1}" in e.formula and r"\frac{1}{2}" in e.formula
    assert e.formula.endswith("= 0.6667")
    assert list(e.to_frame()["f1"].round(4)) == [0.6667]
    u = explain_answer(None, [])
    assert not u.answerable and u.abstains and u.f1 == 1.0 and u.prediction_steps == ()
    w = explain_answer("Paris", [])
    assert w.f1 == 0.0 and "unanswerable" in w.formula


def test_hostile_and_long_text():
    long = ("**bold** <script>alert(1)</script> [x](javascript:1) " * 200)[:10_000]
    assert len(long) == 10_000
    e = explain_answer(long, [long, "x"])
    assert e.em == 1.0 and e.f1 == 1.0
    assert "<" not in normalize_answer(long) and "*" not in normalize_answer(long)


# --------------------------------------------------------------------------- twelve metrics

GOLD = {
    "q1": ["Denver Broncos"],
    "q2": ["Paris", "the city of Paris"],
    "q3": [],          # unanswerable
    "q4": ["1998"],    # its retrieval fails below
    "q5": [""],        # unanswerable too: the only gold answer normalises to ""
}
PREDS = {
    "q1": ["Broncos", "Denver Broncos", "Carolina"],
    "q2": ["London", "city of Paris"],
    "q3": ["Paris", "no answer"],
    "q4": ["1998"],
    "q5": [""],
}


def test_twelve_metrics_on_a_crafted_set():
    # by hand, per retrieved question (q4 excluded), as (top1, topk):
    #   q1 acc (1, 1)  em (0, 1)  f1 (2/3, 1)
    #   q2 acc (0, 1)  em (0, 1)  f1 (0, 1)        second answer = second gold answer
    #   q3 acc (0, 1)  em (0, 1)  f1 (0, 1)        unanswerable, "no answer" at rank 2
    #   q5 acc (1, 1)  em (1, 1)  f1 (1, 1)        unanswerable, abstains at rank 1
    ev = evaluate_reader(GOLD, PREDS, retrieved={"q1", "q2", "q3", "q5"})
    assert ev.counts == {"questions": 5, "correct_retrievals": 4, "has_answer": 2, "no_answer": 2}
    expected = {
        "reader_top1_accuracy": 2 / 4, "reader_top1_accuracy_has_answer": 1 / 2,
        "reader_topk_accuracy": 4 / 4, "reader_topk_accuracy_has_answer": 2 / 2,
        "reader_top1_em": 1 / 4, "reader_top1_em_has_answer": 0 / 2,
        "reader_topk_em": 4 / 4, "reader_topk_em_has_answer": 2 / 2,
        "reader_top1_f1": (2 / 3 + 1) / 4, "reader_top1_f1_has_answer": (2 / 3) / 2,
        "reader_topk_f1": 4 / 4, "reader_topk_f1_has_answer": 2 / 2,
    }
    assert set(ev.metrics) == set(READER_METRICS) == set(expected)
    for name, value in expected.items():
        assert ev.metrics[name] == pytest.approx(value), name
    assert ev.per_question["q4"]["retrieved"] is False
    assert ev.warnings == []


def test_k_cuts_the_list_and_k1_equals_top1():
    ev = evaluate_reader(GOLD, PREDS, k=1, retrieved={"q1", "q2", "q3", "q5"})
    for depth_k, depth_1 in (("topk", "top1"),):
        for name in READER_METRICS:
            if depth_k in name:
                assert ev.metrics[name] == ev.metrics[name.replace(depth_k, depth_1)], name
    # k = 2: q1 finds "Denver Broncos" at rank 2, q3 "no answer" at rank 2 -> as with all
    ev2 = evaluate_reader(GOLD, PREDS, k=2, retrieved={"q1", "q2", "q3", "q5"})
    assert ev2.metrics["reader_topk_em"] == 1.0
    assert ev2.per_question["q1"]["n_predictions"] == 2


def test_every_question_retrieved_by_default():
    ev = evaluate_reader(GOLD, PREDS)
    # top-1 EM: only q4 ("1998") and q5 (abstains) -> 2 / 5; answerable q1 q2 q4 -> 1 / 3
    assert ev.counts["correct_retrievals"] == 5 and ev.counts["has_answer"] == 3
    assert ev.metrics["reader_top1_em"] == pytest.approx(2 / 5)
    assert ev.metrics["reader_top1_em_has_answer"] == pytest.approx(1 / 3)
    # a mapping qid -> bool works as well
    ev_map = evaluate_reader(GOLD, PREDS, retrieved={"q4": False})
    assert ev_map.counts["correct_retrievals"] == 0
    ev_map = evaluate_reader(GOLD, PREDS, retrieved={q: q != "q4" for q in GOLD})
    assert ev_map.counts["correct_retrievals"] == 4


def test_undefined_when_no_question_is_answerable():
    ev = evaluate_reader({"q": []}, {"q": "x"})
    assert ev.metrics["reader_top1_em"] == 0.0
    assert ev.metrics["reader_top1_em_has_answer"] is None
    assert "undefined" in ev.warnings[0]
    ev = evaluate_reader({"q": ["a b"]}, {"q": "a b"}, retrieved=[])
    assert all(v is None for v in ev.metrics.values())


def test_single_strings_none_and_empty_lists():
    ev = evaluate_reader({"q1": "Paris", "q2": []}, {"q1": "paris.", "q2": []})
    assert ev.metrics["reader_top1_em"] == 1.0  # q2: no answers at all -> abstains -> right
    ev = evaluate_reader({"q1": ["Paris"]}, {"q1": [None, "Paris"]})
    assert ev.metrics["reader_top1_em"] == 0.0 and ev.metrics["reader_topk_em"] == 1.0
    ev = evaluate_reader({"q1": ["Paris"], "q2": []}, {"q1": "Paris"}, missing="empty")
    assert ev.metrics["reader_top1_em"] == 1.0


@settings(max_examples=scaled(100), deadline=None)
@given(data=st.lists(st.tuples(st.lists(phrases, max_size=2), st.lists(phrases, max_size=3)),
                     min_size=1, max_size=6),
       k=st.one_of(st.none(), st.integers(1, 3)))
def test_metric_invariants(data, k):
    gold = {f"q{i}": g for i, (g, _) in enumerate(data)}
    preds = {f"q{i}": p for i, (_, p) in enumerate(data)}
    ev = evaluate_reader(gold, preds, k=k)
    for name, value in ev.metrics.items():
        if value is None:
            assert name.endswith("_has_answer") and ev.counts["has_answer"] == 0
            continue
        assert 0.0 <= value <= 1.0
        # top-k is never below top-1; EM never above F1 (an exact match has F1 1)
        if "top1" in name:
            assert ev.metrics[name.replace("top1", "topk")] >= value - 1e-12
        if "_em" in name:
            assert ev.metrics[name.replace("_em", "_f1")] >= value - 1e-12
    # the top-1 F1 is the mean of the per-question F1 of the first answer
    firsts = [f1_score(p[0] if p else None, g) for g, p in data]
    assert ev.metrics["reader_top1_f1"] == pytest.approx(sum(firsts) / len(firsts))


# --------------------------------------------------------------------------- validation


@pytest.mark.parametrize("call, error, words", [
    (lambda: exact_match(3, ["x"]), TypeError, ["prediction", "3", "int"]),
    (lambda: f1_score("x", [1]), TypeError, ["gold[0]", "1"]),
    (lambda: f1_score("x", {"a": 1}), TypeError, ["gold"]),
    (lambda: f1_score("x", ["x"], unit="word"), ValueError, ["unit", "'word'"]),
    (lambda: normalize_steps(None), TypeError, ["text", "None"]),
    (lambda: evaluate_reader({"q": ["a"]}, {"q": "a"}, k=0), ValueError, ["k", "0"]),
    (lambda: evaluate_reader({"q": ["a"]}, {"q": "a"}, k=True), TypeError, ["k"]),
    (lambda: evaluate_reader({}, {}), ValueError, ["gold", "no questions"]),
    (lambda: evaluate_reader({"q": ["a"]}, {}), ValueError, ["'q'", "no answer"]),
    (lambda: evaluate_reader({"q": ["a"]}, {"q": "a", "z": "b"}), ValueError, ["'z'", "not in gold"]),
    (lambda: evaluate_reader({"q": ["a"]}, {"q": ["a", 7]}), TypeError, ["predictions['q'][1]", "7"]),
    (lambda: evaluate_reader({"q": ["a"]}, {"q": "a"}, retrieved={"x"}), ValueError, ["'x'"]),
    (lambda: evaluate_reader({"q": ["a"]}, {"q": "a"}, retrieved={"q": 1}), TypeError, ["retrieved"]),
    (lambda: evaluate_reader({"q": ["a"]}, {"q": "a"}, retrieved="q"), TypeError, ["retrieved"]),
    (lambda: evaluate_reader([("q", ["a"])], {"q": "a"}), TypeError, ["gold", "mapping"]),
    (lambda: evaluate_reader({"q": ["a"]}, {"q": "a"}, missing="zero"), ValueError, ["missing"]),
    (lambda: evaluate_reader({1: ["a"], "1": ["b"]}, {}), ValueError, ["appears twice"]),
])
def test_bad_input_names_the_argument(call, error, words):
    with pytest.raises(error) as info:
        call()
    for w in words:
        assert w in str(info.value)


def test_module_exports():
    for name in qa.__all__:
        assert hasattr(qa, name)
    assert len(READER_METRICS) == 12 and len(set(READER_METRICS)) == 12


def test_totals_and_denominators():
    ev = evaluate_reader(GOLD, PREDS, retrieved={"q1", "q2", "q3", "q5"})
    # top-1 F1 sum: q1 2/3 + q5 1; answerable only: q1 2/3
    assert ev.totals["reader_top1_f1"] == pytest.approx(5 / 3)
    assert ev.totals["reader_top1_f1_has_answer"] == pytest.approx(2 / 3)
    assert ev.denominator("reader_top1_f1") == 4 and ev.denominator("reader_top1_f1_has_answer") == 2
    for name in READER_METRICS:
        assert ev.metrics[name] == pytest.approx(ev.totals[name] / ev.denominator(name))
    with pytest.raises(ValueError, match="name"):
        ev.denominator("reader_top1_fk")


def test_readme_reader_section_runs_and_its_comments_hold():
    from pathlib import Path

    section = (Path(__file__).resolve().parents[3] / "docs" / "reader-metrics.md").read_text()
    block = re.search(r"```python\n(.*?)```", section, re.S).group(1)
    namespace: dict = {}
    exec(compile(block, "docs/reader-metrics.md", "exec"), namespace)  # noqa: S102 - our own docs
    ev = namespace["ev"]
    assert (ev.metrics["reader_top1_em"], ev.metrics["reader_topk_em"]) == (0.5, 1.0)
    assert round(f1_score("Broncos", ["Denver Broncos"]), 4) == 0.6667
