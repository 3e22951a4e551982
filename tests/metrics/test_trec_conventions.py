"""The reproducers of the line-for-line comparison with trec_eval 9.0.8 and 10.0.

Each expected value is what trec_eval prints (quoted in the report that found the difference,
or read from trec_eval's source: meas_avg.c, m_gm_map.c, m_iprec_at_recall.c), or what
pytrec_eval (trec_eval 9.0.8) returns; none is taken from Ranklab's own output.
"""

from __future__ import annotations

import pytest

import metrics
from metrics.batch import evaluate_batch
from metrics.cli import main


def run_cli(capsys, tmp_path, qrels: str, run: str, *args) -> list[list[str]]:
    q, r = tmp_path / "qrels", tmp_path / "run"
    q.write_text(qrels)
    r.write_text(run)
    assert main(["evaluate", *args, str(q), str(r)]) == 0
    return [[x.strip() for x in line.split("\t")] for line in capsys.readouterr().out.splitlines()]


MISSING_QRELS, MISSING_RUN = "a 0 d1 1\nb 0 e1 1\n", "a Q0 d1 1 1.0 r\n"


def test_complete_in_9_0_8_counts_a_missing_query_as_zero(tmp_path, capsys):
    """trec_eval 9.0.8 -c -m utility.1,-1,-1,0 -m yaap prints 0.5000 and 0.3466: query b,
    missing from the run, adds 0 to the sums (meas_avg.c) instead of utility -1 and yaap log(1/2)."""
    lines = run_cli(capsys, tmp_path, MISSING_QRELS, MISSING_RUN, "-c", "-m", "utility.1,-1,-1,0", "-m", "yaap")
    assert lines == [["utility_1,-1,-1,0", "all", "0.5000"], ["yaap", "all", "0.3466"]]


def test_complete_with_q_in_9_0_8_prints_no_line_for_a_missing_query(tmp_path, capsys):
    lines = run_cli(capsys, tmp_path, MISSING_QRELS, MISSING_RUN, "-q", "-c", "-m", "num_ret", "-m", "num_q")
    assert lines == [["num_ret", "a", "1"], ["num_q", "all", "2"], ["num_ret", "all", "1"]]


def test_complete_in_10_0_scores_a_missing_query_as_an_empty_ranking(tmp_path, capsys):
    lines = run_cli(capsys, tmp_path, MISSING_QRELS, MISSING_RUN, "-q", "-c", "-m", "num_ret",
                    "--trec-eval-version", "10.0")
    assert lines == [["num_ret", "a", "1"], ["num_ret", "b", "0"], ["num_ret", "all", "1"]]


@pytest.mark.parametrize("engine", [metrics.evaluate, evaluate_batch])
def test_complete_in_python_follows_the_version(engine):
    qrels, run = {"a": {"d1": 1}, "b": {"e1": 1}}, {"a": {"d1": 1.0}}
    ms = "Utility(c=-1) YAAP"
    old = engine(qrels, run, ms, missing="zero")
    assert old.aggregate["Utility(c=-1)"] == 0.5  # (1 + 0) / 2
    assert old.aggregate["YAAP"] == pytest.approx(0.3466, abs=5e-5)
    new = engine(qrels, run, ms, missing="zero", trec_eval="10.0")
    assert new.aggregate["Utility(c=-1)"] == 0.0  # (1 - 1) / 2: b scored as an empty ranking


def test_gm_map_and_gm_bpref_print_no_per_query_lines(tmp_path, capsys):
    # m_gm_map.c, m_gm_bpref.c: te_print_single_meas_empty
    lines = run_cli(capsys, tmp_path, "a 0 d1 1\na 0 d2 0\n", "a Q0 d2 1 2 r\na Q0 d1 2 1 r\n",
                    "-q", "-m", "gm_map", "-m", "gm_bpref", "-m", "map")
    assert [line[:2] for line in lines] == [["map", "a"], ["map", "all"], ["gm_map", "all"], ["gm_bpref", "all"]]


