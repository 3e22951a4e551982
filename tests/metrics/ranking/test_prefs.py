"""trec_eval's preference measures (prefs_*) and the prefs / qrels_prefs formats.

No installable tool computes them (pytrec_eval and ir_measures leave them out), so the
oracles are: values worked out by hand below from trec_eval 9.0.8's definitions (its
m_prefs_*.c help texts and form_prefs_counts.c's comments); a brute-force evaluator written
here that walks every pair of documents with sets and loops (no matrices, no shared code);
and pytrec_eval's bpref, which prefs_simp equals on binary judgments with no more
non-relevant than relevant documents judged.
"""

from __future__ import annotations

import random
import re
from itertools import combinations

import numpy as np
import pytest
import pytrec_eval

import metrics
from metrics.batch import evaluate_prefs, prefs_orders
from metrics.io.model import FileFormatError
from metrics.io.prefs import Pref, prefs_from_dict, read_prefs, read_qrels_prefs
from metrics.ranking.preferences import PREF_FAMILIES
from tests.metrics.cli.test_cli import no_traceback, ranklab

ALL = " ".join(PREF_FAMILIES)


def one(prefs: dict, run: dict, measures: str = ALL, **kw) -> dict:
    """Per-query values of the only query, q."""
    return evaluate_prefs(prefs_from_dict(prefs), run, measures, **kw).per_query["q"]


# --------------------------------------------------------------------------- by hand

def test_the_format_examples_count_as_trec_eval_documents():
    # get_prefs.c: one sub-group ranking six documents, 4 at 6, 1 at 3, 2 and 6 at 2, 3 and 5
    # at 0: 5 + 4 + 2 * 2 = 13 preferences (the tied documents are not ordered)
    six = [("u", "s", d, lv) for d, lv in [("d1", 3), ("d2", 2), ("d3", 0), ("d4", 6), ("d5", 0), ("d6", 2)]]
    assert one({"q": six}, {"q": ["zz"]})["prefs_num_prefs_poss"] == 13
    # two sub-groups of one group: 1 > 2 > 3 and 2 > 4, closed by transitivity: 1 > 4 too, 5 in all
    sub = [("u", "s1", "d1", 3), ("u", "s1", "d2", 2), ("u", "s1", "d3", 1), ("u", "s2", "d2", 5), ("u", "s2", "d4", 4)]
    assert one({"q": sub}, {"q": ["zz"]})["prefs_num_prefs_poss"] == 5
    # two users: u1 1 > 2; u2 3 > 4 > 1 (sub-group 1) and 2 > 1 (sub-group 2): 1 + 4 = 5
    users = [("u1", "s1", "d1", 3), ("u1", "s1", "d2", 2), ("u2", "s1", "d1", 0), ("u2", "s1", "d3", 6),
             ("u2", "s1", "d4", 2), ("u2", "s2", "d1", 0), ("u2", "s2", "d2", 8)]
    v = one({"q": users}, {"q": {"d2": 3.0, "d1": 2.0, "d9": 1.5, "d4": 1.0}})
    # ranking of the judged: d2, d1, d4; d3 not retrieved.
    # u1: 1 > 2 broken. u2: 3 > 4 and 3 > 1 broken (3 not retrieved, implied), 4 > 1 broken
    # (d1 above d4), 2 > 1 kept. Fulfilled 1 of 5, 1 of them with both retrieved.
    assert (v["prefs_num_prefs_poss"], v["prefs_num_prefs_ful"], v["prefs_num_prefs_ful_ret"]) == (5, 1, 1)
    assert v["prefs_simp"] == 1 / 5
    assert v["prefs_avgjg"] == pytest.approx((0 / 1 + 1 / 4) / 2, abs=1e-15)
    # pairs: {1,2} ordered by u1 (1 > 2) and u2 (2 > 1); d2 is ranked higher: 1 group of 2.
    # {3,4}, {3,1}: d3 unretrieved, 0 each; {4,1}: d1 higher, 0 of 1. (1/2 + 0 + 0 + 0) / 4
    assert v["prefs_pair"] == 1 / 8
    # both retrieved only: 1 > 2 (u1) broken, 4 > 1 broken, 2 > 1 kept: 1/3; pairs {1,2}: 1/2, {4,1}: 0
    assert v["prefs_simp_ret"] == 1 / 3 and v["prefs_pair_ret"] == 1 / 4
    # per group, retrieved only: u1 0/1, u2 1/2
    assert v["prefs_avgjg_ret"] == pytest.approx((0 + 1 / 2) / 2, abs=1e-15)
    # _imp leaves out preferences with neither retrieved: none here, so as the plain ones
    assert (v["prefs_simp_imp"], v["prefs_pair_imp"]) == (v["prefs_simp"], v["prefs_pair"])


