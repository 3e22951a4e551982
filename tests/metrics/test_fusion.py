"""metrics.fusion and `ranklab fuse`: RRF, CombSUM and CombMNZ computed by hand; ranx's fuse as an
extra oracle only where ranx (the bench extra) is installed."""

from __future__ import annotations

import math

import numpy as np
import pytest

from metrics.cli import main
from metrics.fusion import fuse, normalise, ranked, write_trec_run
from metrics.io import read_run

RUN1 = {"q1": {"a": 3.0, "b": 2.0, "c": 1.0}, "q2": {"x": 1.0}}
RUN2 = {"q1": {"c": 0.9, "d": 0.5, "a": 0.1}}


def test_rrf_by_hand():
    fused = fuse([RUN1, RUN2], method="rrf", k=60)
    # q1: a = 1/61 + 1/63, c = 1/63 + 1/61, b = 1/62, d = 1/62; ties broken by doc id descending
    assert list(fused["q1"]) == ["c", "a", "d", "b"]
    assert fused["q1"]["a"] == pytest.approx(1 / 61 + 1 / 63)
    assert fused["q1"]["b"] == pytest.approx(1 / 62)
    assert fused["q2"] == {"x": pytest.approx(1 / 61)}   # q2 only in run 1


def test_rrf_k_changes_the_order():
    # run 1: a b c; run 2: b ... (c second, a absent). k = 0: a = 1, b = 1/2 + 1 = 1.5; k large: b first too,
    # but with runs p: a first, q: a absent, r: c d a, the spread shrinks as k grows
    r1, r2 = {"q": ["a", "b"]}, {"q": ["c", "b"]}
    small = fuse([r1, r2], method="rrf", k=0)["q"]     # a 1, c 1, b 1/2 + 1/2 = 1
    assert small == {"c": 1.0, "b": 1.0, "a": 1.0}
    big = fuse([r1, r2], method="rrf", k=60)["q"]      # b 2/62 = 0.03226 beats a, c 1/61 = 0.01639
    assert list(big) == ["b", "c", "a"] and big["b"] == pytest.approx(2 / 62)


def test_rrf_score_range_with_k_60():
    rng = np.random.default_rng(0)
    depth, n = 100, 3
    runs = [{"q": {f"d{i}": float(s) for i, s in enumerate(rng.permutation(depth))}} for _ in range(n)]
    scores = list(fuse(runs, method="rrf", k=60)["q"].values())
    assert min(scores) >= n / (60 + depth) - 1e-15       # every doc is in all 3 runs here
    assert max(scores) <= n / 61 + 1e-15


def test_combsum_and_combmnz_minmax_by_hand():
    # q1 min-max: run 1 a 1, b .5, c 0; run 2 c 1, d .5, a 0
    s = fuse([RUN1, RUN2], method="combsum", norm="minmax")["q1"]
    assert s == {"a": 1.0, "c": 1.0, "b": 0.5, "d": 0.5}
    m = fuse([RUN1, RUN2], method="combmnz", norm="minmax")["q1"]
    assert m == {"a": 2.0, "c": 2.0, "b": 0.5, "d": 0.5}
    assert list(m) == ["c", "a", "d", "b"]


def test_zscore_by_hand():
    # run 1 q1: 3 2 1, mean 2, population sd sqrt(2/3); run 2: .9 .5 .1, mean .5, sd sqrt(.32/3)
    sd1, sd2 = math.sqrt(2 / 3), math.sqrt(0.32 / 3)
    s = fuse([RUN1, RUN2], method="combsum", norm="zscore")["q1"]
    assert s["a"] == pytest.approx(1 / sd1 + (0.1 - 0.5) / sd2)
    assert s["d"] == pytest.approx(0.0)
    m = fuse([RUN1, RUN2], method="combmnz", norm="zscore")["q1"]
    assert m["c"] == pytest.approx(2 * (-1 / sd1 + 0.4 / sd2))
    assert normalise({"a": 2.0, "b": 2.0}, "zscore") == {"a": 0.0, "b": 0.0}
    assert normalise({"a": 2.0, "b": 2.0}, "minmax") == {"a": 1.0, "b": 1.0}


