r"""What ``ranklab evaluate`` prints for an :class:`~metrics.core.Evaluation`, in one place:
the result as trec_eval reports it (:func:`as_printed`, :func:`as_zscores`,
:func:`trec_summary_overrides`), the notes beside it (:func:`notes`), and the writers of each
format: trec_eval's text, CSV, JSON and a plain table (:func:`write`). The command line and the
app's Evaluate files page both call them, so a file downloaded from the page is what
``ranklab evaluate`` prints.

>>> import io, metrics
>>> ev = metrics.evaluate({"q1": {"a": 1}}, {"q1": ["b", "a"]}, "P@1 RR NumRet")
>>> out = io.StringIO(); write_trec(out, [metrics.parse(m) for m in ev.measures], ev, False, "bm25")
>>> print(out.getvalue().replace("\t", " | "), end="")  # P@1 = 0 / 1; RR = 1/2; 2 retrieved
runid                  | all | bm25
num_ret                | all | 2
recip_rank             | all | 0.5000
P_1                    | all | 0.0000
"""

from __future__ import annotations

import csv
import io
import json
import math
import re
from dataclasses import replace

from .core import aggregate, counted_as_zero
from .io.zscores import zscore
from .measures import Measure

__all__ = ["TREC_ORDER", "OUTPUT_FORMATS", "trec_name", "as_printed", "as_zscores", "trec_summary_overrides",
           "absent_queries", "notes", "write", "write_trec", "write_csv", "write_json", "write_table"]

# the order in which trec_eval prints measure families (its measure table)
TREC_ORDER = ["runid", "num_q", "num_ret", "num_rel", "num_rel_ret", "map", "gm_map", "Rprec", "bpref",
              "recip_rank", "iprec_at_recall", "P", "relstring", "recall", "infAP", "gm_bpref", "Rprec_mult",
              "utility", "11pt_avg", "binG", "G", "ndcg", "ndcg_rel", "Rndcg", "ndcg_cut", "map_cut",
              "relative_P", "success", "set_P", "set_relative_P", "set_recall", "set_map", "set_F",
              "num_nonrel_judged_ret", "prefs_num_prefs_poss", "prefs_num_prefs_ful", "prefs_num_prefs_ful_ret",
              "prefs_simp", "prefs_pair", "prefs_avgjg", "prefs_avgjg_Rnonrel", "prefs_simp_ret", "prefs_pair_ret",
              "prefs_avgjg_ret", "prefs_avgjg_Rnonrel_ret", "prefs_simp_imp", "prefs_pair_imp", "prefs_avgjg_imp",
              "map_avgjg", "P_avgjg", "Rprec_mult_avgjg", "yaap", "rbp", "rbp_resid", "unj"]


# printed in the summary only: trec_eval's num_q, and gm_map and gm_bpref (their per-query
# values are logs, which its te_print_single_meas_empty never prints)
SUMMARY_ONLY = ("NumQ", "GMAP", "GMBpref")


def trec_name(m: Measure) -> str:
    return m.trec_name or str(m)


def _order_key(m: Measure) -> tuple:
    name = m.trec_name
    if name is None:
        return (len(TREC_ORDER) + 1, 0.0)
    family = re.sub(r"_[0-9.]+$", "", name) if name not in TREC_ORDER else name
    rank = TREC_ORDER.index(family) if family in TREC_ORDER else len(TREC_ORDER)
    return (rank, float(m.cutoff) if m.cutoff is not None else 0.0)


def _value(m: Measure, v: float) -> str:
    return _count(v) if m.family.aggregate == "sum" else _decimal(v)


def _count(v: float) -> str:
    return str(int(round(v)))


def _decimal(v: float) -> str:
    """``%6.4f``, with a NaN as trec_eval's C library prints 0.0 / 0.0: ``  -nan``."""
    return "  -nan" if v != v else f"{v:6.4f}"


