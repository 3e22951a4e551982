"""The public entry points: ``score``, ``explain``, ``evaluate``."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace

import numpy as np

from . import _check
from .explain import Explanation
from .io.prefs import prefs_from_dict
from .measures import Measure, at_trec_eval, parse, parse_many
from .ranking import Query, preferences, trace
from .ranking.inferred import geometric_log

__all__ = ["score", "explain", "explain_many", "evaluate", "counted_as_zero", "Evaluation", "prepare"]

MISSING = ("skip", "zero")


def prepare(ranking, judgments, *, ties: str = "docid-desc", depth: int | None = None,
            judged_only: bool = False, trec_eval: str = "9.0.8") -> Query:
    """Validate a ranking and its judgments once, for several measures.

    ``depth`` keeps only the first ``depth`` documents (trec_eval ``-M``); then
    ``judged_only`` drops every document without a grade >= 0 (trec_eval ``-J``: the
    condensed list, ranks closing up). ``trec_eval`` is the version whose score comparison
    is followed ('9.0.8': as float32, the default; '10.0': as doubles).

    >>> q = prepare({"a": 0.5, "b": 0.9, "c": 0.5}, {"a": 2}, depth=2)
    >>> q.docs  # b (0.9) first, then the tie a/c broken by doc id descending: c
    ['b', 'c']
    """
    docs = _check.ranking(ranking, "ranking", ties=ties, trec_eval=trec_eval)
    depth = _check.positive_int(depth, "depth")
    groups = _tie_groups(ranking, docs, trec_eval) if ties in ("average", "threshold") else None
    if depth is not None:
        docs = docs[:depth]
        groups = None if groups is None else groups[:depth]
    if _check.is_subtopic_judgments(judgments):
        grades, subtopics = _check.subtopic_judgments(judgments)
    else:
        grades, subtopics = _check.judgments(judgments), None
    if judged_only:
        keep = [i for i, d in enumerate(docs) if grades.get(d, -1) >= 0]
        docs = [docs[i] for i in keep]
        groups = None if groups is None else groups[np.asarray(keep, dtype=np.int64)]
    return Query(docs, grades, subtopics, ties, groups)


def _tie_groups(ranking, docs: list[str], trec_eval: str = "9.0.8") -> np.ndarray | None:
    """Tie group of each rank (0, 0, 1, ...) for a mapping of scores; None for a list.
    Scores are compared as ``trec_eval`` compares them (9.0.8: as float32)."""
    if not isinstance(ranking, Mapping):
        return None
    cast = _check.as_float32 if trec_eval == "9.0.8" else float
    scores = {str(d): cast(float(s)) for d, s in ranking.items()}
    s = np.fromiter((scores[d] for d in docs), dtype=np.float64, count=len(docs))
    return np.cumsum(np.r_[0, s[1:] != s[:-1]]) if len(docs) else np.zeros(0, dtype=np.int64)


def explain(measure: str | Measure, ranking, judgments, *, ties: str = "docid-desc",
            trec_eval: str = "9.0.8") -> Explanation:
    """Compute a measure step by step.

    Parameters
    ----------
    measure : str or Measure
        In ir_measures notation (``"nDCG@3"``, ``"AP(denominator='retrieved')"``) or a
        trec_eval name (``"ndcg_cut_3"``).
    ranking : list of doc ids (best first), or mapping doc id -> score
        A mapping is ordered as trec_eval orders a run: score descending, ties by doc id
        descending (``ties='docid-asc'`` or ``'input'`` to choose otherwise).
        ``ties='average'`` (McSherry & Najork 2008) scores the mean over every order of
        tied documents (P, R, NumRelRet, CG, DCG, nDCG, AP, RR, RBP, Judged; sklearn's
        ``ndcg_score`` and ``dcg_score``); ``ties='threshold'`` (AP only) counts a tie
        group all at once, at its last rank (sklearn's ``average_precision_score``).
    judgments : mapping doc id -> int grade
        Documents absent from it are unjudged (not relevant); judged documents absent
        from the ranking still count toward R and the ideal ordering. Grade -1 means
        pooled but never judged: not relevant, and not judged for Bpref. For
        ``alpha_nDCG``, doc id -> {subtopic: grade}; the other measures then read each
        document's best grade. For the ``prefs_*`` measures, either such a mapping (read as
        trec_eval's ``qrels_prefs``: one judgment group) or a list of ``(jg, jsg, doc,
        level)`` preference lines (trec_eval's ``prefs`` format; trec_eval orders the run by
        score then doc id ascending for them: ``ties='docid-asc'``).

    Returns
    -------
    Explanation
        ``.value`` (equal to :func:`score`), ``.steps``/``.columns`` (one row per rank up
        to the cutoff), ``.formula`` (LaTeX with the numbers in it) and ``.to_frame()``.

    An empty ranking scores 0 on every measure (NumRel still counts R); empty judgments
    make R = 0, and every measure that divides by R or by the ideal DCG is then 0.

    Examples
    --------
    The Pinecone notebook's cat in the box: eight results, relevant at ranks 2, 4, 5 and 7.

    >>> ranking = ["1", "2", "3", "4", "5", "6", "7", "8"]
    >>> cats = {"2": 1, "4": 1, "5": 1, "7": 1}
    >>> e = explain("AP", ranking, cats)
    >>> [round(p, 4) for p, hit in zip(e.columns["precision"], e.columns["relevant"]) if hit]
    [0.5, 0.5, 0.6, 0.5714]
    >>> round(e.value, 4)  # (1/2 + 2/4 + 3/5 + 4/7) / 4 = 2.1714 / 4
    0.5429
    >>> print(explain("P@2", ranking, cats).formula)
    \\mathrm{P}@2 = \\frac{\\text{relevant in top 2}}{2} = \\frac{1}{2} = 0.5
    """
    m = parse(measure)
    if m.name in preferences.PREF_FAMILIES and isinstance(judgments, list | tuple):
        # preference judgments: (jg, jsg, doc, level) lines, several groups and sub-groups
        lines = prefs_from_dict({"judgments": list(judgments)}).queries["judgments"]
        docs = _check.ranking(ranking, "ranking", ties=ties, trec_eval=trec_eval)
        return preferences.explain_counts(m, preferences.count(docs, lines))
    q = prepare(ranking, judgments, ties=ties, trec_eval=trec_eval)
    return trace(at_trec_eval([m], trec_eval)[0], q)


def explain_many(measures, ranking, judgments, *, ties: str = "docid-desc") -> dict[str, Explanation]:
    """Explain several measures on one ranking, validating the inputs once.

    >>> es = explain_many("P@2 RR", ["a", "b", "c"], {"b": 1})
    >>> {m: e.value for m, e in es.items()}
    {'P@2': 0.5, 'RR': 0.5}
    """
    ms = parse_many(measures)
    q = prepare(ranking, judgments, ties=ties)
    return {str(m): trace(m, q) for m in ms}


def score(measure: str | Measure, ranking, judgments, *, ties: str = "docid-desc",
          trec_eval: str = "9.0.8") -> float:
    """The value of one measure on one ranking (see :func:`explain` for the arguments).

    Examples
    --------
    Grades 3, 2, 3, 0, 1, 2 retrieved; two more documents graded 3 and 2 judged but not
    retrieved. DCG@6 = 3 + 2/log2(3) + 3/2 + 0 + 1/log2(6) + 2/log2(7) = 6.861:

    >>> judged = {"d1": 3, "d2": 2, "d3": 3, "d4": 0, "d5": 1, "d6": 2, "x": 3, "y": 2}
    >>> run = ["d1", "d2", "d3", "d4", "d5", "d6"]
    >>> round(score("DCG@6", run, judged), 3), round(score("nDCG@6", run, judged), 3)
    (6.861, 0.785)
    >>> round(score("nDCG(ideal='ranking')@6", run, judged), 3)  # ideal from the list only
    0.961

    A mapping of scores is ordered as trec_eval orders it; ties go to the larger doc id:

    >>> score("RR", {"a": 1.0, "b": 1.0}, {"a": 1})  # b ranks first, a second
    0.5
    >>> score("RR", {"a": 1.0, "b": 1.0}, {"a": 1}, ties="average")  # (1/1 + 1/2) / 2
    0.75

    trec_eval 9.0.8 stores scores as float32, where 1.000000001 equals 1.0: a tie again.
    trec_eval 10.0 compares doubles:

    >>> run = {"a": 1.000000001, "b": 1.0}
    >>> score("RR", run, {"a": 1}), score("RR", run, {"a": 1}, trec_eval="10.0")
    (0.5, 1.0)
    """
    return explain(measure, ranking, judgments, ties=ties, trec_eval=trec_eval).value


@dataclass(frozen=True)
class Evaluation:
    """Per-query and aggregate values of several measures.

    ``aggregate[m]`` is the mean over the evaluated queries (the sum for the counts
    NumRet, NumRel, NumRelRet and NumQ, as trec_eval's ``all`` line); ``per_query[qid][m]``
    the value for one query. Keys are canonical measure strings.
    """

    measures: list[str]
    aggregate: dict[str, float]
    per_query: dict[str, dict[str, float]]
    missing_from_run: list[str] = field(default_factory=list)
    missing_from_qrels: list[str] = field(default_factory=list)

    @property
    def warnings(self) -> list[str]:
        """Human-readable notes about queries that did not match between qrels and run."""
        out = []
        for ids, what in ((self.missing_from_run, "judged but absent from the run"),
                          (self.missing_from_qrels, "in the run but not judged (ignored)")):
            if ids:
                shown = ", ".join(ids[:5]) + (", ..." if len(ids) > 5 else "")
                out.append(f"{len(ids)} quer{'y' if len(ids) == 1 else 'ies'} {what}: {shown}")
        return out

    # Jupyter's display protocol (metrics.display): a table of queries by measures
    def _repr_html_(self) -> str:
        from .display import evaluation_html
        return evaluation_html(self)

    def _repr_markdown_(self) -> str:
        from .display import evaluation_markdown
        return evaluation_markdown(self)


def aggregate(measures: list[Measure], per_query: Mapping[str, Mapping[str, float]]) -> dict[str, float]:
    """Mean (or, for counts, sum) over queries, in query order, as trec_eval accumulates."""
    out = {}
    n = len(per_query)
    for m in measures:
        key = str(m)
        total = 0.0
        for values in per_query.values():
            total += values[key]
        if m.family.aggregate == "gmean":  # GMAP, GMBpref: per-query logs, exp of the mean
            out[key] = math.exp(total / n) if n else 0.0
        else:
            out[key] = total if m.family.aggregate == "sum" else (total / n if n else 0.0)
    return out


def never_scored(m: Measure) -> float | None:
    """What a query that trec_eval 9.0.8's ``-c`` never scores adds to ``m``'s sum: 0, the log
    of 10^-5 for a geometric mean, and None for NumQ and NumRel, which keep their values
    (trec_eval's summary counts every judged query, and recounts the relevant documents of the
    whole qrels: m_num_q.c, m_num_rel.c)."""
    if m.name in ("NumQ", "NumRel"):
        return None
    return geometric_log(0.0) if m.family.aggregate == "gmean" else 0.0


def counted_as_zero(e: Evaluation, measures, absent, trec_eval: str = "9.0.8") -> Evaluation:
    """trec_eval 9.0.8's ``-c``: a judged query missing from the run is never scored; it adds 0
    to every sum (log 10^-5 to GMAP's and GMBpref's logs) and counts in the means, in NumQ and in
    NumRel. 10.0, like ``missing="zero"`` without this, scores it as an empty ranking, so only
    measures that are not 0 on an empty ranking differ (Utility -c*R, YAAP, the preference
    counts). Identity under "10.0".

    Utility with c = -1: a scores 1; b, an empty ranking, -1 * R = -1 in 10.0 and 0 in 9.0.8.

    >>> qrels, run = {"a": {"d1": 1}, "b": {"e1": 1}}, {"a": ["d1"]}
    >>> e = evaluate(qrels, run, "Utility(c=-1)", missing="zero", trec_eval="10.0")
    >>> e.aggregate["Utility(c=-1)"], counted_as_zero(e, "Utility(c=-1)", ["b"]).aggregate["Utility(c=-1)"]
    (0.0, 0.5)
    """
    if trec_eval != "9.0.8" or not absent:
        return e
    ms = parse_many(measures) if not isinstance(measures, Measure) else [measures]
    zero = {str(m): value for m in ms if (value := never_scored(m)) is not None}
    per_query = {qid: (values | zero if qid in absent else values) for qid, values in e.per_query.items()}
    return replace(e, per_query=per_query, aggregate=aggregate(ms, per_query))


def evaluate(qrels, run, measures, *, missing: str = "skip", depth: int | None = None,
             ties: str = "docid-desc", judged_only: bool = False, trec_eval: str = "9.0.8") -> Evaluation:
    """Evaluate a run against qrels, per query and on average.

    Parameters
    ----------
    qrels : mapping qid -> mapping doc id -> int grade
    run : mapping qid -> (mapping doc id -> score, or list of doc ids best first)
    measures : str or list
        ``"P@5 nDCG@10"`` or ``["P@5", "nDCG@10"]``.
    missing : {"skip", "zero"}
        What to do with a query judged in ``qrels`` but absent from ``run``: ``"skip"`` it
        (trec_eval 9.0.8, the default) or score it as an empty ranking, 0 (trec_eval ``-c``).
        Queries in the run but not in the qrels are always ignored.
    depth : int, optional
        Keep only the first ``depth`` documents of each ranking (trec_eval ``-M``).
    judged_only : bool
        Drop the documents without a grade >= 0 before scoring (trec_eval ``-J``).
    trec_eval : {"9.0.8", "10.0"}
        The version to follow, as ``ranklab evaluate --trec-eval-version``: 9.0.8 (the default)
        compares scores as float32, cuts IPrec and 11pt at floor(r R + 0.9) and, with
        ``missing="zero"``, counts a missing query as 0 without scoring it
        (:func:`counted_as_zero`); 10.0 compares doubles, uses lround(r R) and scores a
        missing query as an empty ranking.

    Examples
    --------
    The Pinecone notebook's three queries (relevant ranks 2, 4, 5, 7 / 1, 4, 5, 7 / 5, 8):

    >>> run = {q: [str(i) for i in range(1, 9)] for q in ("q1", "q2", "q3")}
    >>> qrels = {"q1": dict.fromkeys(["2", "4", "5", "7"], 1),
    ...          "q2": dict.fromkeys(["1", "4", "5", "7"], 1),
    ...          "q3": dict.fromkeys(["5", "8"], 1)}
    >>> e = evaluate(qrels, run, "RR AP")
    >>> round(e.aggregate["RR"], 4)  # (1/2 + 1/1 + 1/5) / 3
    0.5667
    >>> round(e.aggregate["AP"], 4)  # (0.5429 + 0.6679 + 0.225) / 3
    0.4786
    """
    ms = parse_many(measures) if not isinstance(measures, Measure) else [measures]
    _check.choice(missing, "missing", MISSING)
    depth = _check.positive_int(depth, "depth")
    if not isinstance(qrels, Mapping):
        raise TypeError(f"qrels must be a mapping qid -> {{doc: grade}}, got {type(qrels).__name__}")
    if not isinstance(run, Mapping):
        raise TypeError(f"run must be a mapping qid -> ranking, got {type(run).__name__}")
    run_ids = _check.query_ids(run, "run")
    qrels_ids = _check.query_ids(qrels, "qrels")
    per_query: dict[str, dict[str, float]] = {}
    missing_from_run = []
    computed = at_trec_eval(ms, trec_eval)
    absent = []
    for qid, raw_qid in qrels_ids.items():
        judged = qrels[raw_qid]
        if qid in run_ids:
            ranking = run[run_ids[qid]]
        elif missing == "zero":
            ranking = []
            absent.append(qid)
        else:
            missing_from_run.append(qid)
            continue
        try:
            q = prepare(ranking, judged, ties=ties, depth=depth, judged_only=judged_only, trec_eval=trec_eval)
        except (TypeError, ValueError) as err:
            raise type(err)(f"query {qid}: {err}") from None
        per_query[qid] = {str(m): trace(c, q).value for m, c in zip(ms, computed, strict=True)}
    missing_from_qrels = [q for q in run_ids if q not in qrels_ids]
    e = Evaluation([str(m) for m in ms], aggregate(ms, per_query), per_query, missing_from_run, missing_from_qrels)
    return counted_as_zero(e, ms, absent, trec_eval)


def scores_over_k(measure: str | Measure, ranking, judgments, ks: Iterable[int] | None = None,
                  *, ties: str = "docid-desc") -> list[float]:
    """The measure's value at each cutoff k (1..len(ranking) by default), for curves.

    >>> scores_over_k("P", list("abcd"), {"b": 1, "d": 1})
    [0.0, 0.5, 0.3333333333333333, 0.5]
    """
    m = parse(measure)
    q = prepare(ranking, judgments, ties=ties)
    ks = range(1, len(q.docs) + 1) if ks is None else ks
    return [trace(m.with_cutoff(k), q).value for k in ks]