def test_depth_ranked_and_bad_input():
    assert len(fuse([RUN1, RUN2], depth=2)["q1"]) == 2
    assert ranked({"b": 1.0, "a": 1.0}) == [("b", 1.0), ("a", 1.0)]
    for kwargs, msg in (({"method": "borda"}, "method"), ({"k": -1}, "k must"), ({"k": math.nan}, "k must"),
                        ({"depth": 0}, "depth"), ({"norm": "l2"}, "normalisation")):
        with pytest.raises(ValueError, match=msg):
            fuse([RUN1, RUN2], **kwargs)
    with pytest.raises(ValueError, match="at least 2 runs"):
        fuse([RUN1])
    with pytest.raises(ValueError, match="finite"):
        fuse([RUN1, {"q1": {"a": math.inf}}])
    with pytest.raises(TypeError, match="run 2"):
        fuse([RUN1, 5])


def test_written_run_reads_back_in_the_same_order(tmp_path):
    fused = fuse([RUN1, RUN2], method="rrf")
    path = tmp_path / "fused.txt"
    with open(path, "w") as out:
        write_trec_run(out, fused, "rrf")
    back = read_run(str(path)).to_dict()
    assert {q: ranked(v) for q, v in back.items()} == {q: ranked(v) for q, v in fused.items()}
    with pytest.raises(ValueError, match="white space"):
        write_trec_run(open(tmp_path / "x.txt", "w"), {"q": {"a b": 1.0}})


def test_cli_fuse_then_evaluate(tmp_path, capsys):
    a, b, out = tmp_path / "a.txt", tmp_path / "b.txt", tmp_path / "f.txt"
    a.write_text("q1 Q0 d1 1 3 A\nq1 Q0 d2 2 2 A\n")
    b.write_text("q1 Q0 d2 1 9 B\nq1 Q0 d3 2 1 B\n")
    assert main(["fuse", str(a), str(b), "--k", "0", "-o", str(out)]) == 0
    # k = 0: d2 = 1/2 + 1/1 = 1.5, d1 = 1, d3 = 1/2
    assert out.read_text().splitlines() == ["q1 Q0 d2 1 1.5 fused-rrf", "q1 Q0 d1 2 1.0 fused-rrf",
                                            "q1 Q0 d3 3 0.5 fused-rrf"]
    qrels = tmp_path / "qrels.txt"
    qrels.write_text("q1 0 d1 1\n")
    capsys.readouterr()
    assert main(["evaluate", str(qrels), str(out), "-m", "RR"]) == 0
    assert capsys.readouterr().out.split()[-1] == "0.5000"      # d1 at rank 2
    assert main(["fuse", str(a)]) == 2
    assert main(["fuse", str(a), str(b), "--k", "-3"]) == 2
    bad = tmp_path / "bad.txt"
    bad.write_text("q1 Q0 d1 1 notanumber A\n")
    assert main(["fuse", str(a), str(bad)]) == 1
    assert "bad.txt:1" in capsys.readouterr().err


@pytest.mark.slow  # ranx compiles with numba on first use
def test_agrees_with_ranx_where_installed():
    ranx = pytest.importorskip("ranx")
    rng = np.random.default_rng(3)
    runs = [{f"q{q}": {f"d{i}": float(rng.random()) for i in rng.choice(30, 15, replace=False)} for q in range(4)}
            for _ in range(3)]
    ours = fuse(runs, method="rrf", k=60)
    theirs = ranx.fuse([ranx.Run(r) for r in runs], norm="rank", method="rrf", params={"k": 60}).to_dict()
    for q in ours:
        for d, s in ours[q].items():
            assert s == pytest.approx(theirs[q][d], rel=1e-9)


@pytest.mark.slow
@pytest.mark.parametrize("method, norm", [("combsum", "min-max"), ("combmnz", "min-max"),
                                          ("combsum", "zmuv"), ("combmnz", "zmuv")])
def test_comb_agrees_with_ranx_where_installed(method, norm):
    ranx = pytest.importorskip("ranx")
    rng = np.random.default_rng(4)
    runs = [{f"q{q}": {f"d{i}": float(rng.random() * 10) for i in rng.choice(30, 12, replace=False)}
             for q in range(4)} for _ in range(3)]
    ours = fuse(runs, method=method, norm={"min-max": "minmax", "zmuv": "zscore"}[norm])
    theirs = ranx.fuse([ranx.Run(r) for r in runs], norm=norm, method={"combsum": "sum", "combmnz": "mnz"}[method]).to_dict()
    for q in ours:
        assert set(ours[q]) == set(theirs[q])
        for d, s in ours[q].items():
            assert s == pytest.approx(theirs[q][d], rel=1e-6, abs=1e-9)
