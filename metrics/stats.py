"""Significance tests for comparing systems, in numpy only (no SciPy at run time).

Distributions
    :func:`betainc` (regularized incomplete beta, continued fraction), :func:`student_t_cdf`,
    :func:`student_t_sf`, :func:`student_t_ppf`, :func:`normal_sf` and
    :func:`studentized_range_sf` (the studentized range Q by numeric integration).
Paired tests of per-topic values
    :func:`paired_t_test`, :func:`wilcoxon_test` (signed-rank, SciPy's defaults),
    :func:`randomization_test` (Fisher's sign-flip test, exact for few topics).
Intervals and corrections
    :func:`bootstrap_ci` (seeded percentile bootstrap), :func:`adjust_p` (Bonferroni, Holm,
    Benjamini–Hochberg) and :func:`tukey_hsd` (Tukey's HSD over all systems).

The tests in ``tests/metrics/test_stats.py`` check every p-value against ``scipy.stats`` and
``statsmodels`` to 1e-9.

Examples
--------
Differences 1, 2, 3: mean 2, standard deviation 1, t = 2 / (1 / sqrt 3) = 3.4641 with 2
degrees of freedom; of the 8 sign patterns only +1+2+3 and -1-2-3 reach |sum| = 6:

>>> t = paired_t_test([0, 0, 0], [1, 2, 3])
>>> round(t.t, 4), t.df, round(t.p_value, 4), t.cohen_d
(3.4641, 2, 0.0742, 2.0)
>>> randomization_test([0, 0, 0], [1, 2, 3]).p_value
0.25
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass

import numpy as np

__all__ = ["betainc", "student_t_cdf", "student_t_sf", "student_t_ppf", "normal_sf", "studentized_range_sf",
           "TTest", "paired_t_test", "Wilcoxon", "wilcoxon_test", "Randomization", "randomization_test",
           "randomization_tests",
           "bootstrap_ci", "bootstrap_means", "CORRECTIONS", "adjust_p", "Tukey", "tukey_hsd",
           "ROUNDS", "RESAMPLES", "CONFIDENCE", "SEED", "WILCOXON_EXACT_MAX", "WILCOXON_PERMUTATION_MAX",
           "enumerated_up_to"]

# The tests' defaults, named once: the functions below, metrics.comparison, the command line's
# options and the app's captions all read them here.
ROUNDS = 10_000  # Fisher's randomization test: sign patterns drawn when there are more than this
RESAMPLES = 10_000  # the percentile bootstrap's resamples
CONFIDENCE = 0.95  # the bootstrap interval's coverage
SEED = 0  # the bootstrap's and the randomization test's draws
WILCOXON_EXACT_MAX = 50  # Wilcoxon "auto" (SciPy's rule): exact up to this many pairs, without zeros or ties
WILCOXON_PERMUTATION_MAX = 13  # ... and with zeros or ties, every sign pattern up to this many


def enumerated_up_to(rounds: int = ROUNDS) -> int:
    """The most topics whose every sign pattern :func:`randomization_test` enumerates with
    ``rounds``: the largest n with 2^n <= rounds.

    >>> enumerated_up_to(10_000)  # 2^13 = 8,192 <= 10,000 < 2^14 = 16,384
    13
    """
    return rounds.bit_length() - 1


# --------------------------------------------------------------------------- distributions

def _beta_cf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz's method)."""
    tiny, eps = 1e-300, 1e-16
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 10_000):
        m2 = 2 * m
        for num in (m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
                    -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < eps:
            break
    return h


def betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b), for a, b > 0 and 0 <= x <= 1.

    >>> round(betainc(1, 1, 0.3), 12)  # I_x(1, 1) = x
    0.3
    >>> round(betainc(2, 3, 0.4), 6)  # 6x^2 - 8x^3 + 3x^4 at x = 0.4
    0.5248
    """
    if not (a > 0 and b > 0):
        raise ValueError(f"betainc needs a > 0 and b > 0, got a={a}, b={b}")
    if not 0.0 <= x <= 1.0:
        raise ValueError(f"betainc needs 0 <= x <= 1, got {x}")
    if x in (0.0, 1.0):
        return float(x)
    log_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                 + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return math.exp(log_front) * _beta_cf(a, b, x) / a
    return 1.0 - math.exp(log_front) * _beta_cf(b, a, 1.0 - x) / b


def _t_tail(t: float, df: float) -> float:
    """P(T > |t|), computed without cancellation."""
    t2 = t * t
    if t2 < df:  # x = df / (df + t^2) close to 1: use the complement of I_{t^2/(df+t^2)}(1/2, df/2)
        return 0.5 * (1.0 - betainc(0.5, df / 2.0, t2 / (df + t2)))
    return 0.5 * betainc(df / 2.0, 0.5, df / (df + t2))


def student_t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom.

    >>> student_t_cdf(0, 5)
    0.5
    >>> round(student_t_cdf(1, 1), 4)  # Cauchy: 1/2 + arctan(1)/pi = 0.75
    0.75
    """
    if not df > 0:
        raise ValueError(f"degrees of freedom must be positive, got {df}")
    if math.isnan(t):
        return math.nan
    if math.isinf(t):
        return 1.0 if t > 0 else 0.0
    tail = _t_tail(t, df)
    return 1.0 - tail if t > 0 else tail


