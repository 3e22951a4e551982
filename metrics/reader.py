"""Reader (question answering) metrics: SQuAD normalisation, exact match, F1, and seed 000's twelve.

A *reader* reads retrieved passages and returns answers, best first. It is scored against
the gold answers of each question:

* :func:`normalize_steps` / :func:`normalize_answer` — the SQuAD normalisation, stage by stage:
  lowercase, remove ASCII punctuation, remove the articles *a*, *an*, *the*, collapse
  whitespace.
* :func:`exact_match`, :func:`f1_score` (``unit="token"``: SQuAD's F1 over the multiset of
  tokens; ``unit="char"``: F1 over the multiset of characters, as seed 000's prose describes),
  each the maximum over several gold answers; :func:`correct_reading` (any common token).
* :func:`explain_answer` — one question step by step: normalised strings, common tokens,
  precision, recall, F1 with the numbers substituted.
* :func:`evaluate_reader` — seed 000's twelve metrics ``reader_top1/topk`` ×
  ``accuracy/em/f1`` × all questions / ``has_answer``.

Unanswerable questions (SQuAD 2.0)
----------------------------------
A question is *unanswerable* when none of its gold answers has a non-empty normalised form
(SQuAD 2.0 stores ``"answers": []`` and ``"is_impossible": true``; its evaluation script
drops gold answers that normalise to ``""``). A prediction *abstains* ("no answer") when it
is ``None`` or its normalised form is ``""`` (``""``, ``"the"``, ``"?!"``) or ``"no answer"``
(``"No answer."``) or ``"noanswer"`` (``"no-answer"``: punctuation removal joins the words).
On an unanswerable question an abstention scores 1 on every metric and any other
prediction 0; on an answerable question an abstention scores 0. SQuAD 2.0 itself accepts only
the empty string; the spellings of "no answer" (and ``None``, Haystack's no-answer) are
Ranklab's addition, so that a reader printing "no answer" is not penalised.

>>> exact_match("The Denver Broncos!", ["Denver Broncos"])
1.0
>>> round(f1_score("Broncos", ["Denver Broncos"]), 4)  # P = 1/1, R = 1/2, F1 = 2/3
0.6667
"""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from . import _check
from .explain import frac, num

__all__ = [
    "NORMALIZATION_STAGES", "READER_METRICS", "UNITS", "normalize_steps", "normalize_answer",
    "tokens", "is_no_answer", "is_answerable", "exact_match", "f1_score", "correct_reading",
    "explain_answer", "AnswerExplanation", "evaluate_reader", "ReaderEvaluation", "comparisons",
]

NORMALIZATION_STAGES = ("original", "lowercase", "remove punctuation", "remove articles",
                        "collapse whitespace")
UNITS = ("token", "char")
MISSING = ("error", "empty")
NO_ANSWER_FORMS = frozenset({"", "no answer", "noanswer"})

# seed 000's twelve names (its "reader_top1_fk" is a typo for Haystack's "reader_topk_f1")
READER_METRICS = tuple(
    f"reader_{depth}_{kind}{suffix}"
    for kind in ("accuracy", "em", "f1")
    for depth in ("top1", "topk")
    for suffix in ("", "_has_answer")
)
# the six per-question scores behind them
PER_QUESTION = ("top1_accuracy", "topk_accuracy", "top1_em", "topk_em", "top1_f1", "topk_f1")

_PUNCTUATION = frozenset(string.punctuation)  # the 32 ASCII punctuation characters
_ARTICLES = re.compile(r"\b(a|an|the)\b")


# --------------------------------------------------------------------------- validation

def _text(value, where: str, *, allow_none: bool = False) -> str | None:
    if value is None and allow_none:
        return None
    if not isinstance(value, str):
        kind = "a string or None" if allow_none else "a string"
        raise TypeError(f"{where}: an answer must be {kind}, got {_check._short(value)} "
                        f"({type(value).__name__})")
    return value


def _answers(value, where: str, *, allow_none: bool = False) -> list:
    """A list of answer strings; a single string is one answer."""
    if isinstance(value, str) or (value is None and allow_none):
        return [value]
    if isinstance(value, Mapping) or not isinstance(value, Iterable):
        raise TypeError(f"{where}: answers must be a string or a list of strings, got "
                        f"{_check._short(value)} ({type(value).__name__})")
    return [_text(a, f"{where}[{i}]", allow_none=allow_none) for i, a in enumerate(value)]


