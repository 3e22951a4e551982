"""Check my calculation: every expected value below is worked out by hand in the comment."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics.teaching.check import MISTAKES, _prepared, blanks, check, parse_answer

CAT_RUN = [str(i) for i in range(1, 9)]
CATS = {"2": 1, "4": 1, "5": 1, "7": 1}  # seed 004: relevant at 2, 4, 5, 7
GRADED = {"a": 3, "b": 2, "c": 1}


def test_blanks_of_seed004_ap_are_the_precisions_at_the_hits():
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
    assert round(got["value"], 4) == 0.79  # REFERENCE.md: 0.7900


def test_all_correct_seed004_with_two_decimals():
    answers = {"precision@2": "0.5", "precision@4": "0.50", "precision@5": "0.6",
               "precision@7": "0.57", "value": "0.54"}
    r = check("AP", CAT_RUN, CATS, answers)
    assert r.all_correct and r.first_wrong is None and r.diagnosis is None
    assert r.message == "Every number you typed is right."


def test_seed004_dark_cat_ap_0_225_accepts_both_roundings():
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
    # IDCG = 3 + 2 + 1/1.585 = 5.6309, ratio 0.8689 (REFERENCE.md's J&K value)
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
    # seed 004: 0.5 + 0.5 + 0.6 + 0.57 = 2.17, / 4 = 0.5425; unrounded 2.1714 / 4 = 0.542857
    r = check("AP", CAT_RUN, CATS, {"value": "0.5425"})
    assert r.first_wrong.key == "value"
    assert r.diagnosis.mistake.key == "rounding_early"
    assert r.first_wrong.tolerance == 0.00005


def test_no_known_mistake():
    r = check("P@2", ["a", "b", "c", "d"], {"a": 1}, {"value": "0.9"})
    assert r.first_wrong is not None and r.diagnosis is None
    assert "None of the usual mistakes" in r.message


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


@pytest.mark.parametrize("text", ["abc", "<b>1</b>", "1/0", "nan", "inf", "1e5", "x" * 10_000, "", "0.5.5", "**1**"])
def test_hostile_answers_are_unreadable_not_raised(text):
    with pytest.raises(ValueError):
        parse_answer(text)
    r = check("P@2", ["a", "b"], {"a": 1}, {"value": text})
    assert r.steps[-1].status in ("unreadable", "blank")
    assert r.first_wrong is None and not r.all_correct


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

    text = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    block = re.search(r"## Teaching.*?```python\n(.*?)```", text, re.S).group(1)
    ns: dict = {}
    exec(compile(block, "README.md", "exec"), ns)  # noqa: S102 - our own README
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


@settings(max_examples=60, deadline=None)
@given(examples(), st.sampled_from(MEASURES))
def test_typing_the_right_values_is_always_correct(example, measure):
    ranking, judged = example
    bl = blanks(measure, ranking, judged)
    answers = {b.key: (str(int(b.value)) if b.integer else f"{b.value:.6f}") for b in bl}
    r = check(measure, ranking, judged, answers)
    assert r.all_correct and r.first_wrong is None


@settings(max_examples=60, deadline=None)
@given(examples(), st.sampled_from(MEASURES))
def test_typing_a_mistakes_values_is_diagnosed(example, measure):
    ranking, judged = example
    m, q = _prepared(measure, ranking, judged)
    right = {b.key: b for b in blanks(measure, ranking, judged)}
    for mistake in MISTAKES:
        if m.name not in mistake.families:
            continue
        for candidate in mistake.kernel(m, q):
            answers = {k: f"{v:.6f}" if not right[k].integer else str(round(v)) for k, v in candidate.items()
                       if k in right and math.isfinite(v)}
            if not answers:
                continue
            r = check(measure, ranking, judged, answers)
            differs = [k for k in answers if abs(right[k].value - candidate[k]) > 1e-5]
            if not differs:
                continue
            assert r.first_wrong is not None
            assert r.diagnosis is not None, (mistake.key, answers)