def student_t_sf(t: float, df: float) -> float:
    """P(T > t), accurate in the upper tail.

    >>> round(student_t_sf(1, 1), 4)  # Cauchy: 1/2 - arctan(1)/pi
    0.25
    """
    return student_t_cdf(-t, df)


def student_t_ppf(p: float, df: float) -> float:
    """The t with P(T <= t) = p (bisection on :func:`student_t_cdf`).

    >>> round(student_t_ppf(0.75, 1), 9)  # Cauchy: tan(pi/4)
    1.0
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be strictly between 0 and 1, got {p}")
    lo, hi = -1.0, 1.0
    while student_t_cdf(lo, df) > p:
        lo *= 2.0
    while student_t_cdf(hi, df) < p:
        hi *= 2.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if student_t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-15 * max(1.0, abs(mid)):
            break
    return 0.5 * (lo + hi)


def normal_sf(z: float) -> float:
    """P(Z > z) for the standard normal.

    >>> round(normal_sf(1.959963984540054), 6)
    0.025
    """
    return 0.5 * math.erfc(z / math.sqrt(2.0))


_erfc = np.frompyfunc(math.erfc, 1, 1)


def _phi_cdf(x: np.ndarray) -> np.ndarray:
    return 0.5 * _erfc(-np.asarray(x, dtype=float) / math.sqrt(2.0)).astype(float)


def _gauss_panels(lo: float, hi: float, panels: int, order: int = 20,
                  edges: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Nodes and weights of composite Gauss–Legendre quadrature on [lo, hi] (or between ``edges``)."""
    x, w = np.polynomial.legendre.leggauss(order)
    if edges is None:
        edges = np.linspace(lo, hi, panels + 1)
    half = np.diff(edges) / 2.0
    mid = (edges[:-1] + edges[1:]) / 2.0
    return (mid[:, None] + half[:, None] * x).ravel(), (half[:, None] * w).ravel()


# z grid of the inner integral: phi(z) < 1e-17 outside [-9, 9]
_Z, _ZW = _gauss_panels(-9.0, 9.0, 12)
_PHI_Z = np.exp(-_Z * _Z / 2.0) / math.sqrt(2.0 * math.pi)
_CDF_Z = _phi_cdf(_Z)


def _range_sf_known_sd(w: np.ndarray, k: int) -> np.ndarray:
    """P(range of k standard normals > w), for each w (variance known)."""
    w = np.asarray(w, dtype=float)
    inside = np.clip(_CDF_Z[None, :] - _phi_cdf(_Z[None, :] - w[:, None]), 0.0, 1.0)
    cdf = k * (inside ** (k - 1) * _PHI_Z[None, :]) @ _ZW
    return np.clip(1.0 - cdf, 0.0, 1.0)


def _log_s_density(s: np.ndarray, df: float) -> np.ndarray:
    """log density of s = sqrt(chi2_df / df)."""
    return (df / 2.0 * math.log(df) - math.lgamma(df / 2.0) - (df / 2.0 - 1.0) * math.log(2.0)
            + (df - 1.0) * np.log(s) - df * s * s / 2.0)


