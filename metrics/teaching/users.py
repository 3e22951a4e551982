"""Each measure as a user (the C/W/L view, Moffat et al. 2013), and what unjudged documents do.

:func:`users` describes, for P@k, RR, AP, nDCG@k, RBP and ERR@k on one ranking, the user each
measure imagines: ``continue_`` (C_i, the chance of going on from rank i to i + 1), ``reach``
(the chance of reading rank i at all), ``weight`` (W_i, the share of attention rank i gets;
the W_i sum to 1) and ``gain``. For P@k, RR, AP and RBP the value is the expected gain per
document read, the sum of W_i g_i. nDCG and ERR are not quite that: nDCG divides DCG by the
ideal DCG, not by the sum of the discounts, and ERR counts 1/i at the rank where its user
stops (Azzopardi et al. 2021: "ERR is not C/W/L").

:func:`removal` shows how measures move as judgments are withdrawn in a fixed random order,
and :func:`condensed` is trec_eval's ``-J`` list: unjudged documents removed before scoring.
The values all come from :mod:`metrics`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from .. import core
from ..measures import parse
from ..ranking.user_models import err_stop, rbp_weight

__all__ = ["User", "users", "condensed", "kept_judgments", "removal", "REMOVAL_MEASURES"]


@dataclass(frozen=True)
class User:
    """One measure's user on one ranking (lists over ranks 1..n)."""

    measure: str
    value: float
    continue_: list[float]
    reach: list[float]
    weight: list[float]
    gain: list[float]

    def utility_until(self, rank: int) -> float:
        """Sum of W_i g_i over ranks 1..rank: the expected gain collected so far."""
        return float(sum(w * g for w, g in zip(self.weight[:rank], self.gain[:rank], strict=True)))


def _from_reach(reach: np.ndarray) -> tuple[list[float], list[float]]:
    """C_i = reach_{i+1} / reach_i (0 after the last rank read) and W_i = reach_i / sum of reach."""
    total = reach.sum()
    weight = reach / total if total > 0 else reach
    nxt = np.r_[reach[1:], 0.0]
    with np.errstate(invalid="ignore", divide="ignore"):
        cont = np.where(reach > 0, nxt / np.where(reach > 0, reach, 1.0), 0.0)
    return cont.tolist(), weight.tolist()


def users(ranking, judgments, k: int, *, p: float = 0.8, max_grade: int | None = None) -> list[User]:
    """The six users on ``ranking`` (best first) with ``judgments`` (doc -> grade), cutoff k.

    ERR's scale tops at ``max_grade`` (default: the highest grade judged, at least 1), so a
    binary example's relevant document satisfies its user half of the time.

    The cat-in-the-box ranking: relevant at ranks 2, 4, 5 and 7 of 8.

    >>> cats = {"2": 1, "4": 1, "5": 1, "7": 1}
    >>> u = {x.measure: x for x in users([str(i) for i in range(1, 9)], cats, 2)}
    >>> u["P@2"].weight[:3], u["P@2"].value  # reads ranks 1 and 2, half the attention each
    ([0.5, 0.5, 0.0], 0.5)
    >>> u["RR"].reach[:3], u["RR"].continue_[:2]  # stops at the first relevant result, rank 2
    ([1.0, 1.0, 0.0], [1.0, 0.0])
    >>> round(u["AP"].utility_until(8), 4), round(u["AP"].value, 4)  # the sum of W_i g_i is AP
    (0.5429, 0.5429)
    >>> round(u["RBP"].reach[2], 2)  # goes on with p = 0.8 each time: 0.8^2 at rank 3
    0.64
    """
    q = core.prepare(ranking, judgments)
    n = len(q.docs)
    ranks = np.arange(1, n + 1, dtype=np.float64)
    rel = q.relevant(1).astype(np.float64)
    out = []

    reach = (ranks <= k).astype(np.float64)
    cont, weight = _from_reach(reach)
    out.append(User(f"P@{k}", core.score(f"P@{k}", q.docs, judgments), cont, reach.tolist(), weight, rel.tolist()))

    first = int(np.argmax(rel)) + 1 if rel.any() else n
    reach = (ranks <= first).astype(np.float64)
    cont, weight = _from_reach(reach)
    out.append(User("RR", core.score("RR", q.docs, judgments), cont, reach.tolist(), weight, rel.tolist()))

    # AP's user picks one of the R relevant documents at random and reads down to it
    R = q.num_rel(1)
    target = rel / ranks / R if R else np.zeros(n)
    weight_ap = np.cumsum(target[::-1])[::-1] if n else target
    reach = weight_ap / weight_ap[0] if n and weight_ap[0] > 0 else np.zeros(n)
    cont, _ = _from_reach(reach)
    out.append(User("AP", core.score("AP", q.docs, judgments), cont, reach.tolist(), weight_ap.tolist(), rel.tolist()))

    grades = np.where(q.judged, np.maximum(q.grades, 0), 0).astype(np.float64)
    reach = np.where(ranks <= k, 1.0 / np.log2(ranks + 1.0), 0.0)
    cont, weight = _from_reach(reach)
    out.append(User(f"nDCG@{k}", core.score(f"nDCG@{k}", q.docs, judgments), cont, reach.tolist(), weight,
                    grades.tolist()))

    reach = np.power(p, ranks - 1.0)
    out.append(User("RBP" if p == 0.8 else f"RBP(p={p})", core.score(f"RBP(p={p})", q.docs, judgments),
                    [p] * n, reach.tolist(), rbp_weight(ranks, p).tolist() if n else [], rel.tolist()))

    top = max_grade if max_grade is not None else max(1, min(1023, max(judgments.values(), default=1)))
    stop = err_stop(grades, top) if n else np.zeros(0)
    reach = np.cumprod(np.r_[1.0, 1.0 - stop[:-1]]) if n else np.zeros(0)
    reach = np.where(ranks <= k, reach, 0.0)
    cont, weight = _from_reach(reach)
    err = str(parse(f"ERR(max_grade={top})@{k}"))
    out.append(User(err, core.score(err, q.docs, judgments), cont, reach.tolist(), weight, stop.tolist()))
    return out