# R = 3, relevant at ranks 1 and 5: IPrec@0.4 is 0.4 in 9.0.8 (floor(1.2 + 0.9) = 2 relevant needed)
# and 1.0 in 10.0 (lround(1.2) = 1)
IPREC_QRELS = {"q": {"r1": 1, "r5": 1, "r9": 1}}
IPREC_RUN = {"q": {"r1": 5.0, "n2": 4.0, "n3": 3.0, "n4": 2.0, "r5": 1.0}}


@pytest.mark.parametrize("engine", [metrics.evaluate, evaluate_batch])
def test_one_python_switch_does_what_the_version_flag_does(engine):
    assert engine(IPREC_QRELS, IPREC_RUN, "IPrec@0.4").aggregate["IPrec@0.4"] == pytest.approx(0.4)
    e = engine(IPREC_QRELS, IPREC_RUN, "IPrec@0.4 11pt", trec_eval="10.0")
    assert e.aggregate["IPrec@0.4"] == 1.0  # keyed as asked
    assert metrics.score("IPrec@0.4", IPREC_RUN["q"], IPREC_QRELS["q"], trec_eval="10.0") == 1.0


def test_the_python_switch_agrees_with_the_flag(tmp_path, capsys):
    qrels = "".join(f"q 0 {d} 1\n" for d in IPREC_QRELS["q"])
    run = "".join(f"q Q0 {d} 1 {s} r\n" for d, s in IPREC_RUN["q"].items())
    lines = run_cli(capsys, tmp_path, qrels, run, "-m", "iprec_at_recall.0.4", "-m", "11pt_avg",
                    "--trec-eval-version", "10.0")
    e = metrics.evaluate(IPREC_QRELS, IPREC_RUN, "IPrec@0.4 11pt", trec_eval="10.0")
    assert lines[0][2] == f"{e.aggregate['IPrec@0.4']:.4f}" == "1.0000"
    assert lines[1][2] == f"{e.aggregate['11pt']:.4f}"


def test_set_map_divides_once_as_trec_eval(tmp_path, capsys):
    """7 of 10 relevant among 16 retrieved: trec_eval's 7*7 / (16*10) = 0.30625 prints 0.3063;
    (7/16) * (7/10) is one unit lower in the last bit and would print 0.3062."""
    qrels = "".join(f"q 0 r{i} 1\n" for i in range(10))
    docs = [f"r{i}" for i in range(7)] + [f"n{i}" for i in range(9)]
    run = "".join(f"q Q0 {d} {i + 1} {100 - i} x\n" for i, d in enumerate(docs))
    lines = run_cli(capsys, tmp_path, qrels, run, "-q", "-m", "set_map")
    assert lines == [["set_map", "q", "0.3063"], ["set_map", "all", "0.3063"]]


def test_set_map_and_11pt_avg_equal_pytrec_eval_to_the_last_bit():
    """Accumulated in trec_eval's order (set_map: one division; 11pt_avg: from the last level
    down), so an exact half-way value prints the same last digit."""
    pytrec_eval = pytest.importorskip("pytrec_eval")
    from tests.metrics.test_trec_parity import random_collection
    qrels, run = random_collection(7, n=600)
    run = {q: r for q, r in run.items() if r}
    want = pytrec_eval.RelevanceEvaluator(qrels, {"set_map", "11pt_avg"}).evaluate(run)
    for engine in (metrics.evaluate, evaluate_batch):
        got = engine(qrels, run, "SetAP 11pt").per_query
        assert [(got[q]["SetAP"], got[q]["11pt"]) for q in want] == [(v["set_map"], v["11pt_avg"]) for v in want.values()]


def test_trec_eval_truncating_gain_sort_is_reproducible(tmp_path, capsys):
    """qrels d1 1, d2 0; run d1; -m ndcg.1=0.5: trec_eval prints ndcg 0.0000 (its comp_rel_gain
    truncates 0.5 - 0 to 0, grade 0 stays last and the ideal walk starts and stops there).
    Ranklab's default gives the right 1.0; ideal='trec_eval' gives trec_eval's number."""
    qrels, run = {"a": {"d1": 1, "d2": 0}}, {"a": {"d1": 1.0}}
    for engine in (metrics.evaluate, evaluate_batch):
        e = engine(qrels, run, "nDCG(gains='1=0.5') nDCG(gains='1=0.5',ideal='trec_eval') "
                               "IDCG(gains='1=0.5',ideal='trec_eval')")
        assert list(e.aggregate.values()) == [1.0, 0.0, 0.0]
    lines = run_cli(capsys, tmp_path, "a 0 d1 1\na 0 d2 0\n", "a Q0 d1 1 1.0 r\n", "-m",
                    "nDCG(gains='1=0.5',ideal='trec_eval')")
    assert lines[0][2] == "0.0000"