def _s_bounds(df: float) -> tuple[float, float]:
    """Where the density of s is above exp(-60) times its peak."""
    mode = math.sqrt(max(df - 1.0, 0.0) / df)
    peak = float(_log_s_density(np.array([max(mode, 1e-300)]), df)[0])
    def below(s):
        return float(_log_s_density(np.array([s]), df)[0]) < peak - 60.0
    hi = max(mode, 1e-3) * 2.0
    while not below(hi):
        hi *= 2.0
    a, b = max(mode, 1e-300), hi
    for _ in range(100):
        m = 0.5 * (a + b)
        a, b = (m, b) if not below(m) else (a, m)
    hi = b
    lo = 0.0
    if mode > 0 and below(mode * 1e-6):
        a, b = mode * 1e-6, mode
        for _ in range(100):
            m = 0.5 * (a + b)
            a, b = (a, m) if not below(m) else (m, b)
        lo = a
    return lo, hi


def studentized_range_sf(q, k: int, df: float):
    """P(Q > q) for the studentized range of ``k`` means with ``df`` degrees of freedom.

    Q = range of k independent standard normals / s, with s^2 an independent chi-square
    over ``df``. Numeric integration: P(Q > q) = ∫ f_s(s) P(range > q s) ds, the inner
    probability 1 − k ∫ φ(z) [Φ(z) − Φ(z − w)]^(k−1) dz, both by composite Gauss–Legendre
    (z over [−9, 9], s where its density is above e^−60 of its peak). From df = 100,000
    on, df is taken as infinite (the single integral), as SciPy does. ``q`` may be an array.

    >>> round(studentized_range_sf(3.486, 3, 30), 4)  # the tables' 5% point for k=3, df=30
    0.05
    >>> round(studentized_range_sf(1.0, 2, 1e6), 6)  # k=2, df=inf: |Z1-Z2| > 1 is 2 P(Z > 1/sqrt 2)
    0.4795
    """
    if isinstance(k, bool) or int(k) != k or k < 2:
        raise ValueError(f"k must be an integer >= 2, got {k!r}")
    if not df > 0:
        raise ValueError(f"degrees of freedom must be positive, got {df}")
    qs = np.atleast_1d(np.asarray(q, dtype=float))
    out = np.full(qs.shape, np.nan)
    out[qs <= 0] = 1.0
    out[np.isposinf(qs)] = 0.0
    todo = np.isfinite(qs) & (qs > 0)
    if todo.any():
        if df >= 100_000:
            out[todo] = _range_sf_known_sd(qs[todo], int(k))
        elif todo.sum() > _MANY:
            out[todo] = _range_sf_many(qs[todo], int(k), float(df))
        else:
            lo, hi = _s_bounds(float(df))
            for i in np.flatnonzero(todo):
                # P(range > w) falls from 1 to 0 for w in [0, ~12]: panels there too
                turn = min(hi, max(lo, 12.0 / qs[i]))
                edges = np.unique(np.concatenate([np.linspace(lo, hi, 17), np.linspace(lo, turn, 17)]))
                s, sw = _gauss_panels(lo, hi, 0, edges=edges)
                dens = np.exp(_log_s_density(s, float(df)))
                out[i] = float(np.sum(sw * dens * _range_sf_known_sd(qs[i] * s, int(k))))
    out = np.clip(out, 0.0, 1.0)
    return float(out[0]) if np.ndim(q) == 0 else out


_MANY = 16  # more q values than this share one table of P(range > w) (Tukey over many systems)
_W_STEP = 1.0 / 128  # the table's step in w: the cubic Hermite error stays below 1e-10 (R is smooth)
_W_MAX = 20.0  # P(range of k normals > 20) < k * 2e-23: 0 beyond
_ROWS = 2048  # rows of a chunk: bounded memory at any number of pairs


@functools.lru_cache(maxsize=8)
def _range_table(k: int) -> tuple[np.ndarray, np.ndarray]:
    """P(range of k standard normals > w) and its derivative on the grid 0, step, ..., _W_MAX:
    R(w) = 1 − k ∫ φ(z) [Φ(z) − Φ(z − w)]^(k−1) dz, R'(w) = −k(k−1) ∫ φ(z) φ(z − w) [Φ(z) − Φ(z − w)]^(k−2) dz,
    by the same z quadrature as :func:`_range_sf_known_sd`."""
    grid = np.arange(0.0, _W_MAX + _W_STEP / 2, _W_STEP)
    value, slope = np.empty(grid.size), np.empty(grid.size)
    for start in range(0, grid.size, _ROWS):
        w = grid[start:start + _ROWS]
        shifted = _Z[None, :] - w[:, None]
        inside = np.clip(_CDF_Z[None, :] - _phi_cdf(shifted), 0.0, 1.0)
        value[start:start + _ROWS] = 1.0 - k * (inside ** (k - 1) * _PHI_Z[None, :]) @ _ZW
        density = np.exp(-shifted * shifted / 2.0) / math.sqrt(2.0 * math.pi)
        slope[start:start + _ROWS] = -k * (k - 1) * (inside ** (k - 2) * density * _PHI_Z[None, :]) @ _ZW
    return value, slope


