"""What an answer is, and its SQuAD normalisation: lowercase, no punctuation, no articles, one space.

Inputs are checked here once for every scorer: an answer is a string (a prediction may be
``None``, an abstention), answers are a string or a list of strings.

>>> normalize_answer("The  Denver Broncos!"), tokens("An apple, a day.")
('denver broncos', ['apple', 'day'])
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable, Mapping

from .. import _check

__all__ = ["NORMALIZATION_STAGES", "UNITS", "NO_ANSWER_FORMS", "normalize_steps", "normalize_answer",
           "tokens", "is_no_answer", "is_answerable"]

NORMALIZATION_STAGES = ("original", "lowercase", "remove punctuation", "remove articles",
                        "collapse whitespace")
UNITS = ("token", "char")
NO_ANSWER_FORMS = frozenset({"", "no answer", "noanswer"})

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