# --------------------------------------------------------------------------- normalisation

def normalize_steps(text: str) -> tuple[tuple[str, str], ...]:
    """The SQuAD normalisation of an answer, one ``(stage, text)`` pair per stage.

    The stages, in the order of SQuAD's ``normalize_answer``: the original text; lowercase;
    remove the 32 ASCII punctuation characters (deleted, not replaced by a space, so
    ``"no-answer"`` becomes ``"noanswer"``); replace the whole words *a*, *an*, *the* by a
    space; collapse runs of whitespace into one space and strip both ends.

    Examples
    --------
    >>> for stage, text in normalize_steps("The  Denver Broncos!"):
    ...     print(f"{stage:20} {text!r}")
    original             'The  Denver Broncos!'
    lowercase            'the  denver broncos!'
    remove punctuation   'the  denver broncos'
    remove articles      '   denver broncos'
    collapse whitespace  'denver broncos'
    """
    text = _text(text, "text")
    lower = text.lower()
    no_punctuation = "".join(ch for ch in lower if ch not in _PUNCTUATION)
    no_articles = _ARTICLES.sub(" ", no_punctuation)
    collapsed = " ".join(no_articles.split())
    return tuple(zip(NORMALIZATION_STAGES, (text, lower, no_punctuation, no_articles, collapsed),
                     strict=True))


def normalize_answer(text: str) -> str:
    """The SQuAD-normalised answer (the last stage of :func:`normalize_steps`).

    >>> normalize_answer("An apple, a day.")
    'apple day'
    """
    return normalize_steps(text)[-1][1]


def tokens(text: str) -> list[str]:
    """The tokens of the normalised answer: split on whitespace.

    >>> tokens("The Denver Broncos!")
    ['denver', 'broncos']
    """
    return normalize_answer(text).split()


def _units(normalised: str, unit: str) -> list[str]:
    return normalised.split() if unit == "token" else list(normalised)


def is_no_answer(prediction: str | None) -> bool:
    """Whether a prediction abstains: ``None``, or normalised to ``""``, ``"no answer"`` or ``"noanswer"``.

    >>> is_no_answer(""), is_no_answer("The."), is_no_answer("No answer!"), is_no_answer("no")
    (True, True, True, False)
    """
    prediction = _text(prediction, "prediction", allow_none=True)
    return prediction is None or normalize_answer(prediction) in NO_ANSWER_FORMS


def _gold_forms(gold) -> list[tuple[str, str]]:
    """(original, normalised) for each gold answer whose normalised form is not empty."""
    out = []
    for g in _answers(gold, "gold"):
        n = normalize_answer(g)
        if n:
            out.append((g, n))
    return out


def is_answerable(gold) -> bool:
    """Whether a question has a gold answer, i.e. one whose normalised form is not empty.

    >>> is_answerable([]), is_answerable(["", "The"]), is_answerable(["Paris"])
    (False, False, True)
    """
    return bool(_gold_forms(gold))


# --------------------------------------------------------------------------- one answer

@dataclass(frozen=True)
class _Match:
    """A prediction compared with one gold answer."""

    common: int
    n_prediction: int
    n_gold: int
    em: float

    @property
    def precision(self) -> float:
        return self.common / self.n_prediction if self.n_prediction else 0.0

    @property
    def recall(self) -> float:
        return self.common / self.n_gold if self.n_gold else 0.0

    @property
    def f1(self) -> float:
        if self.common == 0:
            return 0.0
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r)


def _compare(pred_norm: str, gold_norm: str, unit: str) -> tuple[_Match, list[str]]:
    pred_units, gold_units = _units(pred_norm, unit), _units(gold_norm, unit)
    overlap = Counter(pred_units) & Counter(gold_units)
    # the common units in prediction order (a unit appears as often as it is shared)
    left = dict(overlap)
    common = []
    for u in pred_units:
        if left.get(u, 0) > 0:
            common.append(u)
            left[u] -= 1
    return _Match(sum(overlap.values()), len(pred_units), len(gold_units),
                  float(pred_norm == gold_norm)), common