def _range_sf_many(qs: np.ndarray, k: int, df: float) -> np.ndarray:
    """:func:`studentized_range_sf` for many q at once (same s quadrature, P(range > w) read from
    :func:`_range_table` by cubic Hermite interpolation instead of integrated anew at each node)."""
    value, slope = _range_table(k)
    lo, hi = _s_bounds(df)
    out = np.empty(qs.size)
    x, w = np.polynomial.legendre.leggauss(20)
    for start in range(0, qs.size, _ROWS):
        q = qs[start:start + _ROWS]
        turn = np.minimum(hi, np.maximum(lo, 12.0 / q))
        # the scalar path's edges, sorted per q; a repeated edge is a panel of width 0 (weight 0)
        edges = np.sort(np.concatenate([np.broadcast_to(np.linspace(lo, hi, 17), (q.size, 17)),
                                        lo + (turn - lo)[:, None] * np.linspace(0.0, 1.0, 17)[None, :]], axis=1),
                        axis=1)
        half = np.diff(edges, axis=1) / 2.0
        mid = (edges[:, :-1] + edges[:, 1:]) / 2.0
        s = (mid[:, :, None] + half[:, :, None] * x).reshape(q.size, -1)
        sw = (half[:, :, None] * w).reshape(q.size, -1)
        dens = np.exp(_log_s_density(np.maximum(s, 1e-300), df))
        out[start:start + _ROWS] = np.sum(sw * dens * _hermite(q[:, None] * s, value, slope), axis=1)
    return out


def _hermite(w: np.ndarray, value: np.ndarray, slope: np.ndarray) -> np.ndarray:
    """The table's cubic Hermite interpolant at w (0 beyond the table)."""
    t = np.clip(w, 0.0, _W_MAX) / _W_STEP
    i = np.minimum(t.astype(np.int64), value.size - 2)
    t -= i
    t2, t3 = t * t, t * t * t
    r = ((2 * t3 - 3 * t2 + 1) * value[i] + (t3 - 2 * t2 + t) * _W_STEP * slope[i]
         + (3 * t2 - 2 * t3) * value[i + 1] + (t3 - t2) * _W_STEP * slope[i + 1])
    return np.where(w >= _W_MAX, 0.0, r)


# --------------------------------------------------------------------------- paired tests

def _pairs(a, b) -> np.ndarray:
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if x.shape != y.shape or x.ndim != 1:
        raise ValueError(f"paired samples must be two lists of the same length, got {x.shape} and {y.shape}")
    if not (np.isfinite(x).all() and np.isfinite(y).all()):
        raise ValueError("paired samples must be finite numbers")
    return y - x


@dataclass(frozen=True)
class TTest:
    """Paired t-test of B - A: ``n`` pairs, mean and standard deviation of the differences,
    ``t``, ``df``, the two-sided ``p_value`` and Cohen's d_z (NaN when undefined)."""

    n: int
    mean_diff: float
    sd_diff: float
    t: float
    df: int
    p_value: float
    cohen_d: float


