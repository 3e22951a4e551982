"""Measures, their notation, and the registry of names.

A measure is written in ir_measures notation::

    NAME [ "(" PARAM "=" VALUE { "," PARAM "=" VALUE } ")" ] [ "@" CUTOFF ]

for example ``P@5``, ``P(rel=2)@5``, ``nDCG(dcg='exp-log2')@10`` or ``IPrec@0.5``.
The parser below is a small hand-written tokenizer (no ``eval``, no ``ast``).
trec_eval names (``P_5``, ``map_cut_100``, ``ndcg_cut_10`` ...) and ranx names
(``precision@5``, ``ndcg_burges@10`` ...) are accepted as aliases.

Every measure's defaults are trec_eval's; every other convention is a named
parameter and appears in the canonical string, which parses back to an equal
measure:

>>> m = parse("nDCG(dcg='exp-log2')@10")
>>> str(m)
"nDCG(dcg='exp-log2')@10"
>>> parse(str(m)) == m
True
>>> str(parse("ndcg_cut_10")), str(parse("P(rel=1)@5"))  # rel=1 is the default
('nDCG@10', 'P@5')
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from types import MappingProxyType

__all__ = ["Measure", "parse", "parse_many", "at_trec_eval", "FAMILIES", "NAMES", "known_names", "UnknownMeasureError"]


class UnknownMeasureError(ValueError):
    """A measure name that is not in the registry; ``.suggestion`` holds the closest valid one."""

    def __init__(self, text: str, suggestion: str | None):
        self.text = text
        self.suggestion = suggestion
        hint = f"; did you mean {suggestion!r}?" if suggestion else ""
        super().__init__(f"measure: unknown measure {text!r}{hint}")


# --------------------------------------------------------------------------- families

@dataclass(frozen=True)
class Family:
    """What one measure family accepts: its cutoff kind and its named parameters."""

    name: str
    description: str
    cutoff: str  # "none" | "optional" | "required" | "recall" (0..1) | "multiple" (> 0, of R)
    params: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))
    aggregate: str = "mean"  # how trec_eval aggregates over queries: "mean" or "sum"
    normalised: bool = True  # value always within [0, 1]


_REL = {"rel": 1}
INST_MAX_DEPTH = 100_000  # INST lays out every rank up to k
_DCG = {"dcg": "log2", "ideal": "qrels", "rel": None, "gains": None, "base": 2.0}
_CHOICES = {
    "dcg": ("log2", "exp-log2", "jarvelin"),
    "ideal": ("qrels", "ranking", "trec_eval"),
    "denominator": ("R", "retrieved", "min(k,R)"),
    "version": ("9.0.8", "10.0"),
    # an empty ranking (-J left nothing): 0, or trec_eval's 0/0 where no relevant document is needed
    "empty_ranking": ("zero", "nan"),
    "bound": ("lower", "upper", "residual"),
    "weights": ("geometric", "cwl"),  # RBP: Moffat & Zobel's, or cwl-eval's normalised over D ranks
}


def _family(name, description, cutoff, params=None, **kw):
    return Family(name, description, cutoff, MappingProxyType(dict(params or {})), **kw)


_COUNT = {"aggregate": "sum", "normalised": False}
_ALL = "; a preference with neither document retrieved fails"
_RET = "; only preferences between two retrieved documents count"
_IMP = "; preferences with neither document retrieved are left out"
_PREFS = [
    ("prefs_num_prefs_poss", "number of preferences the judgment groups state (retrieved or not)", _COUNT),
    ("prefs_num_prefs_ful", "number of preferences fulfilled: A ranked above B, or A retrieved and B not",
     _COUNT),
    ("prefs_num_prefs_ful_ret", "number of preferences fulfilled with both documents retrieved", _COUNT),
    ("prefs_simp", "preferences fulfilled / preferences stated, over every judgment group" + _ALL, {}),
    ("prefs_pair", "for each pair of documents the groups order, the share of groups the ranking agrees "
     "with, averaged over the pairs" + _ALL, {}),
    ("prefs_avgjg", "preferences fulfilled / stated within each judgment group, averaged over the groups"
     + _ALL, {}),
    ("prefs_avgjg_Rnonrel", "prefs_avgjg with each group's non-relevant (level 0) documents cut or padded "
     "to R, its number of relevant ones" + _ALL, {}),
    ("prefs_simp_ret", "prefs_simp" + _RET, {}),
    ("prefs_pair_ret", "prefs_pair" + _RET, {}),
    ("prefs_avgjg_ret", "prefs_avgjg" + _RET, {}),
    ("prefs_avgjg_Rnonrel_ret", "prefs_avgjg_Rnonrel on the retrieved documents" + _RET, {}),
    ("prefs_simp_imp", "prefs_simp" + _IMP, {}),
    ("prefs_pair_imp", "prefs_pair" + _IMP, {}),
    ("prefs_avgjg_imp", "prefs_avgjg" + _IMP, {}),
]


FAMILIES: dict[str, Family] = {
    f.name: f
    for f in [
        _family("P", "precision: relevant retrieved in the top k, divided by k", "optional", _REL),
        _family("R", "recall: relevant retrieved in the top k, divided by all relevant (R)", "optional", _REL),
        _family("F1", "harmonic mean of P@k and R@k; beta weighs P over R as trec_eval's set_F: "
                "(1 + beta) P R / (R + beta P)", "optional", {"rel": 1, "beta": 1}),
        _family("Success", "1 if any relevant document is in the top k, else 0", "optional", _REL),
        _family("RR", "reciprocal rank of the first relevant document (0 if none in the top k)", "optional", _REL),
        _family("AP", "average precision: precision at each relevant rank, summed, divided by R",
                "optional", {"rel": 1, "denominator": "R", "empty": 0}),
        _family("CG", "cumulative gain: the sum of the gains in the top k", "optional",
                {"dcg": "log2", "rel": None, "gains": None}, normalised=False),
        _family("DCG", "discounted cumulative gain: gain / discount, summed over the top k", "optional",
                _DCG, normalised=False),
        _family("IDCG", "ideal DCG: the DCG of the best possible ordering", "optional", _DCG,
                normalised=False),
        _family("nDCG", "normalised DCG: DCG divided by the ideal DCG", "optional", _DCG),
        _family("Rprec", "R-precision: precision at rank R", "none", _REL),
        _family("Bpref", "binary preference: relevant documents ranked above judged non-relevant ones",
                "none", _REL),
        _family("IPrec", "interpolated precision at recall level r (max precision at recall >= r)",
                "recall", {"rel": 1, "version": "9.0.8", "empty_ranking": "zero"}),
        _family("11pt", "11-point interpolated average precision (IPrec at recall 0.0, 0.1, ..., 1.0, "
                "or at the given levels)", "none",
                {"rel": 1, "version": "9.0.8", "levels": None, "empty_ranking": "zero"}),
        _family("NumRet", "number of documents retrieved (up to k)", "optional", {},
                aggregate="sum", normalised=False),
        _family("NumRel", "number of relevant documents in the judgments (R)", "none", _REL,
                aggregate="sum", normalised=False),
        _family("NumRelRet", "number of relevant documents retrieved (up to k)", "optional", _REL,
                aggregate="sum", normalised=False),
        _family("NumQ", "number of queries evaluated", "none", {}, aggregate="sum", normalised=False),
        # the rest of trec_eval 9.0.8's measures
        _family("GMAP", "geometric-mean AP: per query log(max(AP, 0.00001)), over queries exp of the mean",
                "none", _REL, aggregate="gmean", normalised=False),
        _family("GMBpref", "geometric-mean bpref: per query log(max(bpref, 0.00001)), over queries exp of "
                "the mean", "none", _REL, aggregate="gmean", normalised=False),
        _family("YAAP", "yet another AP (Robertson 2012): log((1 + S) / (1 + R - S)), S the sum of the "
                "precisions at the relevant ranks", "none", _REL, normalised=False),
        _family("infAP", "inferred AP (Yilmaz & Aslam 2006): AP estimated from a sampled pool, "
                "grade -1 = pooled but not judged", "none", _REL),
        _family("RprecMult", "precision at rank floor(m * R + 0.9), a multiple m of R", "multiple", _REL),
        _family("Utility", "set utility: a * relevant retrieved + b * non-relevant retrieved "
                "+ c * relevant not retrieved", "none", {"rel": 1, "a": 1, "b": -1, "c": 0},
                normalised=False),
        _family("binG", "binary G: for each relevant retrieved document 1 / log2(2 + non-relevant above), "
                "summed, divided by R", "none", _REL),
        _family("G", "G: gain / log2(2 + ideal gain so far - gain so far), summed, divided by the total "
                "ideal gain", "none", {"gains": None}, normalised=False),
        _family("Rndcg", "nDCG averaged at the ranks where the ideal gain changes (the R levels); 0 when R = 0",
                "none", {"gains": None, "rel": 1}),
        _family("nDCG_rel", "nDCG averaged over the relevant documents (unretrieved ones at the end of the "
                "list)", "none", {"gains": None}),
        _family("RelP", "relative precision: relevant retrieved in the top k, divided by min(k, R)",
                "optional", _REL),
        _family("SetAP", "set AP: precision times recall of the whole retrieved set", "none", _REL),
        _family("AP_avgjg", "AP against each judgment group's judgments (qrels_jg), averaged over the groups",
                "none", _REL),
        _family("P_avgjg", "P@k against each judgment group's judgments (qrels_jg), averaged over the groups",
                "required", _REL),
        _family("RprecMult_avgjg", "RprecMult@m against each judgment group's judgments (qrels_jg), averaged "
                "over the groups", "multiple", _REL),
        _family("NumNonRelJudgedRet", "number of judged non-relevant documents retrieved", "none", _REL,
                aggregate="sum", normalised=False),
        _family("RBP", "rank-biased precision: a user who goes on with probability p after each "
                "document; (1 - p) times the sum of p^(i-1) over relevant ranks", "optional",
                {"p": 0.8, "rel": 1, "bound": "lower", "weights": "geometric"}),
        _family("ERR", "expected reciprocal rank: a user who stops at rank i, satisfied, with "
                "probability (2^grade - 1) / 2^max_grade", "optional", {"max_grade": 4, "bound": "lower"}),
        _family("INST", "INST: a user who wants T relevant documents and goes on less the more "
                "they have found (weights over 1000 ranks, or k)", "optional",
                {"T": 1.0, "max_grade": 1, "bound": "lower"}),
        _family("alpha_nDCG", "alpha-nDCG: nDCG over subtopics, each repeat of a subtopic worth (1 - alpha) "
                "times less (judgments per subtopic)", "optional", {"alpha": 0.5, "rel": 1}),
        _family("Judged", "the share of the top k that has a judgment (any grade)", "optional", {}),
        # trec_eval 10.0's own (metrics.ranking.trec_eval_10), apart from Ranklab's RBP
        _family("TrecRBP", "trec_eval 10.0's rbp: graded RBP, (1 - p) times the sum of gain_i p^(i-1), "
                "gains scaled to [0, 1] when one lies outside", "none", {"p": 0.9, "gains": None}),
        _family("TrecRBPResid", "trec_eval 10.0's rbp_resid: p^n plus (1 - p) times the sum of p^(i-1) over "
                "the ranks without a grade >= 0 (p = 0.9; 0 when every document is graded)", "none", {}),
        _family("Unj", "trec_eval 10.0's unj_k: the share of the top k without a grade >= 0, divided by k",
                "required", {}),
        # trec_eval's preference measures (-R prefs / qrels_prefs; metrics.ranking.preferences)
        *[_family(name, text, "none", **kw) for name, text, kw in _PREFS],
    ]
}


# --------------------------------------------------------------------------- the measure

@dataclass(frozen=True)
class Measure:
    """One measure: a family, an optional cutoff, and its non-default parameters.

    Build it with :func:`parse`; ``str(measure)`` is the canonical notation.

    >>> m = parse("AP(denominator='retrieved')@3")
    >>> m.name, m.cutoff, m["denominator"], m["rel"]
    ('AP', 3, 'retrieved', 1)
    """

    name: str
    cutoff: int | float | None = None
    params: tuple[tuple[str, object], ...] = ()

    @property
    def family(self) -> Family:
        return FAMILIES[self.name]

    def __getitem__(self, key: str):
        """The value of parameter ``key`` (its default when not set)."""
        for k, v in self.params:
            if k == key:
                return v
        return self.family.params[key]

    def with_params(self, **params) -> Measure:
        """A copy with some parameters changed (those the family does not accept are ignored).

        >>> str(parse("nDCG@5").with_params(dcg="exp-log2", denominator="R"))
        "nDCG(dcg='exp-log2')@5"
        """
        merged = dict(self.params)
        merged.update({k: v for k, v in params.items() if k in self.family.params})
        return _build(self.name, self.cutoff, merged, text=str(self))

    def with_cutoff(self, cutoff: int | None) -> Measure:
        """A copy with another cutoff (``None`` for the whole ranking).

        >>> str(parse("P@5").with_cutoff(10)), str(parse("AP@5").with_cutoff(None))
        ('P@10', 'AP')
        """
        return _build(self.name, cutoff, dict(self.params), text=str(self))

    def __str__(self) -> str:
        text = self.name
        if self.params:
            text += "(" + ",".join(f"{k}={_value_repr(v)}" for k, v in self.params) + ")"
        if self.cutoff is not None:
            text += "@" + _cutoff_repr(self.cutoff)
        return text

    def __repr__(self) -> str:
        return f"Measure({str(self)!r})"

    # Jupyter's display protocol (metrics.display): notation, family, parameters
    def _repr_html_(self) -> str:
        from .display import measure_html
        return measure_html(self)

    def _repr_markdown_(self) -> str:
        from .display import measure_markdown
        return measure_markdown(self)

    @property
    def trec_name(self) -> str | None:
        """The trec_eval name of this measure, or None when trec_eval has no such measure.

        >>> parse("P@5").trec_name, parse("AP@100").trec_name, parse("RR@10").trec_name
        ('P_5', 'map_cut_100', None)
        """
        return _trec_name(self)


def _value_repr(v) -> str:
    return f"'{v}'" if isinstance(v, str) else str(v)


def _cutoff_repr(c) -> str:
    if isinstance(c, float):
        return f"{c:g}" if c not in (0.0, 1.0) else f"{c:.1f}"
    return str(c)


def _build(name: str, cutoff, params: dict, *, text: str) -> Measure:
    """Validate a family, cutoff and parameters; drop parameters equal to their defaults."""
    fam = FAMILIES[name]
    if fam.cutoff == "none" and cutoff is not None:
        raise ValueError(f"measure {text!r}: {name} takes no cutoff")
    if fam.cutoff == "required" and cutoff is None:
        raise ValueError(f"measure {text!r}: {name} needs a cutoff, e.g. {name}@10")
    if fam.cutoff == "recall":
        if cutoff is None:
            raise ValueError(f"measure {text!r}: {name} needs a recall level, e.g. {name}@0.5")
        if isinstance(cutoff, bool) or not isinstance(cutoff, int | float) or not 0.0 <= cutoff <= 1.0:
            raise ValueError(f"measure {text!r}: the recall level must be between 0 and 1, got {cutoff!r}")
        cutoff = float(cutoff)
    elif fam.cutoff == "multiple":
        if cutoff is None:
            raise ValueError(f"measure {text!r}: {name} needs a multiple of R, e.g. {name}@1.5")
        if (isinstance(cutoff, bool) or not isinstance(cutoff, int | float) or not 0.0 < cutoff <= 1000.0
                or cutoff != cutoff):
            raise ValueError(f"measure {text!r}: the multiple of R must be above 0 and at most 1000, "
                             f"got {cutoff!r}")
        cutoff = float(cutoff)
    elif cutoff is not None:
        if isinstance(cutoff, bool) or not isinstance(cutoff, int):
            raise ValueError(f"measure {text!r}: the cutoff k must be a positive integer, got {cutoff!r}")
        if cutoff < 1:
            raise ValueError(f"measure {text!r}: the cutoff k must be a positive integer, got {cutoff}")
    clean = {}
    for key, value in params.items():
        if key not in fam.params:
            accepted = ", ".join(sorted(fam.params)) or "none"
            raise ValueError(f"measure {text!r}: {name} has no parameter {key!r} (accepted: {accepted})")
        if key == "rel":
            if value is None and fam.params["rel"] is not None:  # only graded gains read every grade
                raise ValueError(f"measure {text!r}: {name} counts a document as relevant from a grade on; "
                                 f"rel must be an integer >= 1 (default {fam.params['rel']}), not None")
            if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
                raise ValueError(f"measure {text!r}: rel must be an integer >= 1, got {value!r}")
        elif key == "gains":
            value = gain_map_text(value, text)
        elif key == "levels":
            value = levels_text(value, text)
        elif key == "beta":
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1e6:
                raise ValueError(f"measure {text!r}: beta must be a number from 0 to 1000000, got {value!r}")
        elif key in ("a", "b", "c"):
            if isinstance(value, bool) or not isinstance(value, int | float) or not abs(value) <= 1e12:
                raise ValueError(f"measure {text!r}: {key} must be a number, got {value!r}")
        elif key in _NUMBERS:
            value = _number(key, value, text)
        elif key in _CHOICES and value not in _CHOICES[key]:
            choices = ", ".join(repr(c) for c in _CHOICES[key])
            raise ValueError(f"measure {text!r}: {key} must be one of {choices}, got {value!r}")
        if value != fam.params[key]:
            clean[key] = value
    if clean.get("gains") is not None and clean.get("dcg") == "exp-log2":
        raise ValueError(f"measure {text!r}: gains and dcg='exp-log2' both set the gain of a grade; choose one")
    dense = name == "INST" or (name == "ERR" and clean.get("bound", "lower") != "lower")
    if dense and cutoff is not None and cutoff > INST_MAX_DEPTH:  # every rank up to k is laid out
        raise ValueError(f"measure {text!r}: {name}'s depth k must be at most {INST_MAX_DEPTH} here, got {cutoff}")
    return Measure(name, cutoff, tuple(sorted(clean.items())))


MAX_GAIN_LEVELS = 100


def gain_map_text(value, text: str = "gains") -> str | None:
    """A gain map in its canonical form ``'1=3.5,2=7'`` (levels ascending), or None.

    A gain map gives a grade another gain than the grade itself (trec_eval's
    ``ndcg.1=3.5,2=7``); grades not named keep their own value as gain. Levels are
    integers >= 0, gains finite numbers (0 or negative allowed, as in trec_eval).

    >>> gain_map_text("2=7, 1=3.5"), gain_map_text({1: 2})
    ('1=3.5,2=7', '1=2')
    """
    if value is None:
        return None
    pairs = value.items() if isinstance(value, dict) else None
    if pairs is None:
        if not isinstance(value, str):
            raise ValueError(f"measure {text!r}: gains must be text such as '1=3.5,2=7', got {value!r}")
        pairs = []
        for part in value.split(","):
            level, eq, gain = part.partition("=")
            if not eq:
                raise ValueError(f"measure {text!r}: gains: {part.strip()!r} is not 'grade=gain'")
            pairs.append((level.strip(), gain.strip()))
    out: dict[int, float] = {}
    for level, gain in pairs:
        try:
            lv = int(level) if not isinstance(level, bool) else None
            g = float(gain) if not isinstance(gain, bool) else None
        except (TypeError, ValueError):
            lv = g = None
        if lv is None or g is None or not re.fullmatch(r"\d{1,9}", str(level).strip()) \
                or not abs(g) <= 1e12:
            raise ValueError(f"measure {text!r}: gains: {level}={gain} must be an integer grade >= 0 "
                             "and a finite gain")
        if lv in out:
            raise ValueError(f"measure {text!r}: gains: grade {lv} given twice")
        out[lv] = g
    if not out or len(out) > MAX_GAIN_LEVELS:
        raise ValueError(f"measure {text!r}: gains needs 1 to {MAX_GAIN_LEVELS} 'grade=gain' pairs")
    return ",".join(f"{lv}={g:g}" for lv, g in sorted(out.items()))


MAX_LEVELS = 101


def levels_text(value, text: str = "levels") -> str | None:
    """Recall levels in canonical form (``'0,0.5,1'``, ascending, each from 0 to 1), or None.

    >>> levels_text("1.0, 0.5,0.0"), levels_text((0.25,))
    ('0,0.5,1', '0.25')
    """
    if value is None:
        return None
    parts = value.split(",") if isinstance(value, str) else list(value) if isinstance(value, list | tuple) else None
    if parts is None:
        raise ValueError(f"measure {text!r}: levels must be text such as '0,0.5,1', got {value!r}")
    out = set()
    for part in parts:
        try:
            level = float(str(part).strip())
        except ValueError:
            level = -1.0
        if not 0.0 <= level <= 1.0:
            raise ValueError(f"measure {text!r}: levels: {str(part).strip()!r} is not a recall level from 0 to 1")
        out.add(level)
    if not out or len(out) > MAX_LEVELS:
        raise ValueError(f"measure {text!r}: levels needs 1 to {MAX_LEVELS} recall levels")
    return ",".join(f"{v:g}" for v in sorted(out))


def gain_map(value: str | None) -> dict[int, float]:
    """The canonical gain map text as a dict (empty for None).

    >>> gain_map("1=3.5,2=7")
    {1: 3.5, 2: 7.0}
    """
    if not value:
        return {}
    return {int(a): float(b) for a, _, b in (p.partition("=") for p in value.split(","))}


# numeric parameters: (low, high, low included, high included, integer only)
_NUMBERS = {"p": (0.0, 1.0, False, False, False), "T": (0.0, 1e6, False, True, False),
            "max_grade": (1, 1023, True, True, True), "alpha": (0.0, 1.0, True, True, False),
            "base": (1.0, 1e6, False, True, False), "empty": (0, 1, True, True, True)}


def _number(key: str, value, text: str):
    """A numeric parameter checked against its range (T and p as floats)."""
    low, high, low_in, high_in, integer = _NUMBERS[key]
    lo, hi = ("[" if low_in else "("), ("]" if high_in else ")")
    kind = "an integer" if integer else "a number"
    ok = (not isinstance(value, bool) and isinstance(value, int if integer else int | float)
          and (low <= value if low_in else low < value) and (value <= high if high_in else value < high))
    if not ok:
        raise ValueError(f"measure {text!r}: {key} must be {kind} in {lo}{low}, {high}{hi}, got {value!r}")
    return value if integer else float(value)


# --------------------------------------------------------------------------- tokenizer / parser

_TOKEN = re.compile(
    r"""\s*(?:
        (?P<num>-?(?:\d+\.\d*|\.\d+|\d+))
      | (?P<name>[A-Za-z_][A-Za-z0-9_\-]*)
      | '(?P<sq>[^']*)' | "(?P<dq>[^"]*)"
      | (?P<op>[()@=,])
    )""",
    re.VERBOSE,
)

# --------------------------------------------------------------------------- the table of names

@dataclass(frozen=True)
class Name:
    """One spelling the parser accepts, and what it means.

    ``text``: the spelling. As the NAME of ``NAME(params)@k`` when ``notation`` is true
    (matched case-sensitively first, then case-insensitively); otherwise a whole name matched
    exactly, where ``{k}`` stands for a cutoff and ``{r}`` for a recall level (``P_{k}``,
    ``iprec_at_recall_{r}``). ``params``: the parameters it implies. ``trec``: trec_eval's own
    spelling of the measure (:attr:`Measure.trec_name`). ``examples``: how it is shown among
    the suggestions (:func:`known_names`).

    >>> [(n.text, n.family, n.trec) for n in NAMES if n.family == "AP"]
    [('AP', 'AP', False), ('MAP', 'AP', False), ('map', 'AP', True), ('map_cut_{k}', 'AP', True)]
    >>> str(parse("map_cut_5")), parse("AP@5").trec_name
    ('AP@5', 'map_cut_5')
    """

    text: str
    family: str
    notation: bool = False
    trec: bool = False
    examples: tuple[str, ...] = ()
    params: MappingProxyType = field(default_factory=lambda: MappingProxyType({}))


def _n(text, family, *examples, notation=False, trec=False, **params) -> Name:
    return Name(text, family, notation, trec, examples, MappingProxyType(params))


def _alias(text, family, *examples, trec=False) -> Name:
    return _n(text, family, *examples, notation=True, trec=trec)


def _trec(text, family, *examples) -> Name:
    return _n(text, family, *examples, trec=True)


# Every accepted name, once: ranklab's (the family names), ir_measures', ranx's and trec_eval's.
NAMES: tuple[Name, ...] = (
    _alias("P", "P", "P@10"), _alias("precision", "P", "precision@10"), _alias("SetP", "P"),
    _trec("P_{k}", "P", "P_10"), _trec("set_P", "P", "set_P"),
    _alias("R", "R", "R@100"), _alias("recall", "R", "recall@10"), _alias("SetR", "R"),
    _trec("recall_{k}", "R", "recall_100"), _trec("set_recall", "R", "set_recall"),
    _alias("F1", "F1", "F1@10"), _alias("f1", "F1"), _alias("SetF", "F1"), _trec("set_F", "F1", "set_F"),
    _alias("Success", "Success", "Success@10"), _alias("hit_rate", "Success", "hit_rate@10"),
    _alias("Hit_rate", "Success"), _trec("success_{k}", "Success", "success_10"),
    _alias("RR", "RR", "RR", "RR@10"), _alias("MRR", "RR"), _alias("mrr", "RR", "mrr"),
    _trec("recip_rank", "RR", "recip_rank"),
    _alias("AP", "AP", "AP", "AP@100"), _alias("MAP", "AP"), _alias("map", "AP", "map", trec=True),
    _trec("map_cut_{k}", "AP", "map_cut_100"),
    _alias("CG", "CG", "CG@10"), _alias("DCG", "DCG", "DCG@10"), _alias("dcg", "DCG"),
    _alias("IDCG", "IDCG", "IDCG@10"), _alias("ideal_dcg", "IDCG", "ideal_dcg"),
    _alias("nDCG", "nDCG", "nDCG", "nDCG@10"), _alias("NDCG", "nDCG"),
    _alias("ndcg", "nDCG", "ndcg", trec=True), _trec("ndcg_cut_{k}", "nDCG", "ndcg_cut_10"),
    _n("ndcg_burges", "nDCG", dcg="exp-log2"), _n("ndcg_burges@{k}", "nDCG", "ndcg_burges@10", dcg="exp-log2"),
    _alias("Rprec", "Rprec", "Rprec", trec=True), _alias("r-precision", "Rprec", "r-precision"),
    _alias("RPrec", "Rprec"),
    _alias("Bpref", "Bpref", "Bpref"), _alias("bpref", "Bpref", "bpref", trec=True),
    _alias("IPrec", "IPrec", "IPrec@0.5"), _trec("iprec_at_recall_{r}", "IPrec", "iprec_at_recall_0.50"),
    _alias("11pt", "11pt", "11pt"), _alias("11ptAvg", "11pt"), _trec("11pt_avg", "11pt", "11pt_avg"),
    _alias("NumRet", "NumRet", "NumRet"), _trec("num_ret", "NumRet", "num_ret"),
    _alias("NumRel", "NumRel", "NumRel"), _trec("num_rel", "NumRel", "num_rel"),
    _alias("NumRelRet", "NumRelRet", "NumRelRet"), _trec("num_rel_ret", "NumRelRet", "num_rel_ret"),
    _alias("NumQ", "NumQ", "NumQ"), _trec("num_q", "NumQ", "num_q"),
    _alias("GMAP", "GMAP", "GMAP"), _trec("gm_map", "GMAP", "gm_map"),
    _alias("GMBpref", "GMBpref", "GMBpref"), _trec("gm_bpref", "GMBpref", "gm_bpref"),
    _alias("YAAP", "YAAP", "YAAP"), _trec("yaap", "YAAP", "yaap"),
    _alias("infAP", "infAP", "infAP", trec=True), _alias("InfAP", "infAP"),
    _alias("RprecMult", "RprecMult", "RprecMult@1.5"), _trec("Rprec_mult_{r}", "RprecMult", "Rprec_mult_1.50"),
    _alias("Utility", "Utility", "Utility"), _trec("utility", "Utility", "utility"),
    _alias("binG", "binG", "binG", trec=True), _alias("G", "G", "G", trec=True),
    _alias("Rndcg", "Rndcg", "Rndcg", trec=True), _alias("RnDCG", "Rndcg"),
    _alias("nDCG_rel", "nDCG_rel", "nDCG_rel"), _trec("ndcg_rel", "nDCG_rel", "ndcg_rel"),
    _alias("RelP", "RelP", "RelP@10"), _trec("relative_P_{k}", "RelP", "relative_P_10"),
    _trec("set_relative_P", "RelP", "set_relative_P"),
    _alias("SetAP", "SetAP", "SetAP"), _trec("set_map", "SetAP", "set_map"),
    _alias("AP_avgjg", "AP_avgjg", "AP_avgjg"), _trec("map_avgjg", "AP_avgjg", "map_avgjg"),
    _alias("P_avgjg", "P_avgjg", "P_avgjg@10"), _trec("P_avgjg_{k}", "P_avgjg", "P_avgjg_10"),
    _alias("RprecMult_avgjg", "RprecMult_avgjg", "RprecMult_avgjg@1"),
    _trec("Rprec_mult_avgjg_{r}", "RprecMult_avgjg", "Rprec_mult_avgjg_1.00"),
    _alias("NumNonRelJudgedRet", "NumNonRelJudgedRet", "NumNonRelJudgedRet"),
    _trec("num_nonrel_judged_ret", "NumNonRelJudgedRet", "num_nonrel_judged_ret"),
    _alias("RBP", "RBP", "RBP(p=0.8)", "RBP(p=0.8,bound='residual')"), _alias("ERR", "ERR", "ERR@10"),
    _alias("INST", "INST", "INST(T=1)"), _alias("Judged", "Judged", "Judged@10"),
    _alias("TrecRBP", "TrecRBP", "TrecRBP", "TrecRBP(p=0.95)"), _trec("rbp", "TrecRBP", "rbp"),
    _alias("TrecRBPResid", "TrecRBPResid", "TrecRBPResid"), _trec("rbp_resid", "TrecRBPResid", "rbp_resid"),
    _alias("Unj", "Unj", "Unj@10"), _trec("unj_{k}", "Unj", "unj_10"),
    _alias("alpha_nDCG", "alpha_nDCG", "alpha_nDCG@10"), _alias("alpha-nDCG", "alpha_nDCG"),
    *[_alias(name, name, name, trec=True) for name, _, _ in _PREFS],
)

# what ``{k}`` and ``{r}`` match, how they are read and written, and their value in a suggestion
_PLACEHOLDERS = {"{k}": (r"(\d+)", int, str, "10"), "{r}": (r"(\d(?:\.\d+)?)", float, "{:.2f}".format, "0.50")}


def _placeholder(text: str) -> str | None:
    return next((p for p in _PLACEHOLDERS if p in text), None)


def _stem(text: str) -> str:
    """A whole name up to its placeholder, as suggestions offer it (``P_{k}`` → ``P_``)."""
    hole = _placeholder(text)
    return text.partition(hole)[0] if hole else text


def _pattern(name: Name) -> re.Pattern:
    """A whole name as a regular expression (``P_{k}`` → ``P_(\\d+)``)."""
    hole = _placeholder(name.text)
    if hole is None:
        return re.compile(re.escape(name.text))
    before, _, after = name.text.partition(hole)
    return re.compile(re.escape(before) + _PLACEHOLDERS[hole][0] + re.escape(after))


# derived from NAMES: the NAME of the notation → family; whole names as patterns; trec_eval's names
_ALIASES = {n.text: n.family for n in NAMES if n.notation}
_ALIASES_LOWER = {k.lower(): v for k, v in _ALIASES.items()}
_WHOLE = [(_pattern(n), n) for n in NAMES if not n.notation]
_TREC_NAMES = {(n.family, _placeholder(n.text) is not None): n.text for n in NAMES if n.trec}


def _trec_name(m: Measure) -> str | None:
    # trec_eval's own parameters (gains, beta, levels, utility's coefficients, the version) keep the name
    if any(k in ("dcg", "ideal", "denominator") for k, _ in m.params) or (m.name == "nDCG" and m["rel"] is not None):
        return None
    text = _TREC_NAMES.get((m.name, m.cutoff is not None))
    hole = _placeholder(text or "")
    return text.replace(hole, _PLACEHOLDERS[hole][2](m.cutoff)) if hole else text


def known_names() -> list[str]:
    """Every name the parser accepts, as shown in suggestions (each parses).

    >>> known_names()[:4], len(known_names())
    (['P@10', 'precision@10', 'P_10', 'set_P'], 102)
    """
    return [example for n in NAMES for example in n.examples]


def _suggest(text: str) -> str | None:
    """The closest valid measure to an unknown one, or None; always a string that parses."""
    head = re.split(r"[(@]", text.strip(), maxsplit=1)[0]
    tail = text.strip()[len(head):]
    # a whole name with a placeholder is offered by its stem ("P_", "iprec_at_recall_")
    stems = {_stem(n.text): n for n in NAMES if "@" not in n.text}
    # canonical family names win over their aliases ("ndcg" → "nDCG")
    lowered = {t.lower(): (t, n) for t, n in sorted(sorted(stems.items()), key=lambda tn: tn[0] in FAMILIES)}
    match = difflib.get_close_matches(head.lower(), list(lowered), n=1, cutoff=0.5)
    if not match:
        examples = {e.lower(): e for e in known_names()}
        match = difflib.get_close_matches(text.lower(), list(examples), n=1, cutoff=0.4)
        return examples[match[0]] if match else None
    best, name = lowered[match[0]]
    hole = _placeholder(name.text)
    if hole:
        digits = re.search(r"\d+(?:\.\d+)?", text)
        candidates = [best + digits.group(0)] if digits else []
        candidates.append(best + _PLACEHOLDERS[hole][3])
    else:
        candidates = [best + tail, best]
    candidates += name.examples
    return next((c for c in candidates if _parses(c)), None)


def _parses(text: str) -> bool:
    try:
        _parse(text, suggest=False)
    except ValueError:
        return False
    return True


def parse(text: str | Measure) -> Measure:
    """Parse one measure written in ir_measures, trec_eval or ranx notation.

    Raises ``ValueError`` for a malformed or unknown measure (an unknown name is an
    :class:`UnknownMeasureError` carrying the closest valid name).

    >>> str(parse("P(rel=2)@5")), str(parse("map_cut_100")), str(parse("iprec_at_recall_0.50"))
    ('P(rel=2)@5', 'AP@100', 'IPrec@0.5')
    >>> parse("nDGC@10")
    Traceback (most recent call last):
    ...
    metrics.measures.UnknownMeasureError: measure: unknown measure 'nDGC@10'; did you mean 'nDCG@10'?
    """
    if isinstance(text, Measure):
        return text
    if not isinstance(text, str):
        raise TypeError(f"measure must be a string such as 'P@5', got {type(text).__name__}")
    stripped = text.strip()
    if not stripped:
        raise ValueError("measure: empty measure name")
    if len(stripped) > 200:
        raise ValueError(f"measure: name too long ({len(stripped)} characters)")
    return _parse(stripped)


def _parse(text: str, *, suggest: bool = True) -> Measure:
    for pattern, name in _WHOLE:
        m = pattern.fullmatch(text)
        if m:
            hole = _placeholder(name.text)
            cutoff = _PLACEHOLDERS[hole][1](m.group(1)) if hole else None
            return _build(name.family, cutoff, dict(name.params), text=text)
    return _parse_notation(text, suggest=suggest)


def _tokens(text: str):
    pos = 0
    out = []
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        m = _TOKEN.match(text, pos)
        if not m or m.end() == pos:
            raise ValueError(f"measure {text!r}: unexpected character {text[pos:].lstrip()[:1]!r} at position {pos + 1}")
        kind = m.lastgroup
        value = m.group(kind)
        if kind == "dq":
            kind = "sq"
        out.append((kind, value, m.start(kind) if kind != "sq" else m.start()))
        pos = m.end()
    return out


def _parse_notation(text: str, *, suggest: bool = True) -> Measure:
    toks = _tokens(text)
    i = 0

    def peek(kind=None, value=None):
        if i >= len(toks):
            return False
        k, v, _ = toks[i]
        return (kind is None or k == kind) and (value is None or v == value)

    def expect(kind, value=None, what=""):
        nonlocal i
        if not peek(kind, value):
            got = repr(toks[i][1]) if i < len(toks) else "the end"
            raise ValueError(f"measure {text!r}: expected {what or value or kind}, got {got}")
        i += 1
        return toks[i - 1][1]

    if peek("num") and toks[0][1] == "11" and len(toks) > 1 and toks[1][0] == "name" and toks[1][1] == "pt":
        i = 2
        name = "11pt"
    else:
        name = expect("name", what="a measure name")
    family = _ALIASES.get(name) or _ALIASES_LOWER.get(name.lower())
    if family is None:
        raise UnknownMeasureError(text, _suggest(text) if suggest else None)
    params: dict[str, object] = {}
    if peek("op", "("):
        i += 1
        while True:
            key = expect("name", what="a parameter name")
            expect("op", "=", what="'='")
            if peek("sq"):
                value: object = toks[i][1]
                i += 1
            elif peek("num"):
                raw = toks[i][1]
                i += 1
                value = float(raw) if "." in raw else int(raw)
            elif peek("name"):
                value = toks[i][1]
                i += 1
                if value == "None":
                    value = None
            else:
                got = repr(toks[i][1]) if i < len(toks) else "the end"
                raise ValueError(f"measure {text!r}: expected a value for {key}, got {got}")
            if key in params:
                raise ValueError(f"measure {text!r}: parameter {key!r} given twice")
            params[key] = value
            if peek("op", ","):
                i += 1
                continue
            expect("op", ")", what="',' or ')'")
            break
    cutoff = None
    if peek("op", "@"):
        i += 1
        raw = expect("num", what="a cutoff number after '@'")
        cutoff = float(raw) if "." in raw else int(raw)
        if FAMILIES[family].cutoff in ("recall", "multiple"):
            cutoff = float(cutoff)
    if i != len(toks):
        raise ValueError(f"measure {text!r}: unexpected {toks[i][1]!r} at position {toks[i][2] + 1}")
    return _build(family, cutoff, params, text=text)


def at_trec_eval(ms: list[Measure], trec_eval: str) -> list[Measure]:
    """The measures as computed under ``trec_eval=`` (the Python twin of ``--trec-eval-version``):
    under "10.0" every measure with a ``version`` parameter (IPrec, 11pt) takes 10.0's rule;
    under "9.0.8" (the default) each keeps its own.

    >>> [str(m) for m in at_trec_eval(parse_many("IPrec@0.4 AP"), "10.0")]
    ["IPrec(version='10.0')@0.4", 'AP']
    """
    if trec_eval == "9.0.8":
        return list(ms)
    return [m.with_params(version=trec_eval) if "version" in m.family.params else m for m in ms]


def parse_many(text: str | list) -> list[Measure]:
    """Parse a space- or comma-separated list of measures (parameters may contain commas).

    >>> [str(m) for m in parse_many("P@5 nDCG@10, map  P(rel=2)@5")]
    ['P@5', 'nDCG@10', 'AP', 'P(rel=2)@5']
    """
    if isinstance(text, list | tuple):
        out = []
        for item in text:
            out.extend(parse_many(item) if isinstance(item, str) else [parse(item)])
        if not out:
            raise ValueError("measures: no measure given")
        return out
    if not isinstance(text, str):
        raise TypeError(f"measures must be a string or a list of strings, got {type(text).__name__}")
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if depth == 0 and (ch.isspace() or ch == ","):
            if cur:
                parts.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        parts.append(cur)
    if not parts:
        raise ValueError("measures: no measure given")
    return [parse(p) for p in parts]