def test_trec_eval_truncating_gain_sort_can_put_a_worse_level_first():
    """Gains 1=3.5, 2=3: 3.5 - 3 truncates to 0, so trec_eval's merge sort leaves level 1 before
    level 2 and walks level 2 (gain 3) first: IDCG = 3 + 3.5/log2 3, below the true 3.5 + 3/log2 3."""
    import math
    qrels, run = {"q": {"one": 1, "two": 2}}, {"q": {"one": 2.0, "two": 1.0}}
    dcg = 3.5 + 3 / math.log2(3)
    for engine in (metrics.evaluate, evaluate_batch):
        e = engine(qrels, run, "nDCG(gains='1=3.5,2=3',ideal='trec_eval') nDCG(gains='1=3.5,2=3')")
        truncated, right = e.aggregate.values()
        assert truncated == pytest.approx(dcg / (3 + 3.5 / math.log2(3)), rel=1e-12)
        assert right == pytest.approx(1.0, rel=1e-12)


def test_diagnose_names_the_truncating_gain_sort():
    from metrics.io.theirs import Theirs, number
    from metrics.teaching.diagnose import diagnose
    qrels = {"a": {"d1": 1, "d2": 0}, "b": {"e1": 2, "e2": 1}}
    run = {"a": {"d1": 1.0}, "b": {"e1": 1.0, "e2": 0.5}}
    theirs = Theirs({"a": number("0.0000"), "b": number("1.0000")})  # trec_eval's ndcg.1=0.5
    d = diagnose(qrels, run, "nDCG(gains='1=0.5')", theirs=theirs)
    assert d.matched and [str(c) for c in d.changes] == ["ideal=trec_eval"]
    assert "comp_rel_gain" in d.verdict or any("comp_rel_gain" in c.option.label for c in d.changes)


LABEL_QRELS, LABEL_RUN = "a 0 d1 1\na 0 d2 2\na 0 d3 0\n", "a Q0 d3 1 9 r\na Q0 d1 2 5 r\na Q0 x 3 4 r\n"


def test_measures_given_parameters_print_as_trec_eval_names_them(tmp_path, capsys):
    """meas_init.c: a measure given parameters prints as name_params, the parameters as typed;
    a cutoff is read as an integer (str_to_long), so ndcg_cut.2.5 is ndcg_cut_2. Values:
    pytrec_eval on the same input (set_F 0.375, 11pt_avg 0.3333, ndcg_cut_2 0.2398)."""
    lines = run_cli(capsys, tmp_path, LABEL_QRELS, LABEL_RUN, "-q", "-m", "utility.2,-1,0,0", "-m", "set_F.0.5",
                    "-m", "11pt_avg.0.0,0.5,1.0", "-m", "ndcg.1=3.5,2=7", "-m", "G.1=3", "-m", "relstring.20",
                    "-m", "ndcg_cut.2.5")
    names = {line[0] for line in lines}
    assert names == {"utility_2,-1,0,0", "set_F_0.5", "11pt_avg_0.0,0.5,1.0", "ndcg_1=3.5,2=7", "G_1=3",
                     "relstring_20", "ndcg_cut_2"}
    values = {(n, q): v for n, q, v in lines}
    assert values["set_F_0.5", "all"] == "0.3750"
    assert values["11pt_avg_0.0,0.5,1.0", "all"] == "0.3333"
    assert values["ndcg_cut_2", "all"] == "0.2398"
    assert values["relstring_20", "a"] == "'01-'"


def test_cutoffs_are_read_as_integers(tmp_path, capsys):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    want = pytrec_eval.RelevanceEvaluator({"a": {"d1": 1, "d2": 2, "d3": 0}}, {"ndcg_cut.10,20,23.4"}).evaluate(
        {"a": {"d3": 9.0, "d1": 5.0, "x": 4.0}})["a"]
    lines = run_cli(capsys, tmp_path, LABEL_QRELS, LABEL_RUN, "-m", "ndcg_cut.10,20,23.4")
    assert {n: v for n, _, v in lines} == {k: f"{v:.4f}" for k, v in want.items()}


