"""``ranklab evaluate`` speaks trec_eval 9.0.8: its nicknames, parameters, flags and layout.

Oracle: pytrec_eval (trec_eval 9.0.8) for every line of ``-m all_trec -q`` and for ``-J``
on 1,000 random queries; hand-computed cases for what pytrec_eval does not print (runid,
relstring, the ``-c -l 2`` num_rel line) or cannot parse (gain maps).
"""

from __future__ import annotations

import random
import re

import pytest

from metrics.trec_args import CUTOFFS, expand
from tests.metrics.cli.test_cli import no_traceback, ranklab
from tests.metrics.test_trec_parity import near_ties, random_collection

pytrec_eval = pytest.importorskip("pytrec_eval")
COUNTS = {"num_ret", "num_rel", "num_rel_ret", "num_nonrel_judged_ret", "num_q"}


def write_files(tmp_path, qrels, run, tag="myrun"):
    q, r = tmp_path / "qrels.txt", tmp_path / "run.txt"
    q.write_text("".join(f"{qid} 0 {d} {g}\n" for qid, grades in qrels.items() for d, g in grades.items()))
    r.write_text("".join(f"{qid} Q0 {d} {i + 1} {s!r} {tag}\n"
                         for qid, scores in run.items() for i, (d, s) in enumerate(scores.items())))
    return q, r


def expected_lines(ref: dict) -> set[str]:
    """trec_eval's lines (per query and summary) from pytrec_eval's numbers."""
    def fmt(name, v):
        return str(int(round(v))) if name in COUNTS else f"{v:6.4f}"
    names = sorted({n for values in ref.values() for n in values} - {"runid", "relstring", "num_q"})
    # gm_map and gm_bpref: summary only (trec_eval's te_print_single_meas_empty), though
    # pytrec_eval hands back their per-query logs
    lines = {f"{n:<22}\t{q}\t{fmt(n, ref[q][n])}" for q in ref for n in names if n not in ("gm_map", "gm_bpref")}
    for n in names:
        values = [ref[q][n] for q in ref]
        agg = sum(values) if n in COUNTS else pytrec_eval.compute_aggregated_measure(n, values)
        lines.add(f"{n:<22}\tall\t{fmt(n, agg)}")
    lines.add(f"{'num_q':<22}\tall\t{len(ref)}")
    return lines


def differences(got: set[str], want: set[str]) -> list:
    # a printed value may differ in the last digit when the two sides round x.xxxx5 differently
    def key(line):
        return line.rsplit("\t", 1)[0]
    g = {key(x): x.rsplit("\t", 1)[1] for x in got}
    w = {key(x): x.rsplit("\t", 1)[1] for x in want}
    assert g.keys() == w.keys(), (sorted(g.keys() - w.keys())[:5], sorted(w.keys() - g.keys())[:5])
    return [(k, g[k], w[k]) for k in g if g[k] != w[k] and abs(float(g[k]) - float(w[k])) > 1.5e-4]


@pytest.mark.parametrize("flags", [[], ["-J"], ["-l", "2"]])
def test_all_trec_prints_every_line_pytrec_eval_prints(tmp_path, flags):
    qrels, run = random_collection(99, n=1000)
    run = {q: r for q, r in run.items() if r}
    qrels_path, run_path = write_files(tmp_path, qrels, run)
    result = ranklab("evaluate", qrels_path, run_path, "-m", "all_trec", "-q", *flags)
    no_traceback(result)
    assert result.returncode == 0, result.stderr
    level = int(flags[1]) if flags[:1] == ["-l"] else 1
    ref = pytrec_eval.RelevanceEvaluator(qrels, {"all_trec"}, relevance_level=level,
                                         judged_docs_only_flag="-J" in flags).evaluate(run)
    ref = {q: v for q, v in ref.items() if q in run}
    lines = result.stdout.splitlines()
    assert lines.count(f"{'runid':<22}\tall\tmyrun") == 1
    got = {x for x in lines if not x.startswith(("runid", "relstring"))}
    assert not differences(got, expected_lines(ref))
    assert sum(x.startswith("relstring") for x in lines) == len(ref)


