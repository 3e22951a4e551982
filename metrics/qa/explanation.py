"""One prediction's EM and F1 step by step: the normalised strings, the common units, P, R and F1.

>>> e = explain_answer("Denver", ["Denver Broncos"])
>>> e.common, e.precision, e.recall  # 1 of 1 predicted token, 1 of 2 gold tokens
(('denver',), 1.0, 0.5)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import _check
from .._i18n import _, ngettext
from ..explain import frac, num
from .normalise import UNITS, _answers, _text, _units, is_no_answer, normalize_steps
from .scores import _compare, _Match, _scores

__all__ = ["AnswerExplanation", "explain_answer", "DEFINITION"]


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
        The PIAF QA notes' correct reading (:func:`correct_reading`).
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
        reason = (_("The question has no gold answer (unanswerable): the prediction abstains, "
                    "so EM = F1 = 1.") if abstains else
                  _("The question has no gold answer (unanswerable) but the prediction gives one: "
                    "EM = F1 = 0."))
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
        reason = _("The prediction abstains but the question has a gold answer: EM = F1 = 0.")
    elif c == 0:
        formula = (rf"P = {frac(c, n_p)} = 0,\quad R = {frac(c, n_g)} = 0,\quad "
                   r"F_1 = 0\ (\text{nothing in common})")
        reason = _("No common unit with any gold answer: F1 = 0.")
    else:
        formula = (rf"P = {frac(c, n_p)} = {num(p)},\quad R = {frac(c, n_g)} = {num(r)},\quad "
                   rf"F_1 = \frac{{2 \cdot {num(p)} \cdot {num(r)}}}{{{num(p)} + {num(r)}}} = {num(f1)}")
        reason = (ngettext("{n} common character with the best gold answer (#{best} of {golds}).",
                           "{n} common characters with the best gold answer (#{best} of {golds}).", c)
                  if unit == "char" else
                  ngettext("{n} common token with the best gold answer (#{best} of {golds}).",
                           "{n} common tokens with the best gold answer (#{best} of {golds}).", c)
                  ).format(n=c, best=best + 1, golds=len(golds))
    g_norm = gold_steps[best][-1][1]
    return AnswerExplanation(
        **base, columns=cols, best=best,
        prediction_units=tuple(_units(pred_norm, unit)), gold_units=tuple(_units(g_norm, unit)),
        common=tuple(best_common), precision=p, recall=r, formula=formula, reason=reason)