def _scores(prediction: str | None, gold, unit: str,
            forms: list[tuple[str, str]] | None = None) -> tuple[float, float, bool]:
    """(EM, F1, correct reading) of one prediction against all gold answers (``forms``:
    their :func:`_gold_forms`, when already known)."""
    forms = _gold_forms(gold) if forms is None else forms
    abstains = is_no_answer(prediction)
    if not forms:  # unanswerable: only an abstention is right
        value = float(abstains)
        return value, value, abstains
    if abstains:
        return 0.0, 0.0, False
    pred_norm = normalize_answer(prediction)
    em = f1 = 0.0
    overlap = False
    for _, g in forms:
        match, _common = _compare(pred_norm, g, unit)
        em, f1 = max(em, match.em), max(f1, match.f1)
        if unit == "token":
            overlap = overlap or match.common > 0
        else:
            overlap = overlap or _compare(pred_norm, g, "token")[0].common > 0
    return em, f1, overlap


def exact_match(prediction: str | None, gold) -> float:
    """1.0 if the normalised prediction equals a normalised gold answer, else 0.0.

    Parameters
    ----------
    prediction : str or None
        The predicted answer; ``None``, ``""`` or "no answer" abstain (see the module notes).
    gold : str or list of str
        The gold answer(s); the best one counts. An empty list (or only answers that
        normalise to ``""``) makes the question unanswerable: only an abstention matches.

    Examples
    --------
    >>> exact_match("The Denver Broncos!", ["Denver Broncos"])  # both normalise to 'denver broncos'
    1.0
    >>> exact_match("Broncos", ["Denver Broncos", "Broncos"])  # the second gold answer matches
    1.0
    >>> exact_match("", []), exact_match("Paris", [])  # unanswerable question
    (1.0, 0.0)
    """
    prediction = _text(prediction, "prediction", allow_none=True)
    return _scores(prediction, gold, "token")[0]


def f1_score(prediction: str | None, gold, *, unit: str = "token") -> float:
    """F1 of the prediction against the best gold answer, over tokens or characters.

    With ``c`` shared units (a multiset intersection: a unit counts as often as it appears
    in both), ``n_p`` units in the prediction and ``n_g`` in the gold answer: precision
    ``P = c / n_p``, recall ``R = c / n_g``, ``F1 = 2PR / (P + R)``, and 0 when ``c = 0``.

    Parameters
    ----------
    prediction : str or None
    gold : str or list of str
        As in :func:`exact_match`; the maximum F1 over the gold answers is returned.
    unit : {"token", "char"}
        ``"token"``: the tokens of the normalised answers (SQuAD's F1). ``"char"``: the
        characters of the normalised answers, spaces included (seed 000's prose: "the
        predicted and true answers are divided into characters"). For a prediction that is a
        contiguous piece of the gold answer this equals Haystack's F1 over character offsets;
        being a bag of characters, it also rewards anagrams ("cat" vs "act" → 1).

    Examples
    --------
    >>> round(f1_score("Broncos", ["Denver Broncos"]), 4)  # P = 1/1, R = 1/2, 2·1·0.5/1.5
    0.6667
    >>> round(f1_score("Broncos", ["Denver Broncos"], unit="char"), 4)  # 7 of 14 chars: 2·7/(7+14)
    0.6667
    >>> f1_score("", []), f1_score("Paris", [])  # unanswerable: only an abstention scores
    (1.0, 0.0)
    """
    prediction = _text(prediction, "prediction", allow_none=True)
    unit = _check.choice(unit, "unit", UNITS)
    return _scores(prediction, gold, unit)[1]


def correct_reading(prediction: str | None, gold) -> bool:
    """Seed 000's "correct reading": the prediction shares at least one token with a gold answer.

    Haystack, which seed 000 follows, counts a reading as correct when the predicted span
    overlaps a gold span in the document. Without character offsets Ranklab uses the nearest
    string-only reading: at least one common normalised token (token F1 > 0). On an
    unanswerable question a reading is correct when the prediction abstains.

    >>> correct_reading("Denver", ["Denver Broncos"]), correct_reading("Carolina", ["Denver Broncos"])
    (True, False)
    """
    prediction = _text(prediction, "prediction", allow_none=True)
    return _scores(prediction, gold, "token")[2]


# --------------------------------------------------------------------------- explanation

