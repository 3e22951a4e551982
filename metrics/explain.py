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


class Step:
    """One rank of a trace: ``rank``, ``doc`` and the measure's own columns.

    A light view onto one row of :attr:`Explanation.columns`: read a column by name with
    ``step["precision"]``; ``step.values`` holds every column but rank and doc, and
    ``step.as_dict()`` all of them.
    """

    __slots__ = ("_columns", "_row")

    def __init__(self, columns: Mapping[str, Sequence], row: int):
        self._columns = columns
        self._row = row

    @property
    def rank(self) -> int:
        return self._columns["rank"][self._row]

    @property
    def doc(self) -> str:
        return self._columns["doc"][self._row]

    @property
    def values(self) -> dict:
        return {c: v[self._row] for c, v in self._columns.items() if c not in ("rank", "doc")}

    def __getitem__(self, column: str):
        return self._columns[column][self._row]

    def as_dict(self) -> dict:
        return {c: v[self._row] for c, v in self._columns.items()}

    def __eq__(self, other) -> bool:
        return isinstance(other, Step) and self.as_dict() == other.as_dict()

    def __hash__(self) -> int:
        return hash((self.rank, self.doc))

    def __repr__(self) -> str:
        return f"Step({self.as_dict()!r})"


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
        return tuple(Step(self.columns, i) for i in range(len(self.columns.get("rank", ()))))

    def to_frame(self, which: str = "steps"):
        """The step table (or ``which="ideal"``: the ideal ordering) as a pandas DataFrame.

        >>> import metrics
        >>> metrics.explain("P@2", ["a", "b"], {"b": 1}).to_frame()[["rank", "doc", "hits", "precision"]]
           rank doc  hits  precision
        0     1   a     0        0.0
        1     2   b     1        0.5
        """
        import pandas as pd  # lazy: metrics must import without pandas

        data = self.columns if which == "steps" else (self.ideal or {})
        return pd.DataFrame({k: list(v) for k, v in data.items()})

    def __str__(self) -> str:
        return f"{self.measure} = {num(self.value)}"

    # Jupyter's display protocol (metrics.display); the plain repr stays the dataclass's
    def _repr_html_(self) -> str:
        from .display import explanation_html
        return explanation_html(self)

    def _repr_markdown_(self) -> str:
        from .display import explanation_markdown
        return explanation_markdown(self)

    def _repr_latex_(self) -> str:
        from .display import explanation_latex
        return explanation_latex(self)


# --------------------------------------------------------------------------- formatting

def num(x, digits: int = 4, *, fixed: bool = False, none: str = "—", nan: str = "nan") -> str:
    """A number as Ranklab shows it, in formulas, tables, messages and pages (the one formatter).

    Integers as integers, others rounded to ``digits`` decimals without trailing zeros.
    ``fixed=True`` keeps exactly ``digits`` decimals (the lessons' metric boxes); a missing
    value (None) is shown as ``none`` and NaN as ``nan``.

    >>> num(3.0), num(0.54285714), num(1 / 3, 2), num(2.5), num(-1e-9)
    ('3', '0.5429', '0.33', '2.5', '0')
    >>> num(0.5, fixed=True), num(None), num(float("nan"), nan="not a number")
    ('0.5000', '—', 'not a number')
    """
    if x is None:
        return none
    if isinstance(x, bool):
        return str(int(x))
    if isinstance(x, int) and not fixed:
        return str(x)
    x = float(x)
    if math.isnan(x):
        return nan
    if fixed or math.isinf(x):
        return f"{x:.{digits}f}"
    if x.is_integer() and abs(x) < 1e15:
        return str(int(x))
    text = f"{x:.{digits}f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def frac(a, b) -> str:
    """``\\frac{a}{b}`` with both numbers formatted by :func:`num`.

    >>> print(frac(2, 4), frac("R", 0.5))
    \\frac{2}{4} \\frac{R}{0.5}
    """
    return rf"\frac{{{a if isinstance(a, str) else num(a)}}}{{{b if isinstance(b, str) else num(b)}}}"


def join_terms(items: Sequence, fmt=None, sep: str = " + ", limit: int = 10) -> str:
    """Join formula terms, eliding the middle of long sums (first 6, ``\\cdots``, last 3).

    ``fmt`` turns an item into its LaTeX term; it is only called for the terms shown.

    >>> print(join_terms(range(1, 13), num))
    1 + 2 + 3 + 4 + 5 + 6 + \\cdots + 10 + 11 + 12
    """
    items = list(items)
    fmt = fmt or str
    if len(items) > limit:
        return sep.join([fmt(x) for x in items[:6]] + [r"\cdots"] + [fmt(x) for x in items[-3:]])
    return sep.join(fmt(x) for x in items) if items else "0"
