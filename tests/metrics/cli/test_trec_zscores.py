"""``ranklab evaluate -Z``, line for line with trec_eval 9.0.8 and 10.0.

Every expected line is worked out by hand from trec_eval's source, never copied from Ranklab:

- trec_eval.c (main): each scored query's values go through ``te_convert_to_zscore``, then are
  accumulated (``te_acc_meas_s``) and printed; the summary is each measure's calc_avg of the
  accumulated z-scores (meas_avg.c).
- convert_zscores.c (``te_convert_to_zscore``): (value - mean) / stddev; a query or a measure
  the file lacks gives -1000000 (MISSING_ZSCORE_VALUE); a stddev of 0 gives 0 when the value
  equals the mean, else -1000000. The same source in 9.0.8 and 10.0.
- get_zscores.c (``te_get_zscores``): mean and stddev read by C's ``atof``.
- meas_print_single.c / meas_print_final.c: ``Z%-22s\\t%s\\t%6.4f`` under -Z, counts included
  (``te_print_single_meas_s_long``); m_runid.c and m_relstring.c print without the Z.
"""

from __future__ import annotations

import math

import pytest

from metrics.cli import main
from metrics.io.zscores import MISSING, atof_prefix, read_zscores, zscore


def evaluate(capsys, tmp_path, qrels: str, run: str, zscores: str, *args, code: int = 0) -> list[str]:
    q, r, z = tmp_path / "qrels", tmp_path / "run", tmp_path / "zscores"
    q.write_text(qrels)
    r.write_text(run)
    z.write_text(zscores)
    assert main(["evaluate", *args, "-Z", str(z), str(q), str(r)]) == code
    return capsys.readouterr().out.splitlines()


# The crafted collection. q3's two documents tie in float32 (1.000000001 and 1.0): 9.0.8 ranks
# b first (ties by docid, descending), 10.0 compares doubles and ranks a first.
#   q0: z1 (rel)                         num_ret 1, num_rel 1, rel_ret 1, nonrel_judged 0
#   q1: d1 (rel), d2 (non-rel), x1 (-)   num_ret 3, num_rel 2, rel_ret 1, nonrel_judged 1,
#                                        AP 1/2, RR 1, set_F: P 1/3, R 1/2
#   q2: e1 (rel), y1 (-)                 num_ret 2, num_rel 2, rel_ret 1, nonrel_judged 0,
#                                        AP 1/2, RR 1, set_F: P 1/2, R 1/2 -> 1/2
#   q3: 9.0.8 b, a: AP 1/2, RR 1/2;  10.0 a, b: AP 1, RR 1;  both num_ret 2, num_rel 1,
#       rel_ret 1, nonrel_judged 1, set_F: P 1/2, R 1 -> 2 * 1/2 / (3/2) = 2/3
QRELS = """\
q0 0 z1 1
q1 0 d1 1
q1 0 d2 0
q1 0 d3 1
q2 0 e1 1
q2 0 e2 1
q3 0 a 1
q3 0 b 0
"""
RUN = """\
q0 Q0 z1 1 1.0 sys
q1 Q0 d1 1 3.0 sys
q1 Q0 d2 2 2.0 sys
q1 Q0 x1 3 1.0 sys
q2 Q0 e1 1 2.0 sys
q2 Q0 y1 2 1.0 sys
q3 Q0 a 1 1.000000001 sys
q3 Q0 b 2 1.0 sys
"""
# q0 is not in the file (it sorts before q1, so trec_eval's binary search stays in its table);
# q3 has no num_nonrel_judged_ret line; stddev 0 on q1 and q2 num_rel, q2 map, q3 num_rel and
# recip_rank; a nan line (q1 set_F); q3 set_F's mean is atof's "0.5" of "0.5abc", its stddev 0.25
ZSCORES = """\
q1 num_ret 2 0.5
q1 num_rel 2 0
q1 num_rel_ret 2 0.25
q1 num_nonrel_judged_ret 0 2
q1 map 0.25 0.125
q1 gm_map 0 1
q1 recip_rank 0.5 0.25
q1 set_F nan nan
q2 num_ret 3 2
q2 num_rel 1 0
q2 num_rel_ret 1 1
q2 num_nonrel_judged_ret 1 0.5
q2 map 0.5 0
q2 gm_map 0 1
q2 recip_rank 0.75 0.5
q2 set_F 0.5 0.25
q3 num_ret 2 1
q3 num_rel 1 0
q3 num_rel_ret 0.5 0.5
q3 map 0.5 0.25
q3 gm_map 0 1
q3 recip_rank 1 0
q3 set_F 0.5abc 25e-2
"""
MEASURES = ["-m", "runid", "-m", "num_q", "-m", "num_ret", "-m", "num_rel", "-m", "num_rel_ret",
            "-m", "num_nonrel_judged_ret", "-m", "map", "-m", "gm_map", "-m", "recip_rank",
            "-m", "relstring", "-m", "set_F"]

