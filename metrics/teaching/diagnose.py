"""Diagnose a discrepancy: which conventions make Ranklab print another tool's numbers.

*Check my calculation* (:mod:`.check`) names the mistake behind one learner's number on one
ranking. This module does the same for whole runs: given qrels, a run and the numbers
another tool printed (one aggregate, per-query values, or only the tool's name), it
searches the named conventions of :data:`CONVENTIONS` for the set that reproduces those
numbers, and names per query the convention that moved the value.

:data:`CONVENTIONS` is one declarative table. Each row is a convention with the values to
try; each value says how it is applied — measure parameters (``dcg='exp-log2'``), a
transform of the input (scores kept as doubles, duplicates kept, identical ids dropped,
queries flattened into one list ...) or a keyword of :func:`metrics.evaluate`
(``ties='average'``, used only when this build of :mod:`metrics` accepts it). Adding a
convention is adding a row.

Every evaluation goes through the vectorised formulas of :mod:`metrics.batch` (one
:class:`~metrics.batch.Batch` per convention set, built here from the transformed input),
so nothing here recomputes a measure by hand; a value applied through
:func:`metrics.evaluate` uses the per-query kernels.

The search is bounded (:func:`search`): the default set (trec_eval's), then each value of
each row alone, then pairs of the :data:`MAX_PAIRED` most promising single changes, then a
greedy walk adding one change at a time (at most :data:`MAX_CHANGES` changes), and never
more than :data:`MAX_EVALUATIONS` evaluations in all.

Examples
--------
pytrec_eval#56: two documents tie on score; trec_eval ranks ``b`` above ``a`` (doc id
descending), a tool keeping the input order ranks ``a`` first. Their RR of 1 is reproduced
by the input order:

>>> qrels = {"q1": {"a": 1}}
>>> run = {"q1": {"a": 0.5, "b": 0.5}}
>>> d = diagnose(qrels, run, "RR", theirs=Theirs(aggregate=number("1.0")))
>>> d.matched, [c.option.value for c in d.changes]
(True, ['input'])
>>> d.baseline.aggregate, d.found.aggregate  # 1/2 under trec_eval, 1/1 in input order
(0.5, 1.0)
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

import numpy as np
import pyarrow.compute as pc

from .. import core
from ..batch import BATCH_FAMILIES, Batch
from ..batch.segments import cumcount
from ..io.arrays import as_numpy
from ..io.keys import take
from ..io.model import Qrels, Run, qrels_from_dict, run_from_dict
from ..io.theirs import EXACT, Number, Theirs, number
from ..measures import FAMILIES, Measure, parse
from ..ranking import TIE_RULES, ratio
from ..ranking.dcg import discount as dcg_discount
from ..ranking.dcg import gains as dcg_gains
from . import check

__all__ = ["Option", "Convention", "CONVENTIONS", "TOOLS", "Change", "Outcome", "QueryRow", "Diagnosis",
           "Prepared", "prepare", "diagnose", "search", "evaluate_under", "available", "Theirs", "number",
           "MAX_EVALUATIONS", "MAX_PAIRED", "MAX_CHANGES", "tool_name", "to_dict"]

MAX_EVALUATIONS = 400  # convention sets evaluated by one search, at most
MAX_PAIRED = 12  # single changes combined in pairs (the best by fit)
MAX_CHANGES = 5  # changes from the default in one set, at most
MAX_CACHED_BATCHES = 32  # ranked inputs kept by one Prepared (one per set of input transforms)
ALL = "all"  # the one query of a flattened evaluation


# --------------------------------------------------------------------------- the table

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


# --------------------------------------------------------------------------- the data

@dataclass
class Prepared:
    """The run joined with its judgments once; every convention set starts from it.

    Run rows of judged queries only: ``q`` (index into ``queries``, the qrels' queries),
    ``pos`` (line order), ``score``, ``doc_order`` (rank of the doc id in byte order),
    ``grade`` and ``judged``, ``identical`` (doc id = query id), ``pair`` (one code per
    (query, doc) pair: duplicates share it). ``qrels_q``/``qrels_grade``: every judgment.
    """

    queries: list[str]
    in_run: np.ndarray
    q: np.ndarray
    pos: np.ndarray
    score: np.ndarray
    doc_order: np.ndarray
    pair: np.ndarray
    grade: np.ndarray
    judged: np.ndarray
    identical: np.ndarray
    qrels_q: np.ndarray
    qrels_grade: np.ndarray
    docs: list[str]
    longest: int
    has_duplicates: bool
    judgments: dict[str, dict[str, int]]
    batches: dict = field(default_factory=dict, repr=False)

    @property
    def has_relevant(self) -> np.ndarray:
        return np.bincount(self.qrels_q[self.qrels_grade > 0], minlength=len(self.queries)) > 0


def prepare(qrels, run) -> Prepared:
    """Join a run (duplicates allowed) with its judgments.

    ``qrels``/``run``: :class:`metrics.io.Qrels`/:class:`metrics.io.Run` (read with
    ``dedup=None`` to keep duplicates) or the dicts :func:`metrics.evaluate` takes.

    >>> p = prepare({"q1": {"a": 2, "b": 0}}, {"q1": ["b", "c", "a"]})
    >>> p.queries, p.grade.tolist(), p.judged.tolist()
    (['q1'], [0, 0, 2], [True, False, True])
    """
    if isinstance(qrels, Mapping):
        qrels = qrels_from_dict(qrels)
    if isinstance(run, Mapping):
        run = run_from_dict(run)
    if not isinstance(qrels, Qrels) or not isinstance(run, Run):
        raise TypeError("qrels and run must be metrics.io.Qrels/Run or mappings")
    queries = list(qrels.queries)
    index = {qid: i for i, qid in enumerate(queries)}
    code_map = np.array([index.get(qid, -1) for qid in run.queries] + [-1], dtype=np.int64)
    rq = code_map[run.query] if len(run) else np.zeros(0, np.int64)
    keep = np.flatnonzero(rq >= 0)
    docs_arrow = take(run.doc, keep)
    docs = docs_arrow.to_pylist()
    q = rq[keep]
    score = np.asarray(run.score, dtype=np.float64)[keep]
    if len(keep):
        doc_order = as_numpy(pc.rank(docs_arrow, sort_keys="ascending", tiebreaker="dense"))
        doc_order = doc_order.astype(np.int64)
    else:
        doc_order = np.zeros(0, np.int64)
    judgments: dict[str, dict[str, int]] = {qid: {} for qid in queries}
    for qc, d, g in zip(qrels.query.tolist(), qrels.doc.to_pylist(), qrels.grade.tolist(), strict=True):
        judgments[queries[qc]][d] = g
    grade = np.zeros(len(keep), dtype=np.int64)
    judged = np.zeros(len(keep), dtype=bool)
    identical = np.zeros(len(keep), dtype=bool)
    for i, (qc, d) in enumerate(zip(q.tolist(), docs, strict=True)):
        qid = queries[qc]
        g = judgments[qid].get(d)
        if g is not None:
            grade[i], judged[i] = g, True
        identical[i] = d == qid
    # one code per (query, doc) pair: duplicates share it
    pair = np.zeros(len(keep), dtype=np.int64)
    if len(keep):
        order = np.lexsort((doc_order, q))
        sq, sd = q[order], doc_order[order]
        new = np.r_[True, (sq[1:] != sq[:-1]) | (sd[1:] != sd[:-1])]
        pair[order] = np.cumsum(new) - 1
    counts = np.bincount(q, minlength=len(queries)) if len(keep) else np.zeros(len(queries), np.int64)
    in_run = np.zeros(len(queries), dtype=bool)
    present = code_map[:-1]
    in_run[present[present >= 0]] = True
    return Prepared(queries, in_run, q, np.arange(len(keep)), score, doc_order, pair, grade, judged, identical,
                    qrels.query.astype(np.int64), qrels.grade.astype(np.int64), docs,
                    int(counts.max()) if counts.size else 0, bool(len(keep) and pair.max() + 1 < len(keep)),
                    judgments)


# --------------------------------------------------------------------------- one evaluation

@dataclass(frozen=True)
class Outcome:
    """One convention set's numbers: ``per_query`` (qid -> value, evaluated queries only,
    or ``{"all": v}`` when flattened) and the ``aggregate``."""

    per_query: dict[str, float]
    aggregate: float


def _settings(options: list[Option]) -> tuple[dict, dict, dict]:
    measure, transform, evaluation = {}, {}, {}
    for o in options:
        measure.update(o.measure)
        transform.update(o.transform)
        evaluation.update(o.evaluation)
    return measure, transform, evaluation


def _rows(p: Prepared, t: Mapping) -> tuple[np.ndarray, np.ndarray]:
    """The run rows kept under the input transforms ``t``, and their scores."""
    rows = np.arange(len(p.q))
    if t.get("identical") == "drop":
        rows = rows[~p.identical[rows]]
    score = p.score[rows]
    if t.get("scores", "float32") == "float32":  # trec_eval 9.0.8, as metrics' default
        with np.errstate(over="ignore"):
            score = score.astype(np.float32).astype(np.float64)
    how = t.get("dedup", "first")
    if p.has_duplicates and how != "kept" and rows.size:
        pair = p.pair[rows]
        if how == "max":  # highest score, then the first line
            order = np.lexsort((p.pos[rows], -score, pair))
        elif how == "last":
            order = np.lexsort((-p.pos[rows], pair))
        else:
            order = np.lexsort((p.pos[rows], pair))
        sp = pair[order]
        first = order[np.r_[True, sp[1:] != sp[:-1]]]
        first.sort()
        rows, score = rows[first], score[first]
    return rows, score


def evaluate_under(p: Prepared, measure: Measure, options: list[Option]) -> Outcome:
    """The measure under a set of options (one per row at most), from the prepared input.

    Input transforms, in order: documents whose id is the query id dropped
    (``identical='drop'``), scores compared as float32 as trec_eval 9.0.8 does, unless
    ``scores='double'`` (trec_eval 10.0, sklearn, ranx), duplicates
    resolved (``dedup``: first, last, max, or ``'kept'``), queries without a relevant
    document skipped (``no_relevant='skip'``, gdeval), missing queries scored 0
    (``missing='zero'``), every query flattened into one (``flatten``), then each ranking
    ordered by score with ties broken as ``ties`` says and cut at ``depth``.

    >>> p = prepare({"q1": {"a": 1}, "q2": {"c": 1}}, {"q1": {"a": 1.0, "b": 1.0}})
    >>> m = parse("RR")
    >>> evaluate_under(p, m, []).per_query  # b ties a and ranks first; q2 is skipped
    {'q1': 0.5}
    >>> evaluate_under(p, m, [_ROWS["missing"].options[1]]).aggregate  # -c: (1/2 + 0) / 2
    0.25
    """
    params, t, evaluation = _settings(options)
    m = measure.with_params(**params)
    if evaluation == {"ties": "average"} and m.name in _DCG and not t.get("flatten") and t.get("dedup") != "kept":
        return _tie_average_dcg(p, m, t)
    if evaluation:
        return _via_evaluate(p, m, t, evaluation)
    batch, evaluated, flatten = _cached_batch(p, t)
    values = np.asarray(BATCH_FAMILIES[m.name](m, batch), dtype=np.float64)
    if flatten:
        v = float(values[0]) if evaluated.any() else 0.0
        return Outcome({ALL: v}, v)
    per_query = {p.queries[i]: float(values[i]) for i in np.flatnonzero(evaluated).tolist()}
    return Outcome(per_query, _aggregate(m, list(per_query.values())))


_ORDER_KEYS = ("identical", "scores", "dedup", "ties")


def _ordered(p: Prepared, t: Mapping, evaluated: np.ndarray, flatten: bool):
    """Run rows of the evaluated queries ranked under ``t``: (rows, query, rank). Per query the
    order depends only on the transforms of :data:`_ORDER_KEYS`, so it is cached under them and
    shared by -c, gdeval's query filter and -M; a flattened list is ranked anew."""
    key = ("order", *(t.get(k) for k in _ORDER_KEYS))
    cached = None if flatten else p.batches.get(key)
    if cached is None:
        rows, score = _rows(p, t)
        q = p.q[rows]
        if flatten:
            inside = evaluated[q]
            rows, score, q = rows[inside], score[inside], np.zeros(int(inside.sum()), dtype=np.int64)
        ties = t.get("ties", "docid-desc")
        tie_key = {"docid-desc": -p.doc_order[rows], "docid-asc": p.doc_order[rows]}.get(ties, p.pos[rows])
        order = np.lexsort((tie_key, -score, q))
        rows, q = rows[order], q[order]
        cached = (rows, q, cumcount(q) + 1)
        if not flatten:
            _remember(p, key, cached)
    rows, q, rank = cached
    if not flatten and not evaluated.all():
        inside = evaluated[q]
        rows, q, rank = rows[inside], q[inside], rank[inside]
    return rows, q, rank