@dataclass(frozen=True)
class AnswerExplanation:
    """How EM and F1 of one prediction were computed.

    Attributes
    ----------
    prediction : str or None
    prediction_steps : tuple of (stage, text)
        :func:`normalize_steps` of the prediction (empty for ``None``).
    gold_steps : tuple of tuples of (stage, text)
        The same for every gold answer, in the order given.
    unit : str
        ``"token"`` or ``"char"``.
    answerable, abstains : bool
        Whether the question has a gold answer; whether the prediction says "no answer".
    columns : dict of str to list
        One row per gold answer whose normalised form is not empty: ``gold_index`` (its
        position in ``gold``), ``gold``, ``normalized``, ``common``, ``n_common``,
        ``n_prediction``, ``n_gold``, ``precision``, ``recall``, ``f1``, ``em``. Empty for
        an unanswerable question.
    best : int or None
        Index of the gold answer with the highest F1 (the first on ties).
    prediction_units, gold_units, common : tuple of str
        The units (tokens or characters) of the normalised prediction and of the best gold
        answer, and the shared ones in prediction order.
    precision, recall, f1, em : float
        Against the best gold answer; ``f1`` and ``em`` are the maxima over gold answers.
    correct : bool
        Seed 000's correct reading (:func:`correct_reading`).
    formula, definition : str
        LaTeX with the numbers substituted, and the general formula.
    """

    prediction: str | None
    prediction_steps: tuple
    gold_steps: tuple
    unit: str
    answerable: bool
    abstains: bool
    columns: dict = field(default_factory=dict)
    best: int | None = None
    prediction_units: tuple = ()
    gold_units: tuple = ()
    common: tuple = ()
    precision: float = 0.0
    recall: float = 0.0
    f1: float = 0.0
    em: float = 0.0
    correct: bool = False
    formula: str = ""
    definition: str = ""
    reason: str = ""

    @property
    def value(self) -> float:
        """The F1 (the number this explanation is about)."""
        return self.f1

    def to_frame(self):
        """The per-gold-answer table as a pandas DataFrame."""
        import pandas as pd  # lazy: metrics must import without pandas

        return pd.DataFrame({k: list(v) for k, v in self.columns.items()})


DEFINITION = (r"P = \frac{|\text{pred} \cap \text{gold}|}{|\text{pred}|},\quad "
              r"R = \frac{|\text{pred} \cap \text{gold}|}{|\text{gold}|},\quad "
              r"F_1 = \frac{2 \cdot P \cdot R}{P + R}")


