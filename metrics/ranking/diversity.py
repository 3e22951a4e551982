"""α-nDCG (Clarke et al. 2008): nDCG that rewards covering new subtopics, not repeating them.

Judgments are per subtopic (``qid subtopic docid grade``, ndeval's format). A document is
relevant to a subtopic when its grade there is >= ``rel``. The gain at rank i is the sum,
over the subtopics the document is relevant to, of (1 - α)^(the number of documents ranked
above it already relevant to that subtopic); α-DCG divides by log2(i + 1) and sums, and
α-nDCG divides by the α-DCG of an ideal ranking. Finding the ideal is NP-hard; as ndeval
does, Ranklab builds it greedily, taking at each rank the judged document with the largest
gain, ties going to the larger document id. With α = 0 and one subtopic it is the binary nDCG.
"""

from __future__ import annotations

import numpy as np

from ._query import Explanation, Query, base_columns, join_terms, num, ratio
from .dcg import discounts

DEFINITION = (r"\alpha\text{-}nDCG@k = \frac{\sum_{i \le k} g_i / \log_2(i + 1)}{\sum_{i \le k} g^*_i / \log_2(i + 1)}, "
              r"\quad g_i = \sum_{s \ni d_i} (1 - \alpha)^{r_{s,i}}")


def relevant_subtopics(q: Query, rel: int) -> dict[str, frozenset]:
    """Each judged document's subtopics with grade >= ``rel``."""
    if q.subtopics is None:
        raise ValueError("alpha_nDCG needs judgments per subtopic (qid subtopic docid grade), "
                         "e.g. {'d1': {'s1': 1, 's2': 0}}")
    return {d: frozenset(s for s, g in st.items() if g >= rel) for d, st in q.subtopics.items()}


def novelty_gains(docs: list[str], subtopics: dict[str, frozenset], alpha: float) -> np.ndarray:
    """g_i = sum over the subtopics of d_i of (1 - α)^(earlier documents with that subtopic).

    >>> novelty_gains(["a", "b", "c"], {"a": frozenset("x"), "b": frozenset("xy"), "c": frozenset()}, 0.5)
    array([1. , 1.5, 0. ])
    """
    seen: dict[str, int] = {}
    out = np.zeros(len(docs))
    for i, d in enumerate(docs):
        for s in subtopics.get(d, ()):
            out[i] += (1.0 - alpha) ** seen.get(s, 0)
            seen[s] = seen.get(s, 0) + 1
    return out


def greedy_ideal(subtopics: dict[str, frozenset], alpha: float, depth: int | None) -> tuple[list[str], np.ndarray]:
    """The greedy ideal ordering (ndeval's): the largest gain first, ties to the larger doc id.
    Stops when no document adds gain, or at ``depth``.

    >>> greedy_ideal({"a": frozenset("x"), "b": frozenset("x"), "c": frozenset("y")}, 0.5, None)
    (['c', 'b', 'a'], array([1. , 1. , 0.5]))
    """
    docs = sorted((d for d, s in subtopics.items() if s), reverse=True)  # larger ids first wins ties
    names = sorted({s for d in docs for s in subtopics[d]})
    col = {s: j for j, s in enumerate(names)}
    # the (document, subtopic) pairs as two index arrays: memory grows with the pairs, not docs x subtopics
    row = np.fromiter((i for i, d in enumerate(docs) for _ in subtopics[d]), dtype=np.int64)
    sub = np.fromiter((col[s] for d in docs for s in subtopics[d]), dtype=np.int64, count=len(row))
    weight = np.ones(len(names))
    left = np.ones(len(docs), dtype=bool)
    order, gains = [], []
    steps = len(docs) if depth is None else min(depth, len(docs))
    for _ in range(steps):
        score = np.where(left, np.round(np.bincount(row, weights=weight[sub], minlength=len(docs)), 12), -1.0)
        best = int(np.argmax(score))
        if score[best] <= 0:
            break
        order.append(docs[best])
        gains.append(float(score[best]))
        left[best] = False
        weight[sub[row == best]] *= 1.0 - alpha
    return order, np.asarray(gains, dtype=np.float64)


def trace(m, q: Query) -> Explanation:
    alpha, rel = m["alpha"], m["rel"]
    subtopics = relevant_subtopics(q, rel)
    n = q.depth(m.cutoff)
    cols = base_columns(q, n)
    gain = novelty_gains(q.docs[:n], subtopics, alpha)
    disc = discounts(n, "log2")
    contrib = gain / disc if n else gain
    cols["subtopics"] = [", ".join(sorted(subtopics.get(d, ()))) for d in q.docs[:n]]
    cols["gain"] = gain.tolist()
    cols["discount"] = disc.tolist()
    cols["contribution"] = contrib.tolist()
    cols["dcg"] = np.cumsum(contrib).tolist()
    ideal_docs, ideal_gain = greedy_ideal(subtopics, alpha, m.cutoff)
    ideal_disc = discounts(len(ideal_docs), "log2")
    dcg = float(contrib.sum())
    idcg = float((ideal_gain / ideal_disc).sum()) if len(ideal_docs) else 0.0
    value = ratio(dcg, idcg)
    ideal = {"rank": list(range(1, len(ideal_docs) + 1)), "doc": ideal_docs,
             "subtopics": [", ".join(sorted(subtopics[d])) for d in ideal_docs],
             "gain": ideal_gain.tolist(), "discount": ideal_disc.tolist()}
    k = "" if m.cutoff is None else f"@{m.cutoff}"

    def term(pair) -> str:
        return rf"\frac{{{num(pair[0])}}}{{{num(pair[1])}}}"
    terms = join_terms(list(zip(gain.tolist(), disc.tolist(), strict=True)), term)
    ideal_terms = join_terms(list(zip(ideal_gain.tolist(), ideal_disc.tolist(), strict=True)), term)
    lhs = r"\alpha\text{-nDCG}" + k
    last = (rf"{lhs} &= \frac{{{num(dcg)}}}{{{num(idcg)}}} = {num(value)}" if idcg > 0
            else rf"{lhs} &= 0 \quad (\text{{no relevant subtopic}})")
    formula = (r"\begin{aligned}"
               rf"\alpha\text{{-DCG}}{k} &= {terms} = {num(dcg)} \\ "
               rf"\alpha\text{{-IDCG}}{k} &= {ideal_terms} = {num(idcg)} \\ "
               rf"{last}\end{{aligned}}")
    summary = {"alpha": alpha, "DCG": dcg, "IDCG": idcg,
               "subtopics": len({s for st in subtopics.values() for s in st})}
    return Explanation(str(m), value, cols, formula, DEFINITION + rf", \quad \alpha = {num(alpha)}", summary, ideal)
