"""Explanations the pages show, each computed once per distinct input for the whole server.

An explanation (:func:`metrics.explain`) is a pure function of the measure, the ranking and the
judgments. A page draws it again on every run (a k step, a mode switch, a lesson opened again),
and a class of students often looks at the same example: the cache gives every run the same
result for the same input without computing it again. Callers only read what they get.

>>> first = explain("AP", ["1", "2", "3"], {"2": 1})
>>> round(first.value, 4), explain("AP", ["1", "2", "3"], {"2": 1}) is first   # (1/2) / 1
(0.5, True)
>>> explain("AP", ["1", "2", "3"], {"3": 1}) is first
False
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache

import metrics
from metrics.teaching import users

__all__ = ["explain", "removal"]


def explain(measure, ranking: Sequence[str], judgments: Mapping[str, int]) -> metrics.Explanation:
    """:func:`metrics.explain` of ``measure`` (a string or a parsed measure), cached by content."""
    try:
        return _explain(measure, tuple(ranking), tuple(judgments.items()))
    except TypeError:   # an input that cannot be a cache key (a grade as a list): computed as it is
        return metrics.explain(measure, ranking, judgments)


@lru_cache(maxsize=8192)
def _explain(measure, ranking: tuple, judgments: tuple) -> metrics.Explanation:
    return metrics.explain(measure, list(ranking), dict(judgments))


def removal(ranking: Sequence[str], judgments: Mapping[str, int], k: int) -> list[dict]:
    """:func:`metrics.teaching.users.removal` (each measure as judgments are removed), cached by
    content: it scores the list ten times over."""
    return _removal(tuple(ranking), tuple(judgments.items()), k)


@lru_cache(maxsize=1024)
def _removal(ranking: tuple, judgments: tuple, k: int) -> list[dict]:
    return users.removal(list(ranking), dict(judgments), k)