def test_relstring_runid_and_float32_ties_by_hand(tmp_path):
    q = tmp_path / "q"
    q.write_text("q1 0 a 1\nq1 0 b 2\nq1 0 c 0\nq1 0 d -1\nq1 0 k 12\n")
    r = tmp_path / "r"
    # a and b tie in float32, so b (larger id) ranks first; e is unjudged, d is -1, k is 12
    r.write_text("q1 Q0 a 1 1.000000001 T\nq1 Q0 b 2 1.0 T\nq1 Q0 e 3 0.5 T\nq1 Q0 d 4 0.4 T\n"
                 "q1 Q0 k 5 0.3 T\nq1 Q0 c 6 0.2 T\n")
    out = ranklab("evaluate", q, r, "-m", "relstring", "-m", "runid", "-m", "recip_rank", "-q").stdout
    assert f"{'relstring':<22}\tq1\t'21-.>0'" in out.splitlines()
    assert f"{'runid':<22}\tall\tT" in out.splitlines()
    assert f"{'recip_rank':<22}\tall\t1.0000" in out.splitlines()  # b is relevant too
    out = ranklab("evaluate", q, r, "-m", "relstring.3", "-q").stdout
    assert f"{'relstring_3':<22}\tq1\t'21-'" in out.splitlines()  # trec_eval: name_params as typed
    # 10.0 compares doubles: a ranks first
    out = ranklab("evaluate", q, r, "-m", "relstring.2", "-q", "--trec-eval-version", "10.0").stdout
    assert f"{'relstring_2':<22}\tq1\t'12'" in out.splitlines()


def test_near_ties_in_files_agree_with_pytrec_eval(tmp_path):
    qrels, run = near_ties(5, n=300)
    qrels_path, run_path = write_files(tmp_path, qrels, run)
    out = ranklab("evaluate", qrels_path, run_path, "-m", "official", "-q").stdout
    ref = pytrec_eval.RelevanceEvaluator(qrels, {"official"}).evaluate(run)
    got = {x for x in out.splitlines() if not x.startswith("runid")}
    assert not differences(got, expected_lines(ref))


def test_complete_with_level_prints_num_rel_as_trec_eval(tmp_path):
    """-c -l 2: per-query num_rel follows -l; the summary counts every grade > 0 (trec_eval)."""
    q = tmp_path / "q"
    q.write_text("q1 0 a 1\nq1 0 b 2\nq1 0 c 0\nq2 0 x 1\nq3 0 y 2\nq3 0 z 3\n")
    r = tmp_path / "r"
    r.write_text("q1 Q0 a 1 3 T\nq2 Q0 z 1 3 T\n")
    out = ranklab("evaluate", q, r, "-c", "-l", "2", "-m", "num_rel", "-q").stdout.splitlines()
    # 9.0.8 never scores q3 (judged, missing from the run): no per-query line for it
    assert [x.split("\t")[1:] for x in out if x.startswith("num_rel ")] == [["q1", "1"], ["q2", "0"], ["all", "5"]]
    # 10.0 scores it as an empty ranking, and prints it
    out = ranklab("evaluate", q, r, "-c", "-l", "2", "-m", "num_rel", "-q", "--trec-eval-version", "10.0").stdout
    assert [x.split("\t")[2] for x in out.splitlines() if x.startswith("num_rel ")] == ["1", "0", "2", "5"]
    # without -c, the summary is the sum of the per-query lines (q3 is skipped)
    out = ranklab("evaluate", q, r, "-l", "2", "-m", "num_rel").stdout.splitlines()
    assert out == [f"{'num_rel':<22}\tall\t1"]
    # the other formats keep the sum of the per-query values
    out = ranklab("evaluate", q, r, "-c", "-l", "2", "-m", "num_rel", "--format", "csv").stdout
    assert out.splitlines()[-1] == "all,3.0"


def test_bare_families_give_trec_eval_cutoffs():
    assert expand("P") == [f"P_{k}" for k in CUTOFFS]
    assert expand("recall")[-1] == "recall_1000" and expand("success") == ["success_1", "success_5", "success_10"]
    assert expand("iprec_at_recall")[3] == "iprec_at_recall_0.30"
    assert expand("Rprec_mult")[2] == "Rprec_mult_0.60"
    assert expand("iprec_at_recall_0.50") == ["iprec_at_recall_0.50"]
    assert expand("11pt_avg.1.0,0.5") == ["11pt(levels='0.5,1')"]


