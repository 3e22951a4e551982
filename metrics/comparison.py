"""Compare N systems on the same topics, with sound statistics.

:func:`compare_systems` evaluates each run on the same qrels (a judged topic missing from a
run scores 0 there, trec_eval ``-c``, so every system is measured on the same topics) and,
for each measure, gives:

- each system's mean with a seeded percentile-bootstrap confidence interval
  (:func:`metrics.stats.bootstrap_ci`; topics resampled, the same draws for every system);
- for every pair (i, j), i < j: the per-topic deltas (j − i), the mean delta and its
  bootstrap interval, the paired t-test, the Wilcoxon signed-rank test, Fisher's
  randomization test, Cohen's d_z (mean delta / standard deviation of the deltas);
- each test's p-values corrected over the pairs of that measure (Bonferroni, Holm,
  Benjamini–Hochberg) and Tukey's HSD over all systems (two-way, topics as blocks);
- :func:`guidance`: warnings when a test does not fit, and :func:`topics_needed`, a
  bootstrap estimate of the topics needed to detect each difference.

Writers: :func:`write_table`, :func:`write_latex`, :func:`write_json`, :func:`write_csv`.

Examples
--------
Two systems, three topics; B gains 0.1, 0.2 and 0.3 in AP:

>>> qrels = {"t1": {"a": 1}, "t2": {"b": 1}, "t3": {"c": 1}}
>>> A = {"t1": ["x", "a"], "t2": ["x", "y", "b"], "t3": ["x", "y", "z", "c"]}
>>> B = {"t1": ["a"], "t2": ["x", "b"], "t3": ["x", "c"]}
>>> c = compare_systems(qrels, {"A": A, "B": B}, "RR")
>>> [round(s.mean, 4) for s in c.results["RR"].systems]  # (1/2+1/3+1/4)/3, (1+1/2+1/2)/3
[0.3611, 0.6667]
>>> p = c.results["RR"].pairs[0]
>>> [round(d, 4) for d in p.deltas]  # 1 - 1/2, 1/2 - 1/3, 1/2 - 1/4
[0.5, 0.1667, 0.25]
>>> p.randomization.p_value  # 2 of the 8 sign patterns reach |sum| = 0.9167
0.25
"""

from __future__ import annotations

import csv
import itertools
import json
import math
from dataclasses import dataclass

import numpy as np

from ._check import _short
from .batch import evaluate_batch
from .measures import parse_many
from .stats import (
    CONFIDENCE,
    CORRECTIONS,
    RESAMPLES,
    ROUNDS,
    SEED,
    Randomization,
    TTest,
    Tukey,
    Wilcoxon,
    adjust_p,
    bootstrap_means,
    paired_t_test,
    randomization_tests,
    student_t_ppf,
    tukey_hsd,
    wilcoxon_test,
)

__all__ = ["TESTS", "SystemSummary", "PairResult", "MeasureResult", "ManyComparison", "compare_systems",
           "guidance", "topics_needed", "TopicsNeeded", "write_table", "write_latex", "write_json", "write_csv",
           "FORMATS", "few_topics", "many_topics", "ALPHA", "CORRECTION", "POWER", "POWER_RESAMPLES"]

TESTS = ("t", "wilcoxon", "randomization", "tukey")
TEST_NAMES = {"t": "paired t-test", "wilcoxon": "Wilcoxon signed-rank test",
              "randomization": "Fisher's randomization test", "tukey": "Tukey's HSD"}
CORRECTION_NAMES = {"bonferroni": "Bonferroni", "holm": "Holm", "bh": "Benjamini-Hochberg", "none": "no correction"}
FORMATS = ("table", "latex", "json", "csv")
few_topics = 10      # below this many topics a t-test is a warning
many_topics = 1000   # from this many topics on, tiny differences are significant
# the defaults of compare_systems and topics_needed (the bootstrap's and the tests' own are metrics.stats')
ALPHA = 0.05  # significance level
CORRECTION = "holm"  # over the pairs of each measure
POWER = 0.8  # topics_needed: the share of experiments that should find the difference
POWER_RESAMPLES = 2000  # topics_needed: simulated experiments per number of topics


@dataclass(frozen=True)
class SystemSummary:
    name: str
    mean: float
    ci_low: float
    ci_high: float