def explain_answer(prediction: str | None, gold, *, unit: str = "token") -> AnswerExplanation:
    """EM and F1 of one prediction, step by step.

    Parameters
    ----------
    prediction : str or None
    gold : str or list of str
    unit : {"token", "char"}

    Returns
    -------
    AnswerExplanation
        Its ``f1`` and ``em`` equal :func:`f1_score` and :func:`exact_match`.

    Examples
    --------
    >>> e = explain_answer("Broncos", ["Denver Broncos"])
    >>> e.common, e.precision, e.recall, round(e.f1, 4)
    (('broncos',), 1.0, 0.5, 0.6667)
    >>> print(e.formula)
    P = \\frac{1}{1} = 1,\\quad R = \\frac{1}{2} = 0.5,\\quad F_1 = \\frac{2 \\cdot 1 \\cdot 0.5}{1 + 0.5} = 0.6667
    """
    prediction = _text(prediction, "prediction", allow_none=True)
    unit = _check.choice(unit, "unit", UNITS)
    golds = _answers(gold, "gold")
    pred_steps = normalize_steps(prediction) if prediction is not None else ()
    gold_steps = tuple(normalize_steps(g) for g in golds)
    answerable = any(steps[-1][1] for steps in gold_steps)
    abstains = is_no_answer(prediction)
    em, f1, correct = _scores(prediction, golds, unit)
    base = dict(prediction=prediction, prediction_steps=pred_steps, gold_steps=gold_steps,
                unit=unit, answerable=answerable, abstains=abstains, em=em, f1=f1,
                correct=correct, definition=DEFINITION)
    if not answerable:
        reason = ("The question has no gold answer (unanswerable): the prediction abstains, "
                  "so EM = F1 = 1." if abstains else
                  "The question has no gold answer (unanswerable) but the prediction gives one: "
                  "EM = F1 = 0.")
        return AnswerExplanation(**base, precision=f1, recall=f1,
                                 formula=rf"\text{{unanswerable}}:\ EM = F_1 = {num(f1)}",
                                 reason=reason)
    pred_norm = pred_steps[-1][1] if pred_steps else ""
    cols: dict[str, list] = {c: [] for c in ("gold_index", "gold", "normalized", "common", "n_common",
                                             "n_prediction", "n_gold", "precision", "recall",
                                             "f1", "em")}
    best, best_f1, best_match, best_common = None, -1.0, None, []
    for i, (g, steps) in enumerate(zip(golds, gold_steps, strict=True)):
        g_norm = steps[-1][1]
        if not g_norm:
            continue  # SQuAD drops gold answers that normalise to ""
        match, common = _compare(pred_norm, g_norm, unit)
        if abstains:
            match = _Match(0, match.n_prediction, match.n_gold, 0.0)
            common = []
        for c, v in (("gold_index", i), ("gold", g), ("normalized", g_norm), ("common", tuple(common)),
                     ("n_common", match.common), ("n_prediction", match.n_prediction),
                     ("n_gold", match.n_gold), ("precision", match.precision),
                     ("recall", match.recall), ("f1", match.f1), ("em", match.em)):
            cols[c].append(v)
        if match.f1 > best_f1:
            best, best_f1, best_match, best_common = i, match.f1, match, common
    c, n_p, n_g = best_match.common, best_match.n_prediction, best_match.n_gold
    p, r = best_match.precision, best_match.recall
    if abstains:
        formula = r"\text{no answer on an answerable question}:\ EM = F_1 = 0"
        reason = "The prediction abstains but the question has a gold answer: EM = F1 = 0."
    elif c == 0:
        formula = (rf"P = {frac(c, n_p)} = 0,\quad R = {frac(c, n_g)} = 0,\quad "
                   r"F_1 = 0\ (\text{nothing in common})")
        reason = "No common unit with any gold answer: F1 = 0."
    else:
        formula = (rf"P = {frac(c, n_p)} = {num(p)},\quad R = {frac(c, n_g)} = {num(r)},\quad "
                   rf"F_1 = \frac{{2 \cdot {num(p)} \cdot {num(r)}}}{{{num(p)} + {num(r)}}} = {num(f1)}")
        reason = (f"{c} common {unit}{'s' if c != 1 else ''} with the best gold answer "
                  f"(#{best + 1} of {len(golds)}).")
    g_norm = gold_steps[best][-1][1]
    return AnswerExplanation(
        **base, columns=cols, best=best,
        prediction_units=tuple(_units(pred_norm, unit)), gold_units=tuple(_units(g_norm, unit)),
        common=tuple(best_common), precision=p, recall=r, formula=formula, reason=reason)


# --------------------------------------------------------------------------- many questions

@dataclass(frozen=True)
class ReaderEvaluation:
    """Seed 000's twelve reader metrics over a set of questions.

    Attributes
    ----------
    metrics : dict of str to float or None
        The twelve :data:`READER_METRICS`; a ``_has_answer`` metric is None when no
        correctly retrieved question is answerable.
    totals : dict of str to float
        The numerator of each metric (the sum of the per-question scores); the denominator
        is ``counts["correct_retrievals"]``, or ``counts["has_answer"]`` for ``_has_answer``.
    per_question : dict of str to dict
        For every question: ``answerable``, ``retrieved``, ``n_predictions`` (after the
        cut at k) and the six scores ``top1_accuracy``, ``topk_accuracy``, ``top1_em``,
        ``topk_em``, ``top1_f1``, ``topk_f1``.
    counts : dict of str to int
        ``questions``, ``correct_retrievals`` (the denominator of every metric),
        ``has_answer`` (the denominator of the ``_has_answer`` metrics: correctly retrieved
        answerable questions) and ``no_answer`` (correctly retrieved unanswerable ones).
    k : int or None
    unit : str
    """

    metrics: dict
    per_question: dict
    counts: dict
    k: int | None
    unit: str
    totals: dict = field(default_factory=dict)

    def denominator(self, name: str) -> int:
        """How many questions the metric ``name`` averages over.

        >>> ev = evaluate_reader({"q1": ["Paris"], "q2": []}, {"q1": "Paris", "q2": ""})
        >>> ev.denominator("reader_top1_em"), ev.denominator("reader_top1_em_has_answer")
        (2, 1)
        """
        _check.choice(name, "name", READER_METRICS)
        return self.counts["has_answer" if name.endswith("_has_answer") else "correct_retrievals"]

    @property
    def warnings(self) -> list[str]:
        """Notes about metrics that could not be computed."""
        out = []
        if self.counts["correct_retrievals"] == 0:
            out.append("no question was correctly retrieved: every metric is undefined")
        elif self.counts["has_answer"] == 0:
            out.append("no correctly retrieved question has an answer: the _has_answer "
                       "metrics are undefined")
        return out


