r"""trec_eval's preference measures (``prefs_*``), on preference judgments (``-R prefs``,
``-R qrels_prefs``; read by :mod:`metrics.io.prefs`).

A judgment group (jg) states preferences "document A before document B". For each
preference, the ranking **fulfils** it when A is retrieved above B, or A is retrieved and B
is not (an *implied* preference); it fails when B is above A, or B is retrieved and A is not;
when neither is retrieved it is *possible* but not fulfilled. Only the judged documents'
relative order matters. With ``ful`` and ``poss`` counted over every group:

- ``prefs_simp`` = ful / poss (every preference counts once, per group that states it);
  ``_ret`` counts only preferences between two retrieved documents, ``_imp`` also those
  with one retrieved (it drops the pairs with neither).
- ``prefs_pair``: for each pair of documents some group orders, the share of the groups
  ordering it that the ranking agrees with, averaged over the pairs (a pair with neither
  document retrieved scores 0); ``_ret`` / ``_imp`` likewise.
- ``prefs_avgjg``: ful / poss within each group, averaged over the groups; ``_ret`` /
  ``_imp`` likewise. (trec_eval returns 0 unless that sum is above 0.)
- ``prefs_avgjg_Rnonrel``: as ``prefs_avgjg`` with the group's non-relevant (level <= 0)
  documents cut or padded to R, its relevant (level > 0) count; see :func:`rnonrel`.
- ``prefs_num_prefs_poss``, ``prefs_num_prefs_ful``, ``prefs_num_prefs_ful_ret``: the
  counts; their summary over queries is the sum.

A measure whose denominator is 0 scores 0. Ties in the run's scores: trec_eval 9.0.8 orders
the run for these measures by score, then document id **ascending** (its other measures:
descending); :func:`metrics.batch.evaluate_prefs` does so, and ``metrics.score`` takes the
ranking as :func:`metrics.prepare` orders it (pass ``ties='docid-asc'`` for trec_eval's).

``metrics.score`` and ``metrics.explain`` read plain judgments ``{doc: grade}`` as
``qrels_prefs`` (one group):

>>> import metrics
>>> grades = {"a": 2, "b": 1, "c": 0}  # a > b, a > c, b > c
>>> metrics.score("prefs_simp", ["b", "a", "c"], grades)  # b > c, a > c kept; a > b broken: 2/3
0.6666666666666666
>>> metrics.score("prefs_simp", ["c"], grades)  # a > c, b > c fail (implied); a > b neither: 0/3
0.0
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..io.prefs import Pref
from ._query import Explanation, Query, frac, join_terms, label, num

__all__ = ["MAX_JUDGED", "MAX_PARTIAL", "PREF_FAMILIES", "PrefCounts", "count", "value", "trace", "rnonrel"]

# trec_eval keeps a judged x judged array per query; past this many judged documents a
# query is refused rather than allowed to take gigabytes
MAX_JUDGED = 5000
# a group with several sub-groups is closed by transitivity, in time cubic in its documents
MAX_PARTIAL = 1000

PREF_FAMILIES = ("prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret", "prefs_simp",
                 "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret",
                 "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp",
                 "prefs_avgjg_imp")


@dataclass
class Group:
    """One judgment group's preferences over its own documents.

    ``pos``: the documents' positions (0..NJR-1 the retrieved ones in rank order, then the
    unretrieved ones by document id), ascending; ``prefer[a, b]``: document a is preferred
    to b; ``rel``: the level each document counts as for relevant (> 0) / non-relevant
    (== 0), NaN for neither; ``classes``: with one sub-group, the positions of each level,
    highest level first (None when several sub-groups give a partial order).
    """

    name: str
    pos: np.ndarray
    prefer: np.ndarray
    rel: np.ndarray
    classes: list[np.ndarray] | None
    ful_ret: int = 0
    poss_ret: int = 0
    ful_imp: int = 0
    poss_imp: int = 0
    notoccur: int = 0
    num_rel: int = 0
    num_rel_ret: int = 0
    num_nonrel: int = 0
    num_nonrel_ret: int = 0


@dataclass
class PrefCounts:
    """A query's preference counts: ``docs`` by position, ``judged_ret`` of them retrieved."""

    docs: list[str]
    judged_ret: int
    groups: list[Group]
    _pairs: np.ndarray | None = None

    @property
    def num_judged(self) -> int:
        return len(self.docs)

    def pair_counts(self) -> np.ndarray:
        """``c[i, j]``: how many groups prefer the document at position i to the one at j
        (computed once per query)."""
        if self._pairs is None:
            n = len(self.docs)
            c = np.zeros((n, n), dtype=np.int32)
            for g in self.groups:
                c[np.ix_(g.pos, g.pos)] += g.prefer
            self._pairs = c
        return self._pairs


