"""Generated exercises, reproducible from an integer seed, at three levels of difficulty.

Every exercise is one ranking with its judgments and a few questions: "compute" questions
(type a number; checked with the tolerance of :mod:`.check`) and "predict, then reveal"
questions ("if the documents at ranks 1 and 3 swap, does nDCG@3 go up, down or stay the
same?"). Every answer is computed by :mod:`metrics`. :func:`worksheet_markdown` and
:func:`worksheet_html` print a set of exercises with an answer key.

Levels: 1 — binary relevance, 5 results, P@k, R@k, RR. 2 — binary relevance, 8 results,
relevant documents the system missed, AP. 3 — graded relevance 0–3, DCG and nDCG, and
the conventions that change them.

Examples
--------
>>> ex = generate(7, level=1)
>>> ex == generate(7, level=1)  # the same seed gives the same exercise
True
>>> len(ex.ranking), sorted(set(ex.judgments.values())) <= [0, 1]
(5, True)
>>> q = ex.questions[0]
>>> grade_answer(q, f"{q.answer:.2f}").correct
True
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass, field

import numpy as np

from .. import core
from .._i18n import N_, _
from ..explain import num
from ..measures import parse
from .check import EPS, check, parse_answer

__all__ = ["LEVELS", "Question", "Exercise", "Grade", "generate", "grade_answer", "swapped", "predict_swap",
           "worksheet_markdown", "worksheet_html", "MAX_SEED", "working", "check_answer", "answer_text"]

LEVELS = {1: N_("easy"), 2: N_("medium"), 3: N_("hard")}  # translated where shown
MAX_SEED = 2**31 - 1
PREDICT_CHOICES = (N_("up"), N_("down"), N_("same"))  # the values stay English; shown translated
DOC_NAMES = "ABCDEFGHIJKL"


@dataclass(frozen=True)
class Question:
    """One question. ``kind`` is "compute" (``answer`` a float) or "predict" (``answer`` one
    of ``choices``); ``reveal`` explains the answer with its numbers."""

    kind: str
    prompt: str
    measure: str
    answer: float | str
    reveal: str
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class Exercise:
    seed: int
    level: int
    ranking: tuple[str, ...]
    judgments: dict
    questions: tuple[Question, ...]

    @property
    def missed(self) -> list[str]:
        """Relevant documents (grade > 0) the system did not retrieve."""
        return [d for d, g in self.judgments.items() if g > 0 and d not in self.ranking]


@dataclass(frozen=True)
class Grade:
    """The verdict on an answer; ``counted`` is False when there was nothing to grade (no
    answer, an unreadable one, a choice outside the list)."""

    correct: bool
    message: str
    counted: bool = field(default=True, repr=False)


def _seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, int | np.integer):
        raise TypeError(f"seed must be an integer, got {seed!r}")
    if not 0 <= int(seed) <= MAX_SEED:
        raise ValueError(f"seed must be between 0 and {MAX_SEED}, got {seed}")
    return int(seed)


def _level(level) -> int:
    if isinstance(level, bool) or level not in LEVELS:
        raise ValueError(f"level must be 1 (easy), 2 (medium) or 3 (hard), got {level!r}")
    return int(level)


def swapped(ranking, i: int, j: int) -> list[str]:
    """The ranking with the documents at ranks ``i`` and ``j`` (1-based) exchanged.

    >>> swapped(["a", "b", "c"], 1, 3)
    ['c', 'b', 'a']
    """
    out = list(ranking)
    out[i - 1], out[j - 1] = out[j - 1], out[i - 1]
    return out


def working(measure: str, ranking, judgments) -> str:
    """The calculation as one line of plain text, for answer keys.

    >>> working("AP", ["a", "x", "b"], {"a": 1, "b": 1, "c": 1})
    'AP = (1/1 + 2/3) / 3 = 0.5556'
    >>> working("nDCG@2", ["b", "a"], {"a": 2, "b": 1})
    'DCG@2 = 1/1 + 2/1.585 = 2.2619; IDCG@2 = 2/1 + 1/1.585 = 2.6309; nDCG@2 = 2.2619 / 2.6309 = 0.8597'
    """
    e = core.explain(measure, ranking, judgments)
    m, c, s = parse(e.measure), e.columns, e.summary
    name, at = m.name, ("" if m.cutoff is None else f"@{m.cutoff}")
    v = num(e.value)
    if name == "P":
        return (f"{e.measure} = (" + _("relevant in the top {k}").format(k=s["k"])
                + f") / {s['k']} = {s['hits']}/{s['k']} = {v}")
    if name == "R":
        return (f"{e.measure} = (" + _("relevant in the top {k}").format(k=s["k"])
                + f") / R = {s['hits']}/{s['R']} = {v}")
    if name == "RR":
        first = s["first_relevant_rank"]
        return f"{e.measure} = 1/{first} = {v}" if first else f"{e.measure} = 0 (" + _("no relevant document") + ")"
    if name == "AP":
        terms = [f"{h}/{r}" for r, h, hit in zip(c["rank"], c["hits"], c["relevant"], strict=True) if hit]
        if not terms or not s["denominator"]:
            return f"{e.measure} = 0"
        return f"{e.measure} = ({' + '.join(terms)}) / {s['denominator']} = {v}"
    if name in ("DCG", "nDCG"):
        terms = [f"{num(g)}/{num(d, 3)}" for g, d in zip(c["gain"], c["discount"], strict=True)]
        dcg = f"DCG{at} = {' + '.join(terms) or '0'} = {num(s['DCG'])}"
        if name == "DCG":
            return dcg
        ideal = e.ideal or {"gain": [], "discount": []}
        iterms = [f"{num(g)}/{num(d, 3)}" for g, d in zip(ideal["gain"], ideal["discount"], strict=True)]
        return (f"{dcg}; IDCG{at} = {' + '.join(iterms) or '0'} = {num(s['IDCG'])}; "
                f"nDCG{at} = {num(s['DCG'])} / {num(s['IDCG'])} = {v}")
    return f"{e.measure} = {v}"


def _compute(measure: str, ranking, judgments, prompt: str) -> Question:
    value = core.score(measure, ranking, judgments)
    return Question("compute", prompt, measure, value, working(measure, ranking, judgments))


def _predict(measure: str, ranking, judgments, i: int, j: int, *, by_rank: bool = False) -> Question:
    before = core.score(measure, ranking, judgments)
    after = core.score(measure, swapped(ranking, i, j), judgments)
    answer = "up" if after > before + EPS else "down" if after < before - EPS else "same"
    who = (_("the results at ranks {i} and {j}").format(i=i, j=j) if by_rank
           else _("{a} (rank {i}) and {b} (rank {j})").format(a=ranking[i - 1], i=i, b=ranking[j - 1], j=j))
    prompt = _("Predict, then reveal: if {who} swap places, does {measure} go up, down or stay the same?").format(
        who=who, measure=measure)
    why = _("{measure} goes from {before} to {after}").format(measure=measure, before=num(round(before, 4)),
                                                             after=num(round(after, 4)))
    if answer == "same":
        why += " — " + _why_same(measure, ranking, judgments, i, j)
    return Question("predict", prompt, measure, answer, why + ".", PREDICT_CHOICES)


def _why_same(measure: str, ranking, judgments, i: int, j: int) -> str:
    m = parse(measure)
    k = m.cutoff
    if k is not None and i > k:
        return _("both ranks are below the cutoff {k}, so {measure} never sees them").format(k=k, measure=measure)
    if judgments.get(ranking[i - 1], 0) == judgments.get(ranking[j - 1], 0):
        return _("the two documents are equally relevant")
    if m.name in ("P", "R", "Success") and (k is None or j <= k):
        return _("both stay in the top {k}, and {name} counts relevant documents, not their order").format(
            k=k, name=m.name)
    if m.name == "RR":
        return _("the first relevant document stays where it was")
    return _("the change happens where this measure does not look")


def _pair(rng, n: int, ranking, judgments, measure: str, want_change: bool):
    """Two ranks to swap; prefer a pair that changes ``measure`` when ``want_change``."""
    pairs = [(i, j) for i in range(1, n + 1) for j in range(i + 1, n + 1)
             if judgments.get(ranking[i - 1], 0) != judgments.get(ranking[j - 1], 0)]
    if not pairs:
        pairs = [(1, 2)]
    rng.shuffle(pairs)
    base = core.score(measure, ranking, judgments)
    for i, j in pairs:
        changed = abs(core.score(measure, swapped(ranking, i, j), judgments) - base) > EPS
        if changed == want_change:
            return i, j
    return pairs[0]


def predict_swap(measure: str, ranking, judgments, seed: int) -> tuple[Question, Question, int, int]:
    """A predict-then-reveal step on any ranking (a lesson's current example): two ranks to
    swap, chosen from ``seed`` (most seeds pick a swap that changes ``measure``); the question
    "up, down or the same?", the question "and to what value?", and the two ranks. The
    questions name ranks, never documents: a document's id is user text.

    >>> cat = {"2": 1, "4": 1, "5": 1, "7": 1}
    >>> direction, value, i, j = predict_swap("AP@5", list("12345678"), cat, seed=1)
    >>> (i, j) == (predict_swap("AP@5", list("12345678"), cat, seed=1)[2:]), direction.choices
    (True, ('up', 'down', 'same'))
    >>> after = core.score("AP@5", swapped(list("12345678"), i, j), cat)
    >>> value.answer == after and direction.answer in ("up", "down")
    True
    """
    rng = np.random.default_rng(_seed(seed))
    n = len(ranking)
    if n < 2:
        raise ValueError("a swap needs at least two ranked documents")
    i, j = _pair(rng, n, list(ranking), judgments, measure, want_change=seed % 4 != 3)
    direction = _predict(measure, list(ranking), judgments, i, j, by_rank=True)
    after = swapped(ranking, i, j)
    value = _compute(measure, after, judgments, _("And {measure} after the swap is …?").format(measure=measure))
    return direction, value, i, j


def generate(seed: int, level: int = 1) -> Exercise:
    """The exercise for ``seed`` at ``level`` (1 easy, 2 medium, 3 hard).

    Documents are named by letters in rank order (A is rank 1); judged documents the
    system missed are named after the last retrieved one.
    """
    seed, level = _seed(seed), _level(level)
    rng = np.random.default_rng([seed, level])
    n = 5 if level == 1 else 8
    ranking = list(DOC_NAMES[:n])
    for _attempt in range(100):
        if level < 3:
            rel = rng.random(n) < 0.45
            grades = [int(x) for x in rel]
        else:
            grades = [int(g) for g in rng.choice([0, 0, 1, 2, 3], size=n)]
        if 0 < sum(g > 0 for g in grades) < n and any(g > 0 for g in grades[:3]):
            break
    judgments = dict(zip(ranking, grades, strict=True))
    if level >= 2:
        for d in DOC_NAMES[n:n + int(rng.integers(1, 3))]:
            judgments[d] = 1 if level == 2 else int(rng.integers(1, 4))
    k = int(rng.integers(2, 5)) if level == 1 else int(rng.integers(3, 6))
    want_change = bool(rng.random() < 0.7)
    qs = []
    p_k, r_k, dcg_k, ndcg_k = (str(parse(name).with_cutoff(k)) for name in ("P", "R", "DCG", "nDCG"))
    if level == 1:
        qs.append(_compute(p_k, ranking, judgments, _("What is {measure}?").format(measure=p_k)))
        qs.append(_compute(r_k, ranking, judgments, _("What is {measure} (recall at {k})?").format(measure=r_k, k=k)))
        qs.append(_compute("RR", ranking, judgments, _("What is the reciprocal rank RR?")))
        i, j = _pair(rng, n, ranking, judgments, p_k, want_change)
        qs.append(_predict(p_k, ranking, judgments, i, j))
    elif level == 2:
        qs.append(_compute(p_k, ranking, judgments, _("What is {measure}?").format(measure=p_k)))
        qs.append(_compute("AP", ranking, judgments,
                           _("What is the average precision AP (trec_eval: divide by R, every relevant "
                             "document in the judgments)?")))
        qs.append(_compute("AP(denominator='retrieved')", ranking, judgments,
                           _("What is AP if you divide by the relevant documents retrieved instead "
                             "(scikit-learn's convention)?")))
        i, j = _pair(rng, n, ranking, judgments, "AP", want_change)
        qs.append(_predict("AP", ranking, judgments, i, j))
    else:
        qs.append(_compute(dcg_k, ranking, judgments,
                           _("What is {measure} (gain = grade, discount log2(i + 1))?").format(measure=dcg_k)))
        qs.append(_compute(ndcg_k, ranking, judgments,
                           _("What is {measure}? The ideal ordering sorts every judged document.").format(
                               measure=ndcg_k)))
        qs.append(_compute(str(parse(ndcg_k).with_params(dcg="exp-log2")), ranking, judgments,
                           _("What is {measure} with the gain 2^grade - 1?").format(measure=ndcg_k)))
        i, j = _pair(rng, n, ranking, judgments, "nDCG@3", want_change)
        qs.append(_predict("nDCG@3", ranking, judgments, i, j))
    return Exercise(seed, level, tuple(ranking), judgments, tuple(qs))


def grade_answer(question: Question, text) -> Grade:
    """Grade a typed answer: a number within the typed tolerance, or a predicted direction.

    >>> q = Question("compute", "P@3?", "P@3", 1 / 3, "1/3")
    >>> grade_answer(q, "0.33"), grade_answer(q, "0.3").correct
    (Grade(correct=True, message='Right: 0.3333 (±0.005).'), False)
    """
    if question.kind == "predict":
        choice = str(text).strip().lower() if text is not None else ""
        if choice not in question.choices:
            return Grade(False, _("Choose one of: {choices}.").format(choices=", ".join(map(_, question.choices))),
                         counted=False)
        ok = choice == question.answer
        return Grade(ok, (_("Right: {reveal}") if ok else _("Not quite — it goes {answer}: {reveal}")).format(
            answer=_(question.answer), reveal=question.reveal))
    if text is None or (isinstance(text, str) and not text.strip()):
        return Grade(False, _("Type an answer first."), counted=False)
    try:
        given, tol, _decimals = parse_answer(text)
    except ValueError as err:
        return Grade(False, _("Could not read your answer: {error}.").format(error=err), counted=False)
    ok = abs(given - question.answer) <= tol + EPS
    shown = num(round(question.answer, 4))
    if ok:
        return Grade(True, _("Right: {answer} (±{tolerance}).").format(answer=shown, tolerance=f"{tol:g}"))
    return Grade(False, _("Not quite: the answer is {answer}. {reveal}").format(answer=shown, reveal=question.reveal))


def check_answer(exercise: Exercise, index: int, text) -> Grade:
    """Grade the answer to question ``index`` without giving the value away (the exercise
    notebooks: :func:`answer_text` reveals it when asked). A wrong number is checked by
    :func:`metrics.teaching.check.check`, which names the likely mistake, as Check my calculation does.

    Level 2's AP with the relevant documents retrieved as denominator (scikit-learn's) where
    trec_eval's R is asked:

    >>> ex = generate(5, level=2)
    >>> ex.questions[1].measure, round(ex.questions[2].answer, 4)
    ('AP', 0.7593)
    >>> grade = check_answer(ex, 1, "0.7593")
    >>> grade.correct, "0.5423" in grade.message
    (False, False)
    >>> print(grade.message)
    Not quite. Likely mistake: AP divided by the relevant documents retrieved instead of R.
    >>> check_answer(ex, 1, "0.5423").message
    'Right.'
    """
    question = exercise.questions[index]
    if question.kind == "predict":
        choice = str(text).strip().lower() if text is not None else ""
        if choice not in question.choices:
            return Grade(False, _("Choose one of: {choices}.").format(choices=", ".join(map(_, question.choices))),
                         counted=False)
        return Grade(True, _("Right.")) if choice == question.answer else Grade(False, _("Not quite."))
    if text is None or (isinstance(text, str) and not text.strip()):
        return Grade(False, _("Type an answer first."), counted=False)
    try:
        parse_answer(text)
    except ValueError as err:
        return Grade(False, _("Could not read your answer: {error}.").format(error=err), counted=False)
    if grade_answer(question, text).correct:
        return Grade(True, _("Right."))
    try:
        result = check(question.measure, list(exercise.ranking), exercise.judgments, {"value": text})
    except (TypeError, ValueError):  # a measure the checker does not know: no mistake to name
        return Grade(False, _("Not quite."))
    titles = [_(d.mistake.title) for d in result.diagnoses]
    if len(titles) > 1:
        return Grade(False, _("Not quite.") + " " + _("Likely mistake — {n} of them give your numbers: {titles}.").format(
            n=len(titles), titles="; ".join(titles)))
    if titles:
        return Grade(False, _("Not quite.") + " " + _("Likely mistake: {title}.").format(title=titles[0]))
    return Grade(False, _("Not quite.") + " " + _("None of the usual mistakes gives this number."))


def answer_text(question: Question) -> str:
    """The answer and how it comes, for the learner who asks for it."""
    return _("The answer is {answer}. {reveal}").format(answer=_answer_text(question), reveal=question.reveal)


# --------------------------------------------------------------------------- worksheets

def _md(text: str) -> str:
    """Escape Markdown so that user text (a title) prints literally."""
    return re.sub(r"([\\`*_{}\[\]()#+\-.!|<>~])", r"\\\1", str(text))


def _answer_text(q: Question) -> str:
    return _(q.answer) if isinstance(q.answer, str) else num(round(q.answer, 4))


def worksheet_markdown(exercises, *, title: str | None = None) -> str:
    """A printable worksheet in Markdown, the answer key at the end.

    >>> text = worksheet_markdown([generate(1, 1)], title="Week *3*")
    >>> text.splitlines()[0], "## Answer key" in text
    ('# Week \\\\*3\\\\*', True)
    """
    exercises = list(exercises)
    title = _("Ranking metrics worksheet") if title is None else title
    out = [f"# {_md(title)}", ""]
    head = "| " + " | ".join((_("rank"), _("document"), _("grade"))) + " |"
    for n, ex in enumerate(exercises, 1):
        out += ["## " + _("Exercise {n} ({level}, seed {seed})").format(n=n, level=_(LEVELS[ex.level]), seed=ex.seed),
                "", head, "|---:|:---|---:|"]
        out += [f"| {r} | {d} | {ex.judgments.get(d, 0)} |" for r, d in enumerate(ex.ranking, 1)]
        out.append("")
        if ex.missed:
            out += [_("Judged relevant but not retrieved:") + " "
                    + ", ".join(_("{doc} (grade {grade})").format(doc=d, grade=ex.judgments[d]) for d in ex.missed), ""]
        out += [f"{i}. {q.prompt}" + (" " + _("(up / down / same)") if q.kind == "predict" else "")
                for i, q in enumerate(ex.questions, 1)]
        out.append("")
    out += ["## " + _("Answer key"), ""]
    for n, ex in enumerate(exercises, 1):
        out.append("**" + _("Exercise {n}").format(n=n) + "**")
        out.append("")
        out += [f"{i}. **{_answer_text(q)}** — {q.reveal}" for i, q in enumerate(ex.questions, 1)]
        out.append("")
    return "\n".join(out)


_CSS = ("body{font-family:sans-serif;max-width:42em;margin:2em auto}table{border-collapse:collapse}"
        "td,th{border:1px solid #999;padding:.2em .6em}.key{page-break-before:always}"
        "li{margin:.4em 0}")


def worksheet_html(exercises, *, title: str | None = None) -> str:
    """The same worksheet as a standalone HTML page for the browser's print (every text
    escaped; the answer key starts on a new printed page).

    >>> page = worksheet_html([generate(1, 1)], title="<script>alert(1)</script>")
    >>> "<script>" in page, "&lt;script&gt;" in page
    (False, True)
    """
    exercises = list(exercises)
    title = _("Ranking metrics worksheet") if title is None else title
    e = html.escape
    parts = ["<!DOCTYPE html><html><head><meta charset='utf-8'>", f"<title>{e(title)}</title>",
             f"<style>{_CSS}</style></head><body>", f"<h1>{e(title)}</h1>"]
    head = "".join(f"<th>{e(text)}</th>" for text in (_("rank"), _("document"), _("grade")))
    answer = e(_("Answer:"))
    for n, ex in enumerate(exercises, 1):
        parts.append("<h2>" + e(_("Exercise {n} ({level}, seed {seed})").format(n=n, level=_(LEVELS[ex.level]),
                                                                                  seed=ex.seed)) + "</h2>")
        parts.append(f"<table><tr>{head}</tr>")
        parts += [f"<tr><td>{r}</td><td>{e(d)}</td><td>{ex.judgments.get(d, 0)}</td></tr>"
                  for r, d in enumerate(ex.ranking, 1)]
        parts.append("</table>")
        if ex.missed:
            parts.append("<p>" + e(_("Judged relevant but not retrieved:")) + " "
                         + e(", ".join(_("{doc} (grade {grade})").format(doc=d, grade=ex.judgments[d])
                                       for d in ex.missed)) + "</p>")
        updown = " " + e(_("(up / down / same)"))
        parts.append("<ol>" + "".join(
            f"<li>{e(q.prompt)}{updown if q.kind == 'predict' else ''}"
            f"<br>{answer} ________</li>" for q in ex.questions) + "</ol>")
    parts.append("<div class='key'><h2>" + e(_("Answer key")) + "</h2>")
    for n, ex in enumerate(exercises, 1):
        parts.append("<h3>" + e(_("Exercise {n}").format(n=n)) + "</h3><ol>")
        parts += [f"<li><b>{e(_answer_text(q))}</b> — {e(q.reveal)}</li>" for q in ex.questions]
        parts.append("</ol>")
    parts.append("</div></body></html>")
    return "\n".join(parts)