@dataclass(frozen=True)
class PairResult:
    """System ``i`` against system ``j`` (deltas are j − i); ``adjusted[test][method]`` are
    the p-values corrected over the pairs of this measure; ``tukey_p`` Tukey's HSD."""

    i: int
    j: int
    deltas: tuple[float, ...]
    delta: float
    delta_ci: tuple[float, float]
    t_test: TTest
    wilcoxon: Wilcoxon
    randomization: Randomization
    tukey_p: float
    adjusted: dict

    @property
    def cohen_d(self) -> float:
        """Cohen's d_z: mean delta / standard deviation of the deltas (n − 1)."""
        return self.t_test.cohen_d

    def p(self, test: str, correction: str = "none") -> float:
        """The p-value of ``test`` (t, wilcoxon, randomization, tukey), corrected or not."""
        if test == "tukey":
            return self.tukey_p
        if correction == "none":
            return {"t": self.t_test.p_value, "wilcoxon": self.wilcoxon.p_value,
                    "randomization": self.randomization.p_value}[test]
        return self.adjusted[test][correction]


@dataclass(frozen=True)
class MeasureResult:
    measure: str
    systems: tuple[SystemSummary, ...]
    values: np.ndarray  # topics × systems
    pairs: tuple[PairResult, ...]
    tukey: Tukey | None


@dataclass(frozen=True)
class ManyComparison:
    names: tuple[str, ...]
    measures: tuple[str, ...]
    queries: tuple[str, ...]
    results: dict  # measure -> MeasureResult
    warnings: tuple[str, ...]
    settings: dict  # alpha, test, correction, confidence, resamples, rounds, seed

    def significant(self, measure: str, pair: PairResult) -> bool:
        """Whether ``pair`` differs at ``alpha`` by the chosen test and correction."""
        s = self.settings
        p = pair.p(s["test"], "none" if s["test"] == "tukey" else s["correction"])
        return bool(p < s["alpha"])


def _validate_names(names) -> tuple[str, ...]:
    names = tuple(str(n) for n in names)
    if len(names) < 2:
        raise ValueError(f"comparing needs at least 2 runs, got {len(names)}")
    if len(set(names)) != len(names):
        dup = next(n for n in names if names.count(n) > 1)
        raise ValueError(f"two runs are named {dup!r}; give each run its own name")
    return names


def compare_systems(qrels, runs: dict, measures, *, alpha: float = ALPHA, test: str = "t",
                    correction: str = CORRECTION, confidence: float = CONFIDENCE, resamples: int = RESAMPLES,
                    rounds: int = ROUNDS, seed: int = SEED, depth: int | None = None, baseline: str | None = None,
                    progress=None) -> ManyComparison:
    """Compare the ``runs`` (name -> run, in order) on ``qrels`` for each measure.

    Parameters
    ----------
    qrels, runs : as :func:`metrics.evaluate_batch` takes them (files read by metrics.io, or dicts).
    measures : str or list, e.g. ``"AP nDCG@10"``.
    alpha : significance level for the marks and the "significant" column.
    test : which test marks significance: ``"t"``, ``"wilcoxon"``, ``"randomization"`` or ``"tukey"``.
    correction : ``"bonferroni"``, ``"holm"``, ``"bh"`` or ``"none"`` (ignored for Tukey, which
        already controls the family-wise error over all pairs).
    confidence, resamples, seed : the percentile bootstrap; ``rounds``: Fisher's test.
    baseline : the name of one run: only the pairs of that run with each other run are tested
        (N − 1 pairs instead of N(N − 1)/2; Tukey's HSD still spans every system).
    progress : called as ``progress(stage, done, total)`` while runs are evaluated
        (``stage`` "runs") and while the pairs of each measure are tested (the measure's name).

    ``runs`` is read once per name, in order, so a mapping that reads each run when asked (and
    keeps none) holds one run in memory at a time.

    Examples
    --------
    >>> c = compare_systems({"q": {"d": 1}}, {"A": {"q": ["d"]}, "B": {"q": ["x", "d"]}}, "RR")
    >>> c.results["RR"].pairs[0].delta, c.warnings[0][:24]
    (-0.5, 'only 1 topic: no test is')
    """
    names = _validate_names(runs)
    if test not in TESTS:
        raise ValueError(f"test must be one of {', '.join(TESTS)}, got {test!r}")
    if correction not in CORRECTIONS + ("none",):
        raise ValueError(f"correction must be one of {', '.join(CORRECTIONS + ('none',))}, got {correction!r}")
    if isinstance(alpha, bool) or not (isinstance(alpha, float | int) and 0 < alpha < 1):
        raise ValueError(f"alpha must be between 0 and 1, got {alpha!r}")
    if baseline is not None and baseline not in names:
        raise ValueError(f"baseline {_short(baseline)} is not one of the runs")
    ms = [str(m) for m in parse_many(measures)]
    evals, in_runs = [], []
    for k, n in enumerate(names):
        run = runs[n]
        evals.append(evaluate_batch(qrels, run, ms, missing="zero", depth=depth))
        in_runs.append(_run_queries(run))
        del run
        if progress is not None:
            progress("runs", k + 1, len(names))
    queries = tuple(evals[0].per_query)
    warnings: list[str] = []
    for name, e, in_run in zip(names, evals, in_runs, strict=True):
        absent = [q for q in queries if q not in in_run]
        if absent:
            shown = ", ".join(_short(q) for q in absent[:5]) + (", ..." if len(absent) > 5 else "")
            warnings.append(f"run {name}: {len(absent)} judged topic{'s' if len(absent) != 1 else ''} "
                            f"missing, scored 0: {shown}")
        if e.missing_from_qrels:
            k = len(e.missing_from_qrels)
            warnings.append(f"run {name}: {k} topic{'s' if k != 1 else ''} not in the qrels (ignored)")
    del in_runs
    pairs_of = None
    if baseline is not None:
        b = names.index(baseline)
        pairs_of = [(min(b, j), max(b, j)) for j in range(len(names)) if j != b]
    results = {}
    for m in ms:
        x = np.array([[e.per_query[q][m] for e in evals] for q in queries], dtype=float).reshape(len(queries),
                                                                                              len(names))
        step = None if progress is None else (lambda done, total, m=m: progress(m, done, total))
        results[m] = _measure(m, names, x, correction=correction, confidence=confidence, resamples=resamples,
                              rounds=rounds, seed=seed, pairs_of=pairs_of, progress=step)
    settings = {"alpha": float(alpha), "test": test, "correction": correction, "confidence": confidence,
                "resamples": resamples, "rounds": rounds, "seed": seed, "baseline": baseline}
    c = ManyComparison(names, tuple(ms), queries, results, tuple(warnings), settings)
    return ManyComparison(names, tuple(ms), queries, results, tuple(warnings) + tuple(guidance(c)), settings)