def _remember(p: Prepared, key, value) -> None:
    if len(p.batches) >= MAX_CACHED_BATCHES:
        p.batches.pop(next(iter(p.batches)))
    p.batches[key] = value


def _batch(p: Prepared, t: Mapping) -> tuple[Batch, np.ndarray, bool]:
    """The ranked, judged rows under the input transforms ``t`` (shared by every measure
    parameter, so a set that only changes the gain or the denominator reuses it)."""
    n_queries = len(p.queries)
    evaluated = p.in_run.copy() if t.get("missing", "skip") == "skip" else np.ones(n_queries, dtype=bool)
    if t.get("no_relevant") == "skip":
        evaluated &= p.has_relevant
    flatten = bool(t.get("flatten"))
    rows, q, rank = _ordered(p, t, evaluated, flatten)
    judged_keep = evaluated[p.qrels_q]
    qrels_q, qrels_grade = p.qrels_q[judged_keep], p.qrels_grade[judged_keep]
    size = n_queries
    if flatten:
        qrels_q = np.zeros_like(qrels_q)
        size = 1
    depth = t.get("depth")
    if depth is not None:
        keep = rank <= depth
        rows, q, rank = rows[keep], q[keep], rank[keep]
    n_ret = np.bincount(q, minlength=size).astype(np.int64)
    judged = p.judged[rows]
    batch = Batch([ALL] if flatten else p.queries, n_ret, q[judged], rank[judged], p.grade[rows][judged],
                  qrels_q, qrels_grade, [], [])
    return batch, evaluated, flatten


