"""Check my calculation: find the first wrong step and name the likely mistake.

The learner picks a measure, a ranking and judgments, and types numbers: the final value
only, or any of the intermediate steps (:func:`blanks` lists them in order — precision at
each hit, running sums, each gain and discount, the running DCG, the ideal DCG...).
:func:`check` compares each typed number with the right one, stops at the first wrong
step, and recomputes the whole calculation under every mistaken rule of :data:`MISTAKES`
that applies; the rule that reproduces the learner's numbers is named.

When several mistakes reproduce the learner's numbers equally well, every one is listed
(:attr:`CheckResult.diagnoses`; :attr:`CheckResult.diagnosis` is the first of them).

Tolerance comes from what the learner typed: half a unit of the last decimal typed, at
most ±0.005 (so "0.54" is checked to ±0.005 and "0.5429" to ±0.00005); a fraction such
as ``2/3`` is exact, and ``2.17/4`` carries the rounding of its 2.17 (±0.005 / 4);
counts (hits, ranks, R) must be exact integers.

A step computed from earlier steps (a running sum, a DCG after rank i, the final division)
is also right when it is exactly what the learner's own earlier numbers give and those
were accepted: 2.17 / 4 = 0.5425 follows from the running sum 2.17 (4/7 rounded to 0.57),
so it is not the first wrong step. After the first wrong step, the steps that follow from
the learner's wrong numbers are marked so.

Mistakes that *are* a named convention are recomputed by :mod:`metrics` itself
(``denominator='retrieved'``, ``ideal='ranking'``, ``dcg='exp-log2'``/``'log2'``); the
others are small mistaken kernels below, each named after the mistake it reproduces.

Examples
--------
The AP example of docs/measures-and-conventions.md (the reference tools question by question):
R = 4 relevant documents, the run has relevant documents at
ranks 1 and 3. AP = (1/1 + 2/3) / 4 = 0.4167; dividing by the 2 relevant documents
retrieved instead gives (1 + 2/3) / 2 = 0.8333.

>>> ranking = ["a", "x", "b", "y", "z"]
>>> judged = {"a": 1, "b": 1, "c": 1, "d": 1}
>>> r = check("AP", ranking, judged, {"value": "0.83"})
>>> r.all_correct, r.first_wrong.key, r.diagnosis.mistake.key
(False, 'value', 'ap_retrieved')
>>> check("AP", ranking, judged, {"precision@3": "2/3", "value": "0.42"}).all_correct
True
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np

from .. import core
from .._i18n import N_, _
from ..explain import num
from ..measures import Measure, parse
from ..ranking import dcg as dcg_kernel
from ..ranking import ratio
from ..ranking.precision_recall import f1

__all__ = ["Blank", "Mistake", "MISTAKES", "StepResult", "Diagnosis", "CheckResult",
           "blanks", "check", "parse_answer", "tolerance_for", "MAX_TOLERANCE"]

MAX_TOLERANCE = 0.005  # a 2-decimal answer: ±0.005
EPS = 1e-9  # float slack so that 0.225 typed as 0.22 or 0.23 is within ±0.005
MAX_ANSWER_CHARS = 40
SUPPORTED = ("P", "R", "F1", "Success", "RR", "AP", "CG", "DCG", "IDCG", "nDCG")
DCG_FAMILY = ("CG", "DCG", "IDCG", "nDCG")


# --------------------------------------------------------------------------- numbers typed

def parse_answer(text) -> tuple[float, float | None, int | None]:
    """A typed number: ``(value, tolerance, decimals)``.

    Accepts ``0.54``, ``.54``, ``0,54`` (decimal comma), ``54%``, ``2/3`` (exact),
    ``2.17/4`` and integers. The tolerance is half a unit of the last decimal typed, capped
    at :data:`MAX_TOLERANCE`; a fraction of integers is exact (tolerance 0), a fraction
    with decimals carries their rounding through the division. Raises ``ValueError`` with
    a plain message for anything else (``nan``, ``1e999999``, ``10**400``, long texts...).

    >>> parse_answer("0.54")
    (0.54, 0.005, 2)
    >>> parse_answer("0.5429")[1]  # half a unit of the 4th decimal
    5e-05
    >>> parse_answer("2/3")[0:2]
    (0.6666666666666666, 0.0)
    >>> parse_answer("54%")
    (0.54, 0.005, 2)

    A sum of precisions rounded to 2.17, divided by R = 4: 0.5425, give or take 0.005 / 4.

    >>> parse_answer("2.17/4")
    (0.5425, 0.00125, None)
    """
    if isinstance(text, bool):
        raise ValueError(_("type a number such as 0.54 or 2/3"))
    if isinstance(text, int | float):
        try:
            value = float(text)
        except OverflowError:
            raise ValueError(_("number too large: type a number such as 0.54")) from None
        if not math.isfinite(value):
            raise ValueError(_("type a finite number such as 0.54"))
        return value, MAX_TOLERANCE, None
    if not isinstance(text, str):
        raise ValueError(_("type a number such as 0.54 or 2/3"))
    if len(text) > 10 * MAX_ANSWER_CHARS:  # before any work on it
        raise ValueError(_("answer too long ({n} characters): type a number such as 0.54").format(n=len(text)))
    s = text.strip()
    if not s:
        raise ValueError(_("empty answer"))
    if len(s) > MAX_ANSWER_CHARS:
        raise ValueError(_("answer too long ({n} characters): type a number such as 0.54").format(n=len(s)))
    s = s.replace(" ", "").replace("−", "-")
    if "," in s and "." not in s and all(part.count(",") <= 1 for part in s.split("/")):
        s = s.replace(",", ".")  # decimal comma, also on each side of a fraction
    m = re.fullmatch(rf"(-?{_DECIMAL})/({_DECIMAL})", s)
    if m:
        return _fraction(text, m.group(1), m.group(2))
    percent = s.endswith("%")
    if percent:
        s = s[:-1]
    if not re.fullmatch(rf"-?{_DECIMAL}", s):
        raise ValueError(_("{text} is not a number: type e.g. 0.54, 2/3, 2.17/4 or 54%").format(text=_short(text)))
    decimals = _decimals(s)
    value = float(s)
    if percent:
        value /= 100.0
        decimals += 2
    value = round(value, decimals)  # 54% -> 0.54 exactly as typed
    return value, tolerance_for(decimals), decimals


_DECIMAL = r"(?:\d+(?:\.\d*)?|\.\d+)"  # 2, 2.17, 2., .17 (no exponent: 1e999999 is refused)


def _decimals(number: str) -> int:
    return len(number.partition(".")[2])


def _fraction(text: str, top: str, bottom: str) -> tuple[float, float, None]:
    """``top/bottom`` as typed: exact for integers, else the rounding of each side carried
    through the division (first order: δ(a/b) = δa/|b| + |a|·δb/b²), at most ±0.005."""
    a, b = Fraction(top), Fraction(bottom)
    if b == 0:
        raise ValueError(_("{text}: division by zero").format(text=_short(text)))
    value = float(a / b)
    da, db = (0.5 * 10.0 ** -_decimals(x) if "." in x else 0.0 for x in (top, bottom))
    if not (da or db):
        return value, 0.0, None
    tol = da / abs(float(b)) + abs(float(a)) * db / float(b) ** 2
    return value, min(MAX_TOLERANCE, tol), None


def tolerance_for(decimals: int) -> float:
    """Half a unit of the last decimal typed, at most ±0.005.

    >>> tolerance_for(2), tolerance_for(3), tolerance_for(0)
    (0.005, 0.0005, 0.005)
    """
    return min(MAX_TOLERANCE, 0.5 * 10.0 ** -decimals)


def _short(text, limit: int = 30) -> str:
    s = repr(str(text))
    return s if len(s) <= limit else s[: limit - 4] + "...'"


# --------------------------------------------------------------------------- the steps

@dataclass(frozen=True)
class Blank:
    """One step the learner may fill in: its ``key``, a readable ``label``, the right
    ``value``, and whether it is a count (compared exactly)."""

    key: str
    label: str
    value: float
    integer: bool = False


def _prepared(measure, ranking, judgments):
    m = parse(measure)
    if m.name not in SUPPORTED:
        raise ValueError(f"measure: checking step by step supports {', '.join(SUPPORTED)}, got {m.name}")
    q = core.prepare(ranking, judgments)
    return m, q


def _table(m: Measure, q) -> dict[str, tuple[str, float, bool]]:
    """The ordered steps of measure ``m`` on prepared query ``q``, computed by metrics."""
    e = core.explain(m, q.docs, q.judgments)
    cols, out = e.columns, {}
    name = m.name
    if name in ("P", "R", "F1", "Success"):
        label = (_("relevant documents retrieved") if m.cutoff is None
                 else _("relevant documents in the top {k}").format(k=m.cutoff))
        out["hits"] = (label, float(e.summary["hits"]), True)
        if name in ("R", "F1"):
            out["R"] = (_("R, the relevant documents in the judgments"), float(e.summary["R"]), True)
        if name == "F1":
            out["P"] = (_("precision P@k"), float(e.summary["P"]), False)
            out["recall"] = (_("recall R@k"), float(e.summary["R_value"]), False)
    elif name == "RR":
        first = e.summary["first_relevant_rank"]
        out["first_relevant_rank"] = (_("rank of the first relevant document (0 if none)"),
                                      float(first or 0), True)
    elif name == "AP":
        for r, hit, p, s in zip(cols["rank"], cols["relevant"], cols["precision"], cols["running_sum"],
                                strict=True):
            if hit:
                out[f"precision@{r}"] = (_("precision at rank {r} (a relevant document)").format(r=r), float(p), False)
                out[f"running_sum@{r}"] = (_("sum of those precisions up to rank {r}").format(r=r), float(s), False)
        out["denominator"] = (_("the denominator"), float(e.summary["denominator"]), True)
    else:
        for i, (g, d, c) in enumerate(zip(cols["gain"], cols["discount"], cols["dcg"], strict=True), 1):
            out[f"gain@{i}"] = (_("gain at rank {i}").format(i=i), float(g), False)
            if name != "CG":
                out[f"discount@{i}"] = (_("discount at rank {i}").format(i=i), float(d), False)
                out[f"dcg@{i}"] = (_("DCG after rank {i}").format(i=i), float(c), False)
            else:
                out[f"cg@{i}"] = (_("CG after rank {i}").format(i=i), float(cols["cg"][i - 1]), False)
        if name in ("IDCG", "nDCG"):
            out["DCG"] = ("DCG", float(e.summary["DCG"]), False)
            out["IDCG"] = (_("IDCG, the DCG of the ideal ordering"), float(e.summary["IDCG"]), False)
    out["value"] = (_("the value of {measure}").format(measure=e.measure), float(e.value), False)
    return out


def blanks(measure, ranking, judgments) -> list[Blank]:
    """Every step of the calculation, in the order a learner does it.

    >>> [(b.key, round(b.value, 4)) for b in blanks("AP", ["a", "x", "b"], {"a": 1, "b": 1, "c": 1})]
    [('precision@1', 1.0), ('running_sum@1', 1.0), ('precision@3', 0.6667), ('running_sum@3', 1.6667), ('denominator', 3.0), ('value', 0.5556)]
    """
    m, q = _prepared(measure, ranking, judgments)
    return [Blank(k, label, v, integer) for k, (label, v, integer) in _table(m, q).items()]


# --------------------------------------------------------------------------- mistaken kernels
# Each returns one or more candidate step tables {key: value} as the mistaken rule computes them.

def _convention(**params) -> Callable:
    """A mistake that equals a named convention: recompute with metrics under ``params``."""
    def kernel(m, q):
        changed = m.with_params(**params)
        if changed == m:
            return []
        return [{k: v for k, (_label, v, _integer) in _table(changed, q).items()}]
    return kernel


def _ap_steps(m, q, *, every_rank=False, round_to=None, denominators=("R",)):
    """AP's steps with the precision summed at every rank, rounded early, or divided by
    something else: ``"R"``, ``"used"`` (the measure's own denominator), ``"ranks"`` (the
    ranks looked at), ``"results"`` (the whole list, N) or ``"k"`` (the cutoff)."""
    e = core.explain(m, q.docs, q.judgments)
    ranks, relevant, hits = e.columns["rank"], e.columns["relevant"], e.columns["hits"]
    out = []
    for how in denominators:
        denom = {"R": e.summary["R"], "ranks": len(ranks), "used": e.summary["denominator"],
                 "results": len(q.docs), "k": m.cutoff}[how]
        if denom is None:  # "k" without a cutoff
            continue
        table, total = {}, 0.0
        for r, hit, h in zip(ranks, relevant, hits, strict=True):
            if not (hit or every_rank):
                continue
            p = h / r
            if round_to is not None:
                p = round(p, round_to)
            total += p
            table[f"precision@{r}"] = p
            table[f"running_sum@{r}"] = total
        table["denominator"] = float(denom)
        table["value"] = total / denom if denom else 0.0
        out.append(table)
    return out


def ap_nonrelevant_counted(m, q):
    """Precision added at every rank, relevant or not (divided by R or by the number of ranks)."""
    return _ap_steps(m, q, every_rank=True, denominators=("used", "ranks"))


def ap_divided_by_results_or_k(m, q):
    """The sum of precisions divided by the number of results N, or by the cutoff k."""
    if m["denominator"] != "R":
        return []
    return _ap_steps(m, q, denominators=("results", "k"))


def _dcg_steps(m, q, *, discounts=None, ideal_gains=None, round_to=None):
    """A DCG-family calculation with one rule swapped (discount, ideal list or rounding).

    Gains and the right discounts come from :mod:`metrics.ranking.dcg`; ``discounts(n)``
    replaces the discounts of ranks 1..n, ``ideal_gains`` the ideal list's gains.
    """
    dcg, rel = m["dcg"], m["rel"]
    discounts = discounts or (lambda n: dcg_kernel.discounts(n, dcg))
    n = q.depth(m.cutoff)

    def rnd(x):
        return round(x, round_to) if round_to is not None else x

    def run(gains):
        total, rows = 0.0, []
        for gain, d in zip(gains, discounts(len(gains)).tolist(), strict=True):
            d = rnd(d)
            total += rnd(gain / d) if d > 0 else gain  # a zero discount: the gain is kept as is
            rows.append((gain, d, total))
        return rows, total

    table = {}
    rows, dcg_value = run(dcg_kernel.gains(q.grades[:n], q.judged[:n], dcg, rel).tolist())
    for i, (gain, d, total) in enumerate(rows, 1):
        table[f"gain@{i}"] = gain
        if m.name == "CG":
            continue
        table[f"discount@{i}"] = d
        table[f"dcg@{i}"] = total
    if m.name == "CG":
        table["value"] = sum(r[0] for r in rows)
        return table
    if m.name == "DCG":
        table["value"] = dcg_value
        return table
    if ideal_gains is None:
        ideal_gains = dcg_kernel.ideal_order(m, q)[2].tolist()
    ideal_gains = ideal_gains if m.cutoff is None else ideal_gains[: m.cutoff]
    _gains, idcg = run(ideal_gains)
    table["DCG"], table["IDCG"] = dcg_value, idcg
    table["value"] = idcg if m.name == "IDCG" else (dcg_value / idcg if idcg > 0 else 0.0)
    return table


def log2_i_discount(m, q):
    """Discount log2(i) instead of log2(i + 1): rank 1 gets log2(1) = 0 (kept undiscounted)."""
    if m.name == "CG" or m["dcg"] == "jarvelin":
        return []
    # log2(i) is the right discount log2((i - 1) + 1) of the rank above: 0, 1, log2 3, ...
    return [_dcg_steps(m, q, discounts=lambda n: dcg_kernel.discount(np.arange(n), "log2"))]


def log_base_discount(m, q):
    """The discount log(i + 1) taken with the natural log or log10 instead of log2.

    ln x = log2 x · ln 2 and log10 x = log2 x · log10 2, so both scale the right discounts.
    (nDCG's value does not change — DCG and IDCG scale alike — but its steps do.)
    """
    if m.name == "CG" or m["dcg"] == "jarvelin":
        return []
    return [_dcg_steps(m, q, discounts=lambda n, f=factor: dcg_kernel.discounts(n, m["dcg"]) * f)
            for factor in (math.log(2.0), math.log10(2.0))]


def ideal_not_sorted(m, q):
    """The ideal list is the judged grades in the order they were listed, never sorted."""
    if m.name not in ("IDCG", "nDCG"):
        return []
    gains = dcg_kernel.gains(q.all_grades, None, m["dcg"], m["rel"])
    return [_dcg_steps(m, q, ideal_gains=gains[gains > 0].tolist())]


def p_divided_by_list_length(m, q):
    """P@k divided by the number of documents in the list instead of k."""
    if m.name != "P" or m.cutoff is None:
        return []
    e = core.explain(m, q.docs, q.judgments)
    hits = e.summary["hits"]
    out = []
    for length in (len(q.docs), min(m.cutoff, len(q.docs))):
        if length and length != m.cutoff:
            out.append({"hits": float(hits), "value": hits / length})
    return out


def first_rank_off_by_one(m, q):
    """The rank of the first relevant document counted from 0 (or one too far)."""
    if m.name == "RR":
        e = core.explain(m, q.docs, q.judgments)
        first = e.summary["first_relevant_rank"]
        if not first:
            return []
        return [{"first_relevant_rank": float(r), "value": 1.0 / r} for r in (first - 1, first + 1) if r > 0]
    if m.name in ("DCG", "IDCG", "nDCG") and m["dcg"] != "jarvelin":
        # log2(i + 2): the right discount of the next rank
        return [_dcg_steps(m, q, discounts=lambda n: dcg_kernel.discounts(n + 1, m["dcg"])[1:])]
    return []


def rounding_too_early(m, q):
    """Intermediate numbers rounded (to 1, 2 or 3 decimals) before the final division."""
    if m.name == "AP":
        return [t for d in (1, 2, 3) for t in _ap_steps(m, q, round_to=d, denominators=("used",))]
    if m.name in ("DCG", "IDCG", "nDCG"):
        return [_dcg_steps(m, q, round_to=d) for d in (1, 2, 3)]
    return []


@dataclass(frozen=True)
class Mistake:
    """One mistake of the catalogue: ``key``, a short ``title``, the ``explanation`` shown to
    the learner, the ``families`` it applies to, and the ``kernel`` that recomputes under it."""

    key: str
    title: str
    explanation: str
    families: tuple[str, ...]
    kernel: Callable = field(repr=False, compare=False)


MISTAKES: tuple[Mistake, ...] = (
    Mistake("ap_retrieved", N_("AP divided by the relevant documents retrieved instead of R"),
            N_("AP divides the sum of precisions by R, every relevant document in the judgments — a "
            "relevant document never retrieved contributes 0. Dividing by the relevant documents "
            "retrieved is scikit-learn's convention (AP(denominator='retrieved'))."),
            ("AP",), _convention(denominator="retrieved")),
    Mistake("ap_min_k_r", N_("AP@k divided by min(k, R) instead of R"),
            N_("AP@k divides the sum of precisions by R, every relevant document in the judgments, even "
            "when R is larger than k. Dividing by min(k, R) is another convention "
            "(AP(denominator='min(k,R)'), used by Spark and recommender libraries)."),
            ("AP",), _convention(denominator="min(k,R)")),
    Mistake("ap_results_or_k", N_("AP divided by the number of results N or by k instead of R"),
            N_("AP averages over the relevant documents, not over the ranks: divide the sum of precisions "
            "by R, the relevant documents in the judgments — not by the number of results N, nor by "
            "the cutoff k as P@k does."), ("AP",), ap_divided_by_results_or_k),
    Mistake("ap_nonrelevant", N_("precision counted at non-relevant ranks too"),
            N_("Only ranks holding a relevant document add their precision to AP's sum; the precision at "
            "a non-relevant rank is skipped."), ("AP",), ap_nonrelevant_counted),
    Mistake("log2_i", N_("discount log2(i) instead of log2(i + 1)"),
            N_("The discount at rank i is log2(i + 1): 1 at rank 1, 1.585 at rank 2, 2 at rank 3. With "
            "log2(i) rank 1 would be divided by 0 and rank 2 not discounted at all."),
            DCG_FAMILY, log2_i_discount),
    Mistake("log_base", N_("natural log or log10 in the discount instead of log2"),
            N_("The discount is log2(i + 1), the logarithm in base 2: log2(3) = 1.585, where ln(3) = 1.0986 "
            "and log10(3) = 0.4771. On a calculator, log2(x) = ln(x) / ln(2)."),
            ("DCG", "IDCG", "nDCG"), log_base_discount),
    Mistake("ideal_from_ranking", N_("ideal ordering taken from the list instead of the judgments"),
            N_("The ideal DCG sorts every judged document, including relevant documents the system never "
            "retrieved. Sorting only the retrieved list is scikit-learn's convention (ideal='ranking')."),
            ("IDCG", "nDCG"), _convention(ideal="ranking")),
    Mistake("ideal_not_sorted", N_("the ideal list not sorted"),
            N_("The ideal ordering puts the highest grades first: sort the judged grades in descending "
            "order before computing IDCG."), ("IDCG", "nDCG"), ideal_not_sorted),
    Mistake("exp_gain", N_("2^rel - 1 gain instead of the grade"),
            N_("This measure's gain is the grade itself (trec_eval). 2^grade - 1 is another convention "
            "(dcg='exp-log2', ranx's ndcg_burges)."), DCG_FAMILY, _convention(dcg="exp-log2")),
    Mistake("linear_gain", N_("the grade as gain instead of 2^rel - 1"),
            N_("This measure uses the exponential gain 2^grade - 1 (dcg='exp-log2'): a grade 3 is worth 7, "
            "not 3."), DCG_FAMILY, _convention(dcg="log2")),
    Mistake("p_list_length", N_("P@k divided by the length of the list instead of k"),
            N_("P@k always divides by k, even when the list is longer or shorter than k (trec_eval: 2 "
            "retrieved, both relevant, P@5 = 2/5)."), ("P",), p_divided_by_list_length),
    Mistake("rank_off_by_one", N_("ranks off by one"),
            N_("Ranks start at 1: the first document is rank 1, and its discount is log2(1 + 1) = 1."),
            ("RR", "DCG", "IDCG", "nDCG"), first_rank_off_by_one),
    Mistake("rounding_early", N_("rounding too early"),
            N_("Intermediate numbers were rounded before the final step; keep full precision until the "
            "end and round only the answer."), ("AP", "DCG", "IDCG", "nDCG"), rounding_too_early),
)


# --------------------------------------------------------------------------- checking

@dataclass(frozen=True)
class StepResult:
    """The verdict on one step: ``status`` is "correct", "wrong", "unreadable" or "blank"."""

    key: str
    label: str
    expected: float
    given_text: str
    given: float | None
    tolerance: float | None
    status: str
    note: str = ""


@dataclass(frozen=True)
class Diagnosis:
    """A mistake that reproduces the learner's numbers: the value it gives at the first
    wrong step, and how many of the learner's steps from there on it reproduces."""

    mistake: Mistake
    value: float
    matched: int
    compared: int


ROUNDED_NOTE = N_("right from the rounded numbers you typed before it; unrounded it is {}")
FOLLOWS_NOTE = N_("follows from your earlier numbers")


@dataclass(frozen=True)
class CheckResult:
    """Every step's verdict, the first wrong step, and every mistake of the catalogue that
    reproduces the learner's numbers best (``diagnoses``, in catalogue order)."""

    measure: str
    value: float
    steps: tuple[StepResult, ...]
    first_wrong: StepResult | None
    diagnoses: tuple[Diagnosis, ...] = ()

    @property
    def diagnosis(self) -> Diagnosis | None:
        """The first mistake that reproduces the learner's numbers (None if none does)."""
        return self.diagnoses[0] if self.diagnoses else None

    @property
    def all_correct(self) -> bool:
        """True when every step the learner typed is right (and at least one was typed)."""
        typed = [s for s in self.steps if s.status != "blank"]
        return bool(typed) and all(s.status == "correct" for s in typed)

    @property
    def message(self) -> str:
        """One plain sentence for the learner, with the right value of the first wrong step."""
        return self._sentence(reveal=True)

    @property
    def hint(self) -> str:
        """:attr:`message` without any right value: the first wrong step and the likely
        mistake only, so the learner can work the step out again before asking for it.

        >>> r = check("AP", ["a", "x", "b", "y", "z"], {"a": 1, "b": 1, "c": 1, "d": 1}, {"value": "0.83"})
        >>> r.hint
        'First wrong step: the value of AP — you typed 0.83, which is not right. Likely mistake: AP divided by the relevant documents retrieved instead of R.'
        """
        return self._sentence(reveal=False)

    def _sentence(self, reveal: bool) -> str:
        if self.first_wrong is None:
            if not any(s.status != "blank" for s in self.steps):
                return _("Type at least one number to check.")
            if not self.all_correct:
                bad = next(s for s in self.steps if s.status == "unreadable")
                return _("Could not read {step}: {note}").format(step=bad.label, note=bad.note)
            if any(s.note for s in self.steps if s.status == "correct"):
                return _("Every number you typed is right. Some come from numbers you rounded: keep more "
                         "decimals until the end (see the notes).")
            return _("Every number you typed is right.")
        s = self.first_wrong
        if reveal:
            text = _("First wrong step: {step} — you typed {typed}, the right value is {value}.").format(
                step=s.label, typed=s.given_text.strip(), value=num(s.expected))
        else:
            text = _("First wrong step: {step} — you typed {typed}, which is not right.").format(
                step=s.label, typed=s.given_text.strip())
        if len(self.diagnoses) > 1:
            titles = "; ".join(_(d.mistake.title) for d in self.diagnoses)
            text += " " + _("Likely mistake — {n} of them give your numbers: {titles}.").format(
                n=len(self.diagnoses), titles=titles)
        elif self.diagnoses:
            text += " " + _("Likely mistake: {title}.").format(title=_(self.diagnoses[0].mistake.title))
        elif sum(1 for t in self.steps if t.status != "blank") > 1:
            text += " " + (_("None of the usual mistakes gives your number: compare this step with the worked solution.")
                           if reveal else _("None of the usual mistakes gives your number: work this step out "
                                            "again from the ones before it."))
        else:
            text += " " + (_("None of the usual mistakes gives your number: type every step to find where it goes "
                             "wrong, or open the worked solution.")
                           if reveal else _("None of the usual mistakes gives your number: type every step to find "
                                            "where it goes wrong."))
        return text


def _close(given: float, expected: float, tol: float, integer: bool) -> bool:
    if integer:
        return abs(given - expected) < EPS
    return abs(given - expected) <= tol + EPS


def _given_text(raw) -> str:
    if isinstance(raw, str):
        return raw
    try:
        return str(raw)
    except ValueError:  # an int too long to print (Python's 4300-digit limit)
        return "(a number too long to show)"


# --------------------------------------------------------------------------- how steps follow

def _same(x: float) -> float:
    return x


def _plus(a: float, b: float) -> float:
    return a + b


def _plus_discounted(before: float, gain: float, discount: float) -> float:
    return before + (gain / discount if discount else gain)  # as the log2(i) mistake keeps rank 1


def _derivations(m: Measure, q, table) -> dict[str, tuple[tuple[str, ...], Callable]]:
    """How each computed step follows from earlier steps: ``key -> (input keys, formula)``.

    Steps read off the example (a precision at a hit, a gain, a discount, a count, the
    IDCG) have no entry. Used to tell a step that is right from the learner's own earlier
    numbers from a step that is wrong in itself.
    """
    out: dict[str, tuple[tuple[str, ...], Callable]] = {}
    name = m.name
    if name == "AP":
        prev = None
        for key in table:
            if key.startswith("precision@"):
                r = key.partition("@")[2]
                out[f"running_sum@{r}"] = (((key,), _same) if prev is None
                                           else ((f"running_sum@{prev}", key), _plus))
                prev = r
        if prev is not None:
            out["value"] = ((f"running_sum@{prev}", "denominator"), ratio)
    elif name in DCG_FAMILY:
        n = sum(1 for key in table if key.startswith("gain@"))
        run = "cg" if name == "CG" else "dcg"
        for i in range(1, n + 1):
            step = (f"gain@{i}",) if name == "CG" else (f"gain@{i}", f"discount@{i}")
            if i == 1:
                out[f"{run}@1"] = (step, _same if name == "CG" else lambda g, d: _plus_discounted(0.0, g, d))
            else:
                out[f"{run}@{i}"] = ((f"{run}@{i - 1}", *step), _plus if name == "CG" else _plus_discounted)
        last = f"{run}@{n}" if n else None
        if last and "DCG" in table:
            out["DCG"] = ((last,), _same)
        if last and name in ("CG", "DCG"):
            out["value"] = ((last,), _same)
        if name == "IDCG":
            out["value"] = (("IDCG",), _same)
        elif name == "nDCG":
            out["value"] = (("DCG", "IDCG"), ratio)
    elif name in ("P", "R", "F1", "Success"):
        k = core.explain(m, q.docs, q.judgments).summary["k"]  # P@k divides by k (set_P: by N)

        def precision(hits):
            return ratio(hits, k)

        recall = (("hits", "R"), ratio)
        out["value"] = {"P": (("hits",), precision), "R": recall, "F1": (("P", "recall"), f1),
                        "Success": (("hits",), lambda h: 1.0 if h > 0 else 0.0)}[name]
        if name == "F1":
            out["P"], out["recall"] = (("hits",), precision), recall
    elif name == "RR":
        out["value"] = (("first_relevant_rank",), lambda r: 1.0 / r if r > 0 else 0.0)
    return {key: d for key, d in out.items() if key in table and all(i in table for i in d[0])}


def _from_own_numbers(key, derivations, table, parsed, verdicts) -> tuple[float, bool] | None:
    """The step ``key`` recomputed from the learner's earlier numbers (the right value for a
    step left blank or unreadable), and whether every one of those typed was accepted."""
    if key not in derivations:
        return None
    inputs, formula = derivations[key]
    values = [parsed[i][0] if i in parsed else table[i][1] for i in inputs]
    if not all(math.isfinite(v) for v in values):
        return None
    try:
        own = float(formula(*values))
    except (ArithmeticError, ValueError):
        return None
    if not math.isfinite(own):
        return None
    return own, all(verdicts[i] == "correct" for i in inputs if i in parsed)


# --------------------------------------------------------------------------- checking

def check(measure, ranking, judgments, answers: Mapping[str, object]) -> CheckResult:
    """Check the learner's numbers for one measure on one ranking.

    Parameters
    ----------
    measure : str or Measure
        One of P, R, F1, Success, RR, AP, CG, DCG, IDCG, nDCG (any cutoff and convention).
    ranking, judgments
        As for :func:`metrics.explain`.
    answers : mapping step key -> typed text (or number)
        Keys from :func:`blanks` (``"value"`` for the final answer). Empty texts are skipped.

    Returns
    -------
    CheckResult
        Every step's verdict, the first wrong step, and the mistakes that reproduce the
        learner's numbers (``diagnoses``; ``diagnosis`` is the first, or None).

    Examples
    --------
    nDCG@3 of the ranking c, b, a with grades a=3, b=2, c=1 (trec_eval: linear gain):
    DCG = 1 + 2/log2(3) + 3/2 = 3.7619, IDCG = 3 + 2/log2(3) + 1/2 = 4.7619, nDCG = 0.79.
    A learner who used 2^rel - 1 finds DCG = 1 + 3/1.585 + 7/2 = 6.39, IDCG = 7 + 3/1.585 + 1/2
    = 9.39 and nDCG = 0.68:

    >>> r = check("nDCG@3", ["c", "b", "a"], {"a": 3, "b": 2, "c": 1},
    ...           {"gain@1": "1", "gain@2": "3", "value": "0.68"})
    >>> r.first_wrong.key, r.first_wrong.expected, r.diagnosis.mistake.key
    ('gain@2', 2.0, 'exp_gain')

    Two mistakes can give the same number; both are listed. AP@2 with a relevant document
    at rank 2 of 2 and R = 4: (1/2) / 4 = 0.125; divided by min(2, 4) = 2 or by k = 2: 0.25.

    >>> r = check("AP@2", ["x", "a"], {"a": 1, "b": 1, "c": 1, "d": 1}, {"value": "0.25"})
    >>> [d.mistake.key for d in r.diagnoses]
    ['ap_min_k_r', 'ap_results_or_k', 'ap_nonrelevant']
    """
    m, q = _prepared(measure, ranking, judgments)
    if not isinstance(answers, Mapping):
        raise TypeError(f"answers must be a mapping step -> number, got {type(answers).__name__}")
    table = _table(m, q)
    unknown = [k for k in answers if k not in table]
    if unknown:
        raise ValueError(f"answers: unknown step {_short(unknown[0], 60)} for {m} "
                         f"(steps: {', '.join(list(table)[:6])}, ...)")
    derivations = _derivations(m, q, table)
    results, parsed, verdicts = [], {}, {}
    for key, (label, expected, integer) in table.items():
        raw = answers.get(key)
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            results.append(StepResult(key, label, expected, "", None, None, "blank"))
            continue
        text = _given_text(raw)
        try:
            given, tol, decimals = parse_answer(raw)
        except ValueError as err:
            results.append(StepResult(key, label, expected, text, None, None, "unreadable", str(err)))
            continue
        tol = 0.0 if integer else tol
        ok = _close(given, expected, tol, integer)
        note = ""
        own = None if ok else _from_own_numbers(key, derivations, table, parsed, verdicts)
        if own is not None and _close(given, own[0], tol, integer):
            ok = own[1]  # right from accepted (rounded) numbers, or a consequence of wrong ones
            note = _(ROUNDED_NOTE).format(num(expected)) if ok else _(FOLLOWS_NOTE)
        elif not ok and decimals is not None and decimals < 2 and not integer \
                and abs(given - expected) <= 0.5 * 10.0 ** -decimals + EPS:
            note = _("right when rounded to the decimals you typed, but type at least 2 decimals")
        parsed[key] = (given, tol, integer)
        verdicts[key] = "correct" if ok else "wrong"
        results.append(StepResult(key, label, expected, text, given, None if integer else tol,
                                  verdicts[key], note))
    first = next((s for s in results if s.status == "wrong"), None)
    diagnoses = _diagnose(m, q, table, parsed, first) if first else ()
    return CheckResult(str(m), table["value"][1], tuple(results), first, diagnoses)


def _diagnose(m, q, table, parsed, first: StepResult) -> tuple[Diagnosis, ...]:
    """Every mistake whose recomputation gives the learner's number at the first wrong step,
    agrees with the numbers typed before it, and reproduces as many of the later ones as
    the best does."""
    keys = list(table)
    at = keys.index(first.key)
    before = [k for k in keys[:at] if k in parsed]
    later = [k for k in keys[at:] if k in parsed]
    given, tol, integer = parsed[first.key]

    def fits(candidate, k):
        return _close(parsed[k][0], candidate[k], *parsed[k][1:])

    found = []
    for mistake in MISTAKES:
        if m.name not in mistake.families:
            continue
        best = None
        for candidate in mistake.kernel(m, q):
            if first.key not in candidate:
                continue
            wrong_value = candidate[first.key]
            if not _close(given, wrong_value, tol, integer) or _close(wrong_value, first.expected, tol, integer):
                continue
            if not all(fits(candidate, k) for k in before if k in candidate):
                continue  # this mistake would have changed a step the learner got right
            matched = sum(1 for k in later if k in candidate and fits(candidate, k))
            if best is None or matched > best.matched:
                best = Diagnosis(mistake, wrong_value, matched, len(later))
        if best is not None:
            found.append(best)
    top = max((d.matched for d in found), default=0)
    return tuple(d for d in found if d.matched == top)
