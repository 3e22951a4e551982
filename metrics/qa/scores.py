"""Exact match, F1 and the correct reading of one answer, and the PIAF QA notes' twelve metrics over many.

>>> exact_match("Denver", ["Denver Broncos"]), correct_reading("Denver", ["Denver Broncos"])
(0.0, True)
>>> f1_score("Denver Broncos", ["the Broncos", "Denver Broncos!"])  # the second gold answer matches
1.0
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from .. import _check
from .normalise import (
    UNITS,
    _answers,
    _gold_forms,
    _text,
    _units,
    is_answerable,
    is_no_answer,
    normalize_answer,
)

__all__ = ["READER_METRICS", "PER_QUESTION", "exact_match", "f1_score", "correct_reading",
           "evaluate_reader", "ReaderEvaluation", "comparisons"]

MISSING = ("error", "empty")

# the PIAF QA notes' twelve names (their "reader_top1_fk" is a typo for Haystack's "reader_topk_f1")
READER_METRICS = tuple(
    f"reader_{depth}_{kind}{suffix}"
    for kind in ("accuracy", "em", "f1")
    for depth in ("top1", "topk")
    for suffix in ("", "_has_answer")
)
# the six per-question scores behind them
PER_QUESTION = ("top1_accuracy", "topk_accuracy", "top1_em", "topk_em", "top1_f1", "topk_f1")


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
        The predicted answer; ``None``, ``""`` or "no answer" abstain (see :mod:`metrics.qa`).
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
        characters of the normalised answers, spaces included (the PIAF QA notes' prose: "the
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
    """The PIAF QA notes' "correct reading": the prediction shares at least one token with a gold answer.

    Haystack, which the PIAF QA notes follow, counts a reading as correct when the predicted span
    overlaps a gold span in the document. Without character offsets Ranklab uses the nearest
    string-only reading: at least one common normalised token (token F1 > 0). On an
    unanswerable question a reading is correct when the prediction abstains.

    >>> correct_reading("Denver", ["Denver Broncos"]), correct_reading("Carolina", ["Denver Broncos"])
    (True, False)
    """
    prediction = _text(prediction, "prediction", allow_none=True)
    return _scores(prediction, gold, "token")[2]


@dataclass(frozen=True)
class ReaderEvaluation:
    """The PIAF QA notes' twelve reader metrics over a set of questions.

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
    """The PIAF QA notes' twelve reader metrics over a set of questions.

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