def _run_queries(run) -> set:
    if isinstance(run, dict):
        return {str(q) for q in run}
    return set(run.queries)


def _measure(m, names, x, *, correction, confidence, resamples, rounds, seed, pairs_of=None,
             progress=None) -> MeasureResult:
    n = x.shape[0]
    alpha = (1.0 - confidence) / 2.0
    if n:
        # one set of resamples for every system: a pair's delta is then resampled with the same topics,
        # and its resampled mean is the difference of the two systems' resampled means
        boot = bootstrap_means(x, resamples=resamples, seed=seed)
        lo, hi = np.percentile(boot, 100 * alpha, axis=0), np.percentile(boot, 100 * (1 - alpha), axis=0)
    else:
        lo = hi = np.full(len(names), math.nan)
    means = x.mean(axis=0) if n else np.full(len(names), math.nan)
    systems = tuple(SystemSummary(name, float(means[i]), float(lo[i]), float(hi[i])) for i, name in enumerate(names))
    pairs = list(pairs_of if pairs_of is not None else itertools.combinations(range(len(names)), 2))
    tukey = tukey_hsd(x, pairs=pairs_of) if n >= 2 else None
    tukey_p = dict(zip(tukey.pairs, tukey.p_values, strict=True)) if tukey else {}
    raw = []
    by_system = np.ascontiguousarray(boot.T) if n else None  # systems × resamples: a pair's rows are contiguous
    for start in range(0, len(pairs), PAIRS_AT_ONCE):  # a block of pairs at a time: bounded memory
        block = pairs[start:start + PAIRS_AT_ONCE]
        first, second = np.array([i for i, _ in block]), np.array([j for _, j in block])
        deltas = x[:, second] - x[:, first]  # topics × pairs
        if n:
            cis = np.percentile(by_system[second] - by_system[first], [100 * alpha, 100 * (1 - alpha)], axis=1)
        randomized = randomization_tests(deltas, rounds=rounds, seed=seed)
        for k, (i, j) in enumerate(block):
            d = deltas[:, k]
            raw.append(dict(i=i, j=j, deltas=tuple(d.tolist()), delta=float(d.mean()) if n else math.nan,
                            delta_ci=(float(cis[0, k]), float(cis[1, k])) if n else (math.nan, math.nan),
                            t_test=paired_t_test(x[:, i], x[:, j]), wilcoxon=wilcoxon_test(x[:, i], x[:, j]),
                            randomization=randomized[k], tukey_p=tukey_p.get((i, j), math.nan)))
        if progress is not None:
            progress(len(raw), len(pairs))
    adjusted = {}
    for test, key in (("t", "t_test"), ("wilcoxon", "wilcoxon"), ("randomization", "randomization")):
        ps = [r[key].p_value for r in raw]
        adjusted[test] = {method: adjust_p(ps, method) for method in CORRECTIONS}
    pairs = tuple(PairResult(**r, adjusted={t: {mth: float(v[k]) for mth, v in by.items()}
                                            for t, by in adjusted.items()})
                  for k, r in enumerate(raw))
    return MeasureResult(m, systems, x, pairs, tukey)