def test_ties_unretrieved_documents_and_an_empty_query():
    grades = {"a": 2, "b": 2, "c": 1, "n": 0}  # a, b tied: 5 preferences (a>c a>n b>c b>n c>n)
    p = {"q": grades, "tied": {"x": 1, "y": 1}}
    e = evaluate_prefs(prefs_from_dict(p), {"q": ["c", "a", "zz"], "tied": ["x", "y"]}, ALL)
    v = e.per_query["q"]
    # judged ranking c, a; b and n not retrieved.
    # a>c broken; a>n kept (implied); b>c broken (implied); b>n neither retrieved; c>n kept (implied)
    assert (v["prefs_num_prefs_poss"], v["prefs_num_prefs_ful"], v["prefs_num_prefs_ful_ret"]) == (5, 2, 0)
    assert v["prefs_simp"] == 2 / 5
    assert v["prefs_simp_ret"] == 0.0  # the one preference between retrieved documents is broken
    assert v["prefs_simp_imp"] == 2 / 4  # b>n left out
    assert v["prefs_pair"] == 2 / 5 and v["prefs_pair_imp"] == 2 / 4  # one group: a pair per preference
    # ties only: nothing to fulfil, every ratio 0 (denominator 0), and the query still counts;
    # prefs_avgjg_Rnonrel pads R = 2 relevant, N = 0: (0 + 2 * 2) / (0 + 2 * 2) = 1
    tied = e.per_query["tied"]
    assert tied["prefs_avgjg_Rnonrel"] == tied["prefs_avgjg_Rnonrel_ret"] == 1.0
    assert all(x == 0.0 for k, x in tied.items() if "Rnonrel" not in k)
    assert e.aggregate["prefs_simp"] == (2 / 5 + 0) / 2
    assert e.aggregate["prefs_num_prefs_poss"] == 5  # counts are summed over queries


def test_run_ties_are_broken_by_docid_ascending_and_depth_cuts():
    # trec_eval's form_prefs_counts sorts the run by score, then docno ascending (its other
    # measures: descending). a and b tie: a ranks first, so a > b is fulfilled.
    run = {"q": {"b": 1.0, "a": 1.0, "c": 0.5}}
    assert one({"q": {"a": 1, "b": 0}}, run, "prefs_simp")["prefs_simp"] == 1.0
    assert one({"q": {"b": 1, "a": 0}}, run, "prefs_simp")["prefs_simp"] == 0.0
    # 9.0.8 compares scores as float32: 1.000000001 and 1.0 tie there, not in 10.0
    close = {"q": {"b": 1.000000001, "a": 1.0}}
    assert one({"q": {"a": 1, "b": 0}}, close, "prefs_simp")["prefs_simp"] == 1.0
    assert one({"q": {"a": 1, "b": 0}}, close, "prefs_simp", trec_eval="10.0")["prefs_simp"] == 0.0
    # -M 1 keeps only a: c > a becomes implied-broken, a > b implied-fulfilled
    v = one({"q": {"c": 2, "a": 1, "b": 0}}, run, "prefs_simp prefs_num_prefs_ful_ret", depth=1)
    assert v["prefs_simp"] == 1 / 3 and v["prefs_num_prefs_ful_ret"] == 0