def paired_t_test(a, b) -> TTest:
    """Two-sided paired t-test of the per-query values ``b`` against ``a``.

    The effect size is Cohen's d_z = mean difference / standard deviation of the
    differences (n − 1 in the denominator). With fewer than 2 pairs t and p are NaN. When
    every difference is the same the standard deviation is 0: p = 1 if they are all 0,
    else p = 0 (t infinite).

    >>> r = paired_t_test([0.2, 0.4, 0.6, 0.3], [0.3, 0.6, 0.6, 0.5])
    >>> round(r.mean_diff, 4), round(r.t, 4), round(r.p_value, 4)  # d = .1 .2 0 .2
    (0.125, 2.6112, 0.0796)
    """
    d = _pairs(a, b)
    n = len(d)
    if n < 2:
        return TTest(n, float(d.mean()) if n else math.nan, math.nan, math.nan, max(n - 1, 0), math.nan, math.nan)
    mean, sd = float(d.mean()), float(d.std(ddof=1))
    if sd <= 1e-12 * max(1.0, abs(mean)):  # every difference the same (up to float noise)
        if abs(mean) <= 1e-12:
            return TTest(n, 0.0, 0.0, 0.0, n - 1, 1.0, 0.0)
        return TTest(n, mean, 0.0, math.copysign(math.inf, mean), n - 1, 0.0, math.copysign(math.inf, mean))
    t = mean / (sd / math.sqrt(n))
    p = min(1.0, 2.0 * student_t_sf(abs(t), n - 1))
    return TTest(n, mean, sd, t, n - 1, p, mean / sd)


@dataclass(frozen=True)
class Wilcoxon:
    """Wilcoxon signed-rank test: ``n`` non-zero differences used, ``statistic`` =
    min(W+, W−), the two-sided ``p_value``, ``method`` ("exact", "permutation" or "approx"), the normal
    ``z`` (NaN when exact) and ``zeros``/``ties`` found."""

    n: int
    statistic: float
    p_value: float
    method: str
    z: float
    zeros: int
    ties: bool


def _rank(values: np.ndarray) -> np.ndarray:
    """Ranks 1..n, ties given their average rank."""
    order = np.argsort(values, kind="mergesort")
    sorted_ = values[order]
    ranks = np.empty(len(values))
    if not len(values):
        return ranks
    starts = np.r_[True, sorted_[1:] != sorted_[:-1]]
    first = np.flatnonzero(starts)  # 0-based positions i..j of each run of equal values
    last = np.r_[first[1:], len(values)] - 1
    ranks[order] = ((first + last) / 2.0 + 1.0)[np.cumsum(starts) - 1]
    return ranks