# trec_eval 9.0.8 -q -Z, by hand. Per query, in trec_eval's measure order:
#   q0: not in the file: every value -1000000.
#   q1: num_ret (3 - 2) / 0.5 = 2; num_rel stddev 0, 2 = mean: 0; num_rel_ret (1 - 2) / 0.25 = -4;
#       map (0.5 - 0.25) / 0.125 = 2; recip_rank (1 - 0.5) / 0.25 = 2; set_F nan;
#       num_nonrel_judged_ret (1 - 0) / 2 = 0.5
#   q2: num_ret (2 - 3) / 2 = -0.5; num_rel stddev 0, 2 != 1: -1000000; num_rel_ret 0;
#       map stddev 0, 0.5 = mean: 0; recip_rank (1 - 0.75) / 0.5 = 0.5; set_F 0;
#       num_nonrel_judged_ret (0 - 1) / 0.5 = -2
#   q3: num_ret 0; num_rel 0; num_rel_ret (1 - 0.5) / 0.5 = 1; map (0.5 - 0.5) / 0.25 = 0;
#       recip_rank stddev 0, 0.5 != 1: -1000000; set_F (2/3 - 0.5) / 0.25 = 0.6667;
#       num_nonrel_judged_ret not in the file: -1000000
# Summary: num_q = 4 queries; the counts are sums: num_ret -1000000 + 2 - 0.5 + 0 = -999998.5,
# num_rel -1000000 + 0 - 1000000 + 0, num_rel_ret -1000000 - 4 + 0 + 1,
# num_nonrel_judged_ret -1000000 + 0.5 - 2 - 1000000; the rest means over 4:
# map (-1000000 + 2 + 0 + 0) / 4 = -249999.5, recip_rank (-1000000 + 2 + 0.5 - 1000000) / 4,
# set_F nan; gm_map exp of the mean of log(1/2) z-scores and q0's -1000000: exp(-250000.5...) = 0.
EXPECTED_9_0_8 = """\
Znum_ret               \tq0\t-1000000.0000
Znum_rel               \tq0\t-1000000.0000
Znum_rel_ret           \tq0\t-1000000.0000
Zmap                   \tq0\t-1000000.0000
Zrecip_rank            \tq0\t-1000000.0000
relstring             \tq0\t'1'
Zset_F                 \tq0\t-1000000.0000
Znum_nonrel_judged_ret \tq0\t-1000000.0000
Znum_ret               \tq1\t2.0000
Znum_rel               \tq1\t0.0000
Znum_rel_ret           \tq1\t-4.0000
Zmap                   \tq1\t2.0000
Zrecip_rank            \tq1\t2.0000
relstring             \tq1\t'10-'
Zset_F                 \tq1\t   nan
Znum_nonrel_judged_ret \tq1\t0.5000
Znum_ret               \tq2\t-0.5000
Znum_rel               \tq2\t-1000000.0000
Znum_rel_ret           \tq2\t0.0000
Zmap                   \tq2\t0.0000
Zrecip_rank            \tq2\t0.5000
relstring             \tq2\t'1-'
Zset_F                 \tq2\t0.0000
Znum_nonrel_judged_ret \tq2\t-2.0000
Znum_ret               \tq3\t0.0000
Znum_rel               \tq3\t0.0000
Znum_rel_ret           \tq3\t1.0000
Zmap                   \tq3\t0.0000
Zrecip_rank            \tq3\t-1000000.0000
relstring             \tq3\t'01'
Zset_F                 \tq3\t0.6667
Znum_nonrel_judged_ret \tq3\t-1000000.0000
runid                 \tall\tsys
Znum_q                 \tall\t4.0000
Znum_ret               \tall\t-999998.5000
Znum_rel               \tall\t-2000000.0000
Znum_rel_ret           \tall\t-1000003.0000
Zmap                   \tall\t-249999.5000
Zgm_map                \tall\t0.0000
Zrecip_rank            \tall\t-499999.3750
Zset_F                 \tall\t   nan
Znum_nonrel_judged_ret \tall\t-2000001.5000
"""
# trec_eval 10.0: q3 ranks a first, so map (1 - 0.5) / 0.25 = 2 and recip_rank stddev 0,
# 1 = mean: 0 (the same rule: the value differs); relstring '10';
# map (-1000000 + 2 + 0 + 2) / 4 = -249999, recip_rank (-1000000 + 2 + 0.5 + 0) / 4.
EXPECTED_10_0 = EXPECTED_9_0_8.replace(
    "Zmap                   \tq3\t0.0000", "Zmap                   \tq3\t2.0000").replace(
    "Zrecip_rank            \tq3\t-1000000.0000", "Zrecip_rank            \tq3\t0.0000").replace(
    "relstring             \tq3\t'01'", "relstring             \tq3\t'10'").replace(
    "Zmap                   \tall\t-249999.5000", "Zmap                   \tall\t-249999.0000").replace(
    "Zrecip_rank            \tall\t-499999.3750", "Zrecip_rank            \tall\t-249999.3750")