def _tie_average_dcg(p: Prepared, m: Measure, t: Mapping) -> Outcome:
    """CG, DCG, IDCG or nDCG under ``ties='average'`` for every query at once: the expected
    gain at a rank is the mean gain of its tie group (the kernel's ``Query.averaged``), so the
    value is the usual sum with each gain replaced by its group's mean. Without this, each
    convention set holding the rule went through the per-query kernels and their explanations.
    """
    batch, evaluated, _ = _cached_batch(p, t)
    rows, q, rank = _ordered(p, t, evaluated, False)
    depth = t.get("depth")
    if depth is not None:  # -M cuts the ranking before its tie groups are formed, as core.prepare does
        keep = rank <= depth
        rows, q, rank = rows[keep], q[keep], rank[keep]
    score = p.score[rows]
    if t.get("scores", "float32") == "float32":
        with np.errstate(over="ignore"):
            score = score.astype(np.float32).astype(np.float64)
    group = np.cumsum(np.r_[True, (q[1:] != q[:-1]) | (score[1:] != score[:-1])]) - 1 if rows.size \
        else np.zeros(0, np.int64)
    gain = dcg_gains(p.grade[rows], p.judged[rows], m["dcg"], m["rel"], m["gains"])
    size = int(group[-1]) + 1 if group.size else 0
    mean = (np.bincount(group, gain, minlength=size) / np.maximum(np.bincount(group, minlength=size), 1))[group]
    within = rank <= m.cutoff if m.cutoff is not None else np.ones(rank.size, dtype=bool)
    n_queries = len(p.queries)
    if m.name == "IDCG":
        values = np.asarray(BATCH_FAMILIES["IDCG"](m, batch), dtype=np.float64)
    elif m.name == "CG":
        values = np.bincount(q[within], mean[within], minlength=n_queries)
    else:
        base = m["base"] if "base" in m.family.params else 2
        values = np.bincount(q[within], mean[within] / dcg_discount(rank[within], m["dcg"], base),
                             minlength=n_queries)
        if m.name == "nDCG":
            ideal = Measure("IDCG", m.cutoff, tuple((k, v) for k, v in m.params if k in FAMILIES["IDCG"].params))
            values = ratio(values, np.asarray(BATCH_FAMILIES["IDCG"](ideal, batch), dtype=np.float64))
    per_query = {p.queries[i]: float(values[i]) for i in np.flatnonzero(evaluated).tolist()}
    return Outcome(per_query, _aggregate(m, list(per_query.values())))


