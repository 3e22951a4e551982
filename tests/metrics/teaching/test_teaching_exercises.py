"""Exercises: reproducible, answers from metrics (checked here by hand-written definitions)."""

from __future__ import annotations

import math
import re

import pytest

from metrics.teaching.exercises import (
    LEVELS,
    Question,
    generate,
    grade_answer,
    swapped,
    working,
    worksheet_html,
    worksheet_markdown,
)


def _precision(ranking, judgments, k):
    return sum(judgments.get(d, 0) >= 1 for d in ranking[:k]) / k


def _ap(ranking, judgments, denominator):
    hits, total = 0, 0.0
    for i, d in enumerate(ranking, 1):
        if judgments.get(d, 0) >= 1:
            hits += 1
            total += hits / i
    return total / denominator if denominator else 0.0


def _dcg(grades, exp=False):
    return sum(((2 ** g - 1) if exp else g) / math.log2(i + 1) for i, g in enumerate(grades, 1) if g > 0)


@pytest.mark.parametrize("seed", [0, 1, 2, 42, 2**31 - 1])
@pytest.mark.parametrize("level", [1, 2, 3])
def test_same_seed_same_exercise_and_answers_match_the_definitions(seed, level):
    ex = generate(seed, level)
    assert ex == generate(seed, level)
    r, j = list(ex.ranking), ex.judgments
    assert ex.seed == seed and ex.level == level and len(ex.questions) == 4
    assert any(g > 0 for g in j.values())
    for q in ex.questions:
        if q.kind == "predict":
            assert q.answer in ("up", "down", "same")
            continue
        name, _, k = q.measure.partition("@")
        k = int(k) if k else None
        if name == "P":
            assert q.answer == pytest.approx(_precision(r, j, k))
        elif name == "R":
            assert q.answer == pytest.approx(sum(j.get(d, 0) >= 1 for d in r[:k]) / sum(g >= 1 for g in j.values()))
        elif name == "RR":
            first = next((i for i, d in enumerate(r, 1) if j.get(d, 0) >= 1), None)
            assert q.answer == (1 / first if first else 0)
        elif name == "AP":
            assert q.answer == pytest.approx(_ap(r, j, sum(g >= 1 for g in j.values())))
        elif name == "AP(denominator='retrieved')":
            assert q.answer == pytest.approx(_ap(r, j, sum(j.get(d, 0) >= 1 for d in r)))
        elif name in ("DCG", "nDCG", "nDCG(dcg='exp-log2')"):
            exp = "exp" in name
            dcg = _dcg([j.get(d, 0) for d in r[:k]], exp)
            ideal = _dcg(sorted(j.values(), reverse=True)[:k], exp)
            assert q.answer == pytest.approx(dcg if name == "DCG" else dcg / ideal)
        else:
            pytest.fail(f"unexpected measure {q.measure}")


def test_predict_answer_follows_the_swap():
    for seed in range(20):
        ex = generate(seed, 3)
        q = ex.questions[-1]
        m = re.search(r"rank (\d+)\) and \w+ \(rank (\d+)", q.prompt)
        i, j = int(m.group(1)), int(m.group(2))
        before = _dcg([ex.judgments.get(d, 0) for d in ex.ranking[:3]])
        after = _dcg([ex.judgments.get(d, 0) for d in swapped(ex.ranking, i, j)[:3]])
        expected = "up" if after > before + 1e-9 else "down" if after < before - 1e-9 else "same"
        assert q.answer == expected  # IDCG is the same before and after, so DCG decides


def test_different_seeds_and_levels_differ():
    assert len({generate(s, 2).judgments.__repr__() for s in range(10)}) > 5
    assert len(generate(5, 1).ranking) == 5 and len(generate(5, 2).ranking) == 8
    assert LEVELS == {1: "easy", 2: "medium", 3: "hard"}


def test_level_two_and_three_have_missed_relevant_documents():
    for seed in range(5):
        assert generate(seed, 2).missed and generate(seed, 3).missed


@pytest.mark.parametrize("bad", [-1, 2**31, 1.5, "7", None, True])
def test_bad_seed(bad):
    with pytest.raises((TypeError, ValueError), match="seed"):
        generate(bad, 1)


@pytest.mark.parametrize("bad", [0, 4, "1", None])
def test_bad_level(bad):
    with pytest.raises(ValueError, match="level"):
        generate(1, bad)


def test_grade_answer():
    q = Question("compute", "AP?", "AP", 0.225, "(1/5 + 2/8) / 2")
    assert grade_answer(q, "0.22").correct and grade_answer(q, "0.23").correct
    assert grade_answer(q, "9/40").correct  # exactly 0.225
    assert not grade_answer(q, "0.24").correct
    assert "Could not read" in grade_answer(q, "<b>x</b>").message
    assert not grade_answer(q, "x" * 10_000).correct
    p = Question("predict", "swap?", "P@3", "same", "P@3 stays 0.6667.", ("up", "down", "same"))
    assert grade_answer(p, " Same ").correct
    assert not grade_answer(p, "up").correct
    assert "Choose one of" in grade_answer(p, "sideways").message


def test_working_lines_are_hand_checkable():
    assert working("P@2", ["a", "b", "c"], {"b": 1}) == "P@2 = (relevant in the top 2) / 2 = 1/2 = 0.5"
    assert working("R@2", ["a", "b", "c"], {"b": 1, "c": 1}) == "R@2 = (relevant in the top 2) / R = 1/2 = 0.5"
    assert working("RR", ["a", "b", "c"], {"c": 1}) == "RR = 1/3 = 0.3333"
    assert working("RR", ["a"], {"c": 1}) == "RR = 0 (no relevant document)"
    assert working("DCG@2", ["a", "b"], {"a": 3}) == "DCG@2 = 3/1 + 0/1.585 = 3"


def test_worksheets_escape_and_contain_the_key():
    exs = [generate(1, 1), generate(2, 3)]
    md = worksheet_markdown(exs, title="# <b>Quiz</b> [x](http://e)")
    assert md.startswith("# \\# \\<b\\>Quiz\\</b\\> \\[x\\]\\(http://e\\)")
    assert md.count("## Exercise") == 2 and "## Answer key" in md
    for ex in exs:
        for q in ex.questions:
            assert q.prompt in md
    page = worksheet_html(exs, title="<img src=x onerror=alert(1)>")
    assert "<img" not in page and "&lt;img" in page
    assert page.count("<h2>Exercise") == 2 and "page-break-before" in page
    assert "&lt;" not in worksheet_html(exs).split("<body>")[1]  # nothing double-escaped