def test_rnonrel_pads_and_cuts_as_trec_eval_counts():
    # R >= N: a 2, b 1 relevant, n 0; ranking b, n, a. a>b broken, a>n broken, b>n kept: 1/3.
    # Padding adds num_rel_ret * (R - N) = 2 * 1 fulfilled and num_rel * (R - N) = 2 possible:
    # (1 + 2) / (3 + 2)
    v = one({"q": {"a": 2, "b": 1, "n": 0}}, {"q": ["b", "n", "a"]}, "prefs_avgjg_Rnonrel prefs_avgjg_Rnonrel_ret")
    assert v["prefs_avgjg_Rnonrel"] == 3 / 5 and v["prefs_avgjg_Rnonrel_ret"] == 3 / 5
    # R < N: a relevant, n1 n2 n3 not; ranking a, n1, n2 (n3 not retrieved). trec_eval keeps the
    # first R = 1 non-relevant document (n1) and recounts: a > n1 kept; its recount also pairs
    # every document of the lowest level with n1 (n1, n2, n3 after n1: none fulfilled): 1 / 4
    p = {"q": {"a": 1, "n1": 0, "n2": 0, "n3": 0}}
    v = one(p, {"q": ["a", "n1", "n2"]}, "prefs_avgjg_Rnonrel prefs_avgjg_Rnonrel_ret")
    assert v["prefs_avgjg_Rnonrel"] == 1 / 4
    # _ret: R = 1 relevant retrieved < N = 2 retrieved non-relevant; retrieved pairs: a > n1 kept,
    # then n1 and n2 against n1: 1 / 3
    assert v["prefs_avgjg_Rnonrel_ret"] == 1 / 3


def test_several_judgment_groups_average():
    p = {"q": [("u1", "s", "a", 1), ("u1", "s", "b", 0), ("u2", "s", "b", 1), ("u2", "s", "a", 0),
               ("u2", "s", "c", 0), ("u3", "s", "c", 5), ("u3", "s", "d", 5)]}
    v = one(p, {"q": ["a", "b", "c"]})
    # u1: a > b kept 1/1. u2: b > a broken, b > c kept: 1/2. u3: c, d tied, no preference (skipped
    # in the sum, still one of the 3 groups). avgjg = (1 + 1/2) / 3; simp = 2/3
    assert v["prefs_avgjg"] == pytest.approx(1.5 / 3, abs=1e-15) and v["prefs_simp"] == 2 / 3
    # pairs {a,b}: u1 for a (higher), u2 for b: 1/2. {b,c}: 1/1. (1/2 + 1) / 2
    assert v["prefs_pair"] == 0.75


# --------------------------------------------------------------------------- brute force

def brute_force(lines: list[tuple[str, str, str, float]], scores: dict[str, float], depth=None) -> dict:
    """Every prefs_* measure of one query, by walking document pairs with sets and loops."""
    ranked = sorted(scores, key=lambda d: (-float(np.float32(scores[d])), d))[:depth]
    rank = {d: i for i, d in enumerate(ranked)}
    judged = {d for _, _, d, _ in lines}
    # position: the judged retrieved by rank, then the judged unretrieved by id
    order = [d for d in ranked if d in judged] + sorted(d for d in judged if d not in rank)
    pos = {d: i for i, d in enumerate(order)}

    def ret(d):
        return d in rank

    def above(a, b):  # a before b for the user: a retrieved, and b not or lower
        return ret(a) and (not ret(b) or rank[a] < rank[b])

    groups = {}
    for jg, jsg, d, lv in lines:
        groups.setdefault(jg, {}).setdefault(jsg, {})[d] = lv
    prefs = {}  # jg -> set of (a, b)
    for jg, subs in groups.items():
        found = {(a, b) for sub in subs.values() for a in sub for b in sub if sub[a] > sub[b]}
        while True:
            more = {(a, c) for a, b in found for b2, c in found if b == b2} - found
            if not more:
                break
            found |= more
        prefs[jg] = found

    def fp(jg, kind):
        ful = poss = 0
        for a, b in prefs[jg]:
            if kind == "ret" and not (ret(a) and ret(b)):
                continue
            if kind == "imp" and not (ret(a) or ret(b)):
                continue
            poss += 1
            ful += above(a, b)
        return ful, poss

    out = {}
    for kind, suffix in (("all", ""), ("ret", "_ret"), ("imp", "_imp")):
        f = sum(fp(jg, kind)[0] for jg in prefs)
        p = sum(fp(jg, kind)[1] for jg in prefs)
        out["prefs_simp" + suffix] = f / p if p else 0.0
        parts = [fp(jg, kind) for jg in sorted(prefs)]
        total = sum(a / b for a, b in parts if b)
        out["prefs_avgjg" + suffix] = total / len(parts) if total > 0 else 0.0
        pair_sum, pairs = 0.0, 0
        for x, y in combinations(sorted(judged), 2):
            fx = sum((x, y) in prefs[jg] for jg in prefs)
            fy = sum((y, x) in prefs[jg] for jg in prefs)
            if not fx and not fy:
                continue
            if kind == "ret" and not (ret(x) and ret(y)) or kind == "imp" and not (ret(x) or ret(y)):
                continue
            pairs += 1
            if above(x, y):
                pair_sum += fx / (fx + fy)
            elif above(y, x):
                pair_sum += fy / (fx + fy)
        out["prefs_pair" + suffix] = pair_sum / pairs if pairs else 0.0
    out["prefs_num_prefs_poss"] = sum(fp(jg, "all")[1] for jg in prefs)
    out["prefs_num_prefs_ful"] = sum(fp(jg, "all")[0] for jg in prefs)
    out["prefs_num_prefs_ful_ret"] = sum(fp(jg, "ret")[0] for jg in prefs)
    for suffix, retrieved in (("", False), ("_ret", True)):
        total = 0.0
        for jg in sorted(groups):
            total += rnonrel_brute(groups[jg], prefs[jg], pos, ret, above, retrieved)
        out["prefs_avgjg_Rnonrel" + suffix] = total / len(groups) if total > 0 else 0.0
    return out