def _cached_batch(p: Prepared, t: Mapping):
    key = tuple(sorted(t.items()))
    cached = p.batches.get(key)
    if cached is None:
        cached = _batch(p, t)
        _remember(p, key, cached)
    return cached


def _aggregate(m: Measure, values: list[float]) -> float:
    total = 0.0
    for v in values:  # in query order, as trec_eval accumulates
        total += v
    if m.family.aggregate == "sum":
        return total
    return total / len(values) if values else 0.0


def _via_evaluate(p: Prepared, m: Measure, t: Mapping, evaluation: Mapping) -> Outcome:
    """A set holding a keyword of :func:`metrics.evaluate`: the input transforms applied to
    dicts, then the per-query kernels with that keyword."""
    if t.get("dedup") == "kept" or t.get("flatten"):
        raise ValueError("cannot combine kept duplicates or flattened queries with an evaluate() keyword")
    rows, score = _rows(p, t)
    evaluated = p.in_run.copy() if t.get("missing", "skip") == "skip" else np.ones(len(p.queries), dtype=bool)
    if t.get("no_relevant") == "skip":
        evaluated &= p.has_relevant
    qrels = {qid: p.judgments[qid] for i, qid in enumerate(p.queries) if evaluated[i]}
    run: dict[str, dict[str, float]] = {qid: {} for i, qid in enumerate(p.queries) if evaluated[i] and p.in_run[i]}
    order = np.argsort(p.pos[rows], kind="stable")
    for r, s in zip(rows[order].tolist(), score[order].tolist(), strict=True):
        qid = p.queries[p.q[r]]
        if qid in run:
            run[qid][p.docs[r]] = s
    kwargs = dict(evaluation)
    if t.get("scores") == "double":  # metrics' own default is trec_eval 9.0.8's float32
        kwargs["trec_eval"] = "10.0"
    e = core.evaluate(qrels, run, m, missing=t.get("missing", "skip"), depth=t.get("depth"), **kwargs)
    per_query = {qid: e.per_query[qid][str(m)] for qid in e.per_query}
    return Outcome(per_query, e.aggregate[str(m)])


