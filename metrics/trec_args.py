"""How a line of measures is read: trec_eval's ``-m`` arguments (nicknames, bare families and
parameter lists) and Ranklab's notation, as ``ranklab evaluate -m`` reads them and the app's
measure box reads a line of them.

``-m official``, ``-m all_trec``, ``-m set``, ``-m qrels_jg``, ``-m prefs`` and ``-m all_prefs``
name trec_eval 9.0.8's measure sets (the prefs_* measures are in the last two only); a bare
family (``-m P``, ``-m recall``, ``-m ndcg_cut``) means its default cutoffs, as in trec_eval;
``NAME.PARAMS`` passes trec_eval's parameters: cutoffs (``P.5,10``), recall levels
(``iprec_at_recall.0.25``, ``11pt_avg.0.0,0.5,1.0``), multiples of R (``Rprec_mult.0.5``),
gain maps (``ndcg.1=3.5,2=7``), ``set_F.0.5``, ``utility.1,-1,0,0`` and ``relstring.20``.
Each becomes a measure in Ranklab's notation; ``runid`` and ``relstring`` are printed, not
computed, and come back apart.

>>> expand("P.5,10"), expand("ndcg.1=3.5,2=7"), expand("set_F.0.5")
(['P_5', 'P_10'], ["nDCG(gains='1=3.5,2=7')"], ['F1(beta=0.5)'])
>>> expand("recall")[:3], expand("relstring.5"), expand("utility.2,-1,0,0")
(['recall_5', 'recall_10', 'recall_15'], [('relstring', 5)], ['Utility(a=2,b=-1,c=0)'])
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .measures import Measure, gain_map_text, levels_text, parse, parse_many

__all__ = ["expand", "expand_labelled", "words", "Asked", "read_asked", "asked_from_line",
           "MeasureArgumentError", "NICKNAMES", "CUTOFFS"]


class MeasureArgumentError(ValueError):
    """A ``-m`` argument, or a line of them, that asks for no measure: bad usage on the command
    line (its exit code 2), a message under the app's measure box."""


CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
LEVELS = tuple(i / 10 for i in range(11))
MULTIPLES = tuple(i / 5 for i in range(1, 11))
# a bare family name means these values, as trec_eval's defaults
DEFAULTS = {
    "P": CUTOFFS, "recall": CUTOFFS, "map_cut": CUTOFFS, "ndcg_cut": CUTOFFS, "relative_P": CUTOFFS,
    "success": (1, 5, 10), "iprec_at_recall": LEVELS, "Rprec_mult": MULTIPLES,
    "P_avgjg": CUTOFFS, "Rprec_mult_avgjg": MULTIPLES, "unj": (5, 10, 20),
}
FLOAT_NAMES = {"iprec_at_recall", "Rprec_mult", "Rprec_mult_avgjg"}  # their values print as %.2f (iprec_at_recall_0.50)
GAIN_FAMILIES = {"ndcg": "nDCG", "ndcg_rel": "nDCG_rel", "Rndcg": "Rndcg", "G": "G"}

# trec_eval 10.0's all_trec (its measures.c): 9.0.8's, with unj, rbp and rbp_resid after recall
ALL_TREC_10 = ("runid num_q num_ret num_rel num_rel_ret map gm_map Rprec bpref recip_rank iprec_at_recall "
               "P relstring recall unj rbp rbp_resid infAP gm_bpref utility 11pt_avg ndcg relative_P Rprec_mult "
               "success map_cut ndcg_cut ndcg_rel Rndcg binG G set_P set_recall set_relative_P set_map set_F "
               "num_nonrel_judged_ret").split()

# trec_eval 9.0.8's nicknames (its measures.c), in its order
NICKNAMES = {
    "official": ("runid num_q num_ret num_rel num_rel_ret map gm_map Rprec bpref recip_rank "
                 "iprec_at_recall P").split(),
    "all_trec": ("runid num_q num_ret num_rel num_rel_ret map gm_map Rprec bpref recip_rank iprec_at_recall "
                 "P relstring recall infAP gm_bpref utility 11pt_avg ndcg relative_P Rprec_mult success "
                 "map_cut ndcg_cut ndcg_rel Rndcg binG G set_P set_recall set_relative_P set_map set_F "
                 "num_nonrel_judged_ret").split(),
    "set": "runid num_q num_ret num_rel num_rel_ret utility set_P set_recall set_relative_P set_map set_F".split(),
    "qrels_jg": "runid num_q map_avgjg P_avgjg Rprec_mult_avgjg".split(),
    # the preference measures (-R prefs, -R qrels_prefs): trec_eval's "prefs" and "all_prefs"
    "prefs": ("runid num_q prefs_num_prefs_poss prefs_num_prefs_ful prefs_num_prefs_ful_ret prefs_simp "
              "prefs_pair prefs_avgjg").split(),
    "all_prefs": ("runid num_q prefs_num_prefs_poss prefs_num_prefs_ful prefs_num_prefs_ful_ret prefs_simp "
                  "prefs_pair prefs_avgjg prefs_avgjg_Rnonrel prefs_simp_ret prefs_pair_ret prefs_avgjg_ret "
                  "prefs_avgjg_Rnonrel_ret prefs_simp_imp prefs_pair_imp prefs_avgjg_imp").split(),
}
MAX_VALUES = 1000  # values in one NAME.v1,v2,... list