def _signed_decimal(v: float) -> str:
    """``%6.4f`` as glibc prints it, a NaN by its sign: ``   nan`` (as ``atof("nan")`` reads
    it), ``  -nan`` (0.0 / 0.0 on x86-64). The -Z values carry their NaN's sign.

    >>> _signed_decimal(-2.76049), _signed_decimal(math.nan), _signed_decimal(-math.nan)
    ('-2.7605', '   nan', '  -nan')
    """
    if v != v:
        return f"{'-nan' if math.copysign(1.0, v) < 0 else 'nan':>6}"
    return f"{v:6.4f}"


def _byte_order(qid: str) -> bytes:
    return qid.encode("utf-8")


def write_trec(out, ms: list[Measure], result, per_query: bool, tag: str | None, *,
               relstrings: dict[str, str] | None = None, summary: dict[str, float] | None = None,
               hidden=frozenset(), labels: dict[str, str] | None = None,
               relstring_label: str = "relstring", zscores: bool = False) -> None:
    """trec_eval's layout: ``%-22s\\t%s\\t%6.4f`` (counts as integers), queries in byte order.

    ``relstrings`` (qid -> text) are printed per query as trec_eval's ``relstring``, after P;
    ``summary`` replaces some summary values (trec_eval's ``num_rel`` under ``-c``); the queries
    in ``hidden`` get no per-query lines (9.0.8's ``-c`` never scores a query missing from the run);
    ``labels`` (canonical measure -> text) replace the names of measures given parameters, as
    trec_eval prints them (``utility_2,-1,0,0``).

    ``zscores``: the values are trec_eval's ``-Z`` z-scores, printed as its print functions print
    them under ``epi->zscore_flag`` (meas_print_single.c, meas_print_final.c): ``Z%-22s`` (a
    ``Z`` before the name padded to 22, so 23 characters), and every value ``%6.4f``, counts
    included (``Znum_ret  301  -2.7605``), a NaN by its sign (``   nan``). ``runid`` and
    ``relstring`` print as they do without -Z (m_runid.c, m_relstring.c).
    """
    labels = labels or {}
    prefix = "Z" if zscores else ""

    def name(m: Measure) -> str:
        return prefix + f"{labels.get(str(m)) or trec_name(m):<22}"

    def formatter(m: Measure):
        if zscores:
            return _signed_decimal
        return _count if m.family.aggregate == "sum" else _decimal

    ordered = sorted(ms, key=_order_key)
    if per_query:
        shown = [(f"{name(m)}\t", str(m), formatter(m)) for m in ordered if m.name not in SUMMARY_ONLY]
        if relstrings is not None:
            at = sum(1 for m in ordered if m.name not in SUMMARY_ONLY and _order_key(m) <= (TREC_ORDER.index("relstring"), 0.0))
            shown.insert(at, (f"{relstring_label:<22}\t", None, None))
        lines = []
        for qid in sorted(result.per_query, key=_byte_order):
            if qid in hidden:
                continue
            values = result.per_query[qid]
            for head, key, text in shown:
                if key is None:
                    lines.append(f"{head}{qid}\t'{relstrings.get(qid, '')}'\n")
                    continue
                lines.append(f"{head}{qid}\t{text(values[key])}\n")
        out.write("".join(lines))
    if tag is not None:
        out.write(f"{'runid':<22}\tall\t{tag}\n")
    summary = summary or {}
    for m in ordered:
        v = summary.get(str(m), result.aggregate[str(m)])
        out.write(f"{name(m)}\tall\t{formatter(m)(v)}\n")


def write_csv(out, ms, result, per_query: bool) -> None:
    buffer = io.StringIO()
    w = csv.writer(buffer, lineterminator="\n")
    w.writerow(["qid"] + [str(m) for m in ms])
    if per_query:
        for qid, values in result.per_query.items():
            w.writerow([qid] + [repr(values[str(m)]) for m in ms])
    w.writerow(["all"] + [repr(result.aggregate[str(m)]) for m in ms])
    out.write(buffer.getvalue())


