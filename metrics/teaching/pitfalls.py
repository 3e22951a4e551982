"""The pitfall gallery: one small example per classic mistake, wrong and right side by side.

Each function returns a :class:`Pitfall`: a title, what goes wrong, why, the example's
inputs, and :class:`Outcome` rows — the wrong computations (reproduced by small mistaken
kernels, or the error they raise) next to the right value computed by :mod:`metrics`.
:data:`GALLERY` lists them in the order the page shows them.

>>> p = p_at_k_short()
>>> [(o.label, o.value) for o in p.outcomes]
[('P@5, trec_eval: divide by k = 5', 0.4), ('divided by the 2 documents retrieved in the top 5', 1.0)]
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from decimal import ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal

import numpy as np

from .. import core
from .._i18n import N_, _
from ..measures import parse
from ..ranking.dcg import discounts

__all__ = ["Pitfall", "Outcome", "GALLERY", "ndcg_above_one", "ties", "nothing_relevant", "p_at_k_short",
           "ap_denominators", "relevance_level", "rounding", "course_lab_ndcg", "ndcg_falling",
           "course_lab_ndcg_as_written", "course_lab_ndcg_patched"]


@dataclass(frozen=True)
class Outcome:
    """One computation of the example: ``value`` (None when it raised ``error``) and
    ``right`` (True for the trec_eval-correct value, False for a mistake, None for a
    legitimate alternative convention)."""

    label: str
    value: float | None
    right: bool | None
    note: str = ""
    error: str | None = None


@dataclass(frozen=True)
class Pitfall:
    key: str
    title: str
    what: str
    why: str
    example: dict
    outcomes: tuple[Outcome, ...] = field(default_factory=tuple)


def _dcg(gains) -> float:
    """Plain DCG of a gain list, log2(i + 1) discount (used only inside mistaken kernels)."""
    return float(sum(g / d for g, d in zip(gains, discounts(len(gains), "log2").tolist(), strict=True)))


# --------------------------------------------------------------------------- nDCG above 1

def ndcg_above_one() -> Pitfall:
    """Three ways to get nDCG above 1 — each divides by an ideal that is not the ideal.

    Judgments a = 2, b = 1, c = 1; the ranking a, b, c is already ideal, so nDCG = 1.
    Ideal from the grade-2 documents only: (2 + 1/log2 3 + 1/2) / 2 = 1.5655. Document a
    listed twice: (2 + 2/log2 3 + 1/2) / (2 + 1/log2 3 + 1/2) = 1.2015. 2^g - 1 gains over a
    linear ideal: (3 + 1/log2 3 + 1/2) / (2 + 1/log2 3 + 1/2) = 1.3194.

    >>> outcomes = ndcg_above_one().outcomes
    >>> [round(o.value, 4) for o in outcomes if o.value is not None]
    [1.0, 1.5655, 1.2015, 1.3194]
    >>> print(outcomes[3].error)  # Ranklab refuses the duplicate, as trec_eval does
    ranking: document 'a' appears twice (ranks 1 and 2)
    """
    judged = {"a": 2, "b": 1, "c": 1}
    ranking = ["a", "b", "c"]
    grades = [judged[d] for d in ranking]
    right = core.score("nDCG", ranking, judged)
    wrong_set = _dcg(grades) / _dcg(sorted((g for g in judged.values() if g >= 2), reverse=True))
    dup = ["a", "a", "b", "c"]
    dup_value = _dcg([judged[d] for d in dup[:3]]) / _dcg(sorted(judged.values(), reverse=True))
    try:
        core.score("nDCG@3", dup, judged)
        dup_error = None
    except ValueError as err:
        dup_error = str(err)
    mixed = _dcg([2**g - 1 for g in grades]) / _dcg(sorted(judged.values(), reverse=True))
    return Pitfall(
        "ndcg_above_one", N_("nDCG above 1"),
        N_("nDCG is DCG divided by the best DCG possible, so it can never exceed 1 — yet hand-rolled "
        "code often reports 1.2 or 1.5."),
        N_("The ideal must be built from the same documents, with the same gains, as the DCG: every "
        "judged document (not a subset), each document once, one gain scale for both."),
        {"ranking": ranking, "judgments": judged},
        (Outcome(N_("nDCG, ideal from every judged document (trec_eval)"), right, True),
         Outcome(N_("ideal from the grade-2 documents only (the wrong set)"), wrong_set, False,
                 N_("the grade-1 documents add to DCG but not to the ideal")),
         Outcome(N_("document a counted twice: a, a, b (nDCG@3)"), dup_value, False,
                 N_("a duplicate earns its gain twice; the ideal has it once")),
         Outcome(N_("Ranklab on the duplicated ranking"), None, True, N_("duplicates are an error, as in trec_eval"),
                 dup_error),
         Outcome(N_("2^g - 1 gains in DCG, linear gains in the ideal (scales mixed)"), mixed, False,
                 N_("a grade 2 is worth 3 above the line and 2 below it"))),
    )


# --------------------------------------------------------------------------- ties

def ties() -> Pitfall:
    """Tied scores: the order, hence RR, depends on the tie-breaking rule.

    Scores a = 1.0, b = 1.0, c = 0.5; only a is relevant. trec_eval breaks ties by doc id
    descending: b, a, c, so RR = 1/2; by doc id ascending (or file order) a comes first: RR = 1.

    >>> [o.value for o in ties().outcomes]
    [0.5, 1.0, 1.0]
    """
    run = {"a": 1.0, "b": 1.0, "c": 0.5}
    judged = {"a": 1}
    out = []
    for how, label, right in (("docid-desc", N_("trec_eval: ties by doc id descending → b, a, c"), True),
                              ("docid-asc", N_("ties by doc id ascending → a, b, c"), None),
                              ("input", N_("file order (ranx, for a few documents) → a, b, c"), None)):
        out.append(Outcome(_("RR, {label}").format(label=_(label)), core.score("RR", run, judged, ties=how), right))
    return Pitfall(
        "ties", N_("Score ties and trec_eval's tie-breaking"),
        N_("Two documents with the same score: which one is rank 1? Different tools answer differently, "
        "and every rank-aware measure changes with the answer."),
        N_("trec_eval ignores the rank column and sorts by score, breaking ties by document id in "
        "descending order. Give distinct scores if the order matters to you."),
        {N_("run (doc: score)"): run, "judgments": judged}, tuple(out))


# --------------------------------------------------------------------------- nothing relevant

def nothing_relevant() -> Pitfall:
    """A query with nothing relevant: the textbook formulas divide 0 by 0.

    q1 has one relevant document at rank 1 (AP = 1); q2 has none. trec_eval scores q2 as 0,
    so MAP = (1 + 0) / 2 = 0.5; leaving q2 out gives 1.

    >>> [o.value for o in nothing_relevant().outcomes]
    [nan, 0.0, 0.5, 1.0]
    """
    qrels = {"q1": {"a": 1}, "q2": {"a": 0, "b": 0}}
    run = {"q1": ["a", "b"], "q2": ["a", "b"]}
    with np.errstate(invalid="ignore", divide="ignore"):
        naive = float(np.float64(0.0) / np.float64(0))  # sum of precisions / R with R = 0
    e = core.evaluate(qrels, run, "AP")
    skipped = core.evaluate({"q1": qrels["q1"]}, run, "AP")
    return Pitfall(
        "nothing_relevant", N_("Queries with nothing relevant (0/0)"),
        N_("AP divides by R and nDCG by the ideal DCG; with nothing relevant both are 0/0."),
        N_("trec_eval defines the value as 0 and keeps the query in the mean, which pulls MAP down; "
        "dropping such queries makes a system look better. Say which you do."),
        {"qrels": qrels, "run": run},
        (Outcome(N_("AP of q2 by the formula: 0 / R with R = 0"), naive, False, N_("not a number")),
         Outcome(N_("AP of q2, trec_eval"), e.per_query["q2"]["AP"], True),
         Outcome(N_("MAP over q1 and q2 (q2 counts as 0)"), e.aggregate["AP"], True),
         Outcome(N_("MAP with q2 left out"), skipped.aggregate["AP"], None, N_("a different question"))),
    )


# --------------------------------------------------------------------------- P@k, fewer than k

def p_at_k_short(k: int = 5) -> Pitfall:
    """Two documents retrieved, both relevant: P@5 = 2/5 (trec_eval), not 2/2.

    >>> [o.value for o in p_at_k_short(4).outcomes]
    [0.5, 1.0]
    """
    if isinstance(k, bool) or not isinstance(k, int) or not 1 <= k <= 1000:
        raise ValueError(f"k must be an integer from 1 to 1000, got {k!r}")
    ranking, judged = ["a", "b"], {"a": 1, "b": 1}
    right = core.score(f"P@{k}", ranking, judged)
    hits = core.explain(f"P@{k}", ranking, judged).summary["hits"]
    return Pitfall(
        "p_at_k_short", N_("P@k with fewer than k results"),
        N_("A system that returns only 2 documents, both relevant: is P@5 0.4 or 1?"),
        N_("trec_eval divides by k: the 3 empty slots count as misses, so returning less is not "
        "rewarded. Some libraries divide by the number retrieved (torchmetrics adaptive_k, Evidently)."),
        {"ranking": ranking, "judgments": judged},
        (Outcome(_("{measure}, trec_eval: divide by k = {k}").format(measure=f"P@{k}", k=k), right, True),
         Outcome(_("divided by the {n} documents retrieved in the top {k}").format(n=min(k, len(ranking)), k=k),
                 hits / min(k, len(ranking)), None)),
    )


# --------------------------------------------------------------------------- AP denominators

def ap_denominators() -> Pitfall:
    """R = 4, relevant at ranks 1 and 3 of 5 (docs/measures-and-conventions.md, the reference tools
    question by question). AP@3 = (1 + 2/3) / 4, / 2, / 3.

    >>> [round(o.value, 4) for o in ap_denominators().outcomes]
    [0.4167, 0.8333, 0.5556]
    """
    ranking = ["a", "n", "b", "x", "y"]
    judged = {"a": 1, "b": 1, "c": 1, "d": 1, "n": 0}
    rows = (("AP@3", N_("divide by R = 4 (trec_eval map_cut_3)"), True),
            ("AP(denominator='retrieved')@3", N_("divide by the 2 relevant retrieved (sklearn)"), None),
            ("AP(denominator='min(k,R)')@3", N_("divide by min(k, R) = 3 (Spark, recommenders)"), None))
    return Pitfall(
        "ap_denominators", N_("The three AP denominators"),
        N_("The same ranking gets AP@3 = 0.42, 0.83 or 0.56 depending on the library."),
        N_("The sum of precisions at the hits is always 1/1 + 2/3; libraries divide it by R (all relevant "
        "documents), by the relevant documents retrieved, or by min(k, R). Only R penalises relevant "
        "documents that were never found."),
        {"ranking": ranking, "judgments": judged},
        tuple(Outcome(f"{m}: {_(label)}", core.score(m, ranking, judged), right) for m, label, right in rows))


# --------------------------------------------------------------------------- relevance level

def relevance_level() -> Pitfall:
    """trec_eval -l2 changes P but not nDCG.

    Grades a = 1, b = 2, c = 2; ranking a, b, c. P(rel=2)@3 = 2/3. Whatever -l says, nDCG@3 =
    (1 + 2/log2 3 + 2/2) / (2 + 2/log2 3 + 1/2) = 3.2619 / 3.7619 = 0.8671; ranx's -l2 drops a's
    gain: DCG = 2/log2 3 + 2/2 = 2.2619, IDCG = 2 + 2/log2 3 = 3.2619 → 0.6934.

    >>> [round(o.value, 4) for o in relevance_level().outcomes]
    [0.6667, 0.8671, 0.6934]
    """
    ranking, judged = ["a", "b", "c"], {"a": 1, "b": 2, "c": 2}
    return Pitfall(
        "relevance_level", N_("The relevance level nDCG ignores in trec_eval"),
        N_("Running trec_eval with -l 2 (grade 2 and above is relevant) changes P, R, AP... but not nDCG."),
        N_("trec_eval's nDCG uses the grades themselves as gains and ignores -l; ranx's -l2 suffix also "
        "drops the gains below 2. In Ranklab: P(rel=2)@3 vs nDCG@3 vs nDCG(rel=2)@3."),
        {"ranking": ranking, "judgments": judged},
        (Outcome(N_("P(rel=2)@3: a is not relevant at level 2"), core.score("P(rel=2)@3", ranking, judged), True),
         Outcome(N_("nDCG@3, trec_eval -l 2 (ignored)"), core.score("nDCG@3", ranking, judged), True),
         Outcome(N_("nDCG(rel=2)@3, ranx ndcg@3-l2"), core.score("nDCG(rel=2)@3", ranking, judged), None)),
    )


# --------------------------------------------------------------------------- rounding

def rounding() -> Pitfall:
    """The Pinecone notebook: the "dark cat" AP is (1/5 + 2/8) / 2 = 0.225 exactly; the prose says 0.22,
    the code prints 0.23.

    >>> [o.value for o in rounding().outcomes]
    [0.225, 0.23, 0.22, 0.23, 0.4767, 0.4786]
    """
    ranking = [str(i) for i in range(1, 9)]
    qrels = {"cat in the box": dict.fromkeys("2457", 1), "white cat": dict.fromkeys("1457", 1),
             "dark cat": dict.fromkeys("58", 1)}
    run = dict.fromkeys(qrels, ranking)
    e = core.evaluate(qrels, run, "AP@8")
    ap = [e.per_query[q]["AP@8"] for q in qrels]
    exact = Decimal(1) / 5 + Decimal(2) / 8
    exact /= 2
    two = Decimal("0.01")
    prose_map = round((0.54 + 0.67 + 0.22) / 3, 4)
    return Pitfall(
        "rounding", N_("Rounding: 0.22 or 0.23?"),
        N_("The Pinecone notebook's prose says AP = 0.22 for the dark-cat query; its code prints 0.23. Both round the "
        "same number, 0.225."),
        N_("0.225 is exactly halfway. Rounding half to even (as a careful human or Decimal does) gives "
        "0.22; Python's float 0.225 is stored as 0.22500000000000000555, a hair above, so round() "
        "gives 0.23. Rounding each AP before averaging moves MAP too (0.4767 vs 0.4786): round once, "
        "at the end, and state the decimals."),
        {"ranking": ranking, "relevant": {q: sorted(j) for q, j in qrels.items()}},
        (Outcome(N_("AP@8 of 'dark cat', exactly"), round(ap[2], 10), True, N_("(1/5 + 2/8) / 2 = 9/40")),
         Outcome(N_("Python round(0.225, 2) (the notebook's code)"), round(ap[2], 2), None),
         Outcome(N_("round half to even (the notebook's prose)"), float(exact.quantize(two, ROUND_HALF_EVEN)), None),
         Outcome(N_("round half up"), float(exact.quantize(two, ROUND_HALF_UP)), None),
         Outcome(N_("MAP from APs rounded first: (0.54 + 0.67 + 0.22) / 3"), prose_map, False,
                 N_("rounded too early")),
         Outcome(N_("MAP from unrounded APs"), round(e.aggregate["AP@8"], 4), True)),
    )


# --------------------------------------------------------------------------- the IR course lab's NDCG

def course_lab_ndcg_as_written(qrels_dict, test_dict, k=100):
    """The IR course lab's ``NDCG`` function, logic reproduced line for line (without its prints).

    Returns the mean nDCG, or the exception its code raises (``rel`` is an int, and
    ``rel[i]`` indexes it). The lab's ``grels_dict``/``qrels_dict`` spelling is taken as
    one name (an OCR slip); everything else is as printed.

    >>> course_lab_ndcg_as_written({"q": {"d1": 1}}, {"q": ["d1"]})
    TypeError("'int' object is not subscriptable")
    """
    try:
        NDCG_result = []
        for query in qrels_dict:
            test_result = test_dict[query]
            true_list = list(qrels_dict[query].values())
            true_list = sorted(true_list, reverse=True)
            i = 1
            DCG = 0.0
            IDCG = 0.0
            length_use = min(k, len(test_result), len(true_list))
            if length_use <= 0:
                return []
            for doc_id in test_result[0:length_use]:
                i += 1
                rel = qrels_dict[query].get(doc_id, 0)
                DCG += rel[i] / math.log(i, 2)
                IDCG += true_list[i + 1] / math.log(i, 2)
            DCG = DCG + rel[1]
            IDCG = IDCG + true_list[1]
            NDCG = DCG / IDCG
            NDCG_result.append(NDCG)
        return np.mean(NDCG_result)
    except Exception as err:  # noqa: BLE001 - the point is to show what the lab's code raises
        return err


def course_lab_ndcg_patched(qrels_dict, test_dict, k=100):
    """The IR course lab's ``NDCG`` with only its crashes patched: it runs, and is still wrong.

    Patches: ``rel[i]`` → ``rel``; ``true_list[i + 1]`` → ``true_list[i - 2]``; ``rel[1]`` →
    the first document's grade; ``true_list[1]`` → ``true_list[0]``. What remains: the loop
    starts at i = 2, so rank 1 is divided by log2(2) = 1 *and* added again after the loop;
    and ``length_use`` also stops at the number of relevant documents, so documents ranked
    below that are never looked at.

    >>> round(course_lab_ndcg_patched({"q": {"d1": 3, "d2": 2, "d3": 1}}, {"q": ["d2", "d1", "x", "d3"]}), 4)
    0.7592
    """
    try:
        NDCG_result = []
        for query in qrels_dict:
            test_result = test_dict[query]
            true_list = sorted(qrels_dict[query].values(), reverse=True)
            i = 1
            DCG = 0.0
            IDCG = 0.0
            length_use = min(k, len(test_result), len(true_list))
            if length_use <= 0:
                return []
            for doc_id in test_result[0:length_use]:
                i += 1
                rel = qrels_dict[query].get(doc_id, 0)
                DCG += rel / math.log(i, 2)
                IDCG += true_list[i - 2] / math.log(i, 2)
            DCG = DCG + qrels_dict[query].get(test_result[0], 0)
            IDCG = IDCG + true_list[0]
            NDCG_result.append(DCG / IDCG)
        return float(np.mean(NDCG_result))
    except Exception as err:  # noqa: BLE001
        return err


def course_lab_ndcg(qrels=None, run=None, k: int = 100) -> Pitfall:
    """The IR course lab's NDCG code: as written, patched to run, and fixed (Ranklab's Järvelin nDCG).

    Example: d1 = 3, d2 = 2, d3 = 1; run d2, d1, x, d3. Fixed (J&K, b = 2):
    DCG = 2 + 3/1 + 0 + 1/2 = 5.5, IDCG = 3 + 2/1 + 1/log2 3 = 5.6309, nDCG = 0.9767.

    >>> [o.value if o.value is None else round(o.value, 4) for o in course_lab_ndcg().outcomes]
    [None, 0.7592, 0.9767]
    """
    qrels = qrels if qrels is not None else {"q1": {"d1": 3, "d2": 2, "d3": 1}}
    run = run if run is not None else {"q1": ["d2", "d1", "x", "d3"]}
    measure = str(parse("nDCG").with_params(dcg="jarvelin").with_cutoff(k))
    outcomes = []
    for label, fn in ((N_("as written"), course_lab_ndcg_as_written), (N_("crashes patched"), course_lab_ndcg_patched)):
        got = fn(qrels, run, k)
        if isinstance(got, Exception):
            outcomes.append(Outcome(_("the IR course lab's NDCG, {label}").format(label=_(label)), None, False,
                                    error=f"{type(got).__name__}: {got}"))
        elif isinstance(got, list):
            outcomes.append(Outcome(_("the IR course lab's NDCG, {label}").format(label=_(label)), None, False,
                                    error=N_("returned [] (an empty query stops the whole loop)")))
        else:
            outcomes.append(Outcome(_("the IR course lab's NDCG, {label}").format(label=_(label)), float(got), False,
                                    N_("rank 1 counted twice; ranks below R never looked at")))
    fixed = core.evaluate(qrels, run, measure, missing="zero")
    outcomes.append(Outcome(_("fixed: Ranklab {measure}").format(measure=measure), fixed.aggregate[measure], True,
                            N_("DCG = rel_1 + sum over i >= 2 of rel_i / log2(i), ideal from every judged document")))
    return Pitfall(
        "course_lab_ndcg", N_("The IR course lab's NDCG code, reproduced and fixed"),
        N_("The course lab's NDCG function crashes on its first document, and once patched to run it "
        "still gives the wrong number."),
        N_("rel is a number, so rel[i] raises TypeError; true_list[i+1] runs past the end of the list; "
        "the loop starts at i = 2 and then adds rel_1 again, counting rank 1 twice; and "
        "min(k, len(run), len(true_list)) stops at the number of relevant documents."),
        {"qrels": qrels, "run": run, "k": k}, tuple(outcomes))


# --------------------------------------------------------------------------- nDCG@k falling

def ndcg_falling(ranking=None, judgments=None) -> Pitfall:
    """nDCG@k is not monotone in k: the ideal grows faster than the DCG.

    Judgments a = b = c = 3; ranking a, x, y, z. nDCG@1 = 1, nDCG@2 = 3 / (3 + 3/log2 3) = 0.6131,
    nDCG@3 = 3 / (3 + 3/log2 3 + 3/2) = 0.4693, nDCG@4 = 0.4693.

    >>> [round(o.value, 4) for o in ndcg_falling().outcomes]
    [1.0, 0.6131, 0.4693, 0.4693]
    """
    ranking = ["a", "x", "y", "z"] if ranking is None else ranking
    judged = {"a": 3, "b": 3, "c": 3} if judgments is None else judgments
    values = core.scores_over_k("nDCG", ranking, judged)
    return Pitfall(
        "ndcg_falling", N_("nDCG@k falling as k grows"),
        N_("The same ranking scores a perfect nDCG@1 = 1 and only 0.47 at k = 3."),
        N_("Each k has its own ideal: at k = 1 the ideal is one relevant document, and this ranking has "
        "one at rank 1; at k = 3 the ideal holds three. Compare systems at the same k only."),
        {"ranking": ranking, "judgments": judged},
        tuple(Outcome(f"nDCG@{k}", v, True) for k, v in enumerate(values, 1)))


GALLERY = {f.__name__: f for f in (ndcg_above_one, ties, nothing_relevant, p_at_k_short, ap_denominators,
                                    relevance_level, rounding, course_lab_ndcg, ndcg_falling)}
