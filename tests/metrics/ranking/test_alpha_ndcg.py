"""α-nDCG against ndeval (through pyndeval) on random queries, by hand, and its reader fuzzed.

ndeval's conventions (pyndeval 0.0.8, ndeval.c): a document is relevant to a subtopic when
its grade there is >= the relevance level (binary per subtopic); the discount is
log2(rank + 1); the ideal ranking is built greedily over every judged document, ties to the
larger document id; cutoffs at most 20; pyndeval orders a run by score descending, then
document id *ascending* — so the rankings are given to it with distinct scores in Ranklab's
order.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys

import numpy as np
import pytest

import metrics
from metrics.io.model import FileFormatError
from metrics.io.subtopics import parse_subtopic_qrels, read_subtopic_qrels

N_QUERIES = 1200


def random_subtopic_queries(seed: int, n: int = N_QUERIES):
    rng = np.random.default_rng(seed)
    qrels, run = {}, {}
    for i in range(n):
        qid = str(i + 1)
        pool = [f"d{j:02d}" for j in range(int(rng.integers(1, 30)))]
        subtopics = [f"s{j}" for j in range(int(rng.integers(1, 6)))]
        judged = {}
        for d in pool:
            if rng.random() < 0.6:
                judged[d] = {s: int(rng.choice([-1, 0, 0, 1, 1, 2])) for s in subtopics if rng.random() < 0.5} \
                    or {subtopics[0]: 0}
        qrels[qid] = judged or {"x": {subtopics[0]: 1}}
        size = 0 if rng.random() < 0.05 else int(rng.integers(1, len(pool) + 1))
        docs = rng.choice(pool, size=size, replace=False).tolist()
        run[qid] = dict(zip(docs, (rng.integers(0, 4, size=size) / 2).tolist(), strict=True))  # ties
    return qrels, run


QRELS, RUN = random_subtopic_queries(2008)


@pytest.mark.parametrize("k, alpha, rel", [(5, 0.5, 1), (10, 0.5, 1), (20, 0.5, 2), (10, 0.3, 1), (1, 0.9, 1)])
def test_alpha_ndcg_matches_ndeval(k, alpha, rel):
    import pyndeval

    subtopic_rows = [(q, s, d, g) for q, judged in QRELS.items() for d, per in judged.items() for s, g in per.items()]
    ours, run_rows = {}, []
    name = f"alpha_nDCG(alpha={alpha},rel={rel})@{k}"
    for qid in QRELS:
        docs = metrics.prepare(RUN[qid], QRELS[qid]).docs
        run_rows += [(qid, d, float(len(docs) - i)) for i, d in enumerate(docs)]
        ours[qid] = metrics.score(name, RUN[qid], QRELS[qid])
    ev = pyndeval.RelevanceEvaluator(subtopic_rows, [f"alpha-nDCG@{k}"], relevance_level=rel, alpha=alpha)
    oracle = ev.evaluate(run_rows)
    assert len(oracle) > 1000
    for qid, values in oracle.items():
        assert ours[qid] == pytest.approx(values[f"alpha-nDCG@{k}"], abs=1e-9), qid
    for qid in set(QRELS) - set(oracle):  # empty rankings
        assert not RUN[qid] and ours[qid] == 0.0


def test_alpha_ndcg_by_hand():
    # Clarke et al. 2008's idea on a small case, alpha = 0.5:
    # a covers s1; b covers s1 and s2; c nothing; d covers s2
    judged = {"a": {"s1": 1}, "b": {"s1": 1, "s2": 1}, "c": {"s3": 0}, "d": {"s2": 1}}
    e = metrics.explain("alpha_nDCG@3", ["a", "b", "c", "d"], judged)
    # gains: a 1; b: s1 seen once (0.5) + s2 new (1) = 1.5; c 0
    assert e.columns["gain"] == pytest.approx([1, 1.5, 0])
    # greedy ideal: b (2), then a and d both 0.5, d wins the tie (larger id), then a 0.5
    assert e.ideal["doc"] == ["b", "d", "a"]
    dcg = 1 + 1.5 / np.log2(3)
    idcg = 2 + 0.5 / np.log2(3) + 0.5 / 2
    assert e.value == pytest.approx(dcg / idcg)
    # alpha = 0 and one subtopic: binary nDCG
    one = {"a": {"s": 1}, "b": {"s": 0}, "c": {"s": 1}}
    flat = {d: g["s"] for d, g in one.items()}
    assert metrics.score("alpha_nDCG(alpha=0)@3", ["b", "a", "c"], one) == \
        pytest.approx(metrics.score("nDCG@3", ["b", "a", "c"], flat))


def test_alpha_ndcg_needs_subtopics():
    with pytest.raises(ValueError, match="judgments per subtopic"):
        metrics.score("alpha_nDCG@10", ["a"], {"a": 1})
    with pytest.raises(ValueError, match="alpha must be"):
        metrics.parse("alpha_nDCG(alpha=1.5)")
    assert str(metrics.parse("alpha-nDCG(alpha=0.5)@10")) == "alpha_nDCG@10"


def ranklab(*args):
    return subprocess.run([sys.executable, "-m", "metrics", "evaluate", *map(str, args)], capture_output=True,
                          text=True, timeout=60)


def test_cli_reads_subtopic_qrels(tmp_path):
    qrels = tmp_path / "subtopics.txt"
    run = tmp_path / "run.txt"
    qrels.write_text("1 s1 a 1\n1 s1 b 1\n1 s2 b 1\n1 s2 d 1\n")
    run.write_text("1 Q0 a 1 4 r\n1 Q0 b 2 3 r\n1 Q0 c 3 2 r\n1 Q0 d 4 1 r\n")
    out = ranklab("--subtopics", qrels, run, "-m", "alpha_nDCG@3")
    assert out.returncode == 0, out.stderr
    dcg, idcg = 1 + 1.5 / np.log2(3), 2 + 0.5 / np.log2(3) + 0.5 / 2
    assert float(out.stdout.split()[-1]) == pytest.approx(dcg / idcg, abs=5e-5)
    bad = ranklab(qrels, run, "-m", "alpha_nDCG@3")
    assert bad.returncode != 0 and "--subtopics" in bad.stderr and "Traceback" not in bad.stderr


# --------------------------------------------------------------------------- the reader

def test_reader_messages():
    with pytest.raises(FileFormatError) as err:
        parse_subtopic_qrels(b"# comment\n1 s1 d1 1\n1 s1 d1 2\n1 s1\n1 s1 d2 \xd9\xa1\n1 s1 d3 1_0\n", "t.txt")
    text = str(err.value)
    assert "t.txt:3: document 'd1' is judged twice for subtopic 's1' of query '1' (first at line 2)" in text
    assert "t.txt:4: expected 4 columns" in text
    assert "t.txt:5: grade" in text and "t.txt:6: grade '1_0' is not an integer" in text
    assert read_subtopic_qrels(b"\n1 s1 d1 -1\r\n", name="x") == {"1": {"d1": {"s1": -1}}}
    with pytest.raises(FileNotFoundError):
        read_subtopic_qrels(str(tmp_missing := "/nonexistent/subtopics.txt"))
    assert tmp_missing


def test_reader_fuzzed():
    """Mutations of a valid file: every outcome is judgments or a FileFormatError naming lines."""
    rng = random.Random(15)
    valid = b"".join(f"q{q} s{s} d{d} {(q + s + d) % 3}\n".encode() for q in range(3) for s in range(3) for d in range(4))
    pieces = [b"\x00", b"\xff", b"#", b" ", b"\t", b"\r", b"\n", b"-", b"+", b"9" * 30, b"\xd9\xa1", b"x" * 20000,
              b"\xc2\xa0", b"1e3", b"nan", b"q0 s0 d0 1\n"]
    for _ in range(1500):
        data = bytearray(valid)
        for _ in range(rng.randint(1, 6)):
            op = rng.randrange(4)
            at = rng.randrange(len(data) + 1)
            if op == 0:
                data[at:at] = rng.choice(pieces)
            elif op == 1 and data:
                del data[at:at + rng.randint(1, 40)]
            elif op == 2 and data:
                data[min(at, len(data) - 1)] = rng.randrange(256)
            else:
                data = data[:at]
        try:
            out = parse_subtopic_qrels(bytes(data), "f.txt")
        except FileFormatError as err:
            assert all(re.match(r"f\.txt:(\d+|\.\.\.)", line) or line.startswith("f.txt: ...")
                       for line in str(err).splitlines()), str(err)
            continue
        for per_doc in out.values():
            for per in per_doc.values():
                assert all(isinstance(g, int) and abs(g) < 10**12 for g in per.values())


def test_cli_reports_a_bad_subtopic_file(tmp_path):
    qrels = tmp_path / "subtopics.txt"
    run = tmp_path / "run.txt"
    qrels.write_text("1 s1 a 1\n1 s1 b\n1 s1 a 2\n")
    run.write_text("1 Q0 a 1 4 r\n")
    out = ranklab("--subtopics", qrels, run, "-m", "alpha_nDCG@3")
    assert out.returncode != 0 and "Traceback" not in out.stderr
    assert f"{qrels}:2: expected 4 columns" in out.stderr
    assert f"{qrels}:3: document 'a' is judged twice for subtopic 's1'" in out.stderr
    missing = ranklab("--subtopics", tmp_path / "nope", run, "-m", "alpha_nDCG@3")
    assert missing.returncode != 0 and "Traceback" not in missing.stderr and "nope" in missing.stderr
