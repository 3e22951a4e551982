"""Step-by-step explanations as data: :class:`Explanation` and :class:`Step`.

Every measure's kernel returns an :class:`Explanation`; ``metrics.score`` is its
``.value``, so the number and its explanation can never disagree.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property

__all__ = ["Explanation", "Step", "num", "frac"]


@dataclass(frozen=True)
class Step:
    """One rank of a trace: ``rank``, ``doc`` and the measure's own columns.

    Columns are read by name: ``step["precision"]``; ``step.as_dict()`` gives them all.
    """

    rank: int
    doc: str
    values: Mapping[str, object]

    def __getitem__(self, column: str):
        if column == "rank":
            return self.rank
        if column == "doc":
            return self.doc
        return self.values[column]

    def as_dict(self) -> dict:
        return {"rank": self.rank, "doc": self.doc, **self.values}


@dataclass(frozen=True)
class Explanation:
    """How one measure's value was computed on one ranking.

    Attributes
    ----------
    measure : str
        The canonical measure string, e.g. ``"nDCG@3"``.
    value : float
        The value, equal to ``metrics.score(measure, ...)``.
    columns : dict of str to list
        The per-rank table, column by column (``rank``, ``doc``, ``grade`` first).
        Ranks stop at the cutoff (or at R for R-precision).
    formula : str
        LaTeX with the numbers substituted, ending in the value.
    definition : str
        The general formula in LaTeX, without numbers.
    summary : dict
        Named scalars of the computation (``R``, ``hits``, ``DCG``, ``IDCG`` ...).
    ideal : dict of str to list or None
        For the DCG family, the ideal ordering's table (rank, grade, gain, discount ...).
    """

    measure: str
    value: float
    columns: Mapping[str, Sequence]
    formula: str
    definition: str = ""
    summary: Mapping[str, object] = field(default_factory=dict)
    ideal: Mapping[str, Sequence] | None = None

    @cached_property
    def steps(self) -> tuple[Step, ...]:
        """One :class:`Step` per rank, built from :attr:`columns`."""
        names = [c for c in self.columns if c not in ("rank", "doc")]
        ranks = self.columns.get("rank", ())
        docs = self.columns.get("doc", ())
        return tuple(
            Step(int(ranks[i]), str(docs[i]), {c: self.columns[c][i] for c in names})
            for i in range(len(ranks))
        )

    def to_frame(self, which: str = "steps"):
        """The step table (or ``which="ideal"``: the ideal ordering) as a pandas DataFrame."""
        import pandas as pd  # lazy: metrics must import without pandas

        data = self.columns if which == "steps" else (self.ideal or {})
        return pd.DataFrame({k: list(v) for k, v in data.items()})

    def __str__(self) -> str:
        return f"{self.measure} = {num(self.value)}"


# --------------------------------------------------------------------------- formatting

def num(x, digits: int = 4) -> str:
    """A number for a formula: integers as integers, others to ``digits`` decimals.

    >>> num(3.0), num(0.54285714), num(1 / 3, 2), num(2.5)
    ('3', '0.5429', '0.33', '2.5')
    """
    if isinstance(x, bool):
        return str(int(x))
    if isinstance(x, int):
        return str(x)
    if math.isnan(x) or math.isinf(x):
        return str(x)
    if float(x).is_integer() and abs(x) < 1e15:
        return str(int(x))
    text = f"{x:.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def frac(a, b) -> str:
    """``\\frac{a}{b}`` with both numbers formatted by :func:`num`."""
    return rf"\frac{{{a if isinstance(a, str) else num(a)}}}{{{b if isinstance(b, str) else num(b)}}}"


def join_terms(terms: Sequence[str], sep: str = " + ", limit: int = 10) -> str:
    """Join formula terms, eliding the middle of long sums (first 6, ``\\cdots``, last 3)."""
    terms = list(terms)
    if len(terms) > limit:
        terms = terms[:6] + [r"\cdots"] + terms[-3:]
    return sep.join(terms) if terms else "0"


def value_text(x: float) -> str:
    """The final value of a formula, always with 4 decimals unless integral."""
    return num(x, 4)