@pytest.mark.parametrize("version, expected", [("9.0.8", EXPECTED_9_0_8), ("10.0", EXPECTED_10_0)])
def test_the_crafted_collection_line_for_line(tmp_path, capsys, version, expected):
    assert EXPECTED_10_0.count("\n") == EXPECTED_9_0_8.count("\n") == 42 and EXPECTED_10_0 != EXPECTED_9_0_8
    lines = evaluate(capsys, tmp_path, QRELS, RUN, ZSCORES, "-q", *MEASURES, "--trec-eval-version", version)
    assert lines == expected.splitlines()


def test_a_z_before_the_name_padded_to_22(tmp_path, capsys):
    """``Z%-22s``: the Z comes on top of the 22 columns (trec_eval's test/out.test.aqZ has
    ``Znum_nonrel_judged_ret \\t301``, 23 characters and a space), runid keeps ``%-22s``."""
    lines = evaluate(capsys, tmp_path, QRELS, RUN, ZSCORES, "-m", "num_nonrel_judged_ret", "-m", "runid")
    assert lines == ["runid" + " " * 17 + "\tall\tsys", "Znum_nonrel_judged_ret" + " " + "\tall\t-2000001.5000"]
    assert len(lines[1].split("\t")[0]) == 23


def test_counts_print_four_decimals_not_an_integer(tmp_path, capsys):
    """num_ret 3, mean 1, stddev 0.8: (3 - 1) / 0.8 = 2.5, printed 2.5000 (not %ld's 2); the
    summary is the sum over queries (te_calc_avg_meas_empty): 2.5 + (2 - 1) / 0.8 = 3.75."""
    qrels, run = "a 0 d1 1\nb 0 e1 1\n", "a Q0 d1 1 3 r\na Q0 d2 2 2 r\na Q0 d3 3 1 r\nb Q0 e1 1 2 r\nb Q0 e2 2 1 r\n"
    lines = evaluate(capsys, tmp_path, qrels, run, "a num_ret 1 0.8\nb num_ret 1 0.8\n", "-q", "-m", "num_ret")
    assert [line.split("\t") for line in lines] == [
        ["Znum_ret".ljust(23), "a", "2.5000"], ["Znum_ret".ljust(23), "b", "1.2500"],
        ["Znum_ret".ljust(23), "all", "3.7500"]]


@pytest.mark.parametrize("version, gm_map", [("9.0.8", "0.5000"), ("10.0", "0.6300")])
def test_gm_map_summary_is_exp_of_the_mean_z_score(tmp_path, capsys, version, gm_map):
    """te_calc_avg_meas_s_gm on the z-scores of log(max(AP, 1e-5)) (mean 0, stddev 1): 9.0.8,
    AP 1/2 on q1, q2, q3: exp(log(1/2)) = 0.5; 10.0, q3's AP is 1: exp((2 log(1/2) + 0) / 3)
    = 0.5 ** (2/3) = 0.62996."""
    qrels = "".join(line + "\n" for line in QRELS.splitlines() if not line.startswith("q0"))
    run = "".join(line + "\n" for line in RUN.splitlines() if not line.startswith("q0"))
    assert f"{0.5 ** (2 / 3):.4f}" == "0.6300"
    lines = evaluate(capsys, tmp_path, qrels, run, ZSCORES, "-m", "gm_map", "--trec-eval-version", version)
    assert lines == [f"Zgm_map                \tall\t{gm_map}"]


