"""Exercise notebooks (Practice, Check my calculation): the check cell says right or wrong and
names the likely mistake without the value; the teacher's version has every answer."""

from __future__ import annotations

import nbformat
import pytest

import metrics
from metrics.teaching import exercises
from ranklab_ui.core import notebook
from ranklab_ui.core.i18n import _, language
from tests.notebook.test_generator import execute


def outputs(cell) -> str:
    return "".join(o.get("text", "") for o in cell.get("outputs", []) if o.output_type == "stream")


def check_cells(nb) -> list:
    return [c for c in nb.cells if c.cell_type == "code" and "check_answer(" in c.source]


def reveal_cells(nb) -> list:
    return [c for c in nb.cells if c.cell_type == "code" and "answer_text(" in c.source]


def shown_value(q) -> str:
    return metrics.num(round(q.answer, 4))


def test_wrong_answers_name_the_mistake_and_never_the_value():
    ex = exercises.generate(5, 3)  # nDCG@5 with grades 3, 2, 0, 0, 3, then 2, 0, 0; I = 1 unretrieved
    ndcg = ex.questions[1]
    assert ndcg.measure == "nDCG@5"
    # the exponential gain where the grade is asked: the convention's own value, from metrics
    wrong = metrics.num(round(metrics.score("nDCG(dcg='exp-log2')@5", list(ex.ranking), ex.judgments), 4))
    grade = exercises.check_answer(ex, 1, wrong)
    assert not grade.correct
    assert grade.message == "Not quite. Likely mistake: 2^rel - 1 gain instead of the grade."
    assert shown_value(ndcg) not in grade.message
    # a prediction: right or wrong, never which way it goes
    predict = ex.questions[3]
    other = next(c for c in predict.choices if c != predict.answer)
    assert exercises.check_answer(ex, 3, other).message == "Not quite."
    assert exercises.check_answer(ex, 3, predict.answer).message == "Right."
    assert not exercises.check_answer(ex, 0, None).counted
    assert not exercises.check_answer(ex, 0, "<script>").counted


def test_teacher_answers_are_right_and_learner_cells_are_empty():
    for level in (1, 2, 3):
        ex = exercises.generate(11, level)
        teacher = notebook.exercise_notebook(11, level, teacher=True)
        learner = notebook.exercise_notebook(11, level)
        for i in range(len(ex.questions)):
            source = next(c.source for c in teacher.cells if c.source.startswith(f"answer_{i + 1} = "))
            typed = source.split(" = ", 1)[1].split("  #", 1)[0]
            assert exercises.check_answer(ex, i, eval(typed)).correct  # noqa: S307 - a literal we wrote
            assert next(c.source for c in learner.cells
                        if c.source.startswith(f"answer_{i + 1} = ")).startswith(f"answer_{i + 1} = None")
        learner_text = nbformat.writes(learner)
        for q in ex.questions:
            if q.kind == "compute" and not float(q.answer).is_integer():
                assert shown_value(q) not in learner_text


@pytest.mark.slow
@pytest.mark.parametrize(("level", "lang"), [(1, "en"), (2, "fr"), (3, "zh")])
def test_teacher_notebook_runs_every_check_right(level, lang):
    nb = nbformat.reads(notebook.write_exercise(3, level, teacher=True, language_code=lang).decode(), as_version=4)
    execute(nb)
    ex = exercises.generate(3, level)
    with language(lang):
        right = _("Right.")
    assert [outputs(c).strip() for c in check_cells(nb)] == [right] * len(ex.questions)
    for cell, q in zip(reveal_cells(nb), ex.questions, strict=True):
        with language(lang):
            assert outputs(cell).strip() == exercises.answer_text(q).strip()
        if q.kind == "compute":
            assert shown_value(q) in outputs(cell)


@pytest.mark.slow
def test_learner_notebook_hides_the_values_until_asked():
    ex = exercises.generate(5, 2)
    nb = nbformat.reads(notebook.write_exercise(5, 2).decode(), as_version=4)
    # the learner answers question 2 (AP) with scikit-learn's denominator, and asks for question 3
    ap_retrieved = metrics.num(round(ex.questions[2].answer, 4))
    for cell in nb.cells:
        if cell.source.startswith("answer_2 = "):
            cell.source = f"answer_2 = {ap_retrieved!r}"
        if cell.source.startswith("reveal_3 = "):
            cell.source = cell.source.replace("reveal_3 = False", "reveal_3 = True")
    execute(nb)
    checks = [outputs(c).strip() for c in check_cells(nb)]
    assert checks[1] == "Not quite. Likely mistake: AP divided by the relevant documents retrieved instead of R."
    assert checks[0] == checks[2] == "Type an answer first."
    assert checks[3] == "Choose one of: up, down, same."
    reveals = [outputs(c) for c in reveal_cells(nb)]
    assert reveals[0] == reveals[1] == reveals[3] == ""
    assert ap_retrieved in reveals[2]
    everything = "".join(outputs(c) for c in nb.cells)
    assert shown_value(ex.questions[1]) not in everything  # AP itself was never revealed