# --------------------------------------------------------------------------- the search

@dataclass(frozen=True)
class Change:
    """One row set to a value other than its default."""

    convention: Convention
    option: Option

    def __str__(self) -> str:
        return f"{self.convention.key}={self.option.value}"

    @property
    def explanation(self) -> str:
        """Why it moves the value: the explanation of the same rule in *Check my calculation*'s
        catalogue when it has one, else where the convention comes from.

        >>> c = Change(_ROWS["ideal"], _ROWS["ideal"].options[1])
        >>> c.explanation.startswith("The ideal DCG sorts every judged document")
        True
        """
        if self.option.mistake:
            return next(m.explanation for m in check.MISTAKES if m.key == self.option.mistake)
        return f"See {self.convention.source}." if self.convention.source else ""


def applicable(p: Prepared, m: Measure) -> tuple[list[Change], list[str]]:
    """The changes worth trying on this input, and notes on the rows skipped (and why).

    A row that cannot change anything here is skipped: duplicates without any duplicate in
    the run, identical ids without any, missing queries when none is missing, a convention
    of another family. An option this build of metrics lacks is skipped with a note.
    """
    changes, notes = [], []
    for c in CONVENTIONS:
        if c.families is not None and m.name not in c.families:
            continue
        options = c.values(p, m) if c.values else c.options
        inert = {
            "duplicates": not p.has_duplicates and "no document is retrieved twice",
            "identical": not p.identical.any() and "no document id equals its query id",
            "missing": bool(p.in_run.all()) and "every judged query is in the run",
            "flatten": len(p.queries) < 2 and "a single query",
        }.get(c.key)
        if inert:
            notes.append(f"{c.title}: not tried ({inert})")
            continue
        for o in options[1:]:
            rule = o.evaluation.get("ties")
            if rule is not None and m.name not in TIE_RULES.get(rule, ()):
                continue  # a tie rule this measure has no definition for would only fail
            why = available(o)
            if why:
                notes.append(f"{c.title} — {o.label}: {why}")
                continue
            changes.append(Change(c, o))
    return changes, notes


@dataclass(frozen=True)
class _Fit:
    mismatched: int
    residual: float

    def key(self) -> tuple[int, float]:
        return self.mismatched, self.residual