_PARAMS = re.compile(r"^([A-Za-z_0-9]+?)\.(.+)$")
_NUMBER = re.compile(r"^-?(?:\d+\.?\d*|\.\d+)$")


def expand(text: str, version: str = "9.0.8") -> list:
    """One ``-m`` argument as measure strings (``('relstring', N)`` and ``'runid'`` as they are)."""
    return [item for item, _ in expand_labelled(text, version)]


def expand_labelled(text: str, version: str = "9.0.8") -> list[tuple]:
    """One ``-m`` argument as (measure string, the label trec_eval prints or None) pairs.

    trec_eval prints a measure given parameters (utility, set_F, 11pt_avg, relstring and the
    gain maps of ndcg, ndcg_rel, Rndcg and G) as its name, '_' and the parameters as typed:

    >>> expand_labelled("set_F.0.5"), expand_labelled("P.5")
    ([('F1(beta=0.5)', 'set_F_0.5')], [('P_5', None)])
    """
    text = text.strip()
    if text in NICKNAMES:
        out: list = []
        for name in (ALL_TREC_10 if text == "all_trec" and version != "9.0.8" else NICKNAMES[text]):
            out += expand_labelled(name, version)
        return out
    if text == "runid":
        return [("runid", None)]
    if text == "relstring":
        return [(("relstring", 10), None)]
    if text in DEFAULTS:
        return [(v, None) for v in _values(text, [str(v) for v in DEFAULTS[text]], text)]
    m = _PARAMS.match(text)
    if not m or "(" in text or "@" in text or _is_measure(text):  # iprec_at_recall_0.50 is a name
        return [(text, None)]
    name, params = m.group(1), m.group(2)
    label = f"{name}_{params}"
    if name == "rbp" and "=" in params:  # trec_eval 10.0: p=0.95 and grade=gain pairs
        pairs = [part.partition("=") for part in params.split(",")]
        p = [value.strip() for key, _, value in pairs if key.strip() == "p"]
        if p and not _NUMBER.match(p[-1]):
            raise MeasureArgumentError(f"-m {text[:60]!r}: p must be a number between 0 and 1, got {p[-1][:40]!r}")
        levels = ",".join(f"{key}={value}" for key, _, value in pairs if key.strip() != "p")
        try:
            inner = ([f"p={float(p[-1])!r}"] if p else []) + ([f"gains='{gain_map_text(levels, text)}'"] if levels else [])
        except ValueError as err:
            raise MeasureArgumentError(f"-m {text[:60]!r}: {err}") from None
        return [(f"TrecRBP({','.join(inner)})", label)]
    if name in GAIN_FAMILIES and "=" in params:
        try:
            return [(f"{GAIN_FAMILIES[name]}(gains='{gain_map_text(params, text)}')", label)]
        except ValueError as err:
            raise MeasureArgumentError(str(err)) from None
    values = [v.strip() for v in params.split(",")]
    if len(values) > MAX_VALUES:
        raise MeasureArgumentError(f"-m {text[:60]!r}: at most {MAX_VALUES} values")
    if not all(_NUMBER.match(v) for v in values):
        raise MeasureArgumentError(f"-m {text[:60]!r}: parameters must be numbers separated by commas")
    if name == "set_F":
        return [(f"F1(beta={_single(text, values)})", label)]
    if name == "11pt_avg":
        try:
            return [(f"11pt(levels='{levels_text(','.join(values), text)}')", label)]
        except ValueError as err:
            raise MeasureArgumentError(str(err)) from None
    if name == "relstring":
        length = _single(text, values)
        if not re.fullmatch(r"\d{1,6}", length):
            raise MeasureArgumentError(f"-m {text!r}: relstring's length must be an integer from 0 to 999999")
        return [(("relstring", int(length)), label)]
    if name == "utility":
        if len(values) != 4:
            raise MeasureArgumentError(f"-m {text!r}: utility takes 4 coefficients (a, b, c, d), got {len(values)}")
        if float(values[3]) != 0:
            raise MeasureArgumentError(f"-m {text!r}: utility's fourth coefficient needs the collection size "
                             "(trec_eval -N), which Ranklab does not take; use 0")
        return [(f"Utility(a={values[0]},b={values[1]},c={values[2]})", label)]
    return [(v, None) for v in _values(name.rstrip("_"), values, text)]