def count(order: Sequence[str], judgments: Sequence[Pref], *, query: str = "") -> PrefCounts:
    """Count a query's preferences against a ranking (``order``: retrieved documents, best first).

    >>> p = [Pref("u", "s", "a", 2.0), Pref("u", "s", "b", 1.0), Pref("u", "s", "c", 0.0)]
    >>> c = count(["x", "b", "a"], p)  # c not retrieved
    >>> g = c.groups[0]
    >>> (g.ful_ret, g.poss_ret, g.ful_imp, g.poss_imp, g.notoccur)  # a>b broken; a>c, b>c implied
    (0, 1, 2, 2, 0)
    """
    where = f"query {query}: " if query else ""
    judged = {p.doc for p in judgments}
    if len(judged) > MAX_JUDGED:
        raise ValueError(f"{where}{len(judged)} judged documents; preference measures take at most {MAX_JUDGED} "
                         "per query (they compare every pair)")
    retrieved = [d for d in dict.fromkeys(order) if d in judged]
    position = {d: i for i, d in enumerate(retrieved)}
    for d in sorted(judged - position.keys()):  # trec_eval: unretrieved documents by id
        position[d] = len(position)
    docs = sorted(position, key=position.__getitem__)
    njr = len(retrieved)
    by_group: dict[str, list[Pref]] = {}
    for p in judgments:
        by_group.setdefault(p.jg, []).append(p)
    groups = [_group(jg, by_group[jg], position, njr, where) for jg in sorted(by_group)]
    return PrefCounts(docs, njr, groups)


def _group(name: str, lines: list[Pref], position: dict[str, int], njr: int, where: str) -> Group:
    local = sorted({position[p.doc] for p in lines})
    index = {p: i for i, p in enumerate(local)}
    pos = np.asarray(local, dtype=np.int64)
    m = len(local)
    # trec_eval's order: sub-group, level descending, position
    lines = sorted(lines, key=lambda p: (p.jsg, -p.level, position[p.doc]))
    subgroups: dict[str, list[Pref]] = {}
    for p in lines:
        subgroups.setdefault(p.jsg, []).append(p)
    if len(subgroups) == 1:
        level = np.empty(m)
        for p in lines:
            level[index[position[p.doc]]] = p.level
        prefer = level[:, None] > level[None, :]
        rel = np.where(level > 0, 1.0, 0.0)  # one sub-group: level <= 0 counts as non-relevant
        values = sorted(set(level.tolist()), reverse=True)
        classes = [pos[level == v] for v in values]
    else:
        if m > MAX_PARTIAL:
            raise ValueError(f"{where}group {name!r}: {m} documents in several sub-groups; preference measures "
                             f"take at most {MAX_PARTIAL} per group with sub-groups (their order is closed by "
                             "transitivity, in time cubic in the documents)")
        prefer = np.zeros((m, m), dtype=bool)
        rel = np.full(m, np.nan)
        last = np.full(m, -1.0)  # trec_eval's rel_array: the level last given, -1 before any
        for p in lines:
            i = index[position[p.doc]]
            if (last[i] > 0 and p.level == 0) or (last[i] == 0 and p.level > 0):
                line = f" (line {p.line})" if p.line else ""
                raise ValueError(f"{where}group {name!r}: document {p.doc!r} has both level 0 and a level "
                                 f"above 0{line}")
            last[i] = p.level
        for sub in subgroups.values():
            ids = np.asarray([index[position[p.doc]] for p in sub])
            lv = np.asarray([p.level for p in sub])
            prefer[np.ix_(ids, ids)] |= lv[:, None] > lv[None, :]
        _close(prefer)
        # two different documents each preferred to the other (the closure also marks each document
        # of a cycle as preferred to itself: naming that pair would say 'D1' to 'D1')
        clash = np.argwhere(prefer & prefer.T & ~np.eye(m, dtype=bool))
        if clash.size:
            docs = sorted(position, key=position.__getitem__)
            a, b = (docs[pos[k]] for k in clash[0])
            raise ValueError(f"{where}group {name!r}: its sub-groups prefer {a!r} to {b!r} and {b!r} to {a!r} "
                             "(directly or through other documents); one group must be consistent")
        rel = np.where(last > 0, 1.0, np.where(last == 0, 0.0, np.nan))
        classes = None
    g = Group(name, pos, prefer, rel, classes)
    k = int(np.count_nonzero(pos < njr))  # the first k documents are retrieved
    g.ful_ret = int(np.count_nonzero(np.triu(prefer[:k, :k], 1)))
    g.poss_ret = int(np.count_nonzero(prefer[:k, :k]))
    g.ful_imp = int(np.count_nonzero(prefer[:k, k:]))
    g.poss_imp = g.ful_imp + int(np.count_nonzero(prefer[k:, :k]))
    g.notoccur = int(np.count_nonzero(prefer[k:, k:]))
    g.num_rel, g.num_rel_ret = int(np.count_nonzero(rel == 1)), int(np.count_nonzero(rel[:k] == 1))
    g.num_nonrel, g.num_nonrel_ret = int(np.count_nonzero(rel == 0)), int(np.count_nonzero(rel[:k] == 0))
    return g