PAIRS_AT_ONCE = 256  # pairs whose deltas and resampled deltas are held at once


# --------------------------------------------------------------------------- guidance

@dataclass(frozen=True)
class TopicsNeeded:
    """Estimated power of the paired t-test at each number of topics, and the smallest
    number reaching ``target`` power (None if none of ``sizes`` does)."""

    sizes: tuple[int, ...]
    power: tuple[float, ...]
    target: float
    needed: int | None


def topics_needed(deltas, *, alpha: float = ALPHA, target: float = POWER, resamples: int = POWER_RESAMPLES,
                  seed: int = SEED, sizes=(5, 10, 15, 20, 25, 30, 40, 50, 75, 100, 150, 200, 300, 500, 1000)) -> TopicsNeeded:
    """How many topics would a paired t-test need to detect this difference?

    Bootstrap simulation: for each size n, draw n per-topic deltas with replacement from
    the observed ones ``resamples`` times (seeded) and count how often the two-sided t-test
    rejects at ``alpha``. The smallest n with that share >= ``target`` (80%) is "needed".
    It assumes new topics behave like these ones.

    >>> r = topics_needed([0.1, 0.12, 0.08, 0.11, 0.09], sizes=(5, 10))  # large, steady gains
    >>> r.needed, r.power[1]
    (5, 1.0)
    """
    d = np.asarray(deltas, dtype=float)
    if d.ndim != 1 or len(d) < 2 or not np.isfinite(d).all():
        raise ValueError("topics_needed needs at least 2 finite per-topic deltas")
    rng = np.random.default_rng(seed)
    powers = []
    for n in sizes:
        sample = d[rng.integers(0, len(d), (resamples, n))]
        mean, sd = sample.mean(axis=1), sample.std(axis=1, ddof=1)
        crit = student_t_ppf(1 - alpha / 2, n - 1)
        with np.errstate(divide="ignore", invalid="ignore"):
            t = np.where(sd > 0, np.abs(mean) / (sd / math.sqrt(n)), np.where(np.abs(mean) > 0, np.inf, 0.0))
        powers.append(float(np.mean(t > crit)))
    needed = next((n for n, p in zip(sizes, powers, strict=True) if p >= target), None)
    return TopicsNeeded(tuple(sizes), tuple(powers), target, needed)


def guidance(c: ManyComparison) -> list[str]:
    """Warnings about tests that do not fit these data (English; the app translates its own)."""
    out = []
    n = len(c.queries)
    test = c.settings["test"]
    if n == 1:
        out.append("only 1 topic: no test is possible; compare on more topics")
    elif n < few_topics and test in ("t", "tukey"):
        out.append(f"only {n} topics: the {TEST_NAMES[test]} assumes normal deltas, which {n} topics cannot show, "
                   "and has little power; prefer Fisher's randomization test (exact here) and report effect sizes")
    elif n < few_topics:
        out.append(f"only {n} topics: every test has little power here; report effect sizes and the deltas' "
                   "intervals beside the p-values")
    if n >= many_topics:
        out.append(f"{n} topics: with this many topics even tiny differences come out significant; judge them by "
                   "effect size (Cohen's d) and the delta's interval, not by p (Ihemelandu & Ekstrand 2023)")
    if len(c.names) > 2 and c.settings["correction"] == "none" and test != "tukey":
        k = len(c.names) * (len(c.names) - 1) // 2
        out.append(f"{k} comparisons per measure without correction: expect false positives; use --correction holm")
    if test == "wilcoxon" and 1 < n:
        for m, r in c.results.items():
            zeros = max(p.wilcoxon.zeros for p in r.pairs)
            if zeros * 4 >= n:
                out.append(f"{m}: up to {zeros} of {n} topics have a delta of 0 and are dropped by the Wilcoxon test")
                break
    return out


