"""QA (question answering) metrics: SQuAD normalisation, exact match, F1, and the twelve "reader" metrics of the PIAF QA notes.

A *reader* reads retrieved passages and returns answers, best first. It is scored against
the gold answers of each question:

* :mod:`.normalise`: :func:`normalize_steps` / :func:`normalize_answer` — the SQuAD normalisation, stage by stage:
  lowercase, remove ASCII punctuation, remove the articles *a*, *an*, *the*, collapse
  whitespace.
* :mod:`.scores`: :func:`exact_match`, :func:`f1_score` (``unit="token"``: SQuAD's F1 over the multiset of
  tokens; ``unit="char"``: F1 over the multiset of characters, as the PIAF QA notes' prose describes),
  each the maximum over several gold answers; :func:`correct_reading` (any common token).
* :mod:`.explanation`: :func:`explain_answer` — one question step by step: normalised strings, common tokens,
  precision, recall, F1 with the numbers substituted.
* :mod:`.scores`: :func:`evaluate_reader` — the PIAF QA notes' twelve metrics ``reader_top1/topk``
  × ``accuracy/em/f1`` × all questions / ``has_answer``.
* :mod:`.files`: :func:`read_squad`, :func:`read_predictions` and :func:`evaluate_files` —
  a SQuAD dataset and predictions (JSON or JSON Lines), from a path or from bytes.

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

from .explanation import AnswerExplanation, explain_answer
from .files import (
    MAX_COMPARISONS,
    MAX_FILE_BYTES,
    ReaderGold,
    ReaderPredictions,
    evaluate_files,
    read_predictions,
    read_squad,
    shown_id,
)
from .normalise import (
    NORMALIZATION_STAGES,
    UNITS,
    is_answerable,
    is_no_answer,
    normalize_answer,
    normalize_steps,
    tokens,
)
from .scores import (
    PER_QUESTION,
    READER_METRICS,
    ReaderEvaluation,
    comparisons,
    correct_reading,
    evaluate_reader,
    exact_match,
    f1_score,
)

__all__ = [
    "NORMALIZATION_STAGES", "READER_METRICS", "PER_QUESTION", "UNITS", "normalize_steps",
    "normalize_answer", "tokens", "is_no_answer", "is_answerable", "exact_match", "f1_score",
    "correct_reading", "explain_answer", "AnswerExplanation", "evaluate_reader", "ReaderEvaluation",
    "comparisons", "ReaderGold", "ReaderPredictions", "read_squad", "read_predictions",
    "evaluate_files", "shown_id", "MAX_FILE_BYTES", "MAX_COMPARISONS",
]