@pytest.mark.parametrize("bad, words", [
    ("utility.1,2", "4 coefficients"), ("utility.1,-1,0,2", "collection size"), ("set_F.1,2", "one value"),
    ("P.5,x", "numbers"), ("ndcg.1=a", "gains"), ("11pt_avg.2", "recall level"), ("relstring.1.5", "integer"),
    ("P." + ",".join(["5"] * 1001), "at most"), ("nosuch.5", "unknown measure"), ("Rprec_mult.0", "above 0"),
])
def test_bad_trec_parameters_are_usage_errors(tmp_path, bad, words):
    q, r = write_files(tmp_path, {"q1": {"a": 1}}, {"q1": {"a": 1.0}})
    result = ranklab("evaluate", q, r, "-m", bad)
    no_traceback(result)
    assert result.returncode == 2
    assert words in result.stderr


def test_fuzzed_measure_arguments_never_crash():
    """expand() + parse on hostile -m text: a measure, or a ValueError (MeasureArgumentError among
    them), never anything else."""
    import metrics
    from metrics.trec_args import MeasureArgumentError

    rng = random.Random(4242)
    alphabet = "Pndcgmaprelstingutly_.,=-0123456789()@'\" \t\u00e9\u2028"
    for _ in range(3000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30)))
        try:
            items = expand(text)
            metrics.parse_many([i for i in items if isinstance(i, str) and i != "runid"] or ["P@5"])
        except (MeasureArgumentError, ValueError):
            pass


def test_judged_only_and_version_flags_reach_the_batch(tmp_path):
    q, r = write_files(tmp_path, {"q1": {"a": 1}}, {"q1": {"x": 2.0, "a": 1.0}})
    assert ranklab("evaluate", q, r, "-m", "recip_rank").stdout.endswith("0.5000\n")
    assert ranklab("evaluate", q, r, "-m", "recip_rank", "-J").stdout.endswith("1.0000\n")
    q, r = write_files(tmp_path, {"q1": {"a": 1}}, {"q1": {"a": 1.000000001, "b": 1.0}})
    assert ranklab("evaluate", q, r, "-m", "recip_rank").stdout.endswith("0.5000\n")
    out = ranklab("evaluate", q, r, "-m", "recip_rank", "--trec-eval-version", "10.0").stdout
    assert out.endswith("1.0000\n")
    assert re.search(r"prefs", ranklab("evaluate", "--help").stdout)


@pytest.mark.parametrize("line", ["ndcg_cut.5,10 map", "P.5,10  recall\tmap_cut", "official",
                                  "set_F.0.5 utility.1,-1,0,0 11pt_avg.0.0,0.5,1.0 relstring.5",
                                  "P@10,AP nDCG@10", "P.5,x map", "ndcg_kut_10", "ndcg_cut.0"])
def test_a_line_of_measures_is_read_as_its_shell_words_given_to_m(line):
    """The app's measure box (asked_from_line) against -m given each word as a shell splits the
    line (shlex, the oracle): the same measures, labels and printed-only items, or the same error."""
    import shlex
    from types import SimpleNamespace

    from metrics.cli.evaluate import asked_from
    from metrics.trec_args import MeasureArgumentError, asked_from_line

    args = SimpleNamespace(measure=shlex.split(line), level=None, depth=None, trec_eval_version="9.0.8",
                           judged_only=False, rel_format="qrels")
    try:
        want = asked_from(args)
    except MeasureArgumentError as err:
        with pytest.raises(MeasureArgumentError) as got:
            asked_from_line(line)
        assert str(got.value) == str(err)
        return
    got = asked_from_line(line)
    assert [str(m) for m in got.measures] == [str(m) for m in want.measures]
    assert (got.labels, got.runid, got.relstring) == (want.labels, want.runid, want.relstring)


def test_an_empty_line_of_measures_is_no_measure():
    from metrics.trec_args import MeasureArgumentError, asked_from_line

    with pytest.raises(MeasureArgumentError, match="no measure given"):
        asked_from_line("  \t ")


def test_a_hostile_line_of_measures_is_a_result_or_a_usage_error_fuzz():
    """The app's measure box takes any pasted text: seeded random lines (quotes and parentheses
    left open, control characters, scripts, very long words) are read or refused with a
    MeasureArgumentError, never another exception."""
    import random

    from metrics.trec_args import MeasureArgumentError, asked_from_line
    from tests.strength import scaled

    rng = random.Random(20261127)
    pieces = ["P@5", "ndcg_cut.5,10", "map", "nDCG(dcg='exp-log2')@10", "(", ")", "'", '"', "@", ",", ".",
              "=", " ", "\t", "\n", "\x00", "\u200b", "<script>", "ب", "猫", "-1", "1e400", "nan", "x" * 300]
    for _ in range(scaled(2000)):
        line = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        try:
            asked_from_line(line)
        except MeasureArgumentError as err:
            assert str(err)