@functools.lru_cache(maxsize=64)
def _signed_rank_counts(n: int) -> np.ndarray:
    """counts[w] = how many of the 2^n sign patterns give W+ = w (ranks 1..n, no ties); read-only,
    shared by every pair of a comparison."""
    counts = np.zeros(n * (n + 1) // 2 + 1)
    counts[0] = 1.0
    for r in range(1, n + 1):
        counts[r:] = counts[r:] + counts[:-r].copy()
    counts.flags.writeable = False
    return counts


def wilcoxon_test(a, b, *, method: str = "auto") -> Wilcoxon:
    """Two-sided Wilcoxon signed-rank test of ``b`` − ``a``, with SciPy's defaults.

    As ``scipy.stats.wilcoxon`` (1.17: zero_method="wilcox", correction=False,
    method="auto"): differences of exactly 0 are dropped before ranking; tied absolute
    differences get their average rank; the statistic is min(W+, W−). ``method="auto"``
    picks, with n the number of pairs (zeros included):

    - ``"exact"``: n <= 50 and neither zeros nor ties — the exact distribution of W+;
    - ``"permutation"``: zeros or ties and n <= 13 — all 2^n sign patterns of the
      (average-rank) signed ranks, p = 2 min(P(W+ <= w), P(W+ >= w));
    - ``"approx"`` otherwise — the normal approximation, the variance corrected for ties
      (n(n+1)(2n+1)/24 − Σ(t³ − t)/48), no continuity correction.

    Each can also be forced.

    >>> r = wilcoxon_test([0, 0, 0, 0], [1, 2, -3, 4])  # W+ = 1+2+4 = 7, W- = 3
    >>> r.statistic, r.method, r.p_value  # 6 of 16 patterns have min(W+, W-) <= 3
    (3.0, 'exact', 0.625)
    """
    if method not in ("auto", "exact", "permutation", "approx"):
        raise ValueError(f"method must be auto, exact, permutation or approx, got {method!r}")
    d = _pairs(a, b)
    total_n = len(d)
    zeros = int(np.count_nonzero(d == 0))
    d = d[d != 0]
    n = len(d)
    if n == 0:
        return Wilcoxon(0, math.nan, math.nan, "approx" if method == "auto" else method, math.nan, zeros, False)
    ranks = _rank(np.abs(d))
    ties = len(np.unique(np.abs(d))) < n
    w_plus = float(ranks[d > 0].sum())
    w_minus = float(ranks[d < 0].sum())
    stat = min(w_plus, w_minus)
    use = method
    if method == "auto":
        if total_n > WILCOXON_EXACT_MAX:
            use = "approx"
        elif zeros == 0 and not ties:
            use = "exact"
        else:
            use = "permutation" if total_n <= WILCOXON_PERMUTATION_MAX else "approx"
    if use == "exact":
        counts = _signed_rank_counts(n)
        cdf = counts[:int(math.ceil(w_plus - 1e-9)) + 1].sum() / counts.sum()
        sf = counts[int(math.floor(w_plus + 1e-9)):].sum() / counts.sum()
        return Wilcoxon(n, stat, float(min(1.0, 2.0 * min(cdf, sf))), "exact", math.nan, zeros, ties)
    if use == "permutation":
        if n > 20:
            raise ValueError(f"the permutation Wilcoxon test enumerates 2^n patterns; n = {n} is too many (at most 20)")
        signs = np.array(list(itertools.product((0.0, 1.0), repeat=n)))
        null = signs @ ranks
        tol = 1e-14 * max(1.0, abs(w_plus))
        less = float(np.mean(null <= w_plus + tol))
        greater = float(np.mean(null >= w_plus - tol))
        return Wilcoxon(n, stat, float(min(1.0, 2.0 * min(less, greater))), "permutation", math.nan, zeros, ties)
    mean = n * (n + 1) / 4.0
    _, tie_counts = np.unique(ranks, return_counts=True)
    var = n * (n + 1) * (2 * n + 1) / 24.0 - float(np.sum(tie_counts ** 3 - tie_counts)) / 48.0
    if var <= 0:
        return Wilcoxon(n, stat, 1.0, "approx", 0.0, zeros, ties)
    z = (w_plus - mean) / math.sqrt(var)
    return Wilcoxon(n, stat, float(min(1.0, 2.0 * normal_sf(abs(z)))), "approx", z, zeros, ties)


@dataclass(frozen=True)
class Randomization:
    """Paired randomization test: ``p_value``, sign patterns used, whether all were enumerated."""

    p_value: float
    rounds: int
    exact: bool


def randomization_test(a, b, *, rounds: int = ROUNDS, seed: int = SEED) -> Randomization:
    """Fisher's two-sided paired randomization (sign-flip) test of the mean difference.

    Under the null hypothesis each query's difference is as likely to be + as −. When
    2^n <= ``rounds`` every sign pattern is enumerated (exact p: the share of patterns
    whose |sum| reaches the observed one); otherwise ``rounds`` seeded random patterns
    are drawn and p = (count + 1) / (rounds + 1), which is never 0.

    >>> randomization_test([0, 0], [1, -1]).p_value  # +1-1, -1+1 reach 0; so do +1+1, -1-1
    1.0
    """
    d = _pairs(a, b)
    return randomization_tests(d[:, None], rounds=rounds, seed=seed)[0]


def randomization_tests(deltas, *, rounds: int = ROUNDS, seed: int = SEED) -> list[Randomization]:
    """:func:`randomization_test` of each column of ``deltas`` (topics × pairs), all at once:
    every pair is tested with the same seeded sign patterns, as one call per pair would.

    >>> [r.p_value for r in randomization_tests(np.array([[0.0, 1.0], [0.0, 1.0]]))]  # exact: 4 patterns
    [1.0, 0.5]
    """
    d = np.asarray(deltas, dtype=float)
    if isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1:
        raise ValueError(f"rounds must be a positive integer, got {rounds!r}")
    n, pairs = d.shape
    if n == 0:
        return [Randomization(math.nan, 0, True)] * pairs
    observed = np.abs(d.sum(axis=0))
    threshold = observed - 1e-12 * np.maximum(1.0, observed)
    if 2**n <= rounds:
        signs = np.array(list(itertools.product((1.0, -1.0), repeat=n)))
        counts = np.zeros(pairs, dtype=np.int64)
        for start in range(0, pairs, _PAIRS_AT_ONCE):
            part = slice(start, start + _PAIRS_AT_ONCE)
            counts[part] = np.count_nonzero(np.abs(signs @ d[:, part]) >= threshold[part], axis=0)
        return [Randomization(float(c / len(signs)), len(signs), True) for c in counts.tolist()]
    rng = np.random.default_rng(seed)
    counts = np.zeros(pairs, dtype=np.int64)
    by_pair = np.ascontiguousarray(d.T)  # pairs × topics: each product row is one pair's sums
    done = 0
    while done < rounds:
        size = min(2000, rounds - done)
        signs = 1.0 - 2.0 * rng.integers(0, 2, size=(size, n), dtype=np.int8)  # each sign + or -, p = 1/2
        for start in range(0, pairs, _PAIRS_AT_ONCE):
            part = slice(start, start + _PAIRS_AT_ONCE)
            sums = by_pair[part] @ signs.T
            np.abs(sums, out=sums)
            counts[part] += np.count_nonzero(sums >= threshold[part, None], axis=1)
        done += size
    return [Randomization((c + 1) / (rounds + 1), rounds, False) for c in counts.tolist()]


_PAIRS_AT_ONCE = 256  # columns of one sign-pattern product: 2000 x 256 doubles, 4 MB


# --------------------------------------------------------------------------- bootstrap

def bootstrap_means(values, *, resamples: int = RESAMPLES, seed: int = SEED) -> np.ndarray:
    """Means of ``resamples`` bootstrap samples of the columns of ``values`` (topics × systems).

    Topic indices are drawn with ``numpy.random.default_rng(seed).integers(0, n, (resamples, n))``
    and shared by all columns, so the systems (and their differences) are resampled in pairs.
    (Past 50 million indices they are drawn in chunks, to bound memory; the draws then
    differ from one single call.)

    >>> bootstrap_means([[1.0], [1.0]], resamples=3).tolist()
    [[1.0], [1.0], [1.0]]
    """
    x = np.asarray(values, dtype=float)
    if x.ndim == 1:
        x = x[:, None]
    if x.ndim != 2 or x.shape[0] == 0:
        raise ValueError(f"bootstrap needs a non-empty topics × systems table, got shape {x.shape}")
    if isinstance(resamples, bool) or not isinstance(resamples, int) or resamples < 1:
        raise ValueError(f"resamples must be a positive integer, got {resamples!r}")
    n, m = x.shape
    rng = np.random.default_rng(seed)
    out = np.empty((resamples, m))
    # the indices in one draw (as SciPy draws them) up to 50 million, else in chunks; the means in
    # blocks of rows so that no temporary holds more than about 4 million values
    draw = resamples if resamples * n <= 50_000_000 else max(1, 2_000_000 // n)
    block = max(1, 4_000_000 // (n * m))
    for start in range(0, resamples, draw):
        size = min(draw, resamples - start)
        idx = rng.integers(0, n, (size, n))
        for b in range(0, size, block):
            out[start + b:start + min(size, b + block)] = x[idx[b:b + block]].mean(axis=1)
    return out


def bootstrap_ci(values, *, confidence: float = CONFIDENCE, resamples: int = RESAMPLES, seed: int = SEED):
    """Percentile bootstrap confidence interval of the mean (one column or topics × systems).

    The interval is the (1 − c)/2 and (1 + c)/2 percentiles (numpy's linear interpolation)
    of the means of :func:`bootstrap_means` — what ``scipy.stats.bootstrap(...,
    method="percentile")`` gives with the same seed and resamples.

    >>> bootstrap_ci([0.5, 0.5, 0.5])  # no spread, no interval
    (0.5, 0.5)
    """
    if not 0 < confidence < 1:
        raise ValueError(f"confidence must be between 0 and 1, got {confidence}")
    means = bootstrap_means(values, resamples=resamples, seed=seed)
    alpha = (1.0 - confidence) / 2.0
    lo = np.percentile(means, 100 * alpha, axis=0)
    hi = np.percentile(means, 100 * (1 - alpha), axis=0)
    if means.shape[1] == 1:
        return float(lo[0]), float(hi[0])
    return lo, hi


# --------------------------------------------------------------------------- many comparisons

CORRECTIONS = ("bonferroni", "holm", "bh")


def adjust_p(p_values, method: str) -> np.ndarray:
    """p-values adjusted for many comparisons: ``"bonferroni"``, ``"holm"`` (step-down) or
    ``"bh"`` (Benjamini–Hochberg step-up, false discovery rate); NaN stays NaN and is not
    counted.

    >>> adjust_p([0.01, 0.04, 0.03], "bonferroni").round(4).tolist()
    [0.03, 0.12, 0.09]
    >>> adjust_p([0.01, 0.04, 0.03], "holm").round(4).tolist()  # 3×.01, max(2×.03, .03), max(.04, .06)
    [0.03, 0.06, 0.06]
    >>> adjust_p([0.01, 0.04, 0.03], "bh").round(4).tolist()  # 3/1×.01, min(3/3×.04), 3/2×.03 → .04
    [0.03, 0.04, 0.04]
    """
    if method not in CORRECTIONS:
        raise ValueError(f"correction must be one of {', '.join(CORRECTIONS)}, got {method!r}")
    p = np.asarray(p_values, dtype=float)
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    q = p[ok]
    m = len(q)
    if m == 0:
        return out
    if method == "bonferroni":
        adj = np.minimum(1.0, q * m)
    elif method == "holm":
        order = np.argsort(q, kind="mergesort")
        stepped = np.maximum.accumulate((m - np.arange(m)) * q[order])
        adj = np.empty(m)
        adj[order] = np.minimum(1.0, stepped)
    else:
        order = np.argsort(q, kind="mergesort")
        scaled = q[order] * m / np.arange(1, m + 1)
        stepped = np.minimum.accumulate(scaled[::-1])[::-1]
        adj = np.empty(m)
        adj[order] = np.minimum(1.0, stepped)
    out[ok] = adj
    return out


@dataclass(frozen=True)
class Tukey:
    """Tukey's HSD: ``pairs`` (i, j), the mean differences (j − i), q statistics, p-values,
    the residual mean square ``mse`` and its ``df``, and the ``design``."""

    pairs: tuple[tuple[int, int], ...]
    diffs: tuple[float, ...]
    q: tuple[float, ...]
    p_values: tuple[float, ...]
    mse: float
    df: float
    design: str


def tukey_hsd(values, *, design: str = "paired", pairs=None) -> Tukey:
    """Tukey's honestly significant difference over all pairs of systems (columns), or over
    the ``pairs`` (i, j) given (the test still spans every system: only fewer p-values).

    ``values`` is topics × systems. ``design="paired"`` (the IR default, Sakai 2014's
    two-way ANOVA without replication): the residual mean square of systems + topics,
    with (m − 1)(n − 1) degrees of freedom. ``design="independent"``: one-way ANOVA as in
    ``scipy.stats.tukey_hsd``, m(n − 1) degrees of freedom. Then q = |mean_j − mean_i| /
    sqrt(MSE / n) and p = P(Q_{m, df} > q).

    >>> t = tukey_hsd([[1, 2, 3], [2, 3, 5], [3, 4, 4]])
    >>> t.pairs, t.diffs  # column means 2, 3, 4
    (((0, 1), (0, 2), (1, 2)), (1.0, 2.0, 1.0))
    >>> round(t.mse, 4), t.df  # residuals 0 0 0, -1/3 -1/3 2/3, 1/3 1/3 -2/3: (4/3) / 4
    (0.3333, 4.0)
    """
    x = np.asarray(values, dtype=float)
    if x.ndim != 2 or x.shape[1] < 2 or x.shape[0] < 2:
        raise ValueError(f"Tukey's HSD needs at least 2 topics × 2 systems, got shape {x.shape}")
    if not np.isfinite(x).all():
        raise ValueError("Tukey's HSD needs finite values")
    if design not in ("paired", "independent"):
        raise ValueError(f"design must be paired or independent, got {design!r}")
    n, m = x.shape
    means = x.mean(axis=0)
    if design == "paired":
        resid = x - means[None, :] - x.mean(axis=1)[:, None] + x.mean()
        df = float((m - 1) * (n - 1))
    else:
        resid = x - means[None, :]
        df = float(m * (n - 1))
    mse = float(np.sum(resid ** 2) / df)
    chosen = itertools.combinations(range(m), 2) if pairs is None else list(pairs)
    pairs, diffs, qs = [], [], []
    for i, j in chosen:
        diff = float(means[j] - means[i])
        if mse <= 1e-300:
            q = 0.0 if abs(diff) <= 1e-12 else math.inf
        else:
            q = abs(diff) / math.sqrt(mse / n)
        pairs.append((i, j))
        diffs.append(diff)
        qs.append(q)
    ps = np.atleast_1d(studentized_range_sf(np.array(qs), m, df)).tolist()  # every pair at once
    return Tukey(tuple(pairs), tuple(diffs), tuple(qs), tuple(ps), mse, df, design)
