"""`ranklab compare` with many systems: every pair tested at once in blocks (the same numbers as
SciPy and as one test per pair), one run in memory at a time, a progress bar on request, and a
clear refusal of a size it does not test pair by pair, with --baseline as the way out."""

from __future__ import annotations

import itertools
import json
import weakref
from collections.abc import Mapping

import numpy as np
import pytest

from metrics import stats as ours
from metrics.cli import EXIT_USAGE, main
from metrics.comparison import compare_systems
from metrics.io import run_from_dict

stats = pytest.importorskip("scipy.stats")


def _systems(count=6, topics=12, seed=4):
    rng = np.random.default_rng(seed)
    qrels = {f"t{t}": {f"d{d}": int(rng.integers(0, 3)) for d in rng.choice(40, 10, replace=False)}
             for t in range(topics)}
    runs = {f"s{s}": {f"t{t}": [f"d{d}" for d in rng.choice(40, 20, replace=False)] for t in range(topics)}
            for s in range(count)}
    return qrels, runs


def test_tukey_over_many_systems_matches_scipy():
    rng = np.random.default_rng(2)
    x = rng.normal(0.5, 0.1, size=(15, 25)) + np.linspace(0, 0.1, 25)  # 300 pairs: one shared table
    t = ours.tukey_hsd(x, design="independent")
    want = stats.tukey_hsd(*x.T).pvalue
    got = np.array([t.p_values[k] for k in range(len(t.pairs))])
    np.testing.assert_allclose(got, [want[i, j] for i, j in t.pairs], rtol=0, atol=1e-6)


def test_the_shared_table_gives_the_integral_of_each_q():
    qs = np.linspace(0.05, 9.0, 40)
    for k, df in ((3, 20), (60, 3000), (400, 20000)):
        many = ours.studentized_range_sf(qs, k, df)
        one = np.array([ours.studentized_range_sf(float(q), k, df) for q in qs])
        np.testing.assert_allclose(many, one, rtol=0, atol=1e-9)


def test_randomization_of_many_pairs_by_hand():
    deltas = np.array([[0.5, -0.1, 0.0], [0.25, 0.3, 0.0], [-0.125, 0.2, 0.0]])
    # exact: the 8 sign patterns of each column, counted by hand with itertools
    got = [r.p_value for r in ours.randomization_tests(deltas)]
    for k in range(3):
        d = deltas[:, k]
        sums = [abs(sum(s * v for s, v in zip(signs, d, strict=True)))
                for signs in itertools.product((1, -1), repeat=3)]
        assert got[k] == sum(s >= abs(d.sum()) - 1e-12 for s in sums) / 8


def test_average_ranks_match_scipy():
    rng = np.random.default_rng(0)
    values = np.round(rng.random(200), 1)
    np.testing.assert_array_equal(ours._rank(values), stats.rankdata(values, method="average"))


def test_baseline_pairs_are_the_full_comparisons_pairs():
    qrels, runs = _systems()
    full = compare_systems(qrels, runs, "AP", resamples=200, rounds=200)
    base = compare_systems(qrels, runs, "AP", resamples=200, rounds=200, baseline="s2")
    by_pair = {(p.i, p.j): p for p in full.results["AP"].pairs}
    got = base.results["AP"].pairs
    assert sorted((p.i, p.j) for p in got) == [(0, 2), (1, 2), (2, 3), (2, 4), (2, 5)]
    for p in got:
        q = by_pair[(p.i, p.j)]
        assert (p.deltas, p.delta_ci, p.t_test, p.wilcoxon, p.randomization) == \
               (q.deltas, q.delta_ci, q.t_test, q.wilcoxon, q.randomization)
        assert p.tukey_p == pytest.approx(q.tukey_p, abs=1e-9)  # Tukey's HSD still spans every system
        # the t-test is SciPy's
        assert p.t_test.p_value == pytest.approx(stats.ttest_rel(full.results["AP"].values[:, p.j],
                                                                 full.results["AP"].values[:, p.i]).pvalue, abs=1e-12)


class _Lazy(Mapping):
    """Runs built when asked; records how many are alive at once."""

    def __init__(self, runs):
        self.runs, self.alive, self.most = runs, weakref.WeakSet(), 0

    def __getitem__(self, name):
        run = run_from_dict(self.runs[name])
        self.alive.add(run)
        self.most = max(self.most, len(self.alive))
        return run

    def __iter__(self):
        return iter(self.runs)

    def __len__(self):
        return len(self.runs)


def test_one_run_in_memory_at_a_time():
    qrels, runs = _systems(count=8)
    lazy = _Lazy(runs)
    c = compare_systems(qrels, lazy, "AP", resamples=50, rounds=50)
    assert lazy.most == 1 and len(c.results["AP"].pairs) == 28


def _files(tmp_path, count=5):
    qrels, runs = _systems(count=count)
    q = tmp_path / "qrels.txt"
    q.write_text("".join(f"{t} 0 {d} {g}\n" for t, docs in qrels.items() for d, g in docs.items()))
    paths = []
    for name, run in runs.items():
        p = tmp_path / f"{name}.txt"
        p.write_text("".join(f"{t} Q0 {d} {r} {100 - r} x\n" for t, docs in run.items()
                             for r, d in enumerate(docs, 1)))
        paths.append(str(p))
    return str(q), paths


def test_too_many_pairs_are_refused_with_the_way_out(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr("metrics.cli.compare.MAX_PAIRS", 6)
    qrels, runs = _files(tmp_path)  # 5 runs: 10 pairs
    assert main(["compare", qrels, *runs, "-m", "AP", "--resamples", "50"]) == EXIT_USAGE
    err = capsys.readouterr().err
    assert "5 runs make 10 pairs" in err and "--baseline NAME" in err
    assert main(["compare", qrels, *runs, "-m", "AP", "--resamples", "50", "--baseline", "s0",
                 "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    pairs = data["measures"]["AP"]["pairs"]
    assert len(pairs) == 4 and all("s0" in (p["a"], p["b"]) for p in pairs)
    assert main(["compare", qrels, *runs, "--baseline", "nope"]) == EXIT_USAGE
    assert "not the name of a run" in capsys.readouterr().err


def test_progress_bar_only_when_asked_or_on_a_terminal(tmp_path, capsys):
    qrels, runs = _files(tmp_path, count=3)
    assert main(["compare", qrels, *runs, "-m", "AP", "--resamples", "50"]) == 0
    assert "[" not in capsys.readouterr().err  # captured stderr is not a terminal
    assert main(["compare", qrels, *runs, "-m", "AP", "--resamples", "50", "--progress"]) == 0
    out = capsys.readouterr()
    assert "ranklab: reading runs [" in out.err and "3/3" in out.err
    assert "ranklab: testing pairs, AP [" in out.err and out.err.endswith("\n")
    assert "reading runs" not in out.out