def _fit(outcome: Outcome, theirs: Theirs) -> _Fit:
    bad, residual = 0, 0.0
    if theirs.per_query:
        # only the queries they give: a file of one query's value is not a claim that the
        # other queries are absent (it would otherwise favour "queries flattened into one")
        for qid, their in theirs.per_query.items():
            mine = outcome.per_query.get(qid)
            if mine is None:
                bad += 1
                residual += 1.0
                continue
            r = abs(mine - their.value)
            residual += r
            bad += not their.matches(mine)
    if theirs.aggregate is not None:
        r = abs(outcome.aggregate - theirs.aggregate.value)
        residual += r
        bad += not theirs.aggregate.matches(outcome.aggregate)
    return _Fit(bad, residual)


@dataclass
class _Search:
    p: Prepared
    m: Measure
    theirs: Theirs
    evaluations: int = 0
    cache: dict = field(default_factory=dict)

    def run(self, changes: tuple[Change, ...]) -> tuple[Outcome, _Fit] | None:
        key = tuple(sorted(str(c) for c in changes))
        if key in self.cache:
            return self.cache[key]
        if self.evaluations >= MAX_EVALUATIONS:
            return None
        self.evaluations += 1
        try:
            outcome = evaluate_under(self.p, self.m, [c.option for c in changes])
        except ValueError:
            result = None
        else:
            result = (outcome, _fit(outcome, self.theirs))
        self.cache[key] = result
        return result


def search(p: Prepared, m: Measure, theirs: Theirs) -> tuple[list[tuple[Change, ...]], tuple[Change, ...], int,
                                                                    list[str]]:
    """The convention sets that reproduce ``theirs`` (the smallest found), the closest set
    when none does, the number of sets evaluated, and notes on the rows skipped.

    Bounded: the default; each change alone; pairs among the :data:`MAX_PAIRED` best single
    changes; then from the best set so far, add the change that improves the fit most, up to
    :data:`MAX_CHANGES` changes; at most :data:`MAX_EVALUATIONS` sets in all. The fit is
    (numbers not reproduced, sum of absolute residuals), smaller is better.
    """
    changes, notes = applicable(p, m)
    s = _Search(p, m, theirs)
    base = s.run(())
    if base is not None and base[1].mismatched == 0:
        return [()], (), s.evaluations, notes

    def rank(sets):
        scored = [(r[1].key(), len(c), c) for c in sets if (r := s.run(c)) is not None]
        return sorted(scored, key=lambda t: (t[0], t[1]))

    singles = rank([(c,) for c in changes])
    hits = [c for key, _, c in singles if key[0] == 0]
    if hits:
        return hits, hits[0], s.evaluations, notes
    promising = [c[0] for key, _, c in singles][:MAX_PAIRED]
    pairs = [(a, b) for a, b in itertools.combinations(promising, 2) if a.convention.key != b.convention.key]
    ranked = rank(pairs)
    hits = [c for key, _, c in ranked if key[0] == 0]
    if hits:
        return hits, hits[0], s.evaluations, notes
    every = ranked + singles + [((base[1].key() if base else (10**9, 0.0)), 0, ())]
    best_key, _, best = min(every, key=lambda t: (t[0], t[1]))
    while len(best) < MAX_CHANGES:
        used = {c.convention.key for c in best}
        options = [tuple(best) + (c,) for c in changes if c.convention.key not in used]
        step = rank(options)
        if not step or step[0][0] >= best_key:
            break
        best_key, _, best = step[0]
        if best_key[0] == 0:
            return [best], best, s.evaluations, notes
    return [], best, s.evaluations, notes


# --------------------------------------------------------------------------- the verdict

@dataclass(frozen=True)
class QueryRow:
    """One query: Ranklab's default value, theirs (if given), the value under the conventions
    found, the residual (theirs - found), whether it matches, and the changes that moved it."""

    qid: str
    ours: float | None
    theirs: Number | None
    found: float | None
    moved_by: tuple[str, ...]

    @property
    def residual(self) -> float | None:
        if self.theirs is None or self.found is None:
            return None
        return self.theirs.value - self.found

    @property
    def matches(self) -> bool | None:
        if self.theirs is None:
            return None
        return self.found is not None and self.theirs.matches(self.found)