def _predictions(value, where: str) -> list[str | None]:
    return _answers(value, where, allow_none=True)


def comparisons(gold, predictions, *, k: int | None = None) -> int:
    """How many (predicted answer, gold answer) pairs :func:`evaluate_reader` compares: the
    work it does, which callers facing untrusted input bound before scoring.

    A question's gold answers as given (a string is one), times its first ``k`` predicted
    answers (at least one: no answer is scored as an abstention); questions absent from
    either side count nothing.

    >>> comparisons({"q1": ["a", "b"], "q2": "c"}, {"q1": ["x", "y", "z"], "q2": []})  # 2*3 + 1*1
    7
    >>> comparisons({"q1": ["a", "b"]}, {"q1": ["x", "y", "z"]}, k=1)  # 2 * 1
    2
    """
    total = 0
    for q, g in gold.items():
        if q not in predictions:
            continue
        p = predictions[q]
        n_gold = 1 if isinstance(g, str) else len(g)
        n_pred = 1 if p is None or isinstance(p, str) else len(p[:k] if k is not None else p)
        total += n_gold * max(n_pred, 1)
    return total


def _question_scores(golds: list[str], preds: list[str | None], k: int | None,
                     unit: str) -> dict:
    ranked = preds[:k] if k is not None else preds
    if not ranked:
        ranked = [None]  # the reader returned nothing: it abstains
    forms = _gold_forms(golds)  # normalised once for all the predictions
    rows = [_scores(p, golds, unit, forms) for p in ranked]
    em1, f11, ok1 = rows[0]
    return {"top1_accuracy": float(ok1), "topk_accuracy": float(any(r[2] for r in rows)),
            "top1_em": em1, "topk_em": max(r[0] for r in rows),
            "top1_f1": f11, "topk_f1": max(r[1] for r in rows)}


