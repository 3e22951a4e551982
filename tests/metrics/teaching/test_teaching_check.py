"""Check my calculation: every expected value below is worked out by hand in the comment."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import metrics
from metrics.teaching.check import MISTAKES, _prepared, blanks, check, parse_answer
from tests.strength import scaled

CAT_RUN = [str(i) for i in range(1, 9)]
CATS = {"2": 1, "4": 1, "5": 1, "7": 1}  # the Pinecone notebook: relevant at 2, 4, 5, 7
GRADED = {"a": 3, "b": 2, "c": 1}


def test_blanks_of_pinecone_ap_are_the_precisions_at_the_hits():
    got = {b.key: b.value for b in blanks("AP", CAT_RUN, CATS)}
    assert got["precision@2"] == 1 / 2
    assert got["precision@4"] == 2 / 4
    assert got["precision@5"] == 3 / 5
    assert got["precision@7"] == pytest.approx(4 / 7)
    assert got["running_sum@7"] == pytest.approx(1 / 2 + 2 / 4 + 3 / 5 + 4 / 7)
    assert got["denominator"] == 4
    assert "precision@1" not in got  # rank 1 is not relevant


def test_blanks_of_ndcg_hold_gains_discounts_running_dcg_and_the_ideal():
    got = {b.key: b.value for b in blanks("nDCG@3", ["c", "b", "a"], GRADED)}
    assert [got[f"gain@{i}"] for i in (1, 2, 3)] == [1, 2, 3]
    assert got["discount@2"] == pytest.approx(math.log2(3))
    assert got["dcg@3"] == pytest.approx(1 + 2 / math.log2(3) + 3 / 2)
    assert got["IDCG"] == pytest.approx(3 + 2 / math.log2(3) + 1 / 2)
    assert round(got["value"], 4) == 0.79  # the reference tools compared (docs/measures-and-conventions.md): 0.7900


def test_all_correct_pinecone_with_two_decimals():
    answers = {"precision@2": "0.5", "precision@4": "0.50", "precision@5": "0.6",
               "precision@7": "0.57", "value": "0.54"}
    r = check("AP", CAT_RUN, CATS, answers)
    assert r.all_correct and r.first_wrong is None and r.diagnosis is None
    assert r.message == "Every number you typed is right."


def test_pinecone_dark_cat_ap_0_225_accepts_both_roundings():
    dark = {"5": 1, "8": 1}  # (1/5 + 2/8) / 2 = 0.225: prose says 0.22, code prints 0.23
    assert check("AP", CAT_RUN, dark, {"value": "0.22"}).all_correct
    assert check("AP", CAT_RUN, dark, {"value": "0.23"}).all_correct
    assert not check("AP", CAT_RUN, dark, {"value": "0.24"}).all_correct


def test_ap_divided_by_relevant_retrieved():
    # R = 4; hits at 1 and 3: AP = (1 + 2/3) / 4 = 0.4167; over 2 retrieved: 0.8333
    r = check("AP", ["a", "x", "b", "y", "z"], {"a": 1, "b": 1, "c": 1, "d": 1},
              {"denominator": "2", "value": "0.83"})
    assert r.first_wrong.key == "denominator" and r.first_wrong.expected == 4
    assert r.diagnosis.mistake.key == "ap_retrieved"
    assert r.diagnosis.value == 2 and r.diagnosis.matched == 2


def test_ap_with_non_relevant_ranks_counted():
    # a x b, R = 2: right (1 + 2/3) / 2 = 0.8333.  Precision at every rank: 1 + 1/2 + 2/3 = 2.1667
    r = check("AP", ["a", "x", "b"], {"a": 1, "b": 1}, {"running_sum@3": "2.17", "value": "1.08"})
    assert r.first_wrong.key == "running_sum@3"
    assert r.first_wrong.expected == pytest.approx(1 + 2 / 3)
    assert r.diagnosis.mistake.key == "ap_nonrelevant"
    # the mean over the three ranks: 2.1667 / 3 = 0.7222
    assert check("AP", ["a", "x", "b"], {"a": 1, "b": 1}, {"value": "0.72"}).diagnosis.mistake.key == "ap_nonrelevant"


def test_log2_i_discount_gives_the_jarvelin_value():
    # discounts 0 (rank 1 kept), 1, log2 3: DCG = 1 + 2 + 3/1.585 = 4.8928,
    # IDCG = 3 + 2 + 1/1.585 = 5.6309, ratio 0.8689 (the Järvelin–Kekäläinen value of the reference tools compared (docs/measures-and-conventions.md))
    r = check("nDCG@3", ["c", "b", "a"], GRADED, {"discount@1": "0", "discount@2": "1", "value": "0.87"})
    assert r.first_wrong.key == "discount@1" and r.first_wrong.expected == 1
    assert r.diagnosis.mistake.key == "log2_i"
    assert r.diagnosis.matched == 3


def test_ideal_from_the_list_instead_of_the_judgments():
    # qrels a3 b1, run b x: nDCG = 1 / 3 = ... DCG = 1, IDCG = 3 + 1/log2 3 = 3.6309 -> 0.2754;
    # the ideal of the list alone is (b): IDCG = 1 -> 1.0
    r = check("nDCG", ["b", "x"], {"a": 3, "b": 1}, {"IDCG": "1", "value": "1"})
    assert r.first_wrong.key == "IDCG"
    assert r.first_wrong.expected == pytest.approx(3 + 1 / math.log2(3))
    assert r.diagnosis.mistake.key == "ideal_from_ranking"


def test_ideal_not_sorted():
    # judgments listed c1 b2 a3; the ranking a b c is ideal (nDCG 1).  Unsorted ideal (1, 2, 3):
    # 1 + 2/1.585 + 3/2 = 3.7619 (the right IDCG is 3 + 2/1.585 + 1/2 = 4.7619)
    r = check("nDCG", ["a", "b", "c"], {"c": 1, "b": 2, "a": 3}, {"IDCG": "3.76"})
    assert r.first_wrong.expected == pytest.approx(3 + 2 / math.log2(3) + 0.5)
    assert r.diagnosis.mistake.key == "ideal_not_sorted"


def test_exponential_gain_and_the_reverse():
    # exp gain: DCG = 1 + 3/1.585 + 7/2 = 6.3928, IDCG = 7 + 3/1.585 + 1/2 = 9.3928 -> 0.6806
    r = check("nDCG@3", ["c", "b", "a"], GRADED, {"value": "0.68"})
    assert r.diagnosis.mistake.key == "exp_gain"
    r = check("nDCG(dcg='exp-log2')@3", ["c", "b", "a"], GRADED, {"gain@3": "3", "value": "0.79"})
    assert r.first_wrong.key == "gain@3" and r.first_wrong.expected == 7  # 2^3 - 1
    assert r.diagnosis.mistake.key == "linear_gain"


def test_precision_divided_by_the_list_length():
    # two retrieved, both relevant: P@5 = 2/5 = 0.4; 2/2 = 1
    r = check("P@5", ["a", "b"], {"a": 1, "b": 1}, {"value": "1"})
    assert r.first_wrong.expected == 0.4
    assert r.diagnosis.mistake.key == "p_list_length"
    # four retrieved, one relevant in the top 2: P@2 = 1/2; 1/4 = 0.25
    r = check("P@2", ["a", "b", "c", "d"], {"a": 1}, {"value": "0.25"})
    assert r.diagnosis.mistake.key == "p_list_length"


def test_first_relevant_rank_off_by_one():
    # first relevant at rank 3: RR = 1/3; a zero-based index gives 2 and 1/2
    r = check("RR", ["x", "y", "a"], {"a": 1}, {"first_relevant_rank": "2", "value": "0.5"})
    assert r.first_wrong.key == "first_relevant_rank" and r.first_wrong.expected == 3
    assert r.diagnosis.mistake.key == "rank_off_by_one" and r.diagnosis.matched == 2
    assert check("RR", ["x", "y", "a"], {"a": 1}, {"value": "0.25"}).diagnosis.mistake.key == "rank_off_by_one"


def test_rounding_too_early():
    # the Pinecone notebook: 0.5 + 0.5 + 0.6 + 0.57 = 2.17, / 4 = 0.5425; unrounded 2.1714 / 4 = 0.542857
    r = check("AP", CAT_RUN, CATS, {"value": "0.5425"})
    assert r.first_wrong.key == "value"
    assert r.diagnosis.mistake.key == "rounding_early"
    assert r.first_wrong.tolerance == 0.00005


# --------------------------------------------------------------------------- planted on the Pinecone notebook's example
# The cat in the box: 8 results, relevant at ranks 2, 4, 5, 7, R = 4 (CAT_RUN, CATS above).


def keys(result):
    return [d.mistake.key for d in result.diagnoses]


def test_ap_divided_by_min_k_r_is_named():
    # AP@3: one hit in the top 3 (rank 2). Right: (1/2) / R = 0.5 / 4 = 0.125.
    # min(k, R) = min(3, 4) = 3: (1/2) / 3 = 0.1667
    planted = (1 / 2) / 3
    assert metrics.score("AP(denominator='min(k,R)')@3", CAT_RUN, CATS) == pytest.approx(planted)
    r = check("AP@3", CAT_RUN, CATS, {"value": "0.1667"})
    assert r.first_wrong.expected == 0.125
    assert r.diagnosis.mistake.key == "ap_min_k_r"  # named first, no longer "non-relevant ranks"
    assert r.diagnosis.value == pytest.approx(planted)
    # min(k, R) = k whenever it differs from R, so dividing by k fits as well: both listed
    assert keys(r) == ["ap_min_k_r", "ap_results_or_k"]
    assert "min(k, R)" in r.message and "by k" in r.message


def test_the_ap_lesson_0_25_lists_every_mistake_that_gives_it():
    # AP@2 = (1/2) / 4 = 0.125. The lesson's min(k, R) value: (1/2) / min(2, 4) = 0.25, which is
    # also (1/2) / k, and also precision at every rank: (0/1 + 1/2) / 2 ranks = 0.25
    assert (1 / 2) / 2 == (0 / 1 + 1 / 2) / 2 == 0.25
    r = check("AP@2", CAT_RUN, CATS, {"value": "0.25"})
    assert keys(r) == ["ap_min_k_r", "ap_results_or_k", "ap_nonrelevant"]
    assert all(d.value == 0.25 and d.matched == d.compared == 1 for d in r.diagnoses)
    assert "3 of them give your numbers" in r.message


def test_ap_divided_by_the_number_of_results():
    # AP = (1/2 + 2/4 + 3/5 + 4/7) / 4 = 0.5429; over the N = 8 results: 2.1714 / 8 = 0.2714
    planted = (1 / 2 + 2 / 4 + 3 / 5 + 4 / 7) / 8
    assert round(planted, 4) == 0.2714
    r = check("AP", CAT_RUN, CATS, {"value": "0.2714"})
    assert r.first_wrong.expected == pytest.approx(0.5428571)
    assert keys(r) == ["ap_results_or_k"] and r.diagnosis.value == pytest.approx(planted)
    # every step: the sums are right, the denominator 8 is the first wrong step
    r = check("AP", CAT_RUN, CATS, {"running_sum@7": "2.1714", "denominator": "8", "value": "0.2714"})
    assert r.first_wrong.key == "denominator" and r.first_wrong.expected == 4
    assert keys(r) == ["ap_results_or_k"] and r.diagnosis.matched == 2


def test_ap_at_k_divided_by_k_or_by_n():
    # AP@5 = (1/2 + 2/4 + 3/5) / 4 = 1.6 / 4 = 0.4; over k = 5: 1.6 / 5 = 0.32; over N = 8: 1.6 / 8 = 0.2
    assert check("AP@5", CAT_RUN, CATS, {"value": "0.4"}).all_correct
    assert keys(check("AP@5", CAT_RUN, CATS, {"value": "0.32"})) == ["ap_results_or_k"]
    assert keys(check("AP@5", CAT_RUN, CATS, {"value": "0.2"})) == ["ap_results_or_k"]
    # min(5, 4) = 4 = R: the min(k, R) convention gives the right 0.4 here, nothing to name
    assert check("AP(denominator='min(k,R)')@5", CAT_RUN, CATS, {"value": "0.4"}).all_correct


def test_dcg_with_a_natural_log_or_log10_discount():
    # DCG@5: gains 1 at ranks 2, 4, 5. Right: 1/log2(3) + 1/log2(5) + 1/log2(6)
    #   = 0.6309 + 0.4307 + 0.3869 = 1.4485
    # ln:    1/ln(3) + 1/ln(5) + 1/ln(6)          = 0.9102 + 0.6213 + 0.5581 = 2.0897
    # log10: 1/log10(3) + 1/log10(5) + 1/log10(6) = 2.0959 + 1.4307 + 1.2851 = 4.8117
    right = 1 / math.log2(3) + 1 / math.log2(5) + 1 / math.log2(6)
    assert metrics.score("DCG@5", CAT_RUN, CATS) == pytest.approx(right)
    for typed, planted in (("2.0897", 1 / math.log(3) + 1 / math.log(5) + 1 / math.log(6)),
                           ("4.8117", 1 / math.log10(3) + 1 / math.log10(5) + 1 / math.log10(6))):
        r = check("DCG@5", CAT_RUN, CATS, {"value": typed})
        assert r.first_wrong.expected == pytest.approx(right)
        assert keys(r) == ["log_base"] and r.diagnosis.value == pytest.approx(planted)
    # every step of DCG@3 with ln: the discount at rank 1, ln 2 = 0.6931, is the first wrong step;
    # then 1/ln 3 = 0.9102 follows from it
    steps = {"gain@1": "0", "discount@1": "0.6931", "dcg@1": "0", "gain@2": "1", "discount@2": "1.0986",
             "dcg@2": "0.9102", "gain@3": "0", "discount@3": "1.3863", "dcg@3": "0.9102", "value": "0.9102"}
    r = check("DCG@3", CAT_RUN, CATS, steps)
    assert r.first_wrong.key == "discount@1" and r.first_wrong.expected == 1  # log2(2)
    assert keys(r) == ["log_base"] and r.diagnosis.matched == r.diagnosis.compared == 9
    assert {s.key: s.note for s in r.steps}["dcg@2"] == "follows from your earlier numbers"


def test_ndcg_value_does_not_depend_on_the_log_base_but_its_discounts_do():
    # DCG and IDCG both scale by ln 2, so nDCG is unchanged; only a typed discount shows the mistake
    assert check("nDCG@5", CAT_RUN, CATS, {"discount@2": "1.0986"}).diagnosis.mistake.key == "log_base"
    assert check("nDCG@5", CAT_RUN, CATS,
                 {"value": f"{metrics.score('nDCG@5', CAT_RUN, CATS):.4f}"}).all_correct


def test_decimal_fractions_are_accepted():
    # 4/7 rounded to 0.57: 0.5 + 0.5 + 0.6 + 0.57 = 2.17, and 2.17/4 = 0.5425 ± 0.005/4 holds 0.5429
    assert parse_answer("2.17/4") == (0.5425, 0.005 / 4, None)
    r = check("AP", CAT_RUN, CATS, {"value": "2.17/4"})
    assert r.all_correct and r.steps[-1].given == 0.5425
    assert check("AP@5", CAT_RUN, CATS, {"value": "1,6/4"}).all_correct  # decimal comma: 0.4
    # 2.2/4 = 0.55 ± 0.0125, capped at ± 0.005: 0.5429 is 0.0071 away
    r = check("AP", CAT_RUN, CATS, {"value": "2.2/4"})
    assert r.first_wrong.key == "value" and r.first_wrong.tolerance == 0.005


def test_every_step_a_value_right_from_the_learners_rounded_numbers_is_not_blamed():
    # 4/7 = 0.5714 typed 0.57 (right to 2 decimals), the sum 2.17 (right), then 2.17 / 4 = 0.5425
    # exactly: right from the learner's numbers, although the unrounded value is 0.5429
    r = check("AP", CAT_RUN, CATS, {"precision@7": "0.57", "running_sum@7": "2.17", "value": "0.5425"})
    assert r.first_wrong is None and r.all_correct
    assert "0.5429" in r.steps[-1].note and "rounded" in r.message
    # without the rounded sum, 0.5425 does not follow from anything typed: rounding too early
    r = check("AP", CAT_RUN, CATS, {"value": "0.5425"})
    assert r.first_wrong.key == "value" and r.diagnosis.mistake.key == "rounding_early"
    # DCG@2 of the cat: discount log2(3) = 1.585 typed 1.58; 1/1.58 = 0.6329 (unrounded 0.6309)
    r = check("DCG@2", CAT_RUN, CATS, {"gain@2": "1", "discount@2": "1.58", "dcg@2": "0.6329"})
    assert r.all_correct


def test_every_step_blames_the_slip_not_the_steps_that_follow_from_it():
    # precision at rank 4 is 2/4 = 0.5; a slip gives 0.4. The running sums 0.5 + 0.4 = 0.9 and
    # 0.9 + 3/5 = 1.5 are right given that slip: only the slip is the first wrong step
    answers = {"precision@2": "0.5", "running_sum@2": "0.5", "precision@4": "0.4", "running_sum@4": "0.9",
               "precision@5": "0.6", "running_sum@5": "1.5"}
    r = check("AP", CAT_RUN, CATS, answers)
    assert r.first_wrong.key == "precision@4" and r.first_wrong.expected == 0.5
    verdict = {s.key: (s.status, s.note) for s in r.steps if s.status != "blank"}
    assert verdict["running_sum@4"] == ("wrong", "follows from your earlier numbers")
    assert verdict["running_sum@5"] == ("wrong", "follows from your earlier numbers")
    assert verdict["precision@5"] == ("correct", "")


def test_every_step_a_convention_learner_is_blamed_at_the_denominator():
    # AP@3 under min(k, R): the precision and the sum are right (1/2), the denominator 3 is not (R = 4);
    # the value 0.5 / 3 = 0.1667 is right under the learner's convention but follows the wrong step
    r = check("AP@3", CAT_RUN, CATS, {"precision@2": "0.5", "running_sum@2": "0.5", "denominator": "3",
                                      "value": "0.1667"})
    assert r.first_wrong.key == "denominator" and r.first_wrong.expected == 4
    assert r.steps[-1].note == "follows from your earlier numbers"
    assert keys(r) == ["ap_min_k_r", "ap_results_or_k"] and r.diagnosis.matched == 2


def test_a_mistake_that_would_change_a_step_typed_right_is_not_named():
    # nDCG@3 of c, b, a: log2(i) discounts give 0.8689 (test above), but this learner typed the
    # discount at rank 1 right (log2 2 = 1), which log2(i) would make 0
    r = check("nDCG@3", ["c", "b", "a"], GRADED, {"discount@1": "1", "value": "0.87"})
    assert r.first_wrong.key == "value"
    assert "log2_i" not in keys(r)


def test_no_known_mistake():
    r = check("P@2", ["a", "b", "c", "d"], {"a": 1}, {"value": "0.9"})
    assert r.first_wrong is not None and r.diagnosis is None
    assert "None of the usual mistakes" in r.message


def test_the_hint_names_the_step_and_the_mistake_but_never_the_right_value():
    # the reference tools compared (docs/measures-and-conventions.md): R = 4, relevant at ranks 1 and 3: AP = (1/1 + 2/3) / 4 = 0.4167;
    # (1 + 2/3) / 2 = 0.8333 divides by the 2 relevant documents retrieved
    ranking, judged = ["a", "x", "b", "y", "z"], {"a": 1, "b": 1, "c": 1, "d": 1}
    r = check("AP", ranking, judged, {"value": "0.83"})
    assert "0.4167" in r.message and "0.4167" not in r.hint
    assert r.hint.startswith("First wrong step: the value of AP — you typed 0.83, which is not right.")
    assert "retrieved instead of R" in r.hint
    # no known mistake: P@2 = 1/2 = 0.5, typed 0.9; precision at rank 3 = 2/3 = 0.6667, typed 0.9
    r = check("P@2", ["a", "b", "c", "d"], {"a": 1}, {"value": "0.9"})
    assert "0.5" in r.message and "0.5" not in r.hint and "type every step" in r.hint
    r = check("AP", ranking, judged, {"precision@1": "1", "precision@3": "0.9"})
    assert "0.6667" in r.message and "0.6667" not in r.hint and "work this step out again" in r.hint
    # nothing wrong: the hint is the message
    r = check("AP", ranking, judged, {"value": "5/12"})
    assert r.all_correct and r.hint == r.message


def test_counts_must_be_exact_and_coarse_answers_get_a_note():
    r = check("AP", ["a", "x", "b"], {"a": 1, "b": 1}, {"denominator": "2.4"})
    assert r.first_wrong.key == "denominator"
    # log2(3) = 1.585: "1.6" is right to one decimal but not to two
    r = check("DCG@2", ["a", "b"], {"a": 1, "b": 1}, {"discount@2": "1.6"})
    assert r.first_wrong.key == "discount@2" and "at least 2 decimals" in r.first_wrong.note
    assert check("DCG@2", ["a", "b"], {"a": 1, "b": 1}, {"discount@2": "1.58"}).all_correct


@pytest.mark.parametrize("text, value, tol", [
    ("0.54", 0.54, 0.005), (".5", 0.5, 0.005), ("0,54", 0.54, 0.005), ("54%", 0.54, 0.005),
    ("0.5429", 0.5429, 0.00005), ("1", 1.0, 0.005), ("2/4", 0.5, 0.0), (" -0.25 ", -0.25, 0.005),
])
def test_parse_answer(text, value, tol):
    v, t, _ = parse_answer(text)
    assert v == value and t == tol


@pytest.mark.parametrize("text", ["abc", "<b>1</b>", "1/0", "nan", "NaN", "inf", "1e5", "1e999999", "10**400",
                                  "x" * 10_000, "9" * 5_000, "", "0.5.5", "**1**", "2.17/0", "2.17/4/2",
                                  "1/2%", "0.0/0.0", "-", ".", "/"])
def test_hostile_answers_are_unreadable_not_raised(text):
    with pytest.raises(ValueError):
        parse_answer(text)
    r = check("P@2", ["a", "b"], {"a": 1}, {"value": text})
    assert r.steps[-1].status in ("unreadable", "blank")
    assert r.first_wrong is None and not r.all_correct


@pytest.mark.parametrize("number", [10**400, 10**5000, float("nan"), float("inf"), True, None, [0.5]],
                         ids=["10**400", "10**5000", "nan", "inf", "True", "None", "list"])
def test_hostile_non_text_answers_are_unreadable_not_raised(number):
    r = check("P@2", ["a", "b"], {"a": 1}, {"value": number})
    assert r.steps[-1].status in ("unreadable", "blank") and r.first_wrong is None
    assert r.message  # a sentence, no exception


@settings(max_examples=scaled(200), deadline=1000)
@given(st.text(max_size=60) | st.from_regex(r"-?[0-9.,]{0,25}(/[0-9.,]{0,25})?%?", fullmatch=True))
def test_parse_answer_gives_a_finite_number_or_a_plain_error(text):
    try:
        value, tol, _ = parse_answer(text)
    except ValueError as err:
        assert str(err)
    else:
        assert math.isfinite(value) and 0 <= tol <= 0.005


def test_bad_arguments_raise_clear_errors():
    with pytest.raises(ValueError, match="unknown step 'gain@1'"):
        check("AP", ["a"], {"a": 1}, {"gain@1": "1"})
    with pytest.raises(ValueError, match="supports"):
        blanks("Bpref", ["a"], {"a": 1})
    with pytest.raises(ValueError, match="appears twice"):
        check("AP", ["a", "a"], {"a": 1}, {"value": "1"})
    assert check("AP", ["a"], {"a": 1}, {}).message == "Type at least one number to check."


def test_empty_ranking_and_no_relevant_documents():
    assert check("AP", [], {"a": 1}, {"value": "0"}).all_correct
    assert check("nDCG@3", ["a", "b"], {"a": 0}, {"value": "0", "IDCG": "0"}).all_correct


def test_readme_teaching_tour_runs_and_its_comments_hold():
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[3] / "docs" / "teaching.md").read_text()
    block = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    ns: dict = {}
    exec(compile(block, "docs/teaching.md", "exec"), ns)  # noqa: S102 - our own docs
    assert (ns["r"].first_wrong.key, ns["r"].diagnosis.mistake.key) == ("value", "ap_retrieved")
    assert ns["cells"]["sklearn"].value == 1.0 and ns["cells"]["sklearn"].moved_by == ("ideal='ranking'",)
    assert [s.library for s in ns["code"]] == ["pytrec_eval", "ranx", "ir_measures", "ranklab"]
    assert ns["t"].mean_diff == pytest.approx((0.1 + 0.2 + 0.1) / 3) and "<script" not in ns["sheet"]
    assert float(ns["swap"].swap_matrix("RR", ["x", "a"], {"a": 1}).delta[0, 1]) == 0.5


# --------------------------------------------------------------------------- properties


MEASURES = ["P@3", "R@3", "RR", "AP", "AP@4", "DCG@4", "nDCG@4", "nDCG", "nDCG(dcg='exp-log2')@3", "IDCG@3"]


@st.composite
def examples(draw):
    n = draw(st.integers(1, 7))
    docs = [f"d{i}" for i in range(n + 3)]
    ranking = docs[:n]
    judged = {d: draw(st.integers(-1, 3)) for d in docs if draw(st.booleans())}
    return ranking, judged


@settings(max_examples=scaled(60), deadline=None)
@given(examples(), st.sampled_from(MEASURES))
def test_typing_the_right_values_is_always_correct(example, measure):
    ranking, judged = example
    bl = blanks(measure, ranking, judged)
    answers = {b.key: (str(int(b.value)) if b.integer else f"{b.value:.6f}") for b in bl}
    r = check(measure, ranking, judged, answers)
    assert r.all_correct and r.first_wrong is None


def planted(measure, ranking, judged, digits: int):
    """(mistake, the right blanks by key, the mistake's numbers, those numbers as typed with
    ``digits`` decimals) for every mistake of the catalogue that applies to ``measure``."""
    m, q = _prepared(measure, ranking, judged)
    right = {b.key: b for b in blanks(measure, ranking, judged)}
    for mistake in MISTAKES:
        if m.name not in mistake.families:
            continue
        for candidate in mistake.kernel(m, q):
            answers = {k: f"{v:.{digits}f}" if not right[k].integer else str(round(v)) for k, v in candidate.items()
                       if k in right and math.isfinite(v)}
            yield mistake, right, candidate, answers


@settings(max_examples=scaled(60), deadline=None)
@given(examples(), st.sampled_from(MEASURES))
def test_typing_a_mistakes_values_is_diagnosed(example, measure):
    ranking, judged = example
    for mistake, right, candidate, answers in planted(measure, ranking, judged, 6):
        if not answers:
            continue
        r = check(measure, ranking, judged, answers)
        differs = [k for k in answers if abs(right[k].value - candidate[k]) > 1e-5]
        if not differs:
            continue
        assert r.first_wrong is not None
        assert mistake.key in keys(r), (mistake.key, answers)


@settings(max_examples=scaled(60), deadline=None)
@given(examples(), st.sampled_from(MEASURES))
def test_every_step_of_a_mistake_is_blamed_where_the_mistake_enters(example, measure):
    ranking, judged = example
    for mistake, right, candidate, answers in planted(measure, ranking, judged, 9):
        enters = next((k for k in right if k in answers and abs(right[k].value - candidate[k]) > 1e-6), None)
        if enters is None:
            continue
        r = check(measure, ranking, judged, answers)
        assert r.first_wrong is not None and r.first_wrong.key == enters, (mistake.key, answers)