def rnonrel_brute(subs: dict, found: set, pos: dict, ret, above, retrieved: bool) -> float:
    """prefs_avgjg_Rnonrel's ratio for one group, as trec_eval's m_prefs_avgjg_Rnonrel*.c count."""
    level = {d: lv for sub in subs.values() for d, lv in sub.items()}  # nonnegative levels when several
    one_sub = len(subs) == 1
    rel = [d for d in level if level[d] > 0]
    nonrel = [d for d in level if (level[d] <= 0 if one_sub else level[d] == 0)]
    R = sum(map(ret, rel)) if retrieved else len(rel)
    N = sum(map(ret, nonrel)) if retrieved else len(nonrel)
    if R >= N:
        ful = sum(1 for a, b in found if (ret(a) and ret(b) or not retrieved) and above(a, b))
        poss = sum(1 for a, b in found if ret(a) and ret(b) or not retrieved)
        ful, poss = ful + sum(map(ret, rel)) * (R - N), poss + len(rel) * (R - N)
        return ful / poss if poss else float("nan")
    ful = poss = 0
    if one_sub:  # classes by level, highest first; the first R of the lowest level kept
        values = sorted(set(level.values()), reverse=True)
        classes = [sorted((d for d in level if level[d] == v), key=pos.get) for v in values]
        if retrieved:
            classes = [[d for d in c if ret(d)] for c in classes]
        lowest = sorted((d for d in level if level[d] == values[-1]), key=pos.get)[:R]
        kept = [d for d in lowest if ret(d)] if retrieved else lowest
        for i, c1 in enumerate(classes):
            for c2 in [*classes[i + 1:len(classes) - 1], kept]:
                for a in c1:
                    for b in c2:
                        poss += 1
                        ful += ret(a) and pos[a] < pos[b]
        return ful / poss if poss else float("nan")
    cut = sorted((d for d in nonrel if ret(d) or not retrieved), key=pos.get)[len(rel):]
    for a, b in found:
        if a in cut or b in cut or retrieved and not (ret(a) and ret(b)):
            continue
        poss += 1
        ful += above(a, b)
    return ful / poss if poss else float("nan")


