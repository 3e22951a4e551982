"""Fuse several runs into one: reciprocal rank fusion, CombSUM and CombMNZ.

Each run is ranked as trec_eval ranks it (score descending, ties by document id
descending), per query. A document absent from a run contributes nothing from that run.

Reciprocal rank fusion (Cormack, Clarke & Büttcher 2009)
    score(d) = Σ_runs 1 / (k + rank(d)), rank counted from 1. Each run adds at most
    1/(k + 1) (its first document) and at least 1/(k + D) (its last, at depth D), so a fused
    score lies in [1/(k + D), N/(k + 1)] for N runs. With k = 60: a run's first document adds
    1/61 = 0.01639, its 10th 1/70 = 0.01429, its 100th 1/160 = 0.00625, its 1000th 1/1060 =
    0.00094; two runs that both rank a document first give it 2/61 = 0.0328, three 3/61 =
    0.0492. (The "about 0.009–0.054" often quoted is this range for a few runs of moderate
    depth, not a bound.) A large k flattens the head of every run — rank 1 and rank 2
    differ by 1/61 − 1/62 = 0.00026 at k = 60, but by 1/2 − 1/3 = 0.167 at k = 1 — so how
    many runs retrieve a document weighs more than where they rank it. Scores are never
    looked at, so runs with incomparable scores fuse without normalisation.
CombSUM and CombMNZ (Fox & Shaw 1994)
    Each run's scores are first normalised per query: ``"minmax"`` (s − min) / (max − min),
    1.0 for every document when all scores are equal; ``"zscore"`` (s − mean) / sd with the
    population sd (0 for every document when it is 0). CombSUM adds a document's normalised
    scores; CombMNZ multiplies that sum by the number of runs that retrieved it. (With
    z-scores a sum can be negative, and CombMNZ then pushes it further down.)

The fused ranking is cut at ``depth`` documents per query and returned as
qid -> {doc: score}, ready for :func:`metrics.evaluate_batch` or :func:`write_trec_run`.

Examples
--------
Two runs of one query; run 1 ranks a, b, c and run 2 ranks b, c:

>>> fused = fuse([{"q": {"a": 3, "b": 2, "c": 1}}, {"q": {"b": 9, "c": 5}}], method="rrf", k=60)
>>> [(d, round(s, 5)) for d, s in fused["q"].items()]  # b: 1/62 + 1/61; c: 1/63 + 1/62; a: 1/61
[('b', 0.03252), ('c', 0.032), ('a', 0.01639)]
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

__all__ = ["METHODS", "NORMS", "fuse", "ranked", "normalise", "write_trec_run"]

METHODS = ("rrf", "combsum", "combmnz")
NORMS = ("minmax", "zscore")
_SQUARE_SAFE = 1e150  # a magnitude whose square, summed over many scores, stays a finite nonzero double


def _as_scores(run, where: str) -> dict[str, dict[str, float]]:
    if hasattr(run, "to_dict") and not isinstance(run, Mapping):
        run = run.to_dict()
    if not isinstance(run, Mapping):
        raise TypeError(f"{where} must be a run (qid -> {{doc: score}}), got {type(run).__name__}")
    out = {}
    for qid, docs in run.items():
        if isinstance(docs, Mapping):
            scores = {str(d): float(s) for d, s in docs.items()}
        else:  # a list best first
            docs = [str(d) for d in docs]
            if len(set(docs)) != len(docs):
                raise ValueError(f"{where}, query {qid!r}: a document is listed twice")
            scores = {d: float(-i) for i, d in enumerate(docs)}
        bad = next((d for d, s in scores.items() if not math.isfinite(s)), None)
        if bad is not None:
            raise ValueError(f"{where}, query {qid!r}: document {bad!r} has a score that is not a finite number")
        out[str(qid)] = scores
    return out


def ranked(scores: Mapping[str, float]) -> list[tuple[str, float]]:
    """(doc, score) best first, as trec_eval ranks: score descending, then doc id descending.

    >>> ranked({"a": 1.0, "b": 1.0, "c": 2.0})
    [('c', 2.0), ('b', 1.0), ('a', 1.0)]
    """
    by_id = sorted(scores.items(), key=lambda kv: kv[0].encode("utf-8", "surrogatepass"), reverse=True)
    return sorted(by_id, key=lambda kv: -kv[1])


def normalise(scores: Mapping[str, float], how: str) -> dict[str, float]:
    """One query's scores normalised by ``"minmax"`` or ``"zscore"`` (see the module).

    >>> normalise({"a": 3.0, "b": 1.0, "c": 2.0}, "minmax")
    {'a': 1.0, 'b': 0.0, 'c': 0.5}
    >>> normalise({"a": 3.0, "b": 1.0}, "zscore")  # mean 2, population sd 1
    {'a': 1.0, 'b': -1.0}
    >>> normalise({"a": 1.7e308, "b": -1.7e308}, "zscore")  # the same, though the sd overflows a double
    {'a': 1.0, 'b': -1.0}
    """
    if how not in NORMS:
        raise ValueError(f"normalisation must be one of {', '.join(NORMS)}, got {how!r}")
    if not scores:
        return {}
    v = np.array(list(scores.values()), dtype=float)
    largest = float(np.abs(v).max())
    if largest > _SQUARE_SAFE or 0 < largest < 1 / _SQUARE_SAFE:
        # the squares of the deviations (or a span near ±1.7e308) would overflow or vanish; both
        # normalisations are unchanged when every score is divided by one positive number
        v = v / largest
    if how == "minmax":
        lo, span = v.min(), v.max() - v.min()
        out = (v - lo) / span if span > 0 else np.ones_like(v)
    else:
        sd = v.std()
        out = (v - v.mean()) / sd if sd > 0 else np.zeros_like(v)
    return dict(zip(scores, out.tolist(), strict=True))


def fuse(runs, *, method: str = "rrf", k: float = 60, norm: str = "minmax", depth: int | None = 1000) -> dict:
    """Fuse ``runs`` (a list of qid -> {doc: score}, lists best first, or metrics.io.Run).

    Parameters
    ----------
    method : ``"rrf"``, ``"combsum"`` or ``"combmnz"``.
    k : RRF's constant, >= 0 (60 in Cormack et al.).
    norm : CombSUM/CombMNZ's per-query normalisation, ``"minmax"`` or ``"zscore"``.
    depth : documents kept per query (None: all).

    >>> r1, r2 = {"q": {"a": 10, "b": 0}}, {"q": {"b": 4, "c": 2, "d": 0}}
    >>> fuse([r1, r2], method="combsum")["q"]  # min-max: a 1, b 0 | b 1, c .5, d 0
    {'b': 1.0, 'a': 1.0, 'c': 0.5, 'd': 0.0}
    >>> fuse([r1, r2], method="combmnz")["q"]  # b is in both runs: (0 + 1) * 2
    {'b': 2.0, 'a': 1.0, 'c': 0.5, 'd': 0.0}
    """
    if method not in METHODS:
        raise ValueError(f"method must be one of {', '.join(METHODS)}, got {method!r}")
    if isinstance(k, bool) or not isinstance(k, int | float) or not math.isfinite(k) or k < 0:
        raise ValueError(f"k must be a finite number >= 0, got {k!r}")
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
        raise ValueError(f"depth must be a positive integer or None, got {depth!r}")
    if norm not in NORMS:
        raise ValueError(f"normalisation must be one of {', '.join(NORMS)}, got {norm!r}")
    runs = [_as_scores(r, f"run {i + 1}") for i, r in enumerate(runs)]
    if len(runs) < 2:
        raise ValueError(f"fusion needs at least 2 runs, got {len(runs)}")
    queries = list(dict.fromkeys(q for r in runs for q in r))
    out = {}
    for q in queries:
        total: dict[str, float] = {}
        count: dict[str, int] = {}
        for r in runs:
            scores = r.get(q, {})
            if method == "rrf":
                contrib = {d: 1.0 / (k + rank) for rank, (d, _) in enumerate(ranked(scores), start=1)}
            else:
                contrib = normalise(scores, norm)
            for d, v in contrib.items():
                total[d] = total.get(d, 0.0) + v
                count[d] = count.get(d, 0) + 1
        if method == "combmnz":
            total = {d: v * count[d] for d, v in total.items()}
        fused = ranked(total)
        out[q] = dict(fused[:depth] if depth is not None else fused)
    return out


def write_trec_run(out, fused: Mapping[str, Mapping[str, float]], tag: str = "fused") -> None:
    """Write ``qid Q0 doc rank score tag`` lines, ranks from 1 in trec_eval's order; scores
    printed in full (``repr``) so that reading the file back ranks the documents the same.

    >>> import io
    >>> o = io.StringIO(); write_trec_run(o, {"q": {"a": 0.5, "b": 0.25}}, "x"); print(o.getvalue(), end="")
    q Q0 a 1 0.5 x
    q Q0 b 2 0.25 x
    """
    if not tag or any(ch.isspace() for ch in tag):
        raise ValueError(f"the run tag must be one word, got {tag!r}")
    for q, scores in fused.items():
        if any(ch.isspace() for ch in q):
            raise ValueError(f"query id {q!r} contains white space and cannot be written in TREC format")
        for rank, (d, s) in enumerate(ranked(scores), start=1):
            if any(ch.isspace() for ch in d):
                raise ValueError(f"document id {d!r} (query {q!r}) contains white space")
            out.write(f"{q} Q0 {d} {rank} {s!r} {tag}\n")
