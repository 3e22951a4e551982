"""Compare two systems: per-query deltas, paired t-test, paired randomization test.

:func:`compare` evaluates two runs on the same qrels with :func:`metrics.evaluate` and,
for each measure, gives both means, the per-query differences (B - A), a paired t-test
and a paired randomization (sign-flip) test with their p-values, the paired effect size
(Cohen's d_z = mean difference / standard deviation of the differences), which system
the measure prefers and on which queries. :func:`disagreeing_rankings` builds two
rankings on which nDCG and AP prefer different systems.

The tests themselves (and the Student t distribution, from the regularized incomplete
beta function) live in :mod:`metrics.stats`, so the package does not depend on SciPy.

The tests' worked examples are in :mod:`metrics.stats`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import core
from ..measures import parse_many

# the tests live in metrics.stats (one place for each thing); their names stay importable here
from ..stats import (
    ROUNDS,
    SEED,
    Randomization,
    TTest,
    betainc,
    paired_t_test,
    randomization_test,
    student_t_cdf,
)

__all__ = ["betainc", "student_t_cdf", "TTest", "Randomization", "paired_t_test", "randomization_test",
           "MeasureComparison", "Comparison", "compare", "Disagreement", "disagreeing_rankings",
           "VARIANTS", "variant_run"]


# --------------------------------------------------------------------------- two systems

@dataclass(frozen=True)
class MeasureComparison:
    measure: str
    mean_a: float
    mean_b: float
    deltas: dict  # qid -> value_b - value_a
    t_test: TTest
    randomization: Randomization
    a_better: tuple[str, ...]
    b_better: tuple[str, ...]

    @property
    def delta(self) -> float:
        return self.mean_b - self.mean_a

    @property
    def preferred(self) -> str:
        """"A", "B" or "tie" by the mean."""
        if abs(self.delta) <= 1e-12:
            return "tie"
        return "B" if self.delta > 0 else "A"


@dataclass(frozen=True)
class Comparison:
    measures: tuple[str, ...]
    queries: tuple[str, ...]
    per_query: dict  # qid -> {measure: (a, b)}
    results: dict  # measure -> MeasureComparison
    warnings: tuple[str, ...] = ()

    def rows(self) -> list[dict]:
        """Long table: one row per query and measure with a, b and delta = b - a."""
        return [{"query": q, "measure": m, "a": a, "b": b, "delta": b - a}
                for q, by in self.per_query.items() for m, (a, b) in by.items()]

    @property
    def disagree(self) -> bool:
        """True when some measures prefer A and others B."""
        prefs = {r.preferred for r in self.results.values()} - {"tie"}
        return len(prefs) > 1


def compare(qrels, run_a, run_b, measures, *, rounds: int = ROUNDS, seed: int = SEED) -> Comparison:
    """Compare run B against run A on ``qrels`` for each measure.

    Queries judged in ``qrels`` and missing from a run score 0 in that run (trec_eval -c),
    so both systems are compared on the same queries.

    Examples
    --------
    q1: A finds the relevant document at rank 2, B at rank 1; q2: A at rank 1, B at rank 3.

    >>> qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    >>> c = compare(qrels, {"q1": ["x", "a"], "q2": ["b"]}, {"q1": ["a"], "q2": ["x", "y", "b"]}, "RR")
    >>> r = c.results["RR"]
    >>> r.mean_a, round(r.mean_b, 4), r.deltas  # A: (1/2 + 1) / 2; B: (1 + 1/3) / 2
    (0.75, 0.6667, {'q1': 0.5, 'q2': -0.6666666666666667})
    >>> r.preferred, r.a_better, r.b_better
    ('A', ('q2',), ('q1',))
    """
    ms = [str(m) for m in parse_many(measures)]
    ea = core.evaluate(qrels, run_a, ms, missing="zero")
    eb = core.evaluate(qrels, run_b, ms, missing="zero")
    queries = tuple(q for q in ea.per_query if q in eb.per_query)
    per_query = {q: {m: (ea.per_query[q][m], eb.per_query[q][m]) for m in ms} for q in queries}
    results = {}
    for m in ms:
        a = [per_query[q][m][0] for q in queries]
        b = [per_query[q][m][1] for q in queries]
        deltas = {q: per_query[q][m][1] - per_query[q][m][0] for q in queries}
        results[m] = MeasureComparison(
            m, float(np.mean(a)) if a else 0.0, float(np.mean(b)) if b else 0.0, deltas,
            paired_t_test(a, b), randomization_test(a, b, rounds=rounds, seed=seed),
            tuple(q for q, d in deltas.items() if d < -1e-12), tuple(q for q, d in deltas.items() if d > 1e-12))
    warnings = []
    for name, e, run in (("A", ea, run_a), ("B", eb, run_b)):
        absent = [q for q in queries if q not in {str(r) for r in run}]
        if absent:
            shown = ", ".join(absent[:5]) + (", ..." if len(absent) > 5 else "")
            warnings.append(f"run {name}: {len(absent)} judged quer{'y' if len(absent) == 1 else 'ies'} "
                            f"missing, scored 0: {shown}")
        if e.missing_from_qrels:
            warnings.append(f"run {name}: {len(e.missing_from_qrels)} quer"
                            f"{'y' if len(e.missing_from_qrels) == 1 else 'ies'} not in the qrels (ignored)")
    return Comparison(tuple(ms), queries, per_query, results, tuple(warnings))


VARIANTS = ("reverse", "shuffle", "swap top two", "move first relevant down")


def variant_run(run, judgments_by_query, how: str, *, seed: int = 0) -> dict:
    """A second system made from ``run`` (qid -> list of doc ids), for trying the tests.

    ``"reverse"`` reverses each ranking, ``"shuffle"`` shuffles it (seeded), ``"swap top two"``
    exchanges ranks 1 and 2, ``"move first relevant down"`` moves each query's first relevant
    document (grade > 0) one rank down.

    >>> variant_run({"q": ["a", "b", "c"]}, {"q": {"a": 1}}, "move first relevant down")
    {'q': ['b', 'a', 'c']}
    """
    if how not in VARIANTS:
        raise ValueError(f"variant must be one of {', '.join(VARIANTS)}, got {how!r}")
    rng = np.random.default_rng(seed)
    out = {}
    for qid, docs in run.items():
        docs = list(docs)
        if how == "reverse":
            docs.reverse()
        elif how == "shuffle":
            docs = [docs[i] for i in rng.permutation(len(docs))]
        elif how == "swap top two" and len(docs) >= 2:
            docs[0], docs[1] = docs[1], docs[0]
        elif how == "move first relevant down":
            judged = judgments_by_query.get(qid, {})
            first = next((i for i, d in enumerate(docs) if judged.get(d, 0) > 0), None)
            if first is not None and first + 1 < len(docs):
                docs[first], docs[first + 1] = docs[first + 1], docs[first]
        out[qid] = docs
    return out


# --------------------------------------------------------------------------- nDCG vs AP

@dataclass(frozen=True)
class Disagreement:
    judgments: dict
    ranking_a: list
    ranking_b: list
    values: dict  # measure -> (a, b)


def disagreeing_rankings(seed: int = 0, *, n: int = 6, tries: int = 5000) -> Disagreement:
    """Two rankings of the same documents on which nDCG and AP prefer different systems.

    Graded judgments 0-3 are drawn from ``seed``; random pairs of rankings are tried until
    nDCG@n prefers one and AP (any positive grade is relevant) the other.

    >>> d = disagreeing_rankings(1)
    >>> (d.values["nDCG"][0] > d.values["nDCG"][1]) != (d.values["AP"][0] > d.values["AP"][1])
    True
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**32:
        raise ValueError(f"seed must be an integer between 0 and 2^32 - 1, got {seed!r}")
    if isinstance(n, bool) or not isinstance(n, int) or not 3 <= n <= 20:
        raise ValueError(f"n must be an integer between 3 and 20, got {n!r}")
    rng = np.random.default_rng(seed)
    docs = [f"d{i}" for i in range(1, n + 1)]
    for _ in range(tries):
        grades = rng.choice([0, 0, 1, 1, 2, 3], size=n)
        if np.count_nonzero(grades) < 2 or len(set(grades[grades > 0].tolist())) < 2:
            continue
        judged = {d: int(g) for d, g in zip(docs, grades, strict=True)}
        a = [docs[i] for i in rng.permutation(n)]
        b = [docs[i] for i in rng.permutation(n)]
        nd = (core.score("nDCG", a, judged), core.score("nDCG", b, judged))
        ap = (core.score("AP", a, judged), core.score("AP", b, judged))
        if min(abs(nd[0] - nd[1]), abs(ap[0] - ap[1])) < 0.02:
            continue
        if (nd[0] > nd[1]) != (ap[0] > ap[1]):
            return Disagreement(judged, a, b, {"nDCG": nd, "AP": ap})
    raise ValueError(f"no disagreeing pair found in {tries} tries (seed {seed}, n {n})")
