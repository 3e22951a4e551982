"""Ranklab's metrics: every ranking measure, every convention named, every step explained.

>>> import metrics
>>> metrics.score("P@2", ["1", "2", "3"], {"2": 1})  # one relevant in the top 2
0.5
"""

from . import conventions, grouped
from .core import Evaluation, evaluate, explain, explain_many, prepare, score, scores_over_k
from .explain import Explanation, Step, num
from .measures import FAMILIES, Measure, UnknownMeasureError, parse, parse_many

__all__ = [
    "score", "explain", "explain_many", "evaluate", "scores_over_k", "prepare", "Evaluation", "Explanation", "Step",
    "num",
    "Measure", "parse", "parse_many", "FAMILIES", "UnknownMeasureError", "conventions", "grouped",
]