def evaluate_reader(gold, predictions, *, k: int | None = None, unit: str = "token",
                    retrieved=None, missing: str = "error") -> ReaderEvaluation:
    """Seed 000's twelve reader metrics over a set of questions.

    For each question the reader gives up to ``k`` answers, best first. *top1* metrics look
    at the first answer, *topk* at the best of the first ``k``: a correct reading or an
    exact match anywhere in them, the highest F1 among them. On an unanswerable question
    each of the three scores is 1 when the first answer (top1) or any of the first k (topk)
    abstains, else 0.

    The denominators follow Haystack's ``calculate_reader_metrics``, the code behind seed
    000, which is ambiguous where it speaks of "correct retrievals" and of F1 "of all the
    queries":

    * every metric (accuracy, EM **and F1**) is a sum over the questions whose retriever
      found a relevant document, divided by their number, ``correct_retrievals``;
      questions whose retrieval failed are left out (the reader never saw the answer);
    * a ``_has_answer`` metric sums over the answerable ones among them and divides by
      ``correct_retrievals − no_answer`` (unanswerable questions count in the plain metrics,
      scored as above, and not in the ``_has_answer`` ones);
    * a correct reading is an overlap with a gold answer (:func:`correct_reading`).

    Parameters
    ----------
    gold : mapping qid -> list of str
        Gold answers per question; ``[]`` for an unanswerable question.
    predictions : mapping qid -> str, None or list of (str or None)
        The reader's answers, best first. A single string is a list of one; an empty list
        abstains.
    k : int, optional
        Keep the first k answers for the topk metrics (None: all given).
    unit : {"token", "char"}
        The F1 of :func:`f1_score`.
    retrieved : collection of qid or mapping qid -> bool, optional
        The questions whose retrieval was correct. None (the default): all of them, i.e.
        the reader alone is evaluated, as in SQuAD.
    missing : {"error", "empty"}
        A question without prediction is an error, or abstains (``"empty"``). Predictions
        for questions absent from ``gold`` are always an error.

    Returns
    -------
    ReaderEvaluation

    Examples
    --------
    Three questions, two answers each; q3 is unanswerable; q2's retrieval failed.

    >>> gold = {"q1": ["Denver Broncos"], "q2": ["Paris"], "q3": []}
    >>> preds = {"q1": ["Broncos", "the Denver Broncos"], "q2": ["Lyon", "Paris"],
    ...          "q3": ["1998", ""]}
    >>> ev = evaluate_reader(gold, preds, retrieved={"q1", "q3"})
    >>> ev.counts
    {'questions': 3, 'correct_retrievals': 2, 'has_answer': 1, 'no_answer': 1}
    >>> ev.metrics["reader_top1_em"], ev.metrics["reader_topk_em"]  # (0 + 0) / 2, (1 + 1) / 2
    (0.0, 1.0)
    >>> round(ev.metrics["reader_top1_f1"], 4)  # (2/3 + 0) / 2
    0.3333
    >>> round(ev.metrics["reader_top1_f1_has_answer"], 4), ev.metrics["reader_top1_accuracy"]
    (0.6667, 0.5)
    """
    if not isinstance(gold, Mapping):
        raise TypeError(f"gold must be a mapping of question id to answers, got "
                        f"{type(gold).__name__}")
    if not isinstance(predictions, Mapping):
        raise TypeError(f"predictions must be a mapping of question id to answers, got "
                        f"{type(predictions).__name__}")
    if not gold:
        raise ValueError("gold: no questions")
    k = _check.positive_int(k, "k")
    unit = _check.choice(unit, "unit", UNITS)
    missing = _check.choice(missing, "missing", MISSING)
    golds: dict[str, list[str]] = {}
    for q, a in gold.items():
        if str(q) in golds:
            raise ValueError(f"gold: question {q!r} appears twice (as {q!r} and {str(q)!r})")
        golds[str(q)] = _answers(a, f"gold[{q!r}]")
    extra = [str(q) for q in predictions if str(q) not in golds]
    if extra:
        raise ValueError(f"predictions: question {extra[0]!r} is not in gold"
                         + (f" (and {len(extra) - 1} more)" if len(extra) > 1 else ""))
    preds = {str(q): _predictions(p, f"predictions[{q!r}]") for q, p in predictions.items()}
    absent = [q for q in golds if q not in preds]
    if absent and missing == "error":
        raise ValueError(f"predictions: no answer for question {absent[0]!r}"
                         + (f" (and {len(absent) - 1} more)" if len(absent) > 1 else "")
                         + "; give an empty list to abstain, or missing='empty'")
    if retrieved is None:
        ok = set(golds)
    elif isinstance(retrieved, Mapping):
        ok = set()
        for q, flag in retrieved.items():
            if not isinstance(flag, bool):
                raise TypeError(f"retrieved[{q!r}] must be True or False, got {_check._short(flag)}")
            if flag:
                ok.add(str(q))
    elif isinstance(retrieved, str) or not isinstance(retrieved, Iterable):
        raise TypeError(f"retrieved must be a collection of question ids, got "
                        f"{_check._short(retrieved)}")
    else:
        ok = {str(q) for q in retrieved}
    unknown = sorted(ok - set(golds))
    if unknown:
        raise ValueError(f"retrieved: question {unknown[0]!r} is not in gold")

    per_question: dict[str, dict] = {}
    sums = {name: 0.0 for name in READER_METRICS}
    n_ok = n_has = 0
    for q, g in golds.items():
        p = preds.get(q, [])
        answerable = is_answerable(g)
        scores = _question_scores(g, p, k, unit)
        is_ok = q in ok
        per_question[q] = {"answerable": answerable, "retrieved": is_ok,
                           "n_predictions": len(p[:k] if k is not None else p), **scores}
        if not is_ok:
            continue
        n_ok += 1
        n_has += answerable
        for name, value in scores.items():
            depth, kind = name.split("_")
            sums[f"reader_{depth}_{kind}"] += value
            if answerable:
                sums[f"reader_{depth}_{kind}_has_answer"] += value
    result = {}
    for name in READER_METRICS:
        denominator = n_has if name.endswith("_has_answer") else n_ok
        result[name] = sums[name] / denominator if denominator else None
    counts = {"questions": len(golds), "correct_retrievals": n_ok, "has_answer": n_has,
              "no_answer": n_ok - n_has}
    return ReaderEvaluation(result, per_question, counts, k, unit, totals=sums)