@pytest.mark.parametrize("text", ["P.0", "P.5,5.5", "ndcg_cut.-3", "P.-.5", "P..5"])
def test_cutoffs_trec_eval_refuses_are_refused(tmp_path, capsys, text):
    q, r = tmp_path / "q", tmp_path / "r"
    q.write_text(LABEL_QRELS)
    r.write_text(LABEL_RUN)
    assert main(["evaluate", "-m", text, str(q), str(r)]) == 2
    assert "cutoff" in capsys.readouterr().err


# trec_eval 10.0's measures (m_rbp.c, m_rbp_resid.c, m_unjudged.c), values worked out by hand
RBP_QRELS, RBP_RUN = "a 0 d1 1\na 0 d2 2\na 0 d3 0\n", "a Q0 d3 1 9 r\na Q0 d1 2 5 r\na Q0 x 3 4 r\n"


def test_trec_eval_10_rbp_is_not_ranklabs_rbp(tmp_path, capsys):
    """One relevant document at rank 1: trec_eval 10.0's rbp (p = 0.9) prints 0.1000; Ranklab's
    RBP (p = 0.8) is 0.2, under its own name."""
    lines = run_cli(capsys, tmp_path, "a 0 d1 1\n", "a Q0 d1 1 1.0 r\n", "-m", "rbp", "-m", "RBP",
                    "--trec-eval-version", "10.0")
    assert sorted(lines) == [["RBP", "all", "0.2000"], ["rbp", "all", "0.1000"]]


def test_rbp_rbp_resid_and_unj_by_hand(tmp_path, capsys):
    # top grade 2 > 1: gains scaled by 2; d1 (grade 1) at rank 2: 0.1 * 0.5 * 0.9 = 0.045;
    # p = 0.5: 0.5 * 0.5 * 0.5 = 0.125; x unjudged at rank 3 of 3: 0.9^3 + 0.1 * 0.9^2 = 0.81;
    # unj: 1 unjudged among 3 retrieved, over 5, 10, 20
    lines = run_cli(capsys, tmp_path, RBP_QRELS, RBP_RUN, "-m", "rbp", "-m", "rbp.p=0.5", "-m", "rbp_resid",
                    "-m", "unj", "--trec-eval-version", "10.0")
    assert lines == [["rbp", "all", "0.0450"], ["rbp_p=0.5", "all", "0.1250"], ["rbp_resid", "all", "0.8100"],
                     ["unj_5", "all", "0.2000"], ["unj_10", "all", "0.1000"], ["unj_20", "all", "0.0500"]]


def test_rbp_resid_is_zero_when_every_document_is_graded():
    # m_rbp_resid.c sets the value only when some retrieved document has no grade >= 0
    assert metrics.score("TrecRBPResid", ["a", "b"], {"a": 1, "b": 0}) == 0.0
    assert metrics.score("TrecRBPResid", ["a", "b"], {"a": 1, "b": -1}) == pytest.approx(0.81 + 0.1 * 0.9)


def test_all_trec_under_10_0_is_10_0s_list(tmp_path, capsys):
    """measures.c of 10.0: all_trec adds unj, rbp and rbp_resid; they print last (its table order)."""
    old = run_cli(capsys, tmp_path, RBP_QRELS, RBP_RUN, "-m", "all_trec")
    new = run_cli(capsys, tmp_path, RBP_QRELS, RBP_RUN, "-m", "all_trec", "--trec-eval-version", "10.0")
    names = [line[0] for line in new]
    assert names[len(old):] == ["rbp", "rbp_resid", "unj_5", "unj_10", "unj_20"]
    assert names[:len(old)] == [line[0] for line in old]