def _close(prefer: np.ndarray) -> None:
    """Transitive closure in place (Warshall): a > k and k > b give a > b."""
    for k in range(len(prefer)):
        above = prefer[:, k]
        if above.any() and prefer[k].any():
            prefer[above] |= prefer[k]


# --------------------------------------------------------------------------- the measures

def _ful_poss(g: Group, kind: str) -> tuple[int, int]:
    if kind == "ret":
        return g.ful_ret, g.poss_ret
    if kind == "imp":
        return g.ful_ret + g.ful_imp, g.poss_ret + g.poss_imp
    return g.ful_ret + g.ful_imp, g.poss_ret + g.poss_imp + g.notoccur


def _kind(name: str) -> str:
    return "ret" if name.endswith("_ret") else "imp" if name.endswith("_imp") else "all"


def simple(c: PrefCounts, kind: str = "all") -> tuple[int, int]:
    """(fulfilled, possible) over every group."""
    pairs = [_ful_poss(g, kind) for g in c.groups]
    return sum(f for f, _ in pairs), sum(p for _, p in pairs)


def _pair_arrays(c: PrefCounts, kind: str):
    pc = c.pair_counts()
    i, j = np.nonzero(np.triu(pc + pc.T, 1))
    njr = c.judged_ret
    keep = j < njr if kind == "ret" else i < njr if kind == "imp" else slice(None)
    i, j = i[keep], j[keep]
    return i, j, pc[i, j], pc[j, i]


def pairs(c: PrefCounts, kind: str = "all") -> list[tuple[int, int, int, int]]:
    """The ordered document pairs: (position i, position j > i, groups for i, groups for j)."""
    return list(zip(*(a.tolist() for a in _pair_arrays(c, kind)), strict=True))


def pair_value(c: PrefCounts, kind: str = "all") -> float:
    i, _, ab, ba = _pair_arrays(c, kind)
    if not len(i):
        return 0.0
    # the earlier document is the one ranked higher; a pair with neither retrieved scores 0
    share = np.where(i < c.judged_ret, ab / (ab + ba), 0.0)
    return float(share.sum() / len(i))


def averaged(values: list[float], n: int) -> float:
    """trec_eval's average over groups: the sum over n, or 0 unless the sum is above 0 (NaN too)."""
    total = 0.0
    for v in values:  # in group order, as trec_eval sums (a NaN stays NaN)
        total += v
    return total / n if total > 0.0 else 0.0


