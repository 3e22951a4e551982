"""The table of :mod:`metrics.teaching.diagnose`: every convention it can try, and the tools.

:data:`CONVENTIONS` is one declarative table. Each row is a :class:`Convention` with the
values to try; each value (an :class:`Option`) says how it is applied: measure parameters,
a transform of the input, or a keyword of :func:`metrics.evaluate`. :data:`TOOLS` names the
conventions of the tools people compare with.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

from ... import core
from ...measures import Measure

if TYPE_CHECKING:
    from .data import Prepared

__all__ = ["Option", "Convention", "CONVENTIONS", "TOOLS", "TOOL_NOTES", "tool_name", "available"]


@dataclass(frozen=True)
class Option:
    """One value of a convention and how it is applied: ``measure`` parameters of the measure,
    ``transform`` settings of the input (see :func:`evaluate_under`), ``evaluation`` keywords of
    :func:`metrics.evaluate`. ``mistake`` names the same rule in *Check my calculation*'s
    catalogue (:data:`metrics.teaching.check.MISTAKES`), whose explanation is then shown."""

    value: str
    label: str
    measure: Mapping = field(default_factory=lambda: MappingProxyType({}))
    transform: Mapping = field(default_factory=lambda: MappingProxyType({}))
    evaluation: Mapping = field(default_factory=lambda: MappingProxyType({}))
    mistake: str | None = None  # the key of the same rule in check.MISTAKES, if a learner can make it


@dataclass(frozen=True)
class Convention:
    """A row: ``key``, a ``title``, the measure ``families`` it matters for (None: all),
    its ``options`` (the first is Ranklab's default, trec_eval's) and the issue it comes from
    (``source``). ``values`` computes the options from the data (relevance levels, depths)."""

    key: str
    title: str
    options: tuple[Option, ...]
    families: tuple[str, ...] | None = None
    source: str = ""
    values: Callable | None = field(default=None, repr=False, compare=False)


def _o(value, label, *, measure=None, transform=None, evaluation=None, mistake=None) -> Option:
    return Option(value, label, MappingProxyType(dict(measure or {})), MappingProxyType(dict(transform or {})),
                  MappingProxyType(dict(evaluation or {})), mistake)


_DCG = ("CG", "DCG", "IDCG", "nDCG")
_BINARY = ("P", "R", "F1", "Success", "RR", "AP", "Rprec", "Bpref", "IPrec", "11pt", "NumRel", "NumRelRet")


def _rel_levels(prep: Prepared, m: Measure) -> tuple[Option, ...]:
    default = m.family.params.get("rel", 1)
    top = int(prep.qrels_grade.max()) if prep.qrels_grade.size else 1
    levels = [r for r in range(2, min(top, 10) + 1)]
    first = _o("default", "grade >= 1 relevant (nDCG: every positive grade)", measure={"rel": default})
    return (first, *[_o(str(r), f"grade >= {r} relevant (-l {r})", measure={"rel": r}) for r in levels])


_IDEALS = (
    _o("qrels", "ideal ordering of every judged document (trec_eval)", measure={"ideal": "qrels"}),
    _o("ranking", "ideal ordering of the retrieved documents only (sklearn ndcg_score)",
       measure={"ideal": "ranking"}, mistake="ideal_from_ranking"),
)
_IDEAL_TRUNCATED = _o("trec_eval", "ideal ordered as trec_eval's comp_rel_gain sorts the gain map: gains less "
                      "than 1 apart compare equal (its truncating comparison)", measure={"ideal": "trec_eval"})


def _ideals(prep: Prepared, m: Measure) -> tuple[Option, ...]:
    # only a gain map with fractional gains can make trec_eval's comparison differ
    return (*_IDEALS, _IDEAL_TRUNCATED) if m["gains"] is not None else _IDEALS


def _depths(prep: Prepared, m: Measure) -> tuple[Option, ...]:
    longest = prep.longest
    candidates = sorted({k for k in (5, 10, 20, 100, 1000, m.cutoff) if isinstance(k, int) and k < longest})
    return (_o("none", "every retrieved document"),
            *[_o(str(k), f"only the first {k} documents (-M {k})", transform={"depth": k}) for k in candidates])


CONVENTIONS: tuple[Convention, ...] = (
    Convention("ties", "tie order", (
        _o("docid-desc", "tied scores broken by doc id, descending (trec_eval)"),
        _o("input", "tied scores kept in input order (ranx, torchmetrics, most Python code)",
           transform={"ties": "input"}),
        _o("docid-asc", "tied scores broken by doc id, ascending (ir_measures' RR@k path)",
           transform={"ties": "docid-asc"}),
        _o("average", "tie-aware: the measure averaged over the orders of tied documents (sklearn's nDCG)",
           evaluation={"ties": "average"}),
        _o("threshold", "a tie group counted at once, at its last rank (sklearn's average_precision_score)",
           evaluation={"ties": "threshold"}),
    ), source="pytrec_eval#56"),
    Convention("scores", "score precision", (
        _o("float32", "scores compared as float32, as trec_eval 9.0.8 and pytrec_eval store them"),
        _o("double", "scores compared as doubles (trec_eval 10.0, sklearn, ranx)", transform={"scores": "double"}),
    ), source="trec_eval 9.0.8 / pytrec_eval"),
    Convention("gain", "gain", (
        _o("linear", "gain = grade (trec_eval)", measure={"dcg": "log2"}),
        _o("exponential", "gain = 2^grade - 1 (ranx ndcg_burges, ir_measures dcg='exp-log2')",
           measure={"dcg": "exp-log2"}, mistake="exp_gain"),
        _o("gdeval", "gdeval.pl: gain 2^grade - 1, and queries without a relevant document left out of "
                     "the mean", measure={"dcg": "exp-log2"}, transform={"no_relevant": "skip"}, mistake="exp_gain"),
    ), families=_DCG, source="OpenNIR#14"),
    Convention("ideal", "ideal list", _IDEALS, families=("IDCG", "nDCG"), source="pytrec_eval#51", values=_ideals),
    Convention("recall_cut", "recall level reached", (
        _o("9.0.8", "at floor(r R + 0.9) relevant documents (trec_eval 9.0.8, pytrec_eval)"),
        _o("10.0", "at lround(r R) relevant documents (trec_eval 10.0)", measure={"version": "10.0"}),
    ), families=("IPrec", "11pt"), source="trec_eval 10.0 m_iprec_at_recall.c"),
    Convention("rbp_weights", "RBP weights", (
        _o("geometric", "(1 - p) p^(i-1), Moffat & Zobel"),
        _o("cwl", "normalised over 1,000 ranks or k, as cwl-eval", measure={"weights": "cwl"}),
    ), families=("RBP",), source="cwl-eval"),
    Convention("denominator", "AP denominator", (
        _o("R", "divided by R, every relevant document judged (trec_eval)", measure={"denominator": "R"}),
        _o("retrieved", "divided by the relevant documents retrieved (sklearn, torchmetrics, haystack)",
           measure={"denominator": "retrieved"}, mistake="ap_retrieved"),
        _o("min(k,R)", "divided by min(k, R) (Spark, recommenders)", measure={"denominator": "min(k,R)"},
           mistake="ap_min_k_r"),
    ), families=("AP",), source="haystack#7758"),
    Convention("duplicates", "duplicate documents", (
        _o("first", "a document retrieved twice: the first line kept (trec_eval refuses the run)"),
        _o("last", "the last line kept (a Python dict: pytrec_eval, ranx, ir_measures)",
           transform={"dedup": "last"}),
        _o("max", "the highest score kept", transform={"dedup": "max"}),
        _o("kept", "every copy kept and credited (haystack before PR#11959)", transform={"dedup": "kept"}),
    ), source="haystack PR#11959"),
    Convention("identical", "documents whose id is the query id", (
        _o("kept", "kept (trec_eval)"),
        _o("ignored", "ignored (BEIR ignore_identical_ids=True)", transform={"identical": "drop"}),
    ), source="beir#91"),
    Convention("missing", "judged queries missing from the run", (
        _o("skip", "left out of the mean (trec_eval 9.0.8)"),
        _o("zero", "scored 0 (trec_eval -c, ir_measures)", transform={"missing": "zero"}),
    )),
    Convention("rel", "relevance level", (), families=_BINARY + _DCG, values=_rel_levels),
    Convention("depth", "cutoff of every ranking (-M)", (), values=_depths),
    Convention("flatten", "queries flattened into one list", (
        _o("per-query", "each query ranked and scored on its own, then averaged"),
        _o("flattened", "every query's documents in one list, scored once (torchmetrics' 2-D input)",
           transform={"flatten": True}),
    ), source="torchmetrics#3216"),
)
_ROWS = {c.key: c for c in CONVENTIONS}

# each tool's conventions, as (row key, option value); rows not named keep the default
TOOLS: dict[str, tuple[tuple[str, str], ...]] = {
    "trec_eval": (),
    "pytrec_eval": (("duplicates", "last"),),
    "ir_measures": (("duplicates", "last"), ("missing", "zero")),
    "BEIR": (("duplicates", "last"), ("identical", "ignored")),
    # sklearn's tie rule depends on the measure: thresholds for AP, the average for nDCG/DCG
    "sklearn": (("ties", {"AP": "threshold", "*": "average"}), ("scores", "double"), ("ideal", "ranking"),
                ("denominator", "retrieved")),
    "ranx": (("ties", "input"), ("scores", "double"), ("duplicates", "last")),
    "torchmetrics": (("ties", "input"), ("ideal", "ranking"), ("denominator", "retrieved")),
    "gdeval": (("gain", "gdeval"),),
    "haystack": (("ties", "input"), ("duplicates", "kept"), ("denominator", "retrieved")),
}


# what a tool's name alone cannot say, shown with its view
TOOL_NOTES: dict[str, str] = {
    "torchmetrics": "torchmetrics' functional retrieval_normalized_dcg flattens a 2-D input into one list "
                    "(torchmetrics#3216): give its numbers to test for that",
    "ranx": "ranx refuses a run missing judged queries unless make_comparable=True, which scores them 0 (-c)",
    "gdeval": "gdeval.pl computes only nDCG@k and ERR@k (its default k is 20)",
    "sklearn": "sklearn counts tied scores pessimistically in average_precision_score",
    "haystack": "haystack's evaluators match documents by content or id, each query a list: its MRR and MAP "
                "before PR#7841 kept only the last gold document's score (haystack#7758), which no convention "
                "reproduces",
}


def tool_name(text: str) -> str | None:
    """The tool of :data:`TOOLS` called ``text`` (any case, ``-`` for ``_``), or None.

    >>> tool_name("PyTrec-Eval"), tool_name("0.5")
    ('pytrec_eval', None)
    """
    lowered = {t.lower().replace("-", "_"): t for t in TOOLS}
    return lowered.get(str(text).strip().lower().replace("-", "_"))


def available(option: Option) -> str | None:
    """None when this build of :mod:`metrics` can apply ``option``, else why not.

    A keyword of :func:`metrics.evaluate` is tried on a one-document ranking: a build that
    does not accept it says so, and the option is skipped, never imitated.

    >>> available(_ROWS["scores"].options[1]) is None
    True
    """
    if not option.evaluation:
        return None
    key = tuple(sorted(option.evaluation.items()))
    if key not in _AVAILABLE:  # the probe's answer cannot change while the process runs
        _AVAILABLE[key] = _probe(option)
    return _AVAILABLE[key]


_AVAILABLE: dict[tuple, str | None] = {}


def _probe(option: Option) -> str | None:
    try:
        core.evaluate({"q": {"a": 1}}, {"q": {"a": 1.0, "b": 1.0}}, "AP", **dict(option.evaluation))
    except (TypeError, ValueError):
        keywords = ", ".join(f"{k}={v!r}" for k, v in option.evaluation.items())
        return f"not available: this build of metrics does not accept {keywords}"
    return None