@pytest.mark.parametrize("engine", [metrics.evaluate, evaluate_batch])
def test_trec_eval_10_measures_agree_between_engines(engine):
    from tests.metrics.test_trec_negative_grades import random_qrels
    qrels, run = random_qrels(11, 300)
    ms = ["TrecRBP", "TrecRBP(p=0.5)", "TrecRBP(gains='0=-1,2=0.5')", "TrecRBPResid", "Unj@5", "Unj@20"]
    got = engine(qrels, run, ms).per_query
    for qid in list(got)[:60]:
        for m in ms:  # score() orders a mapping of scores as trec_eval does
            assert got[qid][m] == pytest.approx(metrics.score(m, run[qid], qrels[qid]), abs=1e-12)


def test_judged_only_on_a_query_without_a_judged_document_prints_nan(tmp_path, capsys):
    """qrels a d1 1; run a x; -J: nothing judged is left, and trec_eval's interpolated precision
    divides 0 by 0 (m_iprec_at_recall.c), so it prints -nan, and the mean is -nan too."""
    lines = run_cli(capsys, tmp_path, "a 0 d1 1\n", "a Q0 x 1 1.0 r\n", "-q", "-J",
                    "-m", "iprec_at_recall.0.0", "-m", "11pt_avg")
    assert lines == [["iprec_at_recall_0.00", "a", "-nan"], ["11pt_avg", "a", "-nan"],
                     ["iprec_at_recall_0.00", "all", "-nan"], ["11pt_avg", "all", "-nan"]]
    # without -J, Ranklab's convention for an empty ranking is 0
    assert metrics.score("11pt", [], {"d1": 1}) == 0.0
    q, r = tmp_path / "qrels", tmp_path / "run"
    assert main(["evaluate", "-J", "-m", "11pt_avg", "--format", "json", str(q), str(r)]) == 0
    assert '"11pt(empty_ranking=\'nan\')": null' in capsys.readouterr().out  # JSON has no NaN


def test_zscores_file_turns_values_into_z_scores(tmp_path, capsys):
    """trec_eval -Z (convert_zscores.c): (value - mean) / stddev by the printed name; a measure
    the file lacks is -1000000; every name gets a Z and every value four decimals, counts too
    (meas_print_single.c); means are of the z-scores (tests/metrics/cli/test_trec_zscores.py has the rest).
    Query a: num_ret 3 -> (3 - 1) / 0.5 = 4; map (1/2) / 2 = 0.25 -> (0.25 - 0.5) / 0.25 = -1;
    P_5 0.2 -> (0.2 - 0.1) / 0.1 = 1; recip_rank not in the file."""
    z = tmp_path / "z"
    z.write_text("a P_5 0.1 0.1\na map 0.5 0.25\na num_ret 1 0.5\n")
    lines = run_cli(capsys, tmp_path, RBP_QRELS, RBP_RUN, "-q", "-Z", str(z), "-m", "P.5", "-m", "map",
                    "-m", "num_ret", "-m", "recip_rank")
    values = {(n, q): v for n, q, v in lines}
    assert values[("Znum_ret", "a")] == values[("Znum_ret", "all")] == "4.0000"
    assert values[("Zmap", "a")] == values[("Zmap", "all")] == "-1.0000"
    assert values[("ZP_5", "a")] == "1.0000"
    assert values[("Zrecip_rank", "a")] == "-1000000.0000"


@pytest.mark.parametrize("text, reason", [("a P_5 0.1\n", "expected 4 columns"),
                                          ("a P_5 0.1 abc\n", "stddev 'abc' is not a number")])
def test_a_malformed_zscores_file_names_its_line(tmp_path, capsys, text, reason):
    z, q, r = tmp_path / "z", tmp_path / "q", tmp_path / "r"
    z.write_text("a map 0.5 0.1\n" + text)
    q.write_text(RBP_QRELS)
    r.write_text(RBP_RUN)
    assert main(["evaluate", "-Z", str(z), "-m", "map", str(q), str(r)]) == 1
    assert f"{z}:2: {reason}" in capsys.readouterr().err