def condensed(ranking, judgments) -> list[str]:
    """trec_eval's ``-J`` list: the ranking without its unjudged documents (and those graded
    -1, pooled but never judged), so the judged ones move up.

    >>> condensed(["a", "b", "c", "d"], {"a": 0, "c": 1, "d": -1})
    ['a', 'c']
    """
    q = core.prepare(ranking, judgments)
    return [d for d, j, g in zip(q.docs, q.judged, q.grades, strict=True) if j and g >= 0]


REMOVAL_MEASURES = ("P@{k}", "AP", "AP (condensed)", "Bpref", "nDCG@{k}", "Judged@{k}", "RBP",
                    "RBP(bound='upper')")


def kept_judgments(judgments, share: float, *, seed: int = 0) -> dict[str, int]:
    """The judgments left when ``share`` of them are removed, in one fixed random order.

    >>> judged = {"a": 1, "b": 0, "c": 2, "d": 0}
    >>> kept = kept_judgments(judged, 0.5)  # half of the 4 judgments stay
    >>> len(kept), kept.items() <= judged.items(), kept == kept_judgments(judged, 0.5)
    (2, True, True)
    """
    order = sorted(judgments)
    random.Random(seed).shuffle(order)
    gone = set(order[: round(share * len(order))])
    return {d: g for d, g in judgments.items() if d not in gone}


def removal(ranking, judgments, k: int, *, steps: int = 10, seed: int = 0) -> list[dict]:
    """Each measure's value as 0, 1/steps, ..., (steps - 1)/steps of the judgments are removed,
    in one fixed random order (``seed``). "(condensed)" scores the -J list.

    >>> rows = removal(["a", "b", "c"], {"a": 1, "b": 0, "c": 1}, 2, steps=2)
    >>> [(r["removed"], r["measure"], round(r["value"], 4)) for r in rows if r["measure"] == "Judged@2"]
    [(0.0, 'Judged@2', 1.0), (0.5, 'Judged@2', 0.5)]
    """
    rows = []
    for step in range(steps):
        share = step / steps
        kept = kept_judgments(judgments, share, seed=seed)
        for template in REMOVAL_MEASURES:
            name = template.format(k=k)
            if name.endswith("(condensed)"):
                value = core.score(name.split()[0], condensed(ranking, kept), kept)
            else:
                value = core.score(name, ranking, kept)
            rows.append({"removed": share, "measure": name, "value": value})
    return rows