# --------------------------------------------------------------------------- writers

def _fmt(x: float, digits: int = 4) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    if math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:.{digits}f}"


def _topics(n: int) -> str:
    return f"{n} topic" if n == 1 else f"{n} topics"


def _p(x: float) -> str:
    if math.isnan(x):
        return "-"
    return "<0.0001" if x < 1e-4 else f"{x:.4f}"


def write_table(out, c: ManyComparison) -> None:
    """Plain-text tables: the systems' means with intervals, then every pair."""
    s = c.settings
    conf = f"{s['confidence']:.0%}"
    for m in c.measures:
        r = c.results[m]
        out.write(f"{m} ({_topics(len(c.queries))}; {conf} percentile bootstrap, {s['resamples']} resamples, "
                  f"seed {s['seed']})\n")
        width = max(6, *(len(x.name) for x in r.systems))
        out.write(f"  {'system':<{width}}  {'mean':>7}  {conf + ' CI':>17}\n")
        for x in r.systems:
            out.write(f"  {x.name:<{width}}  {_fmt(x.mean):>7}  [{_fmt(x.ci_low)}, {_fmt(x.ci_high)}]\n")
        corr = s["correction"] if s["test"] != "tukey" else "none"
        test = {"randomization": "rand"}.get(s["test"], s["test"])
        head = ["pair", "delta", conf + " CI", "d_z", "p(t)", "p(wilcoxon)", "p(rand)", "p(tukey)",
                f"p({test},{corr})" if corr != "none" else "", "sig"]
        rows = []
        for p in r.pairs:
            rows.append([f"{c.names[p.j]} - {c.names[p.i]}", f"{p.delta:+.4f}",
                         f"[{_fmt(p.delta_ci[0])}, {_fmt(p.delta_ci[1])}]", _fmt(p.cohen_d, 2),
                         _p(p.t_test.p_value), _p(p.wilcoxon.p_value), _p(p.randomization.p_value), _p(p.tukey_p),
                         _p(p.p(s["test"], corr)) if corr != "none" else "",
                         "*" if c.significant(m, p) else ""])
        keep = [k for k, h in enumerate(head) if h]
        widths = [max(len(head[k]), *(len(row[k]) for row in rows)) if rows else len(head[k]) for k in keep]
        out.write("  " + "  ".join(head[k].rjust(w) if k else head[k].ljust(w) for k, w in zip(keep, widths,
                                                                                              strict=True)) + "\n")
        for row in rows:
            out.write("  " + "  ".join(row[k].rjust(w) if k else row[k].ljust(w)
                                       for k, w in zip(keep, widths, strict=True)) + "\n")
        out.write("\n")
    out.write(f"* significant at alpha = {s['alpha']} by the {_rule(c)}. d_z = mean delta / sd of the deltas.\n")


def _rule(c: ManyComparison) -> str:
    s = c.settings
    if s["test"] == "tukey":
        return TEST_NAMES["tukey"]
    return f"{TEST_NAMES[s['test']]}, {CORRECTION_NAMES[s['correction']]} over the pairs of each measure"


def _latex_escape(text: str) -> str:
    table = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
             "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}
    return "".join(table.get(ch, ch) for ch in text)


def _letter(i: int) -> str:
    s = ""
    i += 1
    while i:
        i, r = divmod(i - 1, 26)
        s = chr(ord("a") + r) + s
    return s


def write_latex(out, c: ManyComparison) -> None:
    r"""A LaTeX table: one row per system, one column per measure, the mean with
    superscript letters naming the systems it is significantly better than.

    >>> qrels = {f"t{i}": {"d": 1} for i in range(12)}
    >>> good = {f"t{i}": ["d"] for i in range(12)}
    >>> bad = {f"t{i}": ["x", "y", "d"] for i in range(12)}
    >>> import io
    >>> out = io.StringIO(); write_latex(out, compare_systems(qrels, {"bad": bad, "good": good}, "RR"))
    >>> [line for line in out.getvalue().splitlines() if line.startswith("(b)")]
    ['(b) good & 1.0000$^{a}$ \\\\']
    """
    s = c.settings
    cols = "l" + "r" * len(c.measures)
    out.write("\\begin{table}\n\\centering\n")
    out.write(f"\\begin{{tabular}}{{{cols}}}\n\\hline\n")
    out.write("System & " + " & ".join(_latex_escape(m) for m in c.measures) + " \\\\\n\\hline\n")
    for k, name in enumerate(c.names):
        cells = []
        for m in c.measures:
            r = c.results[m]
            better = [_letter(p.i if p.j == k else p.j) for p in r.pairs
                      if k in (p.i, p.j) and c.significant(m, p) and ((p.delta > 0) == (p.j == k))]
            mark = f"$^{{{''.join(sorted(better))}}}$" if better else ""
            cells.append(f"{_fmt(r.systems[k].mean)}{mark}")
        out.write(f"({_letter(k)}) {_latex_escape(name)} & " + " & ".join(cells) + " \\\\\n")
    out.write("\\hline\n\\end{tabular}\n")
    rule = _latex_escape(_rule(c))
    out.write(f"\\caption{{Mean over {_topics(len(c.queries))}. A superscript letter marks a significant "
              f"improvement over the system with that letter ({rule}, $\\alpha = {s['alpha']}$).}}\n")
    out.write("\\end{table}\n")