def random_query(rng: random.Random) -> tuple[list, dict]:
    """Judgments (one group as qrels_prefs, or several with sub-groups drawn from one hidden
    order per group, so each group is consistent) and a run with ties."""
    docs = [f"d{i}" for i in range(rng.randint(1, 12))]
    lines = []
    if rng.random() < 0.4:  # qrels_prefs: one sub-group, levels -1 .. 3
        for d in rng.sample(docs, rng.randint(1, len(docs))):
            lines.append(("0", "0", d, float(rng.choice([-1, 0, 0, 1, 1, 2, 3]))))
    else:
        for g in range(rng.randint(1, 3)):
            hidden = {d: rng.choice([0, 1, 2, 3, 4]) for d in docs}
            for s in range(rng.randint(1, 3)):
                for d in rng.sample(docs, rng.randint(1, len(docs))):
                    lv = hidden[d]
                    shown = 0 if lv == 0 else (lv + 1) // 2 + s  # order-preserving, positive stays positive
                    lines.append((f"u{g}", f"s{s}", d, float(shown)))
    pool = docs + ["x1", "x2"]
    scores = {d: float(rng.randint(0, 4)) for d in rng.sample(pool, rng.randint(0, len(pool)))}
    return lines, scores


def _fits(lines) -> bool:
    """trec_eval reads memory past the lowest level's documents when R exceeds their number
    (a negative level below level 0): such queries are left out."""
    one_sub = {(jg, jsg) for jg, jsg, _, _ in lines}
    if len(one_sub) != 1:
        return True
    levels = [lv for *_, lv in lines]
    lowest = min(levels)
    return sum(lv > 0 for lv in levels) <= sum(lv == lowest for lv in levels) or lowest == 0


def test_kernel_equals_brute_force_on_random_queries():
    rng = random.Random(20260515)
    checked = 0
    while checked < 1200:
        lines, scores = random_query(rng)
        if not _fits(lines):
            continue
        depth = rng.choice([None, None, 2, 5])
        got = evaluate_prefs(prefs_from_dict({"q": lines}), {"q": scores}, ALL, depth=depth,
                             missing="zero").per_query["q"]
        want = brute_force(lines, scores, depth)
        for name in PREF_FAMILIES:
            assert got[name] == pytest.approx(want[name], abs=1e-12), (name, lines, scores, depth)
        checked += 1


# --------------------------------------------------------------------------- pytrec_eval