def words(line: str) -> list[str]:
    """A line of measures as the ``-m`` arguments a shell would pass for it unquoted: split at
    spaces, except inside parentheses or quotes (``nDCG(gains='1=3, 2=7')@10`` is one measure).
    The app's measure boxes hold such a line; each word then reads as one ``-m`` does.

    >>> words("ndcg_cut.5,10  map nDCG(gains='1=3, 2=7')@10")
    ['ndcg_cut.5,10', 'map', "nDCG(gains='1=3, 2=7')@10"]
    """
    out, cur, depth, quote = [], "", 0, ""
    for ch in line:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth = max(depth - 1, 0)
        elif ch.isspace() and depth == 0:
            if cur:
                out.append(cur)
            cur = ""
            continue
        cur += ch
    if cur:
        out.append(cur)
    return out


def _is_measure(text: str) -> bool:
    try:
        parse(text)
    except ValueError:
        return False
    return True


def _single(text: str, values: list[str]) -> str:
    if len(values) != 1:
        raise MeasureArgumentError(f"-m {text!r}: takes one value, got {len(values)}")
    return values[0]


def _values(name: str, values: list[str], text: str) -> list[str]:
    """One name per cutoff, as trec_eval names them: %3.2f for the recall levels and multiples of R;
    the integer part for the others (its str_to_long reads ``ndcg_cut.2.5`` as ``ndcg_cut_2``),
    in increasing order, a duplicate or a cutoff below 1 being an error."""
    if name in FLOAT_NAMES:
        return [f"{name}_{float(v):.2f}" for v in values]
    if name not in DEFAULTS:
        return [f"{name}_{v}" for v in values]
    leading = [re.match(r"-?\d+", v) for v in values]  # str_to_long: the leading integer, else 0
    cutoffs = sorted(int(m.group()) if m else 0 for m in leading)
    if cutoffs[0] < 1:
        raise MeasureArgumentError(f"-m {text[:60]!r}: a cutoff must be at least 1 (trec_eval reads each value's integer part)")
    if len(set(cutoffs)) < len(cutoffs):
        raise MeasureArgumentError(f"-m {text[:60]!r}: duplicate cutoffs (trec_eval reads each value's integer part)")
    return [f"{name}_{c}" for c in cutoffs]


@dataclass
class Asked:
    """What ``-m`` asked for: the measures, and trec_eval's printed-only runid and relstring."""

    measures: list[Measure]
    runid: bool = False
    relstring: int | None = None
    # str(measure) -> the label trec_eval prints for it, where that is not its trec_eval name
    # (a measure given parameters: utility_2,-1,0,0, set_F_0.5, ndcg_1=3.5,2=7 ...)
    labels: dict[str, str] = field(default_factory=dict)
    relstring_label: str = "relstring"


def read_asked(texts: list[str], *, version: str = "9.0.8", level: int | None = None,
               judged_only: bool = False) -> Asked:
    """The measures that ``-m`` arguments ``texts`` ask for, each once, runid and relstring.

    ``level`` is trec_eval's ``-l``: the binary measures count grade >= level as relevant;
    ``judged_only`` (``-J``) may leave a ranking empty, whose measures are then trec_eval's 0/0;
    ``version`` names whose conventions (and whose ``all_trec``) apply.

    >>> asked = read_asked(["map", "P.5", "runid"], level=2)
    >>> [str(m) for m in asked.measures], asked.runid
    (['AP(rel=2)', 'P(rel=2)@5'], True)
    """
    expanded: list[tuple[str, str | None]] = []
    asked = Asked([])
    for text in texts:
        for item, label in expand_labelled(text, version):
            if item == "runid":
                asked.runid = True
            elif isinstance(item, tuple):
                asked.relstring = item[1]
                asked.relstring_label = label or "relstring"
            else:
                expanded.append((item, label))
    seen: set[str] = set()
    try:
        parsed = [(m, label) for item, label in expanded for m in parse_many(item)]
    except (ValueError, TypeError) as err:  # UnknownMeasureError too: a bad -m is bad usage
        raise MeasureArgumentError(str(err)) from None
    parsed = [(m, label) for m, label in parsed if not (str(m) in seen or seen.add(str(m)))]
    if level is not None:
        if level < 1:
            raise MeasureArgumentError(f"-l must be an integer >= 1, got {level}")
        parsed = [(m.with_params(rel=level) if "rel" in m.family.params and m.family.params["rel"] is not None
                   and not any(k == "rel" for k, _ in m.params) else m, label) for m, label in parsed]
    if version != "9.0.8":
        parsed = [(m.with_params(version=version), label) for m, label in parsed]
    if judged_only:  # -J may leave a ranking empty: trec_eval's 0/0 (-nan)
        parsed = [(m.with_params(empty_ranking="nan"), label) for m, label in parsed]
    asked.measures = [m for m, _ in parsed]
    asked.labels = {str(m): label for m, label in parsed if label}
    return asked


def asked_from_line(line: str, version: str = "9.0.8") -> Asked:
    """A line of measures read as ``-m`` reads them, each word (:func:`words`) one ``-m``
    argument: what the app's measure box takes is what the command line takes.

    >>> [str(m) for m in asked_from_line("ndcg_cut.5,10 map").measures]
    ['nDCG@5', 'nDCG@10', 'AP']
    """
    given = words(line)
    if not given:
        raise MeasureArgumentError("measures: no measure given")
    return read_asked(given, version=version)