def _jsonable(x):
    if isinstance(x, float) and not math.isfinite(x):
        return None if math.isnan(x) else ("inf" if x > 0 else "-inf")
    return x


def as_dict(c: ManyComparison) -> dict:
    """Everything, as plain JSON-ready data (NaN as null)."""
    out = {"systems": list(c.names), "topics": list(c.queries), "settings": c.settings,
           "warnings": list(c.warnings), "measures": {}}
    for m in c.measures:
        r = c.results[m]
        out["measures"][m] = {
            "systems": [{"name": s.name, "mean": _jsonable(s.mean), "ci": [_jsonable(s.ci_low), _jsonable(s.ci_high)]}
                        for s in r.systems],
            "tukey": None if r.tukey is None else {"mse": r.tukey.mse, "df": r.tukey.df, "design": r.tukey.design},
            "pairs": [{
                "a": c.names[p.i], "b": c.names[p.j], "delta": _jsonable(p.delta),
                "delta_ci": [_jsonable(p.delta_ci[0]), _jsonable(p.delta_ci[1])],
                "cohen_dz": _jsonable(p.cohen_d),
                "t": {"t": _jsonable(p.t_test.t), "df": p.t_test.df, "p": _jsonable(p.t_test.p_value)},
                "wilcoxon": {"statistic": _jsonable(p.wilcoxon.statistic), "p": _jsonable(p.wilcoxon.p_value),
                             "method": p.wilcoxon.method, "zeros_dropped": p.wilcoxon.zeros},
                "randomization": {"p": _jsonable(p.randomization.p_value), "rounds": p.randomization.rounds,
                                  "exact": p.randomization.exact},
                "tukey_p": _jsonable(p.tukey_p),
                "adjusted": {t: {mth: _jsonable(v) for mth, v in by.items()} for t, by in p.adjusted.items()},
                "significant": c.significant(m, p),
                "deltas": dict(zip(c.queries, p.deltas, strict=True)),
            } for p in r.pairs],
        }
    return out


def write_json(out, c: ManyComparison) -> None:
    json.dump(as_dict(c), out, indent=2)
    out.write("\n")


def write_csv(out, c: ManyComparison) -> None:
    """One row per measure and system (``pair`` empty: mean and interval) and per measure and pair
    (delta and its interval, d_z, every raw p-value and every test × correction)."""
    w = csv.writer(out, lineterminator="\n")
    adjusted = [(t, mth) for t in ("t", "wilcoxon", "randomization") for mth in CORRECTIONS]
    w.writerow(["measure", "system", "pair", "mean", "ci_low", "ci_high", "cohen_dz", "p_t", "p_wilcoxon",
                "p_randomization", "p_tukey"] + [f"p_{t}_{mth}" for t, mth in adjusted] + ["significant"])
    for m in c.measures:
        r = c.results[m]
        for s in r.systems:
            w.writerow([m, s.name, "", repr(s.mean), repr(s.ci_low), repr(s.ci_high)] + [""] * (6 + len(adjusted)))
        for p in r.pairs:
            w.writerow([m, "", f"{c.names[p.j]} - {c.names[p.i]}", repr(p.delta), repr(p.delta_ci[0]),
                        repr(p.delta_ci[1]), repr(p.cohen_d), repr(p.t_test.p_value), repr(p.wilcoxon.p_value),
                        repr(p.randomization.p_value), repr(p.tukey_p)]
                       + [repr(p.adjusted[t][mth]) for t, mth in adjusted] + [int(c.significant(m, p))])