@dataclass(frozen=True)
class Diagnosis:
    """The verdict: the measure, the changes found (from trec_eval's defaults), whether they
    reproduce their numbers, other sets that do as well, per-query rows, and notes."""

    measure: str
    tool: str | None
    matched: bool
    changes: tuple[Change, ...]
    alternatives: tuple[tuple[Change, ...], ...]
    baseline: Outcome
    found: Outcome
    theirs: Theirs | None
    rows: tuple[QueryRow, ...]
    evaluations: int
    notes: tuple[str, ...]

    @property
    def rounding(self) -> float | None:
        """The widest printed precision a match needed (their numbers rounded), or None when
        every number matched exactly.

        >>> d = diagnose({"q": {"a": 1, "b": 1, "c": 1}}, {"q": ["a", "x", "b"]}, "AP",
        ...              theirs=Theirs(aggregate=number("0.5556")))  # (1 + 2/3) / 3 = 0.55555...
        >>> d.rounding, d.verdict
        (5e-05, "Ranklab's default conventions (trec_eval's) already reproduce their numbers, within the precision they were printed with (±5e-05).")
        """
        if self.theirs is None or not self.matched:
            return None
        pairs = [(n, self.found.per_query.get(q)) for q, n in self.theirs.per_query.items()]
        if self.theirs.aggregate is not None:
            pairs.append((self.theirs.aggregate, self.found.aggregate))
        needed = [n.tolerance for n, x in pairs if x is not None and abs(x - n.value) > EXACT]
        return max(needed) if needed else None

    @property
    def verdict(self) -> str:
        """One plain sentence."""
        def names(changes):
            return "; ".join(f"{c.convention.title}: {c.option.label}" for c in changes)

        if self.tool is not None and self.theirs is None:
            moving = {name for r in self.rows for name in r.moved_by}
            effective = [c for c in self.changes if str(c) in moving]
            idle = [c for c in self.changes if str(c) not in moving]
            if not effective:
                text = f"{self.tool} gives the same {self.measure} as Ranklab's default (trec_eval) on this input."
            else:
                text = f"{self.tool} differs from trec_eval here through {names(effective)}."
            if idle:
                text += f" It also uses {names(idle)} (no effect on this input)."
            return text
        rounded = self.rounding
        within = f", within the precision they were printed with (±{rounded:g})" if rounded else ""
        if self.matched and not self.changes:
            return f"Ranklab's default conventions (trec_eval's) already reproduce their numbers{within}."
        if self.matched:
            others = len(self.alternatives) - 1
            more = f" ({others} other set{'s' if others > 1 else ''} reproduce{'' if others > 1 else 's'} them too)" \
                if others else ""
            return f"Reproduced with {names(self.changes)}{more}{within}."
        text = "No set of conventions tried reproduces their numbers. Closest: " + (names(self.changes) or
                                                                                    "the defaults") + "."
        if self.theirs.aggregate is not None:
            residual = self.theirs.aggregate.value - self.found.aggregate
            text += f" Their aggregate minus the closest: {residual:+.4g}."
        if self.theirs.per_query:
            differ = sum(1 for r in self.rows if r.matches is False)
            text += f" {differ} of {len(self.theirs.per_query)} per-query values still differ."
        return text


def diagnose(qrels, run, measure, *, theirs: Theirs | None = None, tool: str | None = None,
             prepared: Prepared | None = None) -> Diagnosis:
    """Find the conventions behind another tool's numbers, or show a named tool's conventions.

    Parameters
    ----------
    qrels, run
        As for :func:`prepare` (ignored when ``prepared`` is given).
    measure : str or Measure
    theirs : Theirs, optional
        Their numbers: per-query values and/or the aggregate.
    tool : str, optional
        A name of :data:`TOOLS`: without ``theirs``, the tool's conventions are applied and
        every query the tool would score differently is listed with the conventions that
        move it; with ``theirs``, the search starts as usual and the tool is only named.

    Examples
    --------
    beir#91, in small: with ``ignore_identical_ids`` BEIR drops the document whose id is the
    query id. Query ``q1`` retrieves itself first, then its relevant document ``a``:
    RR = 1/2 for trec_eval, 1 for BEIR.

    >>> d = diagnose({"q1": {"a": 1}}, {"q1": ["q1", "a"]}, "RR", tool="BEIR")
    >>> d.verdict.split(" (BEIR")[0]
    'BEIR differs from trec_eval here through documents whose id is the query id: ignored'
    >>> [(r.qid, r.ours, r.found, r.moved_by) for r in d.rows]
    [('q1', 0.5, 1.0, ('identical=ignored',))]
    """
    m = parse(measure)
    if m.name not in BATCH_FAMILIES:
        raise ValueError(f"measure: cannot diagnose {m}")
    p = prepared if prepared is not None else prepare(qrels, run)
    name = None
    if tool is not None:
        name = tool_name(tool)
        if name is None:
            raise ValueError(f"tool must be one of {', '.join(TOOLS)}, got {str(tool)[:40]!r}")
    baseline = evaluate_under(p, m, [])
    if theirs is None:
        if name is None:
            raise ValueError("give their numbers or a tool name")
        return _tool_diagnosis(p, m, name, baseline)
    if theirs.empty:
        raise ValueError("their numbers are empty")
    sets, best, evaluations, notes = search(p, m, theirs)
    found = evaluate_under(p, m, [c.option for c in best])
    rows = _rows_of(p, m, best, baseline, found, theirs)
    return Diagnosis(str(m), name, bool(sets), tuple(best), tuple(sets), baseline, found, theirs, rows,
                     evaluations, tuple(notes))