def rnonrel(g: Group, njr: int, *, retrieved: bool) -> tuple[int, int]:
    """(fulfilled, possible) of ``prefs_avgjg_Rnonrel`` (``retrieved``: ``_ret``) in group g.

    With R relevant (level > 0) and N non-relevant (level 0; with one sub-group, level <= 0)
    documents — for ``_ret``, retrieved ones — R >= N pads the group with R - N non-relevant
    documents ranked last: as trec_eval counts it, ``num_rel_ret * (R - N)`` more fulfilled
    and ``num_rel * (R - N)`` more possible preferences (num_rel: all relevant documents,
    also in ``_ret``). R < N keeps only the first R non-relevant documents (by
    position) and counts again. trec_eval's recount, followed here, also pairs the lowest
    level's documents with those first R (so a document with itself, as a preference not
    fulfilled) and, in ``_ret`` with several sub-groups, cuts at the (num_rel + 1)-th
    non-relevant retrieved document using all relevant documents, retrieved or not.
    """
    R, N = (g.num_rel_ret, g.num_nonrel_ret) if retrieved else (g.num_rel, g.num_nonrel)
    if R >= N:
        ful, poss = _ful_poss(g, "ret" if retrieved else "all")
        return ful + g.num_rel_ret * (R - N), poss + g.num_rel * (R - N)
    if g.classes is not None:
        classes = [c[c < njr] for c in g.classes] if retrieved else g.classes
        kept = g.classes[-1][:R]
        if retrieved:
            kept = kept[kept < njr]
        ful = poss = 0
        for a in range(len(classes)):
            for b in range(a + 1, len(classes) - 1):
                f, n = _ordered(classes[a], classes[b], njr)
                ful, poss = ful + f, poss + n
            f, n = _ordered(classes[a], kept, njr)
            ful, poss = ful + f, poss + n
        return ful, poss
    nonrel = np.flatnonzero(g.rel == 0)
    if retrieved:
        nonrel = nonrel[g.pos[nonrel] < njr]
    drop = np.zeros(len(g.pos), dtype=bool)
    drop[nonrel[g.num_rel:]] = True
    keep = ~drop
    if retrieved:
        keep &= g.pos < njr
    sub = g.prefer[np.ix_(keep, keep)]
    p = g.pos[keep]
    ful = int(np.count_nonzero(np.triu(sub, 1)[p < njr])) if not retrieved else int(np.count_nonzero(np.triu(sub, 1)))
    return ful, int(np.count_nonzero(sub))


def _ordered(a: np.ndarray, b: np.ndarray, njr: int) -> tuple[int, int]:
    """Preferences "each of a before each of b": (fulfilled: a above b and a retrieved, all)."""
    first = a[a < njr]
    ful = int(len(b) * len(first) - np.searchsorted(b, first, side="right").sum())
    return ful, len(a) * len(b)


def value(name: str, c: PrefCounts) -> float:
    """The value of measure family ``name`` (a ``prefs_*`` name) from a query's counts."""
    kind = _kind(name)
    if name.startswith("prefs_num_prefs"):
        f, p = simple(c, "ret" if name.endswith("_ret") else "all")
        return float(p if name == "prefs_num_prefs_poss" else f)
    if name.startswith("prefs_simp"):
        f, p = simple(c, kind)
        return f / p if p else 0.0
    if name.startswith("prefs_pair"):
        return pair_value(c, kind)
    if name.startswith("prefs_avgjg_Rnonrel"):
        parts = []
        for g in c.groups:
            f, p = rnonrel(g, c.judged_ret, retrieved=kind == "ret")
            parts.append(f / p if p else math.nan)  # 0/0: trec_eval's NaN, and the query scores 0
        return averaged(parts, len(c.groups))
    parts = []
    for g in c.groups:
        f, p = _ful_poss(g, kind)
        if p:
            parts.append(f / p)
    return averaged(parts, len(c.groups))


# --------------------------------------------------------------------------- explanations

DEFINITIONS = {
    "simp": r"\frac{\text{preferences fulfilled}}{\text{preferences stated}}",
    "pair": r"\frac{1}{|\text{pairs}|} \sum_{(a, b)} \frac{\text{groups preferring the one ranked higher}}"
            r"{\text{groups ordering } a, b}",
    "avgjg": r"\frac{1}{|\text{groups}|} \sum_{g} \frac{\text{fulfilled}_g}{\text{possible}_g}",
    "num": r"\text{count of preferences}",
}

OUTCOMES = np.array(["fulfilled", "broken", "fulfilled (implied)", "broken (implied)", "neither retrieved"],
                    dtype=object)


def _outcome(pa: np.ndarray, pb: np.ndarray, njr: int) -> np.ndarray:
    """Index into OUTCOMES of each preference "pa before pb" (positions)."""
    ra, rb = pa < njr, pb < njr
    return np.select([ra & rb & (pa < pb), ra & rb, ra, rb], [0, 1, 2, 3], 4)


def judgments_of(q: Query) -> list[Pref]:
    """Plain judgments read as ``qrels_prefs``: one group '0', one sub-group."""
    return [Pref("0", "0", d, float(g)) for d, g in q.judgments.items()]


def trace(m, q: Query) -> Explanation:
    """Explain a ``prefs_*`` measure on plain judgments (one group, as ``-R qrels_prefs``)."""
    c = count(q.docs, judgments_of(q))
    return explain_counts(m, c)