def test_prefs_simp_is_bpref_on_binary_judgments():
    """Binary grades with 1 <= N <= R: bpref = 1/R sum over retrieved relevant r of
    (1 - n_above(r) / N), and prefs_simp counts the (relevant, non-relevant) pairs with the
    relevant one retrieved above, or retrieved while the other is not, over R * N: equal."""
    rng = random.Random(7)
    qrels, run = {}, {}
    for i in range(300):
        docs = [f"d{j}" for j in range(rng.randint(2, 15))]
        judged = rng.sample(docs, rng.randint(2, len(docs)))
        n = rng.randint(1, len(judged) // 2)
        qrels[f"q{i}"] = {d: int(k >= n) for k, d in enumerate(judged)}
        picked = rng.sample(docs + ["u1", "u2"], rng.randint(1, len(docs)))
        run[f"q{i}"] = {d: float(len(picked) - k) for k, d in enumerate(picked)}  # distinct scores
    want = pytrec_eval.RelevanceEvaluator(qrels, {"bpref"}).evaluate(run)
    text = "".join(f"{q} 0 {d} {g}\n" for q, gs in qrels.items() for d, g in gs.items()).encode()
    got = evaluate_prefs(read_qrels_prefs(text, name="qrels.txt"), run, "prefs_simp").per_query
    for q in qrels:
        assert got[q]["prefs_simp"] == pytest.approx(want[q]["bpref"], abs=1e-12), q


# --------------------------------------------------------------------------- readers

def test_readers():
    p = read_prefs(b"# users\nq1 u1 s1 a 2.5\r\nq1 u1 s1 b -1\n\nq2 u2 s b 1e1\n", name="p.txt")
    assert p.queries["q1"] == [Pref("u1", "s1", "a", 2.5, 2), Pref("u1", "s1", "b", -1.0, 3)]
    assert p.queries["q2"][0].level == 10.0
    q = read_qrels_prefs(b"q1 0 a 1\nq1 1 a 0\n", name="qrels.txt")  # the iter column is the group
    assert [(x.jg, x.jsg) for x in q.queries["q1"]] == [("0", "0"), ("1", "0")]


@pytest.mark.parametrize("text, reason", [
    (b"q1 u1 s1 a\n", "p.txt:1: expected 5 columns"),
    (b"q1 u1 s1 a 1\nq1 u1 s1 a 2\n", "p.txt:2: query q1: document 'a' is listed twice in sub-group 's1'"),
    (b"q1 u1 s1 a nan\n", "p.txt:1: level 'nan' is not a finite decimal number"),
    (b"q1 u1 s1 a 0x10\n", "p.txt:1: level '0x10'"),
    (b"q1 u1 s1 a 1e999\n", "p.txt:1: level '1e999'"),
    (b"q1 u1 s1 \xff 1\n", "p.txt:1: not UTF-8 text"),
    (b"# nothing\n", "p.txt: no judgments"),
])
def test_malformed_prefs_name_file_and_line(text, reason):
    with pytest.raises(FileFormatError) as err:
        read_prefs(text, name="p.txt")
    assert reason in str(err.value)


def test_inconsistent_groups_are_errors_not_crashes():
    cycle = {"q": [("u", "s1", "a", 2), ("u", "s1", "b", 1), ("u", "s2", "b", 2), ("u", "s2", "a", 1)]}
    with pytest.raises(ValueError, match="query q: group 'u': its sub-groups prefer"):
        one(cycle, {"q": ["a"]})  # trec_eval aborts here


@pytest.mark.parametrize("n", [2, 3, 5])
def test_a_preference_cycle_is_named_by_two_different_documents(n):
    # sub-group s_i prefers D_i to D_{i+1}; the last closes the cycle back to D0
    docs = [f"D{i}" for i in range(n)]
    lines = [line for i in range(n) for line in (("u", f"s{i}", docs[i], 2), ("u", f"s{i}", docs[(i + 1) % n], 1))]
    with pytest.raises(ValueError) as err:
        one({"q": lines}, {"q": docs})
    a, b = re.search(r"prefer '(\w+)' to '(\w+)' and '\2' to '\1'", str(err.value)).groups()
    assert a != b and {a, b} <= set(docs)
    zero = {"q": [("u", "s1", "a", 0), ("u", "s1", "b", 1), ("u", "s2", "a", 2), ("u", "s2", "c", 1)]}
    with pytest.raises(ValueError, match="document 'a' has both level 0 and a level above 0"):
        one(zero, {"q": ["a"]})


def test_fuzzed_prefs_files_fail_cleanly():
    """Mutations of a valid prefs file (fixed seed): read, and evaluated when readable; any
    failure is a ValueError naming the file (or the query), never another exception."""
    rng = random.Random(99)
    base = b"".join(b"q%d u%d s%d d%d %d\n" % (q, g, s, d, (d * 7 + s) % 4) for q in range(3) for g in range(2)
                    for s in range(2) for d in range(5))
    pieces = [b" ", b"\t", b"\n", b"\r", b"#", b"\xff", b"nan", b"-", b"1e9", b"0x1", b"\x00", b"9" * 400, b"q1"]
    for _ in range(400):
        data = bytearray(base)
        for _ in range(rng.randint(1, 6)):
            i = rng.randrange(len(data) + 1)
            op = rng.random()
            if op < 0.3:
                del data[i:i + rng.randint(1, 20)]
            elif op < 0.7:
                data[i:i] = rng.choice(pieces)
            else:
                data[i:i] = data[rng.randrange(len(data)):][:rng.randint(1, 40)]  # duplicated text
        try:
            read_qrels_prefs(bytes(data), name="f.txt")  # 5 columns: every data line is malformed
        except FileFormatError as err:
            assert str(err).startswith("f.txt")
        try:
            p = read_prefs(bytes(data), name="f.txt")
        except FileFormatError as err:
            assert str(err).startswith("f.txt")
            continue
        try:
            evaluate_prefs(p, {"q1": ["d1", "d2", "d0"], "q2": {"d3": 1.0}}, ALL)
        except ValueError as err:
            assert str(err).startswith("query ")


def test_too_many_judged_documents_are_refused():
    lines = [("u", "s", f"d{i}", float(i % 3)) for i in range(5001)]
    with pytest.raises(ValueError, match="5001 judged documents; preference measures take at most 5000"):
        one({"q": lines}, {"q": ["d1"]})
    lines = [("u", f"s{i % 2}", f"d{i}", float(i % 3)) for i in range(1001)]  # two sub-groups: closure
    with pytest.raises(ValueError, match="1001 documents in several sub-groups; .* at most 1000"):
        one({"q": lines}, {"q": ["d1"]})


# --------------------------------------------------------------------------- API and explanations

def test_score_and_explain_read_plain_judgments_as_one_group():
    grades = {"a": 2, "b": 1, "c": 0}
    e = metrics.explain("prefs_simp", ["b", "a", "c"], grades)
    # b > c kept, a > b broken, a > c kept: 2/3, one row per preference
    assert e.value == 2 / 3 == metrics.score("prefs_simp", ["b", "a", "c"], grades)
    assert sorted(zip(e.columns["doc"], e.columns["other"], e.columns["outcome"], strict=True)) == [
        ("a", "b", "broken"), ("a", "c", "fulfilled"), ("b", "c", "fulfilled")]
    assert e.formula == r"\mathrm{prefs\_simp} = \frac{2}{3} = 0.6667"
    pair = metrics.explain("prefs_pair", ["b", "zz"], grades)  # b retrieved: b>c implied kept, a>b broken
    assert pair.value == 1 / 3 and pair.columns["score"].count(1.0) == 1
    assert pair.formula.endswith(r"{3} = 0.3333")
    avg = metrics.explain("prefs_avgjg", ["b", "a", "c"], grades)
    assert avg.value == 2 / 3 and r"\frac{\frac{2}{3}}{1}" in avg.formula
    # the same numbers as the batch path on the same judgments
    got = evaluate_prefs(prefs_from_dict({"q": grades}), {"q": ["b", "a", "c"]}, ALL).per_query["q"]
    for name in PREF_FAMILIES:
        assert metrics.explain(name, ["b", "a", "c"], grades).value == got[name], name


def test_explain_takes_preference_lines():
    users = [("u1", "s1", "d1", 3), ("u1", "s1", "d2", 2), ("u2", "s1", "d1", 0), ("u2", "s1", "d3", 6),
             ("u2", "s1", "d4", 2), ("u2", "s2", "d1", 0), ("u2", "s2", "d2", 8)]
    ranking = ["d2", "d1", "d9", "d4"]
    # the worked example of test_the_format_examples_count_as_trec_eval_documents: 1 of 5
    e = metrics.explain("prefs_simp", ranking, users)
    assert e.value == 1 / 5 and e.formula.endswith(r"= \frac{1}{5} = 0.2")
    assert e.columns["outcome"].count("fulfilled") == 1 and e.columns["fulfilled_so_far"][-1] == 1
    assert len(e.steps) == 5 and set(e.columns["group"]) == {"u1", "u2"}
    pair = metrics.explain("prefs_pair", ranking, users)  # (1/2 + 0 + 0 + 0) / 4
    assert pair.formula.endswith(r"\frac{\frac{1}{2} + \frac{0}{1} + \frac{0}{1} + \frac{0}{1}}{4} = 0.125")
    avg = metrics.explain("prefs_avgjg", ranking, users)  # (0/1 + 1/4) / 2
    assert avg.formula.endswith(r"\frac{\frac{0}{1} + \frac{1}{4}}{2} = 0.125")
    for name in PREF_FAMILIES:
        assert metrics.score(name, ranking, users) == pytest.approx(brute_force(
            users, {d: -i for i, d in enumerate(ranking)})[name], abs=1e-12), name
    with pytest.raises(ValueError, match="expected \\(jg, jsg, doc, level\\) tuples"):
        metrics.score("prefs_simp", ranking, [("u", "a", 1)])


def test_names_parse_and_other_measures_are_refused():
    assert str(metrics.parse("prefs_avgjg_Rnonrel_ret")) == "prefs_avgjg_Rnonrel_ret"
    assert metrics.parse("prefs_num_prefs_poss").family.aggregate == "sum"
    with pytest.raises(ValueError, match="takes no cutoff"):
        metrics.parse("prefs_simp@10")
    with pytest.raises(ValueError, match="only the prefs_\\* measures and num_q"):
        evaluate_prefs(prefs_from_dict({"q": {"a": 1}}), {"q": ["a"]}, "map")
    with pytest.raises(ValueError, match="need preference judgments"):
        metrics.batch.evaluate_batch({"q": {"a": 1}}, {"q": ["a"]}, "prefs_simp")
    assert prefs_orders(metrics.io.run_from_dict({"q": {"b": 1.0, "a": 1.0}}), {"q"}) == {"q": ["a", "b"]}


# --------------------------------------------------------------------------- the command line

PREFS_FILE = "q1 u1 s1 d1 3\nq1 u1 s1 d2 2\nq1 u1 s1 d3 0\nq1 u2 s1 d2 2\nq1 u2 s1 d1 1\nq2 u1 s1 d5 1\nq2 u1 s1 d6 1\n"
RUN_FILE = "q1 Q0 d2 1 3.0 tag\nq1 Q0 d1 2 2.0 tag\nq1 Q0 dx 3 1.0 tag\nq2 Q0 d5 1 1 tag\nq9 Q0 a 1 1 tag\n"


def test_cli_prints_trec_eval_layout(tmp_path):
    (tmp_path / "prefs.txt").write_text(PREFS_FILE)
    (tmp_path / "run.txt").write_text(RUN_FILE)
    r = ranklab("evaluate", "-R", "prefs", tmp_path / "prefs.txt", tmp_path / "run.txt")
    assert r.returncode == 0, r.stderr
    # q1: u1 d1>d2 broken, d1>d3 and d2>d3 implied kept; u2 d2>d1 kept: 3 of 4, 1 with both
    # retrieved; avgjg (2/3 + 1) / 2; pairs {d1,d2} 1/2, {d1,d3} 1, {d2,d3} 1. q2: tied, all 0.
    assert r.stdout.splitlines() == [
        "runid                 \tall\ttag", "num_q                 \tall\t2",
        "prefs_num_prefs_poss  \tall\t4", "prefs_num_prefs_ful   \tall\t3", "prefs_num_prefs_ful_ret\tall\t1",
        f"prefs_simp            \tall\t{0.75 / 2:6.4f}", f"prefs_pair            \tall\t{(2.5 / 3) / 2:6.4f}",
        f"prefs_avgjg           \tall\t{(5 / 6) / 2:6.4f}"]
    r = ranklab("evaluate", "-R", "prefs", tmp_path / "prefs.txt", tmp_path / "run.txt", "-m", "prefs_simp",
                "-m", "map")
    assert r.returncode == 2 and "only the prefs_* measures and num_q" in r.stderr
    r = ranklab("evaluate", tmp_path / "prefs.txt", tmp_path / "run.txt", "-m", "prefs_simp")
    assert r.returncode == 2 and "need -R prefs or -R qrels_prefs" in r.stderr
    (tmp_path / "qrels.txt").write_text("q1 0 d1 1\nq1 0 d3 0\n")
    r = ranklab("evaluate", "-R", "qrels_prefs", tmp_path / "qrels.txt", tmp_path / "run.txt", "-q",
                "-m", "prefs_simp")
    assert r.stdout.splitlines()[0] == "prefs_simp            \tq1\t1.0000"  # d1 retrieved, d3 not
    (tmp_path / "bad.txt").write_text("q1 u1 s1 d1 3\nq1 u1 s1 d1 x\n")
    r = ranklab("evaluate", "-R", "prefs", tmp_path / "bad.txt", tmp_path / "run.txt")
    assert r.returncode == 1 and "bad.txt:2: level 'x'" in r.stderr
    no_traceback(r)


@pytest.mark.parametrize("content, reason", [
    (b"", "no judgments"),
    (b"\x00\xff\xfe garbage\n", "expected 5 columns"),
    (b"q1 u1 s1 d1 " + b"9" * 400 + b"\n", "is not a finite decimal number"),
    (b"q1 u1 s1 d1 1 extra\n", "expected 5 columns (qid jg jsg docid level), found 6"),
])
def test_cli_reports_hostile_prefs_files(tmp_path, content, reason):
    (tmp_path / "p.txt").write_bytes(content)
    (tmp_path / "run.txt").write_text(RUN_FILE)
    r = ranklab("evaluate", "-R", "prefs", tmp_path / "p.txt", tmp_path / "run.txt")
    assert r.returncode == 1 and reason in r.stderr and "p.txt" in r.stderr, r.stderr
    no_traceback(r)