def test_stddev_zero_gives_zero_at_the_mean_and_missing_elsewhere():
    table = {("a", "P_5"): (0.4, 0.0), ("a", "map"): (0.4, -0.0)}
    assert zscore(table, "a", "P_5", 0.4) == 0.0
    assert zscore(table, "a", "P_5", 0.6) == MISSING == -1000000.0
    assert zscore(table, "a", "map", 0.5) == MISSING  # -0.0 is 0 in C's if (stddev)
    assert zscore(table, "b", "P_5", 0.4) == MISSING  # a query the file lacks
    assert zscore(table, "a", "P_10", 0.4) == MISSING  # a measure the file lacks for the query


@pytest.mark.parametrize("text, value", [
    (b"1e3", 1000.0), (b"3abc", 3.0), (b"0.5abc", 0.5), (b"25e-2", 0.25), (b"1e", 1.0), (b"1e+", 1.0),
    (b".5", 0.5), (b"5.", 5.0), (b"+2", 2.0), (b"-0x1p3", -8.0), (b"0x", 0.0), (b"0x1.8", 1.5),
    (b"inf", math.inf), (b"-Infinity", -math.inf), (b"infinit", math.inf), (b"1e999", math.inf),
    (b"1,5", 1.0),
])
def test_atof_reads_the_number_at_the_start(text, value):
    """C's strtod grammar in the C locale: the longest prefix that is a number."""
    assert atof_prefix(text) == value


@pytest.mark.parametrize("text, sign", [(b"nan", 1.0), (b"NaN", 1.0), (b"-nan", -1.0), (b"nan(12)x", 1.0),
                                        (b"+nan", 1.0)])
def test_atof_reads_nan_with_its_sign(text, sign):
    value = atof_prefix(text)
    assert value != value and math.copysign(1.0, value) == sign


@pytest.mark.parametrize("text", [b"abc", b"-", b".", b"+.", b".e1", b"x1", b"e5", b"-abc", b"na", b"in"])
def test_atof_finds_no_number(text):
    assert atof_prefix(text) is None  # atof would return 0


@pytest.mark.parametrize("text, reason", [
    ("a map 0.5 abc\n", "stddev 'abc' is not a number (trec_eval's atof would read it as 0)"),
    ("a map x1 0.1\n", "mean 'x1' is not a number"),
    ("a map 0.5\n", "expected 4 columns (qid measure mean stddev), found 3"),
    ("a map 0.5 0.1 7\n", "expected 4 columns (qid measure mean stddev), found 5"),
])
def test_a_value_atof_cannot_read_is_a_file_line_error(tmp_path, capsys, text, reason):
    z, q, r = tmp_path / "z", tmp_path / "q", tmp_path / "r"
    z.write_text("a P_5 nan inf\n" + text)
    q.write_text("a 0 d1 1\n")
    r.write_text("a Q0 d1 1 1 r\n")
    assert main(["evaluate", "-Z", str(z), "-m", "map", str(q), str(r)]) == 1
    assert f"{z}:2: {reason}" in capsys.readouterr().err


def test_nan_and_inf_lines_are_read():
    table = read_zscores(b"a set_F nan nan\na map -nan 1\na P_5 0.5 inf\nb map 1e3 0x1p1\n", name="z.txt")
    assert math.isnan(table[("a", "set_F")][0]) and math.isnan(table[("a", "set_F")][1])
    assert table[("a", "P_5")] == (0.5, math.inf)
    assert table[("b", "map")] == (1000.0, 2.0)
    assert zscore(table, "a", "P_5", 0.25) == -0.0  # (0.25 - 0.5) / inf


def test_nan_prints_by_its_sign(tmp_path, capsys):
    """glibc's %6.4f: a NaN from atof("nan") prints ``   nan``, one from atof("-nan") ``  -nan``;
    the mean over queries of a NaN is NaN (accumulated from 0: 0 + nan)."""
    lines = evaluate(capsys, tmp_path, "a 0 d1 1\n", "a Q0 d1 1 1 r\n",
                     "a map -nan 1\na recip_rank 0.5 nan\n", "-q", "-m", "map", "-m", "recip_rank")
    assert lines == ["Zmap                   \ta\t  -nan", "Zrecip_rank            \ta\t   nan",
                     "Zmap                   \tall\t  -nan", "Zrecip_rank            \tall\t   nan"]