def explain_counts(m, c: PrefCounts) -> Explanation:
    """The explanation of measure m from a query's counts: one row per preference (per pair
    for ``prefs_pair``), with the documents' ranks among the judged retrieved ones."""
    name, kind = m.name, _kind(m.name)
    lhs = label(m).replace("_", r"\_")  # prefs\_simp: an underscore is a subscript in LaTeX
    v = value(name, c)
    njr = c.judged_ret
    rank = [p + 1 if p < njr else None for p in range(c.num_judged)]
    if name.startswith("prefs_pair"):
        i, j, ab, ba = _pair_arrays(c, kind)
        docs = np.asarray(c.docs, dtype=object)
        ranks = np.asarray(rank, dtype=object)
        agree = np.where(i < njr, ab, 0)  # the earlier document is ranked higher; neither retrieved: 0
        total = ab + ba
        cols = {"rank": list(range(1, len(i) + 1)), "doc": docs[i].tolist(), "other": docs[j].tolist(),
                "doc_rank": ranks[i].tolist(), "other_rank": ranks[j].tolist(), "groups_agree": agree.tolist(),
                "groups": total.tolist(), "score": (agree / np.maximum(total, 1)).tolist()}
        terms = join_terms(list(zip(cols["groups_agree"], cols["groups"], strict=True)), lambda t: frac(*t))
        ps = cols["rank"]
        formula = (rf"{lhs} = \frac{{{terms}}}{{{len(ps)}}} = {num(v)}" if ps
                   else rf"{lhs} = 0 \quad (\text{{no pair of documents is ordered}})")
        return Explanation(str(m), v, cols, formula, DEFINITIONS["pair"], {"pairs": len(ps)})
    name_of, first, second, outcome = [], [], [], []
    for k, g in enumerate(c.groups):
        a, b = np.nonzero(g.prefer)
        pa, pb = g.pos[a], g.pos[b]
        out = _outcome(pa, pb, njr)
        keep = out < 2 if kind == "ret" else out < 4 if kind == "imp" else slice(None)
        first.append(pa[keep])
        second.append(pb[keep])
        outcome.append(out[keep])
        name_of.append(np.full(len(outcome[-1]), k))
    group = np.concatenate(name_of) if name_of else np.zeros(0, np.int64)
    pa, pb, out = (np.concatenate(x) if x else np.zeros(0, np.int64) for x in (first, second, outcome))
    order = np.lexsort((group, pb, pa))
    group, pa, pb, out = group[order], pa[order], pb[order], out[order]
    docs = np.asarray(c.docs, dtype=object)
    ranks = np.asarray(rank, dtype=object)
    names = np.asarray([g.name for g in c.groups], dtype=object)
    fulfilled = (out == 0) | (out == 2)
    cols = {"rank": list(range(1, len(pa) + 1)), "doc": docs[pa].tolist(), "other": docs[pb].tolist(),
            "group": names[group].tolist(), "doc_rank": ranks[pa].tolist(), "other_rank": ranks[pb].tolist(),
            "outcome": OUTCOMES[out].tolist(), "fulfilled": fulfilled.tolist(),
            "fulfilled_so_far": np.cumsum(fulfilled, dtype=np.int64).tolist()}
    rows = cols["rank"]
    ful = sum(cols["fulfilled"])
    summary = {"fulfilled": ful, "possible": len(rows), "groups": len(c.groups), "judged_retrieved": njr}
    if name.startswith("prefs_num_prefs"):
        formula = rf"{lhs} = {num(v)}"
        return Explanation(str(m), v, cols, formula, DEFINITIONS["num"], summary)
    if name.startswith("prefs_simp"):
        formula = (rf"{lhs} = {frac(ful, len(rows))} = {num(v)}" if rows
                   else rf"{lhs} = 0 \quad (\text{{no preference to fulfil}})")
        return Explanation(str(m), v, cols, formula, DEFINITIONS["simp"], summary)
    if name.startswith("prefs_avgjg_Rnonrel"):
        parts = [rnonrel(g, njr, retrieved=kind == "ret") for g in c.groups]
    else:
        parts = [_ful_poss(g, kind) for g in c.groups]
    terms = join_terms(parts, lambda t: frac(*t) if t[1] else "0")
    formula = rf"{lhs} = \frac{{{terms}}}{{{len(c.groups)}}} = {num(v)}" if c.groups else rf"{lhs} = 0"
    return Explanation(str(m), v, cols, formula, DEFINITIONS["avgjg"], summary)
