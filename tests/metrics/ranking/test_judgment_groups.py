"""trec_eval's qrels_jg format and its judgment-group measures (map_avgjg, P_avgjg, Rprec_mult_avgjg).

pytrec_eval reads plain qrels only, so the oracle is hand computation, and the plain
measures (checked against pytrec_eval elsewhere) for a file with a single group.
"""

from __future__ import annotations

import random

import pytest

import metrics
from metrics.batch import evaluate_batch, evaluate_groups
from metrics.io.model import FileFormatError
from metrics.io.trec_jg import read_qrels_jg
from tests.metrics.cli.test_cli import no_traceback, ranklab

JG = b"q1 u1 a 1\nq1 u1 b 0\nq1 u2 b 2\nq1 u2 c 1\nq2 u1 x 1\nq3 u2 y 1\n"
RUN = {"q1": {"a": 3.0, "b": 2.0, "c": 1.0}, "q2": {"z": 1.0}}


def test_groups_are_averaged_by_hand():
    groups = read_qrels_jg(JG, name="jg.txt")
    e = evaluate_groups(groups, RUN, "map_avgjg P_avgjg_2 Rprec_mult_avgjg_1.00 num_q")
    q1 = e.per_query["q1"]
    # u1 judges a (relevant), b: AP 1. u2 judges b, c relevant: (1/2 + 2/3) / 2. Mean of the two.
    assert q1["AP_avgjg"] == pytest.approx((1 + (1 / 2 + 2 / 3) / 2) / 2, abs=1e-15)
    assert q1["P_avgjg@2"] == pytest.approx((1 / 2 + 1 / 2) / 2, abs=1e-15)
    # Rprec_mult_1.00: u1 P@1 = 1, u2 P@2 = 1/2
    assert q1[str(metrics.parse("Rprec_mult_avgjg_1.00"))] == pytest.approx(0.75, abs=1e-15)
    assert e.per_query["q2"]["AP_avgjg"] == 0.0
    assert set(e.per_query) == {"q1", "q2"} and e.missing_from_run == ["q3"]
    assert e.aggregate["NumQ"] == 2.0
    e = evaluate_groups(groups, RUN, "map_avgjg", missing="zero")
    assert e.aggregate["AP_avgjg"] == pytest.approx(q1["AP_avgjg"] / 3, abs=1e-15)


def test_one_group_is_the_plain_measure():
    rng = random.Random(3)
    qrels = {f"q{i}": {f"d{j}": rng.choice([-1, 0, 1, 2]) for j in rng.sample(range(30), 10)} for i in range(50)}
    run = {q: {f"d{j}": float(rng.randint(0, 5)) for j in rng.sample(range(30), 15)} for q in qrels}
    text = "".join(f"{q} 0 {d} {g}\n" for q, grades in qrels.items() for d, g in grades.items()).encode()
    groups = read_qrels_jg(text, name="one.txt")
    got = evaluate_groups(groups, run, "map_avgjg P_avgjg_5 Rprec_mult_avgjg_0.60")
    want = evaluate_batch(qrels, run, "map P_5 Rprec_mult_0.60")
    for q in want.per_query:
        assert got.per_query[q]["AP_avgjg"] == want.per_query[q]["AP"]
        assert got.per_query[q]["P_avgjg@5"] == want.per_query[q]["P@5"]
        assert got.per_query[q]["RprecMult_avgjg@0.6"] == want.per_query[q]["RprecMult@0.6"]
    # the per-query kernels (one set of judgments) give the plain measure too, with its steps
    e = metrics.explain("P_avgjg@5", list(run["q1"]), qrels["q1"])
    assert e.value == metrics.score("P@5", list(run["q1"]), qrels["q1"]) and e.steps


def test_other_measures_are_refused_with_groups():
    with pytest.raises(ValueError, match="only map_avgjg"):
        evaluate_groups(read_qrels_jg(JG, name="jg.txt"), RUN, "map")


@pytest.mark.parametrize("data, words", [
    (b"q1 u1 a\n", "jg.txt:1: expected 4 columns"), (b"q1 u1 a x\n", "jg.txt:1: grade 'x'"),
    (b"q1 u1 a 1\nq1 u1 a 0\n", "jg.txt:2: query q1: document 'a' is judged twice by group 'u1' (line 1)"),
    (b"# only a comment\n", "no judgments"), (b"q1 u1 \xff 1\n", "not UTF-8"),
    (b"q1 u1 a 99999999999\n", "not an integer"),
])
def test_malformed_qrels_jg_names_file_and_line(data, words):
    with pytest.raises(FileFormatError) as err:
        read_qrels_jg(data, name="jg.txt")
    assert words in str(err.value)


def test_fuzzed_qrels_jg_never_crash():
    rng = random.Random(77)
    pieces = [b"q1", b"u1", b"a", b"1", b"-1", b" ", b"\t", b"\n", b"\r", b"#", b"x", b"\xff", b"0", b"\x00"]
    for _ in range(2000):
        data = b"".join(rng.choice(pieces) for _ in range(rng.randint(0, 25)))
        try:
            groups = read_qrels_jg(data, name="fuzz.txt")
        except FileFormatError:
            continue
        assert all(q.queries for q in groups.values())


def test_cli_reads_qrels_jg(tmp_path):
    q, r = tmp_path / "jg.txt", tmp_path / "run.txt"
    q.write_bytes(JG)
    r.write_text("q1 Q0 a 1 3 T\nq1 Q0 b 2 2 T\nq1 Q0 c 3 1 T\nq2 Q0 z 1 1 T\n")
    result = ranklab("evaluate", "-R", "qrels_jg", q, r, "-q")
    no_traceback(result)
    lines = result.stdout.splitlines()
    assert f"{'map_avgjg':<22}\tq1\t{(1 + (1 / 2 + 2 / 3) / 2) / 2:6.4f}" in lines
    assert f"{'num_q':<22}\tall\t2" in lines and f"{'runid':<22}\tall\tT" in lines
    assert any(x.startswith("P_avgjg_1000") for x in lines) and any(x.startswith("Rprec_mult_avgjg_2.00") for x in lines)
    result = ranklab("evaluate", "-R", "qrels_jg", q, r, "-m", "map")
    no_traceback(result)
    assert result.returncode == 2 and "only map_avgjg" in result.stderr
    q.write_bytes(b"q1 u1 a\n")
    result = ranklab("evaluate", "-R", "qrels_jg", q, r)
    assert result.returncode == 1 and "jg.txt:1:" in result.stderr