@pytest.mark.parametrize("version, lines", [
    ("9.0.8", [["prefs_num_prefs_poss", "a", "1"], ["prefs_num_prefs_poss", "all", "1"]]),
    ("10.0", [["prefs_num_prefs_poss", "a", "1"], ["prefs_num_prefs_poss", "b", "1"],
              ["prefs_num_prefs_poss", "all", "2"]]),
])
def test_complete_with_preferences_follows_the_version(tmp_path, capsys, version, lines):
    """-R qrels_prefs -c: query b (one preference, e1 over e2) is missing from the run; 9.0.8 adds
    0 to the count (meas_avg.c), 10.0 counts its preference."""
    got = run_cli(capsys, tmp_path, "a 0 d1 1\na 0 d2 0\nb 0 e1 1\nb 0 e2 0\n", "a Q0 d1 1 2 r\na Q0 d2 2 1 r\n",
                  "-R", "qrels_prefs", "-c", "-q", "-m", "prefs_num_prefs_poss", "--trec-eval-version", version)
    assert got == lines


def test_fuzzed_zscores_files_and_rbp_parameters_fail_cleanly(tmp_path):
    """Mutations of a valid zscores file and of rbp's parameters (fixed seed): each is read or
    refused with a ValueError (a FileFormatError naming the file, or a usage error), never another
    exception."""
    import random

    from metrics.io.zscores import read_zscores
    from metrics.trec_args import MeasureArgumentError, expand
    rng = random.Random(29)
    base = b"q1 P_5 0.2 0.1\nq1 map 0.5 0\nq2 utility_2,-1,0,0 -1 2.5\n"
    alphabet = b" \t\n-+.,=e#0123456789abcnaNfiI\xff\x00"
    for _ in range(300):
        data = bytearray(base)
        for _ in range(rng.randint(1, 6)):
            data[rng.randrange(len(data))] = rng.choice(alphabet)
        try:
            table = read_zscores(bytes(data), name="z.txt")
        except ValueError as err:
            assert str(err).startswith("z.txt")
        else:
            assert all(isinstance(v, float) for pair in table.values() for v in pair)  # nan, inf: atof's
    for _ in range(200):
        text = "rbp." + "".join(rng.choice("p=0.51,2-x e") for _ in range(rng.randint(0, 10)))
        try:
            metrics.parse_many(expand(text))
        except (MeasureArgumentError, ValueError):
            pass


@pytest.mark.parametrize("engine", ["explain", "batch"])
def test_rbp_with_cwl_eval_weights(engine):
    """cwl-eval normalises RBP's weights over its 1,000 ranks: one relevant document at rank 1
    scores (1 - p) / (1 - p^1000); with a cutoff k the weights share k ranks: p = 0.5, k = 2,
    relevant at 1: 0.5 / (1 - 0.25)."""
    ranking, grades = ["a", "x"], {"a": 1, "x": 0}
    for m, want in (("RBP(p=0.99,weights='cwl')", 0.01 / (1 - 0.99 ** 1000)),
                    ("RBP(p=0.5,weights='cwl')@2", 0.5 / 0.75), ("RBP(p=0.99)", 0.01)):
        key = str(metrics.parse(m))
        got = (metrics.explain(m, ranking, grades).value if engine == "explain"
               else evaluate_batch({"q": grades}, {"q": ranking}, m).aggregate[key])
        assert got == pytest.approx(want, rel=1e-12)


@pytest.mark.parametrize("measure, theirs, found", [
    # R = 3, relevant at ranks 1 and 5: trec_eval 10.0's IPrec@0.4 is 1.0 (9.0.8: 0.4)
    ("IPrec@0.4", {"q": "1.0000"}, "recall_cut=10.0"),
    # cwl-eval's RBP, p = 0.5 over k = 2 ranks, relevant at rank 1: 0.5 / 0.75
    ("RBP(p=0.5)@2", {"q": "0.6667"}, "rbp_weights=cwl"),
])
def test_diagnose_names_the_version_and_cwl_weights(measure, theirs, found):
    from metrics.io.theirs import Theirs, number
    from metrics.teaching.diagnose import diagnose
    qrels = {"q": {"r1": 1, "r5": 1, "r9": 1}} if measure.startswith("IPrec") else {"q": {"a": 1, "x": 0}}
    run = IPREC_RUN if measure.startswith("IPrec") else {"q": {"a": 2.0, "x": 1.0}}
    d = diagnose(qrels, run, measure, theirs=Theirs({q: number(v) for q, v in theirs.items()}))
    assert d.matched and [str(c) for c in d.changes] == [found]