def test_a_judged_only_nan_value_stays_minus_nan(tmp_path, capsys):
    """-J leaves query a no judged document: trec_eval's interpolated precision is 0/0, -nan on
    x86-64, and (-nan - 0.5) / 0.1 is that NaN again."""
    lines = evaluate(capsys, tmp_path, "a 0 d1 1\n", "a Q0 x 1 1.0 r\n", "a iprec_at_recall_0.00 0.5 0.1\n",
                     "-q", "-J", "-m", "iprec_at_recall.0.0")
    assert lines == ["Ziprec_at_recall_0.00  \ta\t  -nan", "Ziprec_at_recall_0.00  \tall\t  -nan"]


COMPLETE_QRELS, COMPLETE_RUN = "a 0 d1 1\nb 0 e1 1\nb 0 e2 1\n", "a Q0 d1 1 1.0 r\n"
COMPLETE_ZSCORES = "a num_ret 2 1\na num_rel 1 0\na map 0.5 0.25\nb num_ret 1 0.5\nb num_rel 2 0\nb map 0.5 0.25\n"


@pytest.mark.parametrize("version, expected", [
    # 9.0.8 never scores b: it adds 0 to the sums, counts in the mean; a: num_ret (1 - 2) / 1,
    # num_rel 1 = mean, map (1 - 0.5) / 0.25 = 2; map (2 + 0) / 2 = 1; num_rel under -c is the
    # qrels' 3 relevant documents (te_calc_avg_num_rel), not a z-score
    ("9.0.8", ["Znum_ret               \ta\t-1.0000", "Znum_rel               \ta\t0.0000",
               "Zmap                   \ta\t2.0000",
               "Znum_q                 \tall\t2.0000", "Znum_ret               \tall\t-1.0000",
               "Znum_rel               \tall\t3.0000", "Zmap                   \tall\t1.0000"]),
    # 10.0 scores b as an empty ranking and z-scores it: num_ret (0 - 1) / 0.5 = -2, num_rel
    # 2 = mean, map (0 - 0.5) / 0.25 = -2; sums -3 and 0, map (2 - 2) / 2 = 0
    ("10.0", ["Znum_ret               \ta\t-1.0000", "Znum_rel               \ta\t0.0000",
              "Zmap                   \ta\t2.0000",
              "Znum_ret               \tb\t-2.0000", "Znum_rel               \tb\t0.0000",
              "Zmap                   \tb\t-2.0000",
              "Znum_q                 \tall\t2.0000", "Znum_ret               \tall\t-3.0000",
              "Znum_rel               \tall\t3.0000", "Zmap                   \tall\t0.0000"]),
])
def test_complete_follows_the_version(tmp_path, capsys, version, expected):
    lines = evaluate(capsys, tmp_path, COMPLETE_QRELS, COMPLETE_RUN, COMPLETE_ZSCORES, "-q", "-c",
                     "-m", "num_q", "-m", "num_ret", "-m", "num_rel", "-m", "map", "--trec-eval-version", version)
    assert lines == expected


def test_other_formats_hold_the_z_scores(tmp_path, capsys):
    """JSON: the same numbers under Ranklab's names, the counts summed, NaN as null.
    num_ret: (1 - 2) / 0.5 = -2 and (1 - 0) / 1 = 1, summed -1; map: nan and (1 - 0.5) / 0.25 = 2."""
    import json

    lines = evaluate(capsys, tmp_path, "a 0 d1 1\nb 0 e1 1\n", "a Q0 d1 1 1 r\nb Q0 e1 1 1 r\n",
                     "a num_ret 2 0.5\nb num_ret 0 1\na map nan 1\nb map 0.5 0.25\n", "-q", "-m", "num_ret",
                     "-m", "map", "--format", "json")
    got = json.loads("\n".join(lines))
    assert got["per_query"] == {"a": {"NumRet": -2.0, "AP": None}, "b": {"NumRet": 1.0, "AP": 2.0}}
    assert got["aggregate"] == {"NumRet": -1.0, "AP": None}