def write_table(out, ms, result, per_query: bool) -> None:
    names = [str(m) for m in ms]
    rows = [(qid, [values[n] for n in names]) for qid, values in result.per_query.items()] if per_query else []
    rows.append(("all", [result.aggregate[n] for n in names]))
    cells = [[qid] + [_value(m, v).strip() for m, v in zip(ms, vals, strict=True)] for qid, vals in rows]
    header = ["query"] + names
    widths = [max(len(r[i]) for r in [header] + cells) for i in range(len(header))]
    line = "  ".join(h.ljust(w) if i == 0 else h.rjust(w) for i, (h, w) in enumerate(zip(header, widths, strict=True)))
    out.write(line.rstrip() + "\n" + "  ".join("-" * w for w in widths) + "\n")
    for r in cells:
        out.write("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(r, widths, strict=True))) + "\n")


def write_json(out, result, per_query: bool, warnings: list[str]) -> None:
    """``{"aggregate": ..., "per_query": ..., "warnings": [...]}`` (per-query values only when
    ``per_query``). One-shot ``json.dumps`` without indent for the per-query form: only that
    uses json's C encoder, ten times faster on 10,000 queries' worth of values."""
    rows = result.per_query if per_query else {}
    aggregate = result.aggregate
    if any(v != v for v in aggregate.values()) or any(v != v for r in rows.values() for v in r.values()):
        # trec_eval's 0/0 (-J, an empty ranking) is NaN, which JSON cannot hold: null
        aggregate = {k: None if v != v else v for k, v in aggregate.items()}
        rows = {q: {k: None if v != v else v for k, v in r.items()} for q, r in rows.items()}
    out.write(json.dumps({"aggregate": aggregate, "per_query": rows, "warnings": list(warnings)},
                         indent=None if per_query else 2, allow_nan=False))
    out.write("\n")


OUTPUT_FORMATS = ("trec", "json", "csv", "table")


def write(out, fmt: str, ms: list[Measure], result, per_query: bool, *, tag: str | None = None,
          notes=(), summary: dict[str, float] | None = None, hidden=frozenset(),
          labels: dict[str, str] | None = None, relstrings: dict[str, str] | None = None,
          relstring_label: str = "relstring", zscores: bool = False) -> None:
    """``result`` as ``ranklab evaluate --format fmt`` prints it (``fmt`` one of
    ``OUTPUT_FORMATS``). trec_eval's text takes the run's ``tag`` for its runid line (None: no
    such line) and the extras :func:`write_trec` describes; JSON carries the ``notes``.

    >>> import io, metrics
    >>> ev = metrics.evaluate({"q1": {"a": 1}}, {"q1": ["b", "a"]}, "RR")
    >>> out = io.StringIO(); write(out, "csv", [metrics.parse("RR")], ev, True)
    >>> print(out.getvalue(), end="")  # the first relevant document at rank 2: 1/2
    qid,RR
    q1,0.5
    all,0.5
    """
    if fmt == "trec":
        write_trec(out, ms, result, per_query, tag, relstrings=relstrings, summary=summary, hidden=hidden,
                   labels=labels, relstring_label=relstring_label, zscores=zscores)
    elif fmt == "json":
        write_json(out, result, per_query, list(notes))
    elif fmt == "csv":
        write_csv(out, ms, result, per_query)
    elif fmt == "table":
        write_table(out, ms, result, per_query)
    else:
        raise ValueError(f"format: expected one of {', '.join(OUTPUT_FORMATS)}, got {fmt!r}")


def as_printed(result, ms: list[Measure], judged, in_run, complete: bool, version: str = "9.0.8"):
    """The result as ``ranklab evaluate`` prints it, and the queries it prints no line for.

    9.0.8's ``-c`` never scores a judged query missing from the run: it counts as 0 in the
    means (:func:`~metrics.core.counted_as_zero`) and has no per-query lines; 10.0 scores it as
    an empty ranking, printed like any other. ``judged``: the judgments (or a list of judgment
    groups); ``in_run``: the run's query ids.
    """
    if not complete or version != "9.0.8":
        return result, set()
    absent = absent_queries(judged, in_run)
    return counted_as_zero(result, ms, absent), set(absent)


def as_zscores(result, ms: list[Measure], table, hidden, labels: dict[str, str]):
    """trec_eval's -Z (trec_eval.c: te_convert_to_zscore on each query it scores, before the
    measures accumulate it): every value of every query trec_eval scores becomes a z-score
    (:func:`metrics.io.zscores.zscore`), looked up by the name trec_eval prints. ``hidden``:
    the queries 9.0.8's ``-c`` never scores, which keep their 0 (10.0 scores them as empty
    rankings, and z-scores them like the others).

    The summary is then what each measure's calc_avg makes of the z-scores (meas_avg.c): the
    mean over queries; the sum for the counts (num_ret, num_rel, num_rel_ret,
    num_nonrel_judged_ret: ``te_calc_avg_meas_empty``); exp of the mean for gm_map and gm_bpref
    (``te_calc_avg_meas_s_gm``, whose per-query values are logs). num_q is the number of
    queries (``te_calc_avg_num_q`` overwrites its sum), so it stays as it is; num_rel under -c
    is the qrels' count (``te_calc_avg_num_rel``, :func:`trec_summary_overrides`).

    q1: num_ret 3, file mean 1, stddev 0.5: (3 - 1) / 0.5 = 4; q2 not in the file: -1000000;
    summed, as counts are: -999996.

    >>> from metrics.core import Evaluation
    >>> from metrics.measures import parse
    >>> ms = [parse("NumRet"), parse("NumQ")]
    >>> ev = Evaluation(["NumRet", "NumQ"], {}, {"q1": {"NumRet": 3.0, "NumQ": 1.0}, "q2": {"NumRet": 2.0, "NumQ": 1.0}})
    >>> z = as_zscores(ev, ms, {("q1", "num_ret"): (1.0, 0.5)}, set(), {})
    >>> z.per_query["q1"]["NumRet"], z.per_query["q2"]["NumRet"], z.aggregate
    (4.0, -1000000.0, {'NumRet': -999996.0, 'NumQ': 2.0})
    """
    names = {str(m): labels.get(str(m)) or trec_name(m) for m in ms if m.name != "NumQ"}
    # a query 9.0.8 never scores adds nothing to num_rel's sum of z-scores either (its R counts
    # only in the -c summary, which replaces that sum)
    unscored = {str(m): 0.0 for m in ms if m.name == "NumRel"}
    per_query = {qid: ({key: zscore(table, qid, names[key], v) if key in names else v for key, v in values.items()}
                       if qid not in hidden else values | unscored) for qid, values in result.per_query.items()}
    return replace(result, per_query=per_query, aggregate=aggregate(ms, per_query))


def trec_summary_overrides(ms: list[Measure], qrels, complete: bool) -> dict[str, float]:
    """Summary lines trec_eval prints otherwise than as the sum of its per-query lines
    (``complete``: trec_eval's -c).

    With -c, trec_eval's ``num_rel`` summary counts every grade > 0 in the whole qrels,
    ignoring -l (its own per-query lines follow -l), so ``-c -l 2`` disagrees with itself.
    """
    if not complete:
        return {}
    total = float((qrels.grade > 0).sum())
    return {str(m): total for m in ms if m.name == "NumRel" and m.trec_name == "num_rel"}


def absent_queries(qrels, in_run) -> list[str]:
    """The judged queries (of ``qrels``, or of a list of judgment groups) missing from the run."""
    judged = qrels.queries if not isinstance(qrels, list) else list(dict.fromkeys(
        q for group in qrels for q in group.queries))
    return [q for q in judged if q not in in_run]


def notes(result, qrels, in_run, complete: bool) -> list[str]:
    """The evaluation's notes, and with -c the judged queries scored 0. ``qrels``: the judgments,
    or (qrels_jg) a list of them, one per judgment group; ``in_run``: the run's query ids."""
    out = list(result.warnings)
    if complete:
        zero = absent_queries(qrels, in_run)
        if zero:
            shown = ", ".join(zero[:5]) + (", ..." if len(zero) > 5 else "")
            out.append(f"{len(zero)} quer{'y' if len(zero) == 1 else 'ies'} judged but absent from the run "
                       f"scored 0 (-c): {shown}")
    return out