def _tool_diagnosis(p: Prepared, m: Measure, name: str, baseline: Outcome) -> Diagnosis:
    changes, notes = [], []
    for key, value in TOOLS[name]:
        if isinstance(value, Mapping):  # a rule that depends on the measure
            value = value.get(m.name, value["*"])
        c = _ROWS[key]
        if c.families is not None and m.name not in c.families:
            continue
        option = next(o for o in c.options if o.value == value)
        why = available(option)
        if why:
            notes.append(f"{name} uses {c.title} — {option.label}: {why}; its numbers can differ on tied "
                         "scores" if key == "ties" else f"{name} uses {option.label}: {why}")
            continue
        changes.append(Change(c, option))
    if name in TOOL_NOTES:
        notes.append(TOOL_NOTES[name])
    found = evaluate_under(p, m, [c.option for c in changes])
    rows = _rows_of(p, m, tuple(changes), baseline, found, None)
    return Diagnosis(str(m), name, True, tuple(changes), (tuple(changes),), baseline, found, None, rows, 1 + len(changes),
                     tuple(notes))


def _rows_of(p, m, changes, baseline: Outcome, found: Outcome, theirs: Theirs | None) -> tuple[QueryRow, ...]:
    """Per query: which change moved the value (leave each change out: did the value move?)."""
    without = {}
    for c in changes:
        rest = [x.option for x in changes if x is not c]
        try:
            without[str(c)] = evaluate_under(p, m, rest).per_query
        except ValueError:
            without[str(c)] = {}
    qids = list(found.per_query) + [q for q in baseline.per_query if q not in found.per_query]
    if theirs is not None:
        qids += [q for q in theirs.per_query if q not in found.per_query and q not in baseline.per_query]
    rows = []
    for qid in qids:
        mine, new = baseline.per_query.get(qid), found.per_query.get(qid)
        moved = tuple(name for name, values in without.items() if values.get(qid) != new)
        their = theirs.per_query.get(qid) if theirs is not None else None
        if theirs is None and mine == new:
            continue  # a tool's view lists the queries it scores differently
        rows.append(QueryRow(qid, mine, their, new, moved if mine != new else ()))
    return tuple(rows)


def explain_convention(key: str) -> Convention:
    """The row called ``key`` (ValueError listing the rows otherwise)."""
    try:
        return _ROWS[key]
    except KeyError:
        raise ValueError(f"convention must be one of {', '.join(_ROWS)}, got {key!r}") from None


def to_dict(d: Diagnosis) -> dict:
    """A diagnosis as plain JSON-ready data (``ranklab diagnose --format json``)."""
    def change(c: Change) -> dict:
        return {"convention": c.convention.key, "value": c.option.value, "title": c.convention.title,
                "label": c.option.label, "why": c.explanation}

    def num(n: Number | None):
        return None if n is None else {"value": n.value, "printed": n.text, "tolerance": n.tolerance}

    return {
        "measure": d.measure, "tool": d.tool, "verdict": d.verdict, "reproduced": d.matched if d.theirs else None,
        "changes": [change(c) for c in d.changes],
        "alternatives": [[change(c) for c in alt] for alt in d.alternatives[1:]],
        "aggregate": {"ranklab": d.baseline.aggregate, "found": d.found.aggregate,
                      "theirs": num(d.theirs.aggregate) if d.theirs else None},
        "per_query": [{"query": r.qid, "ranklab": r.ours, "theirs": num(r.theirs), "found": r.found,
                       "residual": r.residual, "matches": r.matches, "moved_by": list(r.moved_by)}
                      for r in d.rows],
        "evaluations": d.evaluations, "notes": list(d.notes),
    }
